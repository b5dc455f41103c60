// The AIS stream at /v3/stream/ais, on the streams' shared machinery (upgrades, authentication,
// plan leases, heartbeats: src/platform/stream). An admitted stream is sent `ready`, then what its
// subscription asks for, paced and coalesced per vessel by its outbox.
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { RawData, WebSocket } from 'ws';
import type { PartSubscription } from '../../platform/bus/index.ts';
import type { App } from '../../platform/http/app.ts';
import { registerAsyncApi } from '../../platform/http/asyncapi.ts';
import { StreamEndpoint, StreamSession, type Admitted } from '../../platform/stream/index.ts';
import { RegionInterest } from '../regions.ts';
import type { Change } from '../vessels/store.ts';
import { aisStreamChannel } from './channel.ts';
import { Fanout } from './fanout.ts';
import { emptyStats, Outbox, type StreamStats } from './outbox.ts';
import {
  CLOSE, LIMITS, STREAM_PATH, encodeFrame, normaliseSubscription, readClientMessage,
  type Filter, type ReadyInfo, type SubscribeMessage,
} from './protocol.ts';

const TICK_MS = 100;
/** Frames of one burst written to a socket together, up to this many bytes (at most the soft bound). */
const CORK_BYTES = 16 * 1024;

export interface AisStreamOptions {
  app: App;
  metrics: Registry;
  publicUrl: string | undefined;
  /**
   * Subscribes to vessel changes (from every instance when the bus runs on NATS or Redis), of the
   * regions (regions.ts) the subscription is told to watch: those of the streams' boxes.
   */
  changes(handler: (change: Change) => void): Promise<PartSubscription>;
  heartbeatSec: number;
  /** Per stream: bytes waiting past which only the latest update per vessel is kept. */
  softLimitBytes: number;
  /** Per stream: bytes waiting which, sustained for `slowCloseMs`, close it with 4503. */
  hardLimitBytes: number;
  slowCloseMs: number;
}

export interface AisStream {
  readonly stats: StreamStats;
  /** Closes every stream with 1001 and stops taking new ones. */
  close(): Promise<void>;
}

class Session extends StreamSession {
  readonly #server: AisStreamServer;
  outbox: Outbox | null = null;
  /** The socket under the WebSocket, corked while the frames of one burst of changes are written. */
  readonly #socket: Duplex;
  #corked = false;

  constructor(server: AisStreamServer, endpoint: StreamEndpoint<Session>, ws: WebSocket, socket: Duplex, log: FastifyBaseLogger) {
    super(endpoint, ws, log);
    this.#server = server;
    this.#socket = socket;
    // Held frames go out as soon as the socket has sent what it had.
    socket.on('drain', () => this.outbox?.drain());
  }

  send(event: 'ready' | 'subscribed' | 'error' | 'heartbeat', data: unknown): void {
    this.ws.send(encodeFrame(event, data), { binary: false });
    this.#server.stats.frames[event]++;
  }

  protected override stopped(): void {
    if (this.outbox) this.#server.unsubscribe(this);
  }

  protected opened(admitted: Admitted): void {
    const server = this.#server;
    this.outbox = new Outbox({
      ...server.bounds,
      intervalMs: LIMITS.defaultUpdateIntervalSec * 1000,
      write: (frame) => this.#write(frame),
      buffered: () => this.ws.bufferedAmount,
      onSlow: () => this.close(CLOSE.slowConsumer, `slow consumer: over ${Math.round(server.bounds.hardLimitBytes / 1024)} KiB waited for ${server.bounds.slowCloseMs / 1000} s`),
      stats: server.stats,
    });
    const { principal, admission } = admitted;
    const ready: ReadyInfo = {
      organisation: principal.organisation_id,
      plan: admission.plan?.name ?? null,
      max_streams: admission.plan?.maxConcurrentStreams ?? null,
      limits: {
        min_update_interval_sec: LIMITS.minUpdateIntervalSec,
        default_update_interval_sec: LIMITS.defaultUpdateIntervalSec,
        max_update_interval_sec: LIMITS.maxUpdateIntervalSec,
        max_bboxes: LIMITS.maxBoxes,
        max_list_items: LIMITS.maxListItems,
      },
      heartbeat_interval_sec: this.endpoint.heartbeatSec,
    };
    this.send('ready', ready);
    this.log.info({ organisation: principal.organisation_id, key_id: principal.key_id, plan: ready.plan }, 'stream opened');
  }

  /**
   * Changes arrive in bursts (a feed's read, an upload): a stream's frames of one burst leave in
   * writes of up to CORK_BYTES, not in one system call each. Bytes waiting in the cork count as
   * unsent, so a burst is written out before it could look like a slow consumer.
   */
  #write(frame: Buffer): void {
    if (!this.#corked) {
      this.#corked = true;
      this.#socket.cork();
      process.nextTick(() => this.#uncork());
    }
    this.ws.send(frame, { binary: false });
    if (this.ws.bufferedAmount >= CORK_BYTES) this.#uncork();
  }

  #uncork(): void {
    if (!this.#corked) return;
    this.#corked = false;
    this.#socket.uncork();
  }

  protected handle(data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.protocolError({ code: 'binary_frame', message: 'Messages are JSON text frames, not binary.' });
      return;
    }
    const message = readClientMessage(data.toString());
    if ('error' in message) {
      if (message.protocol) this.protocolError(message.error);
      else this.send('error', message.error);
      return;
    }
    switch (message.type) {
      case 'subscribe':
        this.#subscribe(message.message);
        return;
      case 'auth':
        this.send('error', { code: 'already_authenticated', message: 'This stream is already authenticated; its key cannot change.' });
        return;
      case 'heartbeat':
    }
  }

  #subscribe(message: SubscribeMessage): void {
    const result = normaliseSubscription(message);
    if (!result.ok) {
      this.send('error', result.error);
      return;
    }
    // `subscribed` once the bus delivers the filter's regions: what is ingested after it arrives.
    void this.#server.regionsFor(this, result.filter).then(() => {
      if (this.state !== 'open') return;
      this.send('subscribed', result.filter);
      this.#server.fanout.subscribe(this.outbox!, result.filter);
    });
  }
}

class AisStreamServer {
  readonly fanout = new Fanout();
  readonly #regions = new RegionInterest<Session>();
  #changes: PartSubscription | null = null;
  #watching: Promise<void> = Promise.resolve();
  #watchDue = false;
  readonly stats = emptyStats();
  readonly bounds: { softLimitBytes: number; hardLimitBytes: number; slowCloseMs: number };
  readonly endpoint: StreamEndpoint<Session>;

  constructor(options: AisStreamOptions) {
    this.bounds = {
      softLimitBytes: options.softLimitBytes,
      hardLimitBytes: Math.max(options.softLimitBytes, options.hardLimitBytes),
      slowCloseMs: options.slowCloseMs,
    };
    this.endpoint = new StreamEndpoint<Session>({
      app: options.app,
      path: STREAM_PATH,
      heartbeatSec: options.heartbeatSec,
      session: (endpoint, ws, socket, request) => new Session(this, endpoint, ws, socket, request.log),
    });
  }

  async start(options: AisStreamOptions): Promise<void> {
    this.#changes = await options.changes((change) => this.fanout.publish(change));
  }

  /** Resolves once the bus delivers the regions the filter needs (at once when they are taken already). */
  regionsFor(session: Session, filter: Filter): Promise<void> {
    if (this.#regions.set(session, filter.bboxes)) this.#watch(session.log);
    return this.#watching;
  }

  unsubscribe(session: Session): void {
    this.fanout.unsubscribe(session.outbox!);
    if (this.#regions.delete(session)) this.#watch(session.log);
  }

  /** The bus is told the regions once per burst of subscriptions, the latest ones. */
  #watch(log: FastifyBaseLogger): void {
    if (this.#watchDue) return;
    this.#watchDue = true;
    this.#watching = this.#watching.then(async () => {
      this.#watchDue = false;
      await this.#changes?.watch(this.#regions.parts());
    }).catch((error: unknown) => log.error({ err: error }, 'the regions of the AIS streams could not be changed on the bus'));
  }

  async stop(): Promise<void> {
    await this.#watching;
    await this.#changes?.close();
  }

  tick(): void {
    const now = this.fanout.now();
    for (const session of this.endpoint.sessions) if (session.state === 'open') session.outbox!.tick(now);
  }
}

function registerMetrics(registry: Registry, server: AisStreamServer): void {
  const endpoint = server.endpoint;
  const registers = [registry];
  // Read from the server's own counts when scraped: delivery paths only add to plain numbers.
  new Gauge({
    name: 'lamis_stream_connections', help: 'AIS stream connections, by state (authenticating: waiting for the auth message or its check)',
    labelNames: ['state'], registers,
    collect() {
      let open = 0;
      for (const session of endpoint.sessions) if (session.state === 'open') open++;
      this.set({ state: 'open' }, open);
      this.set({ state: 'authenticating' }, endpoint.sessions.size - open);
    },
  });
  new Counter({
    name: 'lamis_stream_frames_total', help: 'Frames written to AIS streams, by event', labelNames: ['event'], registers,
    collect() {
      this.reset();
      for (const [event, count] of Object.entries(server.stats.frames)) this.inc({ event }, count);
    },
  });
  new Counter({
    name: 'lamis_stream_closes_total', help: 'AIS streams closed, by close code (1006: the connection dropped)', labelNames: ['code'], registers,
    collect() {
      this.reset();
      for (const [code, count] of endpoint.closes) this.inc({ code: String(code) }, count);
    },
  });
  new Counter({
    name: 'lamis_stream_refusals_total', help: 'AIS stream connections refused at the upgrade or the auth message, by reason', labelNames: ['reason'], registers,
    collect() {
      this.reset();
      for (const [reason, count] of endpoint.refusals) this.inc({ reason }, count);
    },
  });
  new Counter({
    name: 'lamis_stream_updates_coalesced_total', help: 'Positions replaced by a newer one of the same vessel within its update interval', registers,
    collect() {
      this.reset();
      this.inc(server.stats.coalesced);
    },
  });
  new Counter({
    name: 'lamis_stream_updates_dropped_total', help: 'Updates replaced by a newer one of the same vessel while held for a slow consumer', registers,
    collect() {
      this.reset();
      this.inc(server.stats.dropped);
    },
  });
  const waiting = () => [...endpoint.sessions].map((session) => session.outbox?.waitingBytes ?? session.ws.bufferedAmount);
  new Gauge({
    name: 'lamis_stream_waiting_bytes', help: 'Bytes waiting to be sent on AIS streams: unsent in their sockets plus held for slow consumers', registers,
    collect() {
      this.set(waiting().reduce((sum, bytes) => sum + bytes, 0));
    },
  });
  new Gauge({
    name: 'lamis_stream_waiting_bytes_max', help: 'The most bytes waiting on one AIS stream (a slow consumer shows here)', registers,
    collect() {
      this.set(Math.max(0, ...waiting()));
    },
  });
}

/** Serves the stream (and describes it in the AsyncAPI document) on the app; call before it listens. */
export async function startAisStream(options: AisStreamOptions): Promise<AisStream> {
  const server = new AisStreamServer(options);
  registerAsyncApi(options.app, { publicUrl: options.publicUrl, channels: [aisStreamChannel(options.heartbeatSec)] });
  registerMetrics(options.metrics, server);
  await server.start(options);
  const ticker = setInterval(() => server.tick(), TICK_MS).unref();
  return {
    stats: server.stats,
    async close() {
      clearInterval(ticker);
      await server.endpoint.close();
      await server.stop();
    },
  };
}
