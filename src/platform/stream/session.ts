// A stream's client connections and the sessions one process holds: authentication by a first
// `auth` message (the key checked by the session's host), heartbeats both ways, protocol errors,
// closes, and development keys' streams shed under a lasting overload. The serving thread runs
// sessions behind an endpoint (endpoint.ts); a stream process runs them for the upgrades handed to
// it. Nothing here loads TypeBox: client messages are checked against their schemas as JSON.
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { StreamAdmission } from '../http/access.ts';
import type { Principal } from '../http/auth.ts';
import { newId } from '../ids.ts';
import type { ClientMessages } from './client-messages.ts';
import { AUTH_TIMEOUT_MS, KEY_REFUSALS, MAX_PROTOCOL_ERRORS, STREAM_CLOSE, type CloseCode } from './protocol.ts';
import type { AuthMessage } from './schemas.ts';

/** On shutdown, how long clients get to answer the close before their sockets are cut. */
const SHUTDOWN_GRACE_MS = 2_000;
/** How long a closed stream's client gets to answer the close frame (a stalled one never does). */
const CLOSE_GRACE_MS = 5_000;
/** How often open streams are checked against a lasting overload. */
const SHED_CHECK_MS = 1_000;

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

/** What a session needs of whoever holds it: the endpoint (endpoint.ts), or a stream process's link to it. */
export interface SessionHost {
  readonly heartbeatSec: number;
  /** The stream's client messages, `auth` among them, and their schemas. */
  readonly messages: ClientMessages;
  /** Checks a key sent in an `auth` message and takes a slot for its stream. */
  admit(apiKey: string): Promise<Admission>;
  /** Gives a slot back. */
  release(admission: Admitted['admission'], log: FastifyBaseLogger): void;
  /** The session's socket closed, whoever closed it. */
  ended(session: StreamSession, code: number): void;
}

/** The `auth` message in a client's first text, checked against its schema, or null for anything else. */
function readAuthMessage(text: string, messages: ClientMessages): AuthMessage | null {
  try {
    const message: unknown = JSON.parse(text);
    return messages.issue('auth', message) === null ? (message as AuthMessage) : null;
  } catch {
    return null;
  }
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
    const message = isBinary ? null : readAuthMessage(data.toString(), this.host.messages);
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

