// The AIS stream at /v3/stream/ais. Upgrade requests go through the app's router like any request,
// so a refusal before the upgrade (bad key, plan, cap) is a problem document with a request id.
// A client authenticates with `Authorization: Bearer` on the upgrade, or with a first `auth`
// message within 5 s; either way the organisation's plan must include streams and have a slot left.
// An admitted stream is sent `ready`, then what its subscription asks for, paced and coalesced per
// vessel by its outbox. Heartbeats go both ways: a `heartbeat` frame and a ping every interval; a
// stream silent for two intervals is closed. Keys are never logged, never echoed, never in a URL.
import type { IncomingMessage } from 'node:http';
import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { App } from '../../platform/http/app.ts';
import type { StreamAdmission } from '../../platform/http/access.ts';
import { ASYNCAPI_PATH, registerAsyncApi } from '../../platform/http/asyncapi.ts';
import { bearerSecret, CHALLENGE, unauthorized, type KeyRejection, type Principal } from '../../platform/http/auth.ts';
import { ProblemError, Problems, problemType } from '../../platform/http/problems.ts';
import { newId } from '../../platform/ids.ts';
import { PLANS } from '../../../common/plans.ts';
import type { Change } from '../vessels/store.ts';
import { aisStreamChannel } from './channel.ts';
import { Fanout } from './fanout.ts';
import { emptyStats, Outbox, type StreamStats } from './outbox.ts';
import {
  AUTH_TIMEOUT_MS, CLOSE, LIMITS, MAX_CLIENT_MESSAGE_BYTES, MAX_PROTOCOL_ERRORS, STREAM_PATH,
  encodeFrame, normaliseSubscription, readClientMessage,
  type AuthMessage, type CloseCode, type ReadyInfo, type StreamError, type SubscribeMessage,
} from './protocol.ts';

export const upgradeRequired = problemType({
  code: 'upgrade_required',
  status: 426,
  title: 'A WebSocket is needed',
  description: `${STREAM_PATH} is a WebSocket stream: open it with a WebSocket client (\`Upgrade: websocket\`). ${ASYNCAPI_PATH} describes it.`,
});

export const streamNotInPlan = problemType({
  code: 'stream_not_in_plan',
  status: 403,
  title: 'The plan has no streams',
  description: "The organisation's plan (Starter) includes the REST API only; Pro and Enterprise include the WebSocket streams.",
});

export const streamLimitReached = problemType({
  code: 'stream_limit_reached',
  status: 429,
  title: 'Too many streams open',
  description: `The organisation already holds as many streams as its plan allows at once (Pro: ${PLANS.pro.maxConcurrentStreams}, counted across every instance); close one, or retry after \`Retry-After\` seconds.`,
});

/** What a refused key hears: the problem's `detail`, and after the reason word the close frame's reason (at most 123 bytes). */
const KEY_REFUSALS: Record<KeyRejection | 'missing' | 'bad_header', string> = {
  missing: 'send Authorization: Bearer <key> on the upgrade, or {"type":"auth","api_key":"<key>"} first',
  bad_header: 'the Authorization header must read Bearer <key>',
  malformed: 'the API key is malformed: its checksum does not match',
  unknown: 'the API key is not recognised',
  expired: 'the API key has expired',
  revoked: 'the API key has been revoked',
};

const STREAM_CAP_RETRY_SEC = 60;
const TICK_MS = 100;
/** On shutdown, how long clients get to answer the close before their sockets are cut. */
const SHUTDOWN_GRACE_MS = 2_000;
/** Frames of one burst written to a socket together, up to this many bytes (at most the soft bound). */
const CORK_BYTES = 16 * 1024;
/** How long a closed stream's client gets to answer the close frame (a stalled one never does). */
const CLOSE_GRACE_MS = 5_000;

export interface AisStreamOptions {
  app: App;
  metrics: Registry;
  publicUrl: string | undefined;
  /** Subscribes to every vessel change (from every instance when the bus runs on Redis). */
  changes(handler: (change: Change) => void): Promise<() => Promise<void>>;
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

function keyRefused(reason: keyof typeof KEY_REFUSALS): ProblemError {
  const detail = KEY_REFUSALS[reason];
  return new ProblemError(unauthorized, `${detail[0]!.toUpperCase()}${detail.slice(1)}.`, {
    headers: CHALLENGE,
    extra: { reason },
  });
}

function entitlementRefused(admission: Extract<StreamAdmission, { ok: false }>): ProblemError {
  if (admission.reason === 'plan') {
    return new ProblemError(streamNotInPlan, `The ${admission.plan.title} plan has no streams; Pro and Enterprise have them.`);
  }
  return new ProblemError(streamLimitReached,
    `The organisation already holds its ${admission.plan.maxConcurrentStreams} streams (${admission.plan.title} plan); close one first.`,
    { headers: { 'Retry-After': String(STREAM_CAP_RETRY_SEC) }, extra: { max_streams: admission.plan.maxConcurrentStreams } });
}

interface Admitted {
  principal: Principal;
  admission: Extract<StreamAdmission, { ok: true }>;
}

class Session {
  readonly id = newId('str');
  readonly ws: WebSocket;
  readonly log: FastifyBaseLogger;
  readonly #server: StreamServer;
  state: 'authenticating' | 'admitting' | 'open' | 'closing' | 'closed' = 'authenticating';
  /** When anything (a message, a pong) was last heard from the client. */
  lastHeard = Date.now();
  readonly openedAt = Date.now();
  outbox: Outbox | null = null;
  admitted: Admitted | null = null;
  /** The code this side closed with. */
  closeCode: number | null = null;
  #protocolErrors = 0;
  #authTimer: NodeJS.Timeout | null = null;
  #closeTimer: NodeJS.Timeout | null = null;
  /** The socket under the WebSocket, corked while the frames of one burst of changes are written. */
  readonly #socket: Duplex;
  #corked = false;
  /** Messages that arrived while the key was being checked. */
  #queued: [RawData, boolean][] = [];

  constructor(server: StreamServer, ws: WebSocket, socket: Duplex, log: FastifyBaseLogger) {
    this.#server = server;
    this.ws = ws;
    this.#socket = socket;
    this.log = log.child({ stream: this.id });
  }

  start(admitted: Admitted | null): void {
    this.ws.on('message', (data, isBinary) => this.#received(data, isBinary));
    this.ws.on('pong', () => (this.lastHeard = Date.now()));
    this.ws.on('error', (error) => this.log.debug({ err: error }, 'stream socket error'));
    this.ws.on('close', (code) => this.#server.ended(this, code));
    if (admitted) {
      this.#open(admitted);
      return;
    }
    this.#authTimer = setTimeout(() => this.close(CLOSE.timeout, `auth timeout: no auth message within ${AUTH_TIMEOUT_MS / 1000} s`), AUTH_TIMEOUT_MS);
  }

  send(event: 'ready' | 'subscribed' | 'error' | 'heartbeat', data: unknown): void {
    this.ws.send(encodeFrame(event, data), { binary: false });
    this.#server.stats.frames[event]++;
  }

  close(code: CloseCode, reason: string): void {
    if (this.state === 'closing' || this.state === 'closed') return;
    this.state = 'closing';
    this.closeCode = code.code;
    this.stopTimers();
    if (this.outbox) this.#server.fanout.unsubscribe(this.outbox);
    // A close frame's reason holds at most 123 bytes (the reasons here are ASCII).
    this.ws.close(code.code, reason.length <= 123 ? reason : `${reason.slice(0, 120)}...`);
    this.#closeTimer = setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS);
  }

  stopTimers(): void {
    if (this.#authTimer) clearTimeout(this.#authTimer);
    this.#authTimer = null;
  }

  /** The socket is gone: nothing more to wait for. */
  ended(): void {
    this.stopTimers();
    if (this.#closeTimer) clearTimeout(this.#closeTimer);
    this.state = 'closed';
  }

  #received(data: RawData, isBinary: boolean): void {
    this.lastHeard = Date.now();
    switch (this.state) {
      case 'authenticating':
        this.#authenticateWith(data, isBinary);
        return;
      case 'admitting':
        // Clients often send their subscription right after the key: it is handled once admitted.
        if (this.#queued.length < 16) this.#queued.push([data, isBinary]);
        else this.#protocolError({ code: 'invalid_message', message: 'Wait for ready before sending more.' });
        return;
      case 'open':
        this.#handle(data, isBinary);
        return;
      default:
    }
  }

  #authenticateWith(data: RawData, isBinary: boolean): void {
    const message = isBinary ? null : readClientMessage(data.toString());
    if (!message || !('type' in message) || message.type !== 'auth') {
      this.close(CLOSE.unauthorized, `missing: ${KEY_REFUSALS.missing}`);
      return;
    }
    this.stopTimers();
    this.state = 'admitting';
    void this.#admit(message.message);
  }

  async #admit(message: AuthMessage): Promise<void> {
    try {
      const check = await this.#server.access.verifyKey(message.api_key);
      if (this.state !== 'admitting') return;
      if (!check.ok) {
        this.#server.refused(check.reason);
        this.close(CLOSE.unauthorized, `${check.reason}: ${KEY_REFUSALS[check.reason]}`);
        return;
      }
      const admission = await this.#server.access.admitStream(check.principal);
      if (!admission.ok) {
        this.#server.refused(admission.reason);
        const refusal = entitlementRefused(admission);
        this.close(admission.reason === 'plan' ? CLOSE.planHasNoStreams : CLOSE.streamCap, refusal.detail);
        return;
      }
      if (this.state !== 'admitting') {
        this.#server.release(admission, this.log);
        return;
      }
      this.#open({ principal: check.principal, admission });
    } catch (error) {
      this.log.error({ err: error }, 'stream admission failed');
      this.close(CLOSE.internal, 'internal error: the key or plan could not be checked; retry');
    }
  }

  #open(admitted: Admitted): void {
    this.admitted = admitted;
    this.state = 'open';
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
      heartbeat_interval_sec: server.heartbeatSec,
    };
    this.send('ready', ready);
    this.log.info({ organisation: principal.organisation_id, key_id: principal.key_id, plan: ready.plan }, 'stream opened');
    const queued = this.#queued;
    this.#queued = [];
    for (const [data, isBinary] of queued) this.#handle(data, isBinary);
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

  #handle(data: RawData, isBinary: boolean): void {
    if (this.state !== 'open') return;
    if (isBinary) {
      this.#protocolError({ code: 'binary_frame', message: 'Messages are JSON text frames, not binary.' });
      return;
    }
    const message = readClientMessage(data.toString());
    if ('error' in message) {
      if (message.protocol) this.#protocolError(message.error);
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
    this.send('subscribed', result.filter);
    this.#server.fanout.subscribe(this.outbox!, result.filter);
  }

  #protocolError(error: StreamError): void {
    this.send('error', error);
    if (++this.#protocolErrors >= MAX_PROTOCOL_ERRORS) this.close(CLOSE.protocol, `protocol error: ${MAX_PROTOCOL_ERRORS} messages that were not valid`);
  }
}

class StreamServer {
  readonly app: App;
  readonly access: App['access'];
  readonly fanout = new Fanout();
  readonly stats = emptyStats();
  readonly sessions = new Set<Session>();
  readonly heartbeatSec: number;
  readonly bounds: { softLimitBytes: number; hardLimitBytes: number; slowCloseMs: number };
  /** Closes by code, and refusals before or at admission by reason. */
  readonly closes = new Map<number, number>();
  readonly refusals = new Map<string, number>();
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, clientTracking: false });
  readonly #upgrades = new WeakMap<IncomingMessage, { socket: Duplex; head: Buffer }>();
  readonly #releases = new Set<Promise<void>>();
  #closing = false;

  constructor(options: AisStreamOptions) {
    this.app = options.app;
    this.access = options.app.access;
    this.heartbeatSec = options.heartbeatSec;
    this.bounds = {
      softLimitBytes: options.softLimitBytes,
      hardLimitBytes: Math.max(options.softLimitBytes, options.hardLimitBytes),
      slowCloseMs: options.slowCloseMs,
    };
  }

  /** Every upgrade request goes through the router; answers other than an upgrade end the connection. */
  readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    this.#upgrades.set(request, { socket, head });
    const response = new ServerResponse(request);
    response.assignSocket(socket as Socket);
    response.once('finish', () => socket.end());
    this.app.routing(request, response);
  };

  register(): void {
    this.app.get(STREAM_PATH, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const upgrade = this.#upgrades.get(request.raw);
      if (!upgrade) {
        throw new ProblemError(upgradeRequired, `Open ${STREAM_PATH} with a WebSocket client; ${ASYNCAPI_PATH} describes the stream.`, {
          headers: { Upgrade: 'websocket', Connection: 'Upgrade' },
        });
      }
      if (this.#closing) throw new ProblemError(Problems.unavailable, 'The server is shutting down; connect again.', { headers: { 'Retry-After': '1' } });
      const admitted = request.headers.authorization === undefined ? null : await this.#admitByHeader(request.headers.authorization);
      reply.hijack();
      const { socket, head } = upgrade;
      let upgraded = false;
      const unused = () => {
        if (!upgraded && admitted) this.release(admitted.admission, request.log);
      };
      // The client may have gone while its key was checked; then the slot goes back at once.
      if (socket.destroyed) unused();
      else socket.once('close', unused);
      this.#wss.handleUpgrade(request.raw, socket, head, (ws) => {
        upgraded = true;
        // The HTTP exchange ended with the 101: whatever waits for the response to end (in-flight
        // counts) is told so now, not when the stream closes.
        reply.raw.detachSocket(socket as Socket);
        reply.raw.emit('close');
        if (this.#closing) {
          if (admitted) this.release(admitted.admission, request.log);
          ws.close(CLOSE.shuttingDown.code, 'server shutting down');
          return;
        }
        const session = new Session(this, ws, socket, request.log);
        // The socket under the WebSocket: held frames go out as soon as it has sent what it had.
        socket.on('drain', () => session.outbox?.drain());
        this.sessions.add(session);
        session.start(admitted);
      });
    });
  }

  async #admitByHeader(header: string): Promise<Admitted> {
    const secret = bearerSecret(header);
    if (secret === null) {
      this.refused('bad_header');
      throw keyRefused('bad_header');
    }
    const check = await this.access.verifyKey(secret);
    if (!check.ok) {
      this.refused(check.reason);
      throw keyRefused(check.reason);
    }
    const admission = await this.access.admitStream(check.principal);
    if (!admission.ok) {
      this.refused(admission.reason);
      throw entitlementRefused(admission);
    }
    return { principal: check.principal, admission };
  }

  refused(reason: string): void {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
  }

  release(admission: Extract<StreamAdmission, { ok: true }>, log: FastifyBaseLogger): void {
    const releasing = admission.release().catch((error: unknown) => log.warn({ err: error }, 'stream slot not released; its lease runs out instead'));
    this.#releases.add(releasing);
    void releasing.finally(() => this.#releases.delete(releasing));
  }

  /** The socket closed, whoever closed it. */
  ended(session: Session, code: number): void {
    if (session.state === 'closed') return;
    session.ended();
    this.sessions.delete(session);
    if (session.outbox) this.fanout.unsubscribe(session.outbox);
    if (session.admitted) this.release(session.admitted.admission, session.log);
    const counted = session.closeCode ?? code;
    this.closes.set(counted, (this.closes.get(counted) ?? 0) + 1);
    session.log.info({ code: counted, seconds: Math.round((Date.now() - session.openedAt) / 1000) }, 'stream closed');
  }

  heartbeat(): void {
    const now = Date.now();
    const silentMs = 2 * this.heartbeatSec * 1000;
    for (const session of this.sessions) {
      if (session.state !== 'open') continue;
      if (now - session.lastHeard > silentMs) {
        session.close(CLOSE.timeout, `idle: nothing heard for ${Math.round((now - session.lastHeard) / 1000)} s`);
        continue;
      }
      session.ws.ping();
      session.send('heartbeat', { time: new Date(now).toISOString() });
    }
  }

  tick(): void {
    const now = this.fanout.now();
    for (const session of this.sessions) if (session.state === 'open') session.outbox!.tick(now);
  }

  async close(): Promise<void> {
    this.#closing = true;
    for (const session of this.sessions) session.close(CLOSE.shuttingDown, 'server shutting down');
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    while (this.sessions.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const session of this.sessions) session.ws.terminate();
    while (this.sessions.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all(this.#releases);
    this.#wss.close();
  }
}

function registerMetrics(registry: Registry, server: StreamServer): void {
  const registers = [registry];
  // Read from the server's own counts when scraped: delivery paths only add to plain numbers.
  new Gauge({
    name: 'lamis_stream_connections', help: 'AIS stream connections, by state (authenticating: waiting for the auth message or its check)',
    labelNames: ['state'], registers,
    collect() {
      let open = 0;
      for (const session of server.sessions) if (session.state === 'open') open++;
      this.set({ state: 'open' }, open);
      this.set({ state: 'authenticating' }, server.sessions.size - open);
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
      for (const [code, count] of server.closes) this.inc({ code: String(code) }, count);
    },
  });
  new Counter({
    name: 'lamis_stream_refusals_total', help: 'AIS stream connections refused at the upgrade or the auth message, by reason', labelNames: ['reason'], registers,
    collect() {
      this.reset();
      for (const [reason, count] of server.refusals) this.inc({ reason }, count);
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
  const waiting = () => [...server.sessions].map((session) => session.outbox?.waitingBytes ?? session.ws.bufferedAmount);
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

/** Serves the stream (and the AsyncAPI document describing it) on the app; call before it listens. */
export async function startAisStream(options: AisStreamOptions): Promise<AisStream> {
  const server = new StreamServer(options);
  server.register();
  registerAsyncApi(options.app, { publicUrl: options.publicUrl, channels: [aisStreamChannel(options.heartbeatSec)] });
  registerMetrics(options.metrics, server);
  options.app.server.on('upgrade', server.onUpgrade);
  const unsubscribe = await options.changes((change) => server.fanout.publish(change));
  const ticker = setInterval(() => server.tick(), TICK_MS).unref();
  const heartbeat = setInterval(() => server.heartbeat(), options.heartbeatSec * 1000).unref();
  return {
    stats: server.stats,
    async close() {
      options.app.server.off('upgrade', server.onUpgrade);
      clearInterval(ticker);
      clearInterval(heartbeat);
      await unsubscribe();
      await server.close();
    },
  };
}
