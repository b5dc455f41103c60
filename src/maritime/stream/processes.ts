// AIS stream fan-out on more cores: stream processes, each serving a share of the streams. The
// serving thread still takes every upgrade through the router (key, plan, slot, overload) and then
// hands the socket over to the process with the fewest streams (child_process handle passing); the
// process completes the WebSocket handshake and runs the session from there. Keys sent in an `auth`
// message, slots given back and regions watched are asked of the serving thread, which holds the
// stream slots and the bus subscription. Every vessel change of the regions the processes watch
// goes to all of them in the compact rows of the ingest hop (vessels/changes.ts), made once, the
// next batch once each applied the last: while they are behind, positions coalesce, so no queue
// grows. A process keeps its own copy of vessel state from these rows; a row carries the static
// fields whenever a process may not have them yet. A process that dies is started again; its
// streams drop (1006) and their slots go back.
import { fork, type ChildProcess } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { Parts } from '../../platform/bus/index.ts';
import type { Principal } from '../../platform/http/auth.ts';
import { ProblemError, Problems } from '../../platform/http/problems.ts';
import type { Plan } from '../../platform/ratelimit/index.ts';
import { STREAM_CLOSE, type Admitted, type ClientMessageSchemas, type CloseCode, type HandedOver, type StreamEndpoint } from '../../platform/stream/index.ts';
import { regionOf, unionOfParts } from '../regions.ts';
import { PendingChanges, type ChangeBatch } from '../vessels/changes.ts';
import type { Change, Vessel } from '../vessels/store.ts';
import { emptyStats } from './outbox.ts';
import type { AisSession, StreamBounds, StreamFigures } from './session.ts';

/** A stream slot held by the serving thread for a stream in a process. */
export interface LeasedAdmission {
  principal: Principal;
  plan: Plan | null;
  lease: number;
}

export type LeasedAdmissionResult = { ok: true; admitted: LeasedAdmission } | { ok: false; close: CloseCode; reason: string };

/** What the serving thread tells a stream process. */
export type ToStreamProcess =
  | { type: 'start'; heartbeatSec: number; bounds: StreamBounds; logLevel: string; messages: ClientMessageSchemas }
  | { type: 'changes'; batch: ChangeBatch; publish: boolean }
  | { type: 'upgrade'; id: number; method: string; url: string; headers: Record<string, string | string[] | undefined>; head: Buffer; admitted: LeasedAdmission | null }
  | { type: 'admitted'; call: number; result: LeasedAdmissionResult }
  | { type: 'watching'; call: number }
  | { type: 'shedding'; closes: Record<Principal['environment'], string | null> }
  | { type: 'figures'; call: number }
  | { type: 'close' };

/** What a stream process tells the serving thread. */
export type FromStreamProcess =
  | { type: 'ready' }
  | { type: 'applied' }
  | { type: 'admit'; call: number; apiKey: string }
  | { type: 'release'; lease: number }
  | { type: 'ended'; id: number }
  | { type: 'watch'; call: number; parts: Parts }
  | { type: 'figures'; call: number; figures: StreamFigures; residentBytes: number }
  | { type: 'log'; line: string };

/** Rows waiting for a process past which a vessel's positions coalesce (the latest wins). */
const COALESCE_AFTER = 2_000;
/** How long a process gets to close its streams and exit before it is killed. */
const EXIT_GRACE_MS = 5_000;
/** How often the shedding state is told and the processes are checked for a stall. */
const CHECK_MS = 1_000;
const FIGURES_TIMEOUT_MS = 1_000;
/** After processes failed to start, the next stream tries again once this long has passed. */
const RESTART_AFTER_MS = 1_000;
/** An upgrade waits this long for a process to be ready, then is refused (503). */
const WAIT_FOR_PROCESS_MS = 15_000;
/**
 * A process that has not applied a batch this long after it was sent is stuck: it holds every
 * process's changes back, so it is killed and another started.
 */
const APPLY_TIMEOUT_MS = 10_000;

export interface StreamProcessesOptions {
  count: number;
  heartbeatSec: number;
  bounds: StreamBounds;
  /** Admits keys of `auth` messages, holds and releases the slots. */
  endpoint: StreamEndpoint<AisSession>;
  /** From now on the bus delivers the changes of these regions (the union of the processes'). */
  watch(parts: Parts): Promise<void>;
  /** The read copy of vessel state as it stands, for a process that starts. */
  vessels(): Iterable<Vessel>;
  log: FastifyBaseLogger;
}

class StreamProcess {
  readonly child: ChildProcess;
  /** Streams handed over and not yet ended, by id. */
  readonly streams = new Set<number>();
  readonly leases = new Set<number>();
  parts: Parts = new Set();
  /** When the batch of changes it has not yet applied was sent (null: none is). */
  sentAt: number | null = null;
  ready = false;
  readonly figures = new Map<number, (figures: StreamFigures) => void>();
  /** Its last answer to a figures call: its counts outlive it. */
  last: { figures: StreamFigures; residentBytes: number } | null = null;

  constructor(child: ChildProcess) {
    this.child = child;
  }

  send(message: ToStreamProcess, handle?: HandedOver['socket'], sent?: (error: Error | null) => void): void {
    if (this.child.connected) this.child.send(message, handle, {}, sent);
    else sent?.(new Error('the stream process has gone'));
  }
}

export class StreamProcesses {
  readonly #options: StreamProcessesOptions;
  readonly #processes: StreamProcess[] = [];
  readonly #leases = new Map<number, Admitted['admission']>();
  /** Changes for the processes, made into rows once for all of them. */
  readonly #pending = new PendingChanges(COALESCE_AFTER);
  /** The static data each vessel had when it last went to the processes with them (`static_updated_at`). */
  readonly #staticsSent = new Map<number, string | null>();
  /** The regions any process watches. */
  #watched: Parts = new Set();
  #nextId = 1;
  #nextCall = 1;
  #flushDue = false;
  /** When the processes were last started (0: never). */
  #startedAt = 0;
  /**
   * The counts of processes that have gone, as of their last figures: the sums stay counters (they
   * never go down) when a process dies. What a process counted after its last scrape is lost.
   */
  readonly #gone = emptyFigures();
  /** Upgrades that came while no process was ready, with their time limit. */
  #waiting: { upgrade: HandedOver; timer: NodeJS.Timeout }[] = [];
  #closing = false;
  #checks: NodeJS.Timeout;
  #lastShedding = '';

  constructor(options: StreamProcessesOptions) {
    this.#options = options;
    this.#checks = setInterval(() => {
      this.#tellShedding();
      this.#killStuck();
    }, CHECK_MS).unref();
  }

  /**
   * Starts the processes, with the first stream: the service neither waits for them at start-up
   * nor has them compete with it for the cores then, and one without streams runs none. Upgrades
   * that come before one is ready wait for it. When none could be started, a stream at least a
   * second later tries again.
   */
  #start(): void {
    this.#startedAt = Date.now();
    for (let i = 0; i < this.#options.count; i++) {
      this.#spawn().catch((error: unknown) => this.#options.log.error({ err: error }, 'a stream process could not be started'));
    }
  }

  /** The processes ready to serve streams. */
  get running(): number {
    return this.#processes.filter((member) => member.ready).length;
  }

  /** Their resident memory together, as of their last figures. */
  get residentBytes(): number {
    return this.#processes.reduce((sum, member) => sum + (member.last?.residentBytes ?? 0), 0);
  }

  /** Positions merged into a later one of the same vessel while the processes were behind. */
  get coalesced(): number {
    return this.#pending.coalesced;
  }

  #spawn(): Promise<void> {
    const { log } = this.#options;
    // Its standard streams are its own pipes, never this process's: sharing them would share their
    // blocking mode, and a log reader that stops reading would then block this process's writes.
    // What it writes (a crash's stack) goes to the log. Of this process's Node options it takes the
    // V8 heap sizes (see bin/lamis.js), not the rest (a test runner's, an inspector's).
    const execArgv = process.execArgv.filter((option) => option.startsWith('--max-semi-space-size'));
    const child = fork(new URL('./process.ts', import.meta.url), [], { serialization: 'advanced', execArgv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    for (const name of ['stdout', 'stderr'] as const) {
      child[name]!.on('data', (chunk: Buffer) => log.warn({ stream_process: child.pid, [name]: chunk.toString().trimEnd() }, `a stream process wrote to its ${name}`));
    }
    const member = new StreamProcess(child);
    this.#processes.push(member);
    const started = new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      // A message to a process that has just gone fails; its exit is what counts.
      child.on('error', (error) => log.debug({ err: error, stream_process: child.pid }, 'a message to a stream process failed'));
      child.on('message', (message: FromStreamProcess) => {
        if (message.type === 'ready') {
          child.off('error', reject);
          this.#ready(member);
          resolve();
        } else {
          this.#heard(member, message);
        }
      });
      child.once('exit', (code, signal) => {
        reject(new Error(`a stream process exited before it was ready (${signal ?? code})`));
        this.#exited(member, code, signal);
      });
    });
    member.send({
      type: 'start', heartbeatSec: this.#options.heartbeatSec, bounds: this.#options.bounds, logLevel: log.level, messages: this.#options.endpoint.messages.schemas,
    });
    return started;
  }

  /** The process has its copy of vessel state made from the read copy, then gets every change after. */
  #ready(member: StreamProcess): void {
    const snapshot = new PendingChanges(Number.POSITIVE_INFINITY);
    for (const vessel of this.#options.vessels()) {
      // The others may lack what this one gets: what they were sent stays as it is.
      snapshot.add({ vessel, position: vessel.position !== null, static: false }, false, true);
    }
    const vessels = snapshot.size;
    member.send({ type: 'changes', batch: snapshot.take(vessels), publish: false });
    this.#options.log.info({ stream_process: member.child.pid, vessels }, 'stream process ready');
    member.ready = true;
    member.sentAt = Date.now();
    this.#tellShedding(true);
    this.#handWaiting();
  }

  #heard(member: StreamProcess, message: FromStreamProcess): void {
    switch (message.type) {
      case 'applied':
        member.sentAt = null;
        this.#flush();
        return;
      case 'admit':
        void this.#admit(member, message.call, message.apiKey);
        return;
      case 'release':
        this.#release(member, message.lease);
        return;
      case 'ended':
        member.streams.delete(message.id);
        return;
      case 'watch':
        member.parts = message.parts;
        this.#watched = unionOfParts(this.#processes.map((each) => each.parts));
        void this.#options.watch(this.#watched)
          .catch((error: unknown) => this.#options.log.error({ err: error }, 'the regions of the AIS streams could not be changed on the bus'))
          .finally(() => member.send({ type: 'watching', call: message.call }));
        return;
      case 'figures':
        member.last = { figures: message.figures, residentBytes: message.residentBytes };
        member.figures.get(message.call)?.(message.figures);
        member.figures.delete(message.call);
        return;
      case 'log':
        this.#log(message.line);
        return;
      default:
    }
  }

  /** A process's log line, logged here as it was made there, with the process's id. */
  #log(line: string): void {
    const { level, msg, time: _time, pid, hostname: _hostname, ...fields } = JSON.parse(line) as Record<string, unknown>;
    const method = (pino.levels.labels[level as number] ?? 'info') as 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
    this.#options.log[method]({ ...fields, stream_process: pid }, String(msg));
  }

  #exited(member: StreamProcess, code: number | null, signal: NodeJS.Signals | null): void {
    const index = this.#processes.indexOf(member);
    if (index >= 0) this.#processes.splice(index, 1);
    for (const lease of member.leases) this.#release(member, lease);
    for (const answer of member.figures.values()) answer(emptyFigures());
    if (member.last !== null) addCounts(this.#gone, member.last.figures);
    if (!this.#closing && member.ready) {
      this.#options.log.error({ code, signal, streams: member.streams.size }, 'a stream process exited; its streams dropped, starting another');
      void this.#spawn().catch((error: unknown) => this.#options.log.error({ err: error }, 'a stream process could not be started again'));
    }
    this.#handWaiting();
    // The changes held while it was behind go to the others now.
    this.#flush();
  }

  /** Upgrades waiting for a process go to one now ready, wait on for one starting, or are refused. */
  #handWaiting(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const { upgrade, timer } of waiting) {
      clearTimeout(timer);
      this.handOver(upgrade);
    }
  }

  #wait(upgrade: HandedOver): void {
    const timer = setTimeout(() => {
      this.#waiting = this.#waiting.filter((waiting) => waiting.upgrade !== upgrade);
      upgrade.log.error({ waited_ms: WAIT_FOR_PROCESS_MS }, 'no stream process was ready for a stream');
      upgrade.refuse(unavailable(`No stream process was ready within ${WAIT_FOR_PROCESS_MS / 1000} s; connect again.`));
    }, WAIT_FOR_PROCESS_MS);
    this.#waiting.push({ upgrade, timer });
  }

  /** Kills a process that sits on a batch (see APPLY_TIMEOUT_MS); its exit starts another. */
  #killStuck(): void {
    const now = Date.now();
    for (const member of this.#processes) {
      if (member.sentAt === null || now - member.sentAt < APPLY_TIMEOUT_MS || member.child.killed) continue;
      this.#options.log.error({ stream_process: member.child.pid, waited_ms: now - member.sentAt }, 'a stream process did not apply its changes in time; killing it');
      member.child.kill('SIGKILL');
    }
  }

  async #admit(member: StreamProcess, call: number, apiKey: string): Promise<void> {
    let result: LeasedAdmissionResult;
    try {
      const admission = await this.#options.endpoint.admit(apiKey);
      result = admission.ok ? { ok: true, admitted: this.#lease(member, admission.admitted) } : admission;
    } catch (error) {
      this.#options.log.error({ err: error }, 'stream admission failed');
      result = { ok: false, close: STREAM_CLOSE.internal, reason: 'internal error: the key or plan could not be checked; retry' };
    }
    if (member.child.connected) member.send({ type: 'admitted', call, result });
    else if (result.ok) this.#release(member, result.admitted.lease);
  }

  #lease(member: StreamProcess, admitted: Admitted): LeasedAdmission {
    const lease = this.#nextId++;
    this.#leases.set(lease, admitted.admission);
    member.leases.add(lease);
    return { principal: admitted.principal, plan: admitted.admission.plan, lease };
  }

  #release(member: StreamProcess, lease: number): void {
    const admission = this.#leases.get(lease);
    if (!admission) return;
    this.#leases.delete(lease);
    member.leases.delete(lease);
    this.#options.endpoint.release(admission, this.#options.log);
  }

  /** Tells the processes which environments' streams a lasting overload closes (each second, and when it changes). */
  #tellShedding(always = false): void {
    const endpoint = this.#options.endpoint;
    // Whether a stream is shed depends on its key's environment alone: one answer per environment.
    const closes = {
      development: endpoint.access.closesStream({ key_id: '', organisation_id: null, environment: 'development', admin: false }),
      production: endpoint.access.closesStream({ key_id: '', organisation_id: null, environment: 'production', admin: false }),
    };
    const told = JSON.stringify(closes);
    if (!always && told === this.#lastShedding) return;
    this.#lastShedding = told;
    for (const member of this.#processes) member.send({ type: 'shedding', closes });
  }

  /** Hands an upgrade that passed the checks to the process with the fewest streams. */
  handOver(upgrade: HandedOver): void {
    if (this.#processes.length === 0 && !this.#closing && Date.now() - this.#startedAt >= RESTART_AFTER_MS) this.#start();
    const { request, socket, head, admitted } = upgrade;
    const member = this.#processes.filter((each) => each.ready && each.child.connected)
      .reduce<StreamProcess | undefined>((best, each) => (best === undefined || each.streams.size < best.streams.size ? each : best), undefined);
    if (member === undefined && !this.#closing && this.#processes.length > 0 && !socket.destroyed) {
      // One is starting (at start-up, or in place of one that exited).
      this.#wait(upgrade);
      return;
    }
    if (member === undefined || this.#closing || socket.destroyed) {
      upgrade.refuse(unavailable(this.#closing ? 'The server is shutting down; connect again.' : 'No stream process is running; connect again.'));
      return;
    }
    // Reading stops here before the socket goes: what the client sends once the process answered
    // the handshake must reach the process, not this side's handle, which stays open until the
    // process acknowledges it (Node hands sockets over that way). Anything read already goes along.
    const early = socket.readableLength > 0 ? (socket.read() as Buffer) : null;
    const handle = (socket as unknown as { _handle: { reading: boolean; readStop(): number } | null })._handle;
    if (handle) {
      handle.reading = false;
      handle.readStop();
    }
    const id = this.#nextId++;
    member.streams.add(id);
    const leased = admitted ? this.#lease(member, admitted) : null;
    upgrade.taken();
    // The connection leaves the HTTP server's count here: passed with its server, Node would have the
    // server wait on the process for it at close, and never close once the process has gone.
    (socket as unknown as { server: unknown }).server = null;
    // Once sent (handles go one at a time), the descriptor is the process's: destroying ends only the object left here.
    member.send({
      type: 'upgrade', id, method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers,
      head: early ? Buffer.concat([head, early]) : head, admitted: leased,
    }, socket, () => socket.destroy());
  }

  /**
   * A change of a region some process watches, for every process: its static fields go with it when
   * a process may not have them. Sent once the turn's changes are in and every process applied the
   * batch before (meanwhile positions of a vessel coalesce past COALESCE_AFTER rows).
   */
  publish(change: Change): void {
    if (this.#watched !== 'all' && !this.#watched.has(regionOf(change))) return;
    const { vessel } = change;
    const withStatics = this.#staticsSent.get(vessel.mmsi) !== vessel.static_updated_at;
    if (withStatics) this.#staticsSent.set(vessel.mmsi, vessel.static_updated_at);
    this.#pending.add(change, true, withStatics);
    if (this.#flushDue) return;
    this.#flushDue = true;
    setImmediate(() => {
      this.#flushDue = false;
      this.#flush();
    });
  }

  #flush(): void {
    const ready = this.#processes.filter((member) => member.ready);
    if (this.#pending.size === 0 || ready.length === 0 || ready.some((member) => member.sentAt !== null)) return;
    const batch = this.#pending.take(this.#pending.size);
    const now = Date.now();
    for (const member of ready) {
      member.sentAt = now;
      member.send({ type: 'changes', batch, publish: true });
    }
  }

  /** The processes' figures summed (asked of each; one that does not answer in time counts nothing). */
  async figures(): Promise<StreamFigures> {
    const each = await Promise.all(this.#processes.map((member) => new Promise<StreamFigures>((resolve) => {
      if (!member.child.connected) {
        resolve(emptyFigures());
        return;
      }
      const call = this.#nextCall++;
      const timer = setTimeout(() => {
        member.figures.delete(call);
        resolve(emptyFigures());
      }, FIGURES_TIMEOUT_MS);
      member.figures.set(call, (figures) => {
        clearTimeout(timer);
        resolve(figures);
      });
      member.send({ type: 'figures', call });
    })));
    return [...each, this.#gone].reduce(addFigures, emptyFigures());
  }

  /** Each process closes its streams with 1001 and exits; a process that does not in time is killed. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#checks);
    this.#handWaiting();
    await Promise.all(this.#processes.map(async ({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.connected) child.send({ type: 'close' } satisfies ToStreamProcess);
      const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }));
  }
}

function unavailable(detail: string): ProblemError {
  return new ProblemError(Problems.unavailable, detail, { headers: { 'Retry-After': '1' } });
}

function emptyFigures(): StreamFigures {
  return { open: 0, authenticating: 0, stats: emptyStats(), closes: new Map(), waitingBytes: 0, waitingBytesMax: 0 };
}

/** Adds the counts (frames, coalesced, dropped, closes) of `figures` to `sum`. */
function addCounts(sum: StreamFigures, figures: StreamFigures): void {
  for (const [event, count] of Object.entries(figures.stats.frames)) sum.stats.frames[event as keyof StreamFigures['stats']['frames']] += count;
  sum.stats.coalesced += figures.stats.coalesced;
  sum.stats.dropped += figures.stats.dropped;
  for (const [code, count] of figures.closes) sum.closes.set(code, (sum.closes.get(code) ?? 0) + count);
}

function addFigures(sum: StreamFigures, figures: StreamFigures): StreamFigures {
  addCounts(sum, figures);
  sum.open += figures.open;
  sum.authenticating += figures.authenticating;
  sum.waitingBytes += figures.waitingBytes;
  sum.waitingBytesMax = Math.max(sum.waitingBytesMax, figures.waitingBytesMax);
  return sum;
}
