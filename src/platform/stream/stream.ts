// The machinery every WebSocket stream shares. Upgrade requests go through the app's router like any
// request, so a refusal before the upgrade (bad key, plan, cap, overload) is a problem document with
// a request id. A client authenticates with `Authorization: Bearer` on the upgrade, or with a first
// `auth` message within 5 s; either way the organisation's plan must include streams and have a slot
// left (a lease held until the stream ends), and a development key is refused while the instance is
// overloaded (and its open streams are closed once the overload lasts). Heartbeats go both ways: a
// `heartbeat` frame and a ping every interval; a stream silent for two intervals is closed. Keys are
// never logged, echoed or in a URL. A stream brings its session class (what it sends once admitted,
// how it reads messages), run here or in another process that an upgrade is handed over to once
// checked (the session's host then asks this side for keys and slots).
import type { IncomingMessage } from 'node:http';
import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { StreamAdmission } from '../http/access.ts';
import type { App } from '../http/app.ts';
import { ASYNCAPI_PATH } from '../http/asyncapi.ts';
import { bearerSecret, CHALLENGE, unauthorized, type KeyRejection, type Principal } from '../http/auth.ts';
import { problemDocument, ProblemError, Problems } from '../http/problems.ts';
import { newId } from '../ids.ts';
import { AUTH_TIMEOUT_MS, MAX_CLIENT_MESSAGE_BYTES, MAX_PROTOCOL_ERRORS, readAuthMessage, STREAM_CLOSE, type AuthMessage, type CloseCode } from './protocol.ts';
import { streamLimitReached, streamNotInPlan, upgradeRequired } from './stream.problems.ts';

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
/** On shutdown, how long clients get to answer the close before their sockets are cut. */
const SHUTDOWN_GRACE_MS = 2_000;
/** How long a closed stream's client gets to answer the close frame (a stalled one never does). */
const CLOSE_GRACE_MS = 5_000;
/** How often open streams are checked against a lasting overload. */
const SHED_CHECK_MS = 1_000;

function keyRefused(reason: keyof typeof KEY_REFUSALS): ProblemError {
  const detail = KEY_REFUSALS[reason];
  return new ProblemError(unauthorized, `${detail[0]!.toUpperCase()}${detail.slice(1)}.`, {
    headers: CHALLENGE,
    extra: { reason },
  });
}

function entitlementRefused(admission: Extract<StreamAdmission, { ok: false }>): ProblemError {
  if (admission.reason === 'overloaded') return admission.refusal;
  if (admission.reason === 'plan') {
    return new ProblemError(streamNotInPlan, `The ${admission.plan.title} plan has no streams; Pro and Enterprise have them.`);
  }
  return new ProblemError(streamLimitReached,
    `The organisation already holds its ${admission.plan.maxConcurrentStreams} streams (${admission.plan.title} plan); close one first.`,
    { headers: { 'Retry-After': String(STREAM_CAP_RETRY_SEC) }, extra: { max_streams: admission.plan.maxConcurrentStreams } });
}

export interface Admitted {
  principal: Principal;
  admission: Extract<StreamAdmission, { ok: true }>;
}

/** A message the stream refused: `code` says why, `field` where (a JSON pointer). */
export interface StreamErrorData {
  code: string;
  message: string;
  field?: string;
}

/** An `auth` message's key checked: the stream admitted, or how to close it. */
export type Admission = { ok: true; admitted: Admitted } | { ok: false; close: CloseCode; reason: string };

/** What a session needs of whoever holds it: the endpoint here, or a stream process's link to it. */
export interface SessionHost {
  readonly heartbeatSec: number;
  /** Checks a key sent in an `auth` message and takes a slot for its stream. */
  admit(apiKey: string): Promise<Admission>;
  /** Gives a slot back. */
  release(admission: Admitted['admission'], log: FastifyBaseLogger): void;
  /** The session's socket closed, whoever closed it. */
  ended(session: StreamSession, code: number): void;
}

/** An admitted upgrade a stream hands over to another process, socket and all. */
export interface HandedOver {
  request: IncomingMessage;
  socket: Socket;
  head: Buffer;
  /** Null when the client authenticates with its first message. */
  admitted: Admitted | null;
  log: FastifyBaseLogger;
  /** The socket goes to another process: its HTTP exchange ends here (for in-flight counts). */
  taken(): void;
  /** Answers with the problem document instead (nothing could take the stream), and gives the slot back. */
  refuse(error: ProblemError): void;
}

/** Upgrade requests waiting for their route, by request: one listener per app serves every stream. */
const upgrades = new WeakMap<IncomingMessage, { socket: Duplex; head: Buffer }>();
const listening = new WeakSet<App>();

function listenForUpgrades(app: App): void {
  if (listening.has(app)) return;
  listening.add(app);
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    upgrades.set(request, { socket, head });
    const response = new ServerResponse(request);
    response.assignSocket(socket as Socket);
    // Answers other than an upgrade end the connection.
    response.once('finish', () => socket.end());
    app.routing(request, response);
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('onClose', async () => {
    app.server.off('upgrade', onUpgrade);
  });
}

/** One client connection of a stream, from the upgrade to the close. */
export abstract class StreamSession {
  readonly id = newId('str');
  readonly ws: WebSocket;
  readonly log: FastifyBaseLogger;
  readonly host: SessionHost;
  state: 'authenticating' | 'admitting' | 'open' | 'closing' | 'closed' = 'authenticating';
  /** When anything (a message, a pong) was last heard from the client. */
  lastHeard = Date.now();
  readonly openedAt = Date.now();
  admitted: Admitted | null = null;
  /** The code this side closed with. */
  closeCode: number | null = null;
  #protocolErrors = 0;
  #authTimer: NodeJS.Timeout | null = null;
  #closeTimer: NodeJS.Timeout | null = null;
  /** Messages that arrived while the key was being checked. */
  #queued: [RawData, boolean][] = [];

  constructor(host: SessionHost, ws: WebSocket, log: FastifyBaseLogger) {
    this.host = host;
    this.ws = ws;
    this.log = log.child({ stream: this.id });
  }

  /** Sends one frame. */
  abstract send(event: string, data: unknown): void;
  /** The stream is admitted: say so to the client. */
  protected abstract opened(admitted: Admitted): void;
  /** A message from an admitted client. */
  protected abstract handle(data: RawData, isBinary: boolean): void;
  /** The stream stops delivering (closing, or its socket gone). */
  protected stopped(): void {}

  start(admitted: Admitted | null): void {
    this.ws.on('message', (data, isBinary) => this.#received(data, isBinary));
    this.ws.on('pong', () => (this.lastHeard = Date.now()));
    this.ws.on('error', (error) => this.log.debug({ err: error }, 'stream socket error'));
    this.ws.on('close', (code) => this.host.ended(this, code));
    if (admitted) {
      this.#open(admitted);
      return;
    }
    this.#authTimer = setTimeout(() => this.close(STREAM_CLOSE.timeout, `auth timeout: no auth message within ${AUTH_TIMEOUT_MS / 1000} s`), AUTH_TIMEOUT_MS);
  }

  close(code: CloseCode, reason: string): void {
    if (this.state === 'closing' || this.state === 'closed') return;
    this.state = 'closing';
    this.closeCode = code.code;
    this.#stopAuthTimer();
    this.stopped();
    // A close frame's reason holds at most 123 bytes (the reasons here are ASCII).
    this.ws.close(code.code, reason.length <= 123 ? reason : `${reason.slice(0, 120)}...`);
    this.#closeTimer = setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS);
  }

  /** The socket is gone: nothing more to wait for. */
  ended(): void {
    this.#stopAuthTimer();
    if (this.#closeTimer) clearTimeout(this.#closeTimer);
    this.stopped();
    this.state = 'closed';
  }

  /** Answers a message that broke the protocol; enough of them close the stream. */
  protected protocolError(error: StreamErrorData): void {
    this.send('error', error);
    if (++this.#protocolErrors >= MAX_PROTOCOL_ERRORS) this.close(STREAM_CLOSE.protocol, `protocol error: ${MAX_PROTOCOL_ERRORS} messages that were not valid`);
  }

  #stopAuthTimer(): void {
    if (this.#authTimer) clearTimeout(this.#authTimer);
    this.#authTimer = null;
  }

  #received(data: RawData, isBinary: boolean): void {
    this.lastHeard = Date.now();
    switch (this.state) {
      case 'authenticating':
        this.#authenticateWith(data, isBinary);
        return;
      case 'admitting':
        // Clients often send their first request right after the key: it is handled once admitted.
        if (this.#queued.length < 16) this.#queued.push([data, isBinary]);
        else this.protocolError({ code: 'invalid_message', message: 'Wait for ready before sending more.' });
        return;
      case 'open':
        this.handle(data, isBinary);
        return;
      default:
    }
  }

  #authenticateWith(data: RawData, isBinary: boolean): void {
    const message = isBinary ? null : readAuthMessage(data.toString());
    if (!message) {
      this.close(STREAM_CLOSE.unauthorized, `missing: ${KEY_REFUSALS.missing}`);
      return;
    }
    this.#stopAuthTimer();
    this.state = 'admitting';
    void this.#admit(message);
  }

  async #admit(message: AuthMessage): Promise<void> {
    try {
      const admission = await this.host.admit(message.api_key);
      if (this.state !== 'admitting') {
        if (admission.ok) this.host.release(admission.admitted.admission, this.log);
        return;
      }
      if (admission.ok) this.#open(admission.admitted);
      else this.close(admission.close, admission.reason);
    } catch (error) {
      this.log.error({ err: error }, 'stream admission failed');
      this.close(STREAM_CLOSE.internal, 'internal error: the key or plan could not be checked; retry');
    }
  }

  #open(admitted: Admitted): void {
    this.admitted = admitted;
    this.state = 'open';
    this.opened(admitted);
    const queued = this.#queued;
    this.#queued = [];
    for (const [data, isBinary] of queued) if (this.state === 'open') this.handle(data, isBinary);
  }
}

/**
 * The sessions one process holds: their heartbeats (a `heartbeat` frame and a ping each interval, a
 * stream silent for two intervals closed), development keys' streams closed under a lasting
 * overload, the closes counted by code, and all closed at shutdown.
 */
export class SessionSet<S extends StreamSession> {
  readonly sessions = new Set<S>();
  readonly closes = new Map<number, number>();
  readonly #heartbeatSec: number;
  readonly #closesStream: (principal: Principal) => string | null;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #shedding: NodeJS.Timeout;

  /** `closesStream`: why an open stream of the principal is to be closed now (a lasting overload), or null. */
  constructor(heartbeatSec: number, closesStream: (principal: Principal) => string | null) {
    this.#heartbeatSec = heartbeatSec;
    this.#closesStream = closesStream;
    this.#heartbeat = setInterval(() => this.heartbeat(), heartbeatSec * 1000).unref();
    this.#shedding = setInterval(() => this.shedOpen(), SHED_CHECK_MS).unref();
  }

  /** The session's socket closed: it ends, its slot goes back, its close is counted (under this side's code, if it closed first). */
  ended(session: S, code: number, release: SessionHost['release']): void {
    session.ended();
    this.sessions.delete(session);
    if (session.admitted) release(session.admitted.admission, session.log);
    const counted = session.closeCode ?? code;
    this.closes.set(counted, (this.closes.get(counted) ?? 0) + 1);
    session.log.info({ code: counted, seconds: Math.round((Date.now() - session.openedAt) / 1000) }, 'stream closed');
  }

  heartbeat(): void {
    const now = Date.now();
    const silentMs = 2 * this.#heartbeatSec * 1000;
    for (const session of this.sessions) {
      if (session.state !== 'open') continue;
      if (now - session.lastHeard > silentMs) {
        session.close(STREAM_CLOSE.timeout, `idle: nothing heard for ${Math.round((now - session.lastHeard) / 1000)} s`);
        continue;
      }
      session.ws.ping();
      session.send('heartbeat', { time: new Date(now).toISOString() });
    }
  }

  /** Under a lasting overload, closes the open streams of development keys with 1013. */
  shedOpen(): void {
    for (const session of this.sessions) {
      if (session.state !== 'open') continue;
      const reason = this.#closesStream(session.admitted!.principal);
      if (reason) session.close(STREAM_CLOSE.overloaded, `overloaded: ${reason}: development keys are shed while the overload lasts; reconnect later`);
    }
  }

  /** Closes every session with 1001; sockets that do not answer in time are cut. */
  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    clearInterval(this.#shedding);
    for (const session of this.sessions) session.close(STREAM_CLOSE.shuttingDown, 'server shutting down');
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    while (this.sessions.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const session of this.sessions) session.ws.terminate();
    while (this.sessions.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export type StreamEndpointOptions<S extends StreamSession> = {
  app: App;
  /** The path clients open. */
  path: string;
  heartbeatSec: number;
} & (
  /** A session here for an upgraded socket (the socket under its WebSocket and the upgrade request given too). */
  | { session(endpoint: StreamEndpoint<S>, ws: WebSocket, socket: Duplex, request: FastifyRequest): S }
  /** Every upgrade that passed the checks goes here, to be served by another process. */
  | { handOver(upgrade: HandedOver): void }
);

/** One stream's path: its upgrades, admissions, open sessions and counts. */
export class StreamEndpoint<S extends StreamSession> implements SessionHost {
  readonly access: App['access'];
  readonly heartbeatSec: number;
  readonly open: SessionSet<S>;
  /** Refusals before or at admission, by reason. */
  readonly refusals = new Map<string, number>();
  readonly #options: StreamEndpointOptions<S>;
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, clientTracking: false });
  readonly #releases = new Set<Promise<void>>();
  #closing = false;

  /** Serves the path on the app; call before it listens. */
  constructor(options: StreamEndpointOptions<S>) {
    this.#options = options;
    this.access = options.app.access;
    this.heartbeatSec = options.heartbeatSec;
    this.open = new SessionSet<S>(options.heartbeatSec, (principal) => this.access.closesStream(principal));
    listenForUpgrades(options.app);
    this.#register();
  }

  get sessions(): Set<S> {
    return this.open.sessions;
  }

  #register(): void {
    const { app, path } = this.#options;
    app.get(path, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const upgrade = upgrades.get(request.raw);
      if (!upgrade) {
        throw new ProblemError(upgradeRequired, `Open ${path} with a WebSocket client; ${ASYNCAPI_PATH} describes the stream.`, {
          headers: { Upgrade: 'websocket', Connection: 'Upgrade' },
        });
      }
      if (this.#closing) throw new ProblemError(Problems.unavailable, 'The server is shutting down; connect again.', { headers: { 'Retry-After': '1' } });
      const admitted = request.headers.authorization === undefined ? null : await this.#admitByHeader(request.headers.authorization);
      reply.hijack();
      const { socket, head } = upgrade;
      let upgraded = false;
      const log = request.log;
      const unused = () => {
        if (!upgraded && admitted) this.release(admitted.admission, log);
      };
      const options = this.#options;
      if ('handOver' in options) {
        // The client may have gone while its key was checked; then the slot goes back at once.
        if (socket.destroyed) {
          unused();
          return;
        }
        const response = reply.raw;
        options.handOver({
          request: request.raw, socket: socket as Socket, head, admitted, log,
          taken: () => {
            response.detachSocket(socket as Socket);
            response.emit('close');
          },
          refuse: (error) => {
            unused();
            // The reply was hijacked: the document is written as the error handler would have.
            response.writeHead(error.type.status, { ...error.headers, 'Content-Type': 'application/problem+json', 'Request-Id': request.id })
              .end(JSON.stringify(problemDocument(error, request.id, path)));
          },
        });
        return;
      }
      if (socket.destroyed) unused();
      else socket.once('close', unused);
      this.#wss.handleUpgrade(request.raw, socket, head, (ws) => {
        upgraded = true;
        // Nothing of the HTTP exchange (request, reply) stays held for the stream's life.
        socket.off('close', unused);
        // The HTTP exchange ended with the 101: whatever waits for the response to end (in-flight
        // counts) is told so now, not when the stream closes.
        reply.raw.detachSocket(socket as Socket);
        reply.raw.emit('close');
        if (this.#closing) {
          if (admitted) this.release(admitted.admission, log);
          ws.close(STREAM_CLOSE.shuttingDown.code, 'server shutting down');
          return;
        }
        const session = options.session(this, ws, socket, request);
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

  async admit(apiKey: string): Promise<Admission> {
    const check = await this.access.verifyKey(apiKey);
    if (!check.ok) {
      this.refused(check.reason);
      return { ok: false, close: STREAM_CLOSE.unauthorized, reason: `${check.reason}: ${KEY_REFUSALS[check.reason]}` };
    }
    const admission = await this.access.admitStream(check.principal);
    if (admission.ok) return { ok: true, admitted: { principal: check.principal, admission } };
    this.refused(admission.reason);
    const refusal = entitlementRefused(admission);
    if (admission.reason === 'overloaded') {
      return { ok: false, close: STREAM_CLOSE.overloaded, reason: `overloaded: ${String(refusal.extra.reason)}: development keys are refused for now; retry in ${refusal.headers['Retry-After']} s` };
    }
    return { ok: false, close: admission.reason === 'plan' ? STREAM_CLOSE.planHasNoStreams : STREAM_CLOSE.streamCap, reason: refusal.detail };
  }

  refused(reason: string): void {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
  }

  release(admission: Admitted['admission'], log: FastifyBaseLogger): void {
    const releasing = admission.release().catch((error: unknown) => log.warn({ err: error }, 'stream slot not released; its lease runs out instead'));
    this.#releases.add(releasing);
    void releasing.finally(() => this.#releases.delete(releasing));
  }

  ended(session: StreamSession, code: number): void {
    if (session.state === 'closed') return;
    this.open.ended(session as S, code, (admission, log) => this.release(admission, log));
  }

  /** Closes every stream with 1001 and stops taking new ones. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.open.close();
    await this.released();
    this.#wss.close();
  }

  /** Once the slots given back so far are released. */
  async released(): Promise<void> {
    await Promise.all(this.#releases);
  }
}
