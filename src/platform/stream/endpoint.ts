// A stream's endpoint on the serving thread. Upgrade requests go through the app's router like any
// request, so a refusal before the upgrade (bad key, plan, cap, overload) is a problem document with
// a request id. A client authenticates with `Authorization: Bearer` on the upgrade, or with a first
// `auth` message within 5 s; either way the organisation's plan must include streams and have a slot
// left (a lease held until the stream ends), and a development key is refused while the instance is
// overloaded (and its open streams are closed once the overload lasts). Keys are never logged,
// echoed or in a URL. A stream brings its session class (session.ts: what it sends once admitted,
// how it reads messages), run here or in another process that an upgrade is handed over to once
// checked (the session's host then asks this side for keys and slots).
import type { IncomingMessage } from 'node:http';
import { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { StreamAdmission } from '../http/access.ts';
import type { App } from '../http/app.ts';
import { ASYNCAPI_PATH } from '../http/asyncapi.ts';
import { bearerSecret, CHALLENGE, unauthorized } from '../http/auth.ts';
import { problemDocument, ProblemError, Problems } from '../http/problems.ts';
import { ClientMessages, type ClientMessageSchemas } from './client-messages.ts';
import { KEY_REFUSALS, MAX_CLIENT_MESSAGE_BYTES, STREAM_CLOSE } from './protocol.ts';
import { SessionSet, type Admission, type Admitted, type SessionHost, type StreamSession } from './session.ts';
import { streamLimitReached, streamNotInPlan, upgradeRequired } from './stream.problems.ts';

const STREAM_CAP_RETRY_SEC = 60;

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

export type StreamEndpointOptions<S extends StreamSession> = {
  app: App;
  /** The path clients open. */
  path: string;
  heartbeatSec: number;
  /** The JSON Schemas of the stream's client messages by type, `auth` among them: the AsyncAPI channel's. */
  messages: ClientMessageSchemas;
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
  readonly messages: ClientMessages;
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
    this.messages = new ClientMessages(options.messages);
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
