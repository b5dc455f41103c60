// A stream process (processes.ts): serves the AIS streams the serving thread hands over, on a core
// of its own. It completes each WebSocket handshake, runs the sessions (subscriptions, pacing, slow
// consumers, heartbeats), keeps a copy of vessel state from the change rows it is sent and fans
// them out. It checks client messages against the schemas it is sent as it starts, without
// TypeBox. What needs storage or the bus it asks of the serving thread: a key sent in an `auth`
// message, a slot given back, the regions its streams watch. Its log lines go to the serving
// thread's log. It ends when told to close, or when the serving thread is gone.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { pino } from 'pino';
import { WebSocketServer } from 'ws';
import type { Parts } from '../../platform/bus/index.ts';
import { ClientMessages } from '../../platform/stream/client-messages.ts';
import { MAX_CLIENT_MESSAGE_BYTES } from '../../platform/stream/protocol.ts';
import { SessionSet, type Admission, type Admitted, type SessionHost, type StreamSession } from '../../platform/stream/session.ts';
import { applyChangeBatch, type VesselCopy } from '../vessels/changes.ts';
import type { Vessel } from '../vessels/store.ts';
import type { FromStreamProcess, LeasedAdmission, LeasedAdmissionResult, ToStreamProcess } from './processes.ts';
import { AisSession, AisSessions, PACING_TICK_MS } from './session.ts';

function tell(message: FromStreamProcess): void {
  if (process.connected) process.send!(message);
}

/** Answers the serving thread gives, by call. */
const calls = new Map<number, (answer: never) => void>();
let nextCall = 1;

function ask<T>(message: (call: number) => FromStreamProcess): Promise<T> {
  return new Promise<T>((resolve) => {
    const call = nextCall++;
    calls.set(call, resolve as (answer: never) => void);
    tell(message(call));
  });
}

function answered(call: number, answer: unknown): void {
  calls.get(call)?.(answer as never);
  calls.delete(call);
}

/** A slot the serving thread holds; given back through it. */
function admittedFrom({ principal, plan, lease }: LeasedAdmission): Admitted {
  return { principal, admission: { ok: true, plan, release: async () => tell({ type: 'release', lease }) } };
}

class ProcessHost implements SessionHost {
  readonly heartbeatSec: number;
  readonly messages: ClientMessages;
  readonly open: SessionSet<AisSession>;
  /** The serving thread's id of each stream. */
  readonly ids = new Map<StreamSession, number>();
  /** Why open streams of each environment are to be closed now (a lasting overload), as the serving thread last said. */
  closes: Record<'development' | 'production', string | null> = { development: null, production: null };

  constructor(heartbeatSec: number, messages: ClientMessages) {
    this.heartbeatSec = heartbeatSec;
    this.messages = messages;
    this.open = new SessionSet<AisSession>(heartbeatSec, (principal) => this.closes[principal.environment]);
  }

  async admit(apiKey: string): Promise<Admission> {
    const result = await ask<LeasedAdmissionResult>((call) => ({ type: 'admit', call, apiKey }));
    return result.ok ? { ok: true, admitted: admittedFrom(result.admitted) } : result;
  }

  release(admission: Admitted['admission']): void {
    void admission.release();
  }

  ended(session: StreamSession, code: number): void {
    if (session.state === 'closed') return;
    this.open.ended(session as AisSession, code, (admission) => this.release(admission));
    tell({ type: 'ended', id: this.ids.get(session)! });
    this.ids.delete(session);
  }
}

function run(start: Extract<ToStreamProcess, { type: 'start' }>): void {
  const logger = pino({ level: start.logLevel }, { write: (line: string) => tell({ type: 'log', line }) });
  const host = new ProcessHost(start.heartbeatSec, new ClientMessages(start.messages));
  const sessions = new AisSessions(start.bounds, (parts: Parts) => ask<void>((call) => ({ type: 'watch', call, parts })));
  const vessels = new Map<number, Vessel>();
  // The fan-out makes its frames of a change before it returns: the vessels can be updated in place.
  const copy: VesselCopy = { get: (mmsi) => vessels.get(mmsi), put: (vessel) => void vessels.set(vessel.mmsi, vessel), inPlace: 'vessel and position' };
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, clientTracking: false });
  const ticker = setInterval(() => sessions.tick(), PACING_TICK_MS);

  const upgrade = (message: Extract<ToStreamProcess, { type: 'upgrade' }>, socket: Socket): void => {
    const admitted = message.admitted && admittedFrom(message.admitted);
    // A handshake that fails (the client gone) ends the stream here: its slot goes back.
    const failed = () => {
      if (admitted) void admitted.admission.release();
      tell({ type: 'ended', id: message.id });
    };
    socket.once('close', failed);
    const request = { method: message.method, url: message.url, headers: message.headers } as IncomingMessage;
    wss.handleUpgrade(request, socket, Buffer.from(message.head), (ws) => {
      socket.off('close', failed);
      const session = new AisSession(sessions, host, ws, socket, logger);
      host.ids.set(session, message.id);
      host.open.sessions.add(session);
      session.start(admitted);
    });
  };

  process.on('message', (message: ToStreamProcess, handle?: Socket) => {
    switch (message.type) {
      case 'changes':
        applyChangeBatch(copy, message.batch, message.publish ? (change) => sessions.publish(change) : () => {});
        tell({ type: 'applied' });
        return;
      case 'upgrade':
        if (handle) upgrade(message, handle);
        return;
      case 'admitted':
        answered(message.call, message.result);
        return;
      case 'watching':
        answered(message.call, undefined);
        return;
      case 'shedding':
        host.closes = message.closes;
        return;
      case 'figures':
        tell({ type: 'figures', call: message.call, figures: sessions.figures(host.open.sessions, host.open.closes), residentBytes: process.memoryUsage.rss() });
        return;
      case 'close':
        clearInterval(ticker);
        void host.open.close().then(() => process.exit(0));
        return;
      default:
    }
  });
  tell({ type: 'ready' });
}

if (process.send) {
  process.once('message', (message: ToStreamProcess) => {
    if (message.type === 'start') run(message);
  });
  // Without the serving thread there is nothing to serve: its sockets close with this process.
  process.once('disconnect', () => process.exit(0));
  // A message to a serving thread that has just gone fails; the disconnect ends the process.
  process.on('error', () => {});
}
