// The serving thread's end of AIS ingest: it starts the ingest core (on a worker thread, or in this
// thread when there is one core to run on), keeps the read copy of vessel state up to date from its
// change batches, and tells its listeners of each change. A batch is applied a slice of rows per
// turn of the event loop and acknowledged a turn after its last slice, so requests are served
// between slices whatever the feed's rate or the batch's size.
import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DatabaseSettings } from '../../platform/db/database.ts';
import { applyChangeRows, readCopy, ROW_WIDTH, type BatchCursor, type VesselCopy } from '../vessels/changes.ts';
import type { Change, VesselStore } from '../vessels/store.ts';
import { IngestCore, type IngestCommand, type IngestEvent, type IngestSettings, type IngestStatus, type UploadCounts } from './core.ts';
import { ingestThread } from './thread.ts';
import type { IngestThreadSettings } from './worker.ts';

export interface IngestLinkOptions {
  /** On a worker thread of its own, or in this thread. */
  threaded: boolean;
  /** This thread's connection (ingest in this thread uses it); a worker opens its own from the settings. */
  database: Database;
  databaseSettings: DatabaseSettings;
  settings: IngestSettings;
  /** The read copy, restored from storage already. */
  store: VesselStore;
  log: FastifyBaseLogger;
}

/** Rows of a batch applied in one turn: a large batch (the serving thread was behind) leaves room for requests between its parts. */
const APPLY_SLICE_ROWS = 500;

type Request = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class IngestLink {
  readonly threaded: boolean;
  readonly #copy: VesselCopy;
  readonly #log: FastifyBaseLogger;
  readonly #listeners: ((change: Change) => void)[] = [];
  readonly #requests = new Map<number, Request>();
  #post: (command: IngestCommand) => void = () => undefined;
  #stop: () => Promise<void> = async () => undefined;
  #thread: Worker | null = null;
  #nextId = 1;
  #status!: IngestStatus;
  #closed = false;
  /** From close() on, batches still arriving are not applied: their listeners (the bus) may be gone. */
  #closing = false;
  /** Why the ingest thread stopped by itself, if it did. */
  #failure: string | null = null;

  private constructor(options: IngestLinkOptions) {
    this.threaded = options.threaded;
    this.#copy = readCopy(options.store);
    this.#log = options.log;
  }

  /** Starts the ingest core (vessel state restored, feeds built, none started yet). */
  static async start(options: IngestLinkOptions): Promise<IngestLink> {
    const link = new IngestLink(options);
    if (options.threaded) await link.#startWorker(options);
    else await link.#startHere(options);
    return link;
  }

  /** Called with every change applied to the read copy, in order. */
  onChange(listener: (change: Change) => void): void {
    this.#listeners.push(listener);
  }

  /** Feeds, pipelines, recorder and ingest figures, as of the latest batch or status (at most a quarter of a second old while data flows). */
  get status(): IngestStatus {
    return this.#status;
  }

  /** Why the ingest thread stopped on its own (no vessel changes come any more), or null while it runs. */
  get failure(): string | null {
    return this.#failure;
  }

  /** The ingest thread's heap, in bytes; null when ingest runs on the serving thread (whose heap is the process's). */
  async heap(): Promise<{ used: number; total: number } | null> {
    if (this.#thread === null || this.#closed) return null;
    const heap = await this.#thread.getHeapStatistics();
    return { used: heap.used_heap_size, total: heap.total_heap_size };
  }

  /** Starts the configured feeds; rejects when one cannot run. */
  startFeeds(): Promise<void> {
    return this.#request({ kind: 'start', which: 'configured' }).then(() => undefined);
  }

  startSimulator(): Promise<void> {
    return this.#request({ kind: 'start', which: 'simulator' }).then(() => undefined);
  }

  /** Decodes an upload; resolves once its changes are in the read copy. */
  upload(body: string, sender: string): Promise<UploadCounts> {
    return this.#request({ kind: 'upload', body, sender }) as Promise<UploadCounts>;
  }

  /** Resolves once the track points recorded so far are written. */
  flushTrack(): Promise<void> {
    return this.#request({ kind: 'flush' }).then(() => undefined);
  }

  /** Stops the feeds, writes what the recorder holds and ends the worker. */
  async close(): Promise<void> {
    if (this.#closed || this.#closing) return;
    this.#closing = true;
    if (this.#failure === null) await this.#request({ kind: 'stop' });
    this.#closed = true;
    await this.#stop();
  }

  #request(command: DistributiveOmit<Exclude<IngestCommand, { kind: 'ack' }>, 'id'>): Promise<unknown> {
    if (this.#closed || this.#failure !== null) return Promise.reject(new Error(`AIS ingest has stopped${this.#failure ? `: ${this.#failure}` : ''}`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#requests.set(id, { resolve, reject });
      this.#post({ ...command, id } as IngestCommand);
    });
  }

  async #startHere(options: IngestLinkOptions): Promise<void> {
    const core = await IngestCore.open(options.database, options.settings, (event) => setImmediate(() => this.#receive(event)));
    this.#post = (command) => setImmediate(() => core.command(command));
    this.#stop = async () => undefined;
    this.#status = core.status();
  }

  async #startWorker(options: IngestLinkOptions): Promise<void> {
    const worker = ingestThread();
    worker.postMessage({ database: options.databaseSettings, settings: options.settings } satisfies IngestThreadSettings);
    this.#thread = worker;
    const opened = new Promise<unknown>((resolve, reject) => this.#requests.set(0, { resolve, reject }));
    worker.on('message', (event: IngestEvent) => this.#receive(event));
    worker.on('error', (error) => {
      this.#log.error({ err: error }, 'AIS ingest thread failed');
      this.#failure ??= error.message;
      this.#failAll(error);
    });
    worker.on('exit', (code) => {
      if (this.#closed) return;
      this.#log.error({ code }, 'AIS ingest thread stopped');
      this.#failure ??= `the thread exited with code ${code}`;
      this.#failAll(new Error(`AIS ingest thread stopped: ${this.#failure}`));
    });
    this.#post = (command) => worker.postMessage(command);
    this.#stop = async () => {
      await worker.terminate();
    };
    try {
      this.#status = (await opened) as IngestStatus;
    } catch (error) {
      this.#closed = true;
      await worker.terminate();
      throw error;
    }
  }

  #receive(event: IngestEvent): void {
    switch (event.kind) {
      case 'batch':
        this.#apply(event, { from: 0, to: 0, statics: 0 });
        return;
      case 'status':
        this.#status = event.status;
        return;
      case 'reply':
        this.#settle(event.id, event.value, event.error);
        return;
      case 'log':
        this.#log[event.level](event.detail, event.message);
    }
  }

  /** Applies the batch APPLY_SLICE_ROWS rows a turn, then settles its replies and acknowledges it. */
  #apply(batch: Extract<IngestEvent, { kind: 'batch' }>, cursor: BatchCursor): void {
    const count = batch.rows.length / ROW_WIDTH;
    cursor.to = Math.min(count, cursor.from + APPLY_SLICE_ROWS);
    if (!this.#closing) applyChangeRows(this.#copy, batch, cursor, this.#tell);
    cursor.from = cursor.to;
    if (cursor.from < count) {
      setImmediate(() => this.#apply(batch, cursor));
      return;
    }
    if (batch.status) this.#status = batch.status;
    for (const { id, value } of batch.replies) this.#settle(id, value, undefined);
    // After a turn, so what the changes set off (the stream's frames) and waiting requests go first.
    setImmediate(() => this.#post({ kind: 'ack' }));
  }

  readonly #tell = (change: Change): void => {
    // Indexed: an iterator a change is garbage at the feed's rate.
    for (let at = 0; at < this.#listeners.length; at++) {
      try {
        this.#listeners[at]!(change);
      } catch (error) {
        this.#log.error({ err: error, mmsi: change.vessel.mmsi }, 'a vessel change listener failed');
      }
    }
  };

  #settle(id: number, value: unknown, error: string | undefined): void {
    const request = this.#requests.get(id);
    if (!request) return;
    this.#requests.delete(id);
    if (error === undefined) request.resolve(value);
    else request.reject(new Error(error));
  }

  #failAll(error: Error): void {
    for (const request of this.#requests.values()) request.reject(error);
    this.#requests.clear();
  }
}
