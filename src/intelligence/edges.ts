// What the vessel rules decide, apart from doing it: an edge opens, changes or clears one event
// of one owner. The rules work out edges in memory on the hot path (no storage there) and hand
// them to an EdgeWriter, which applies them to the event store in the order they came, so an
// event's opening always lands before its clearing. Only edges touch storage.
//
// Edges that come together (a zone crossing clears one event and opens another; a busy second
// brings dozens) are written in one transaction, a batch at a time: one commit (one sync to disk
// on SQLite) for the batch rather than one per edge. Their changes are announced once the batch is
// committed. A batch that fails is written again edge by edge, so one bad edge costs only itself.
import type { EventChanges, EventKind, EventSubject, NewEvent } from '../events/index.ts';
import { EventStore } from '../events/index.ts';
import type { Bus } from '../platform/bus/index.ts';
import type { Database } from '../platform/db/database.ts';

/** `observedAt`: the time of the observation behind an opening or a clearing, when there is one (see `EventStore.open`). */
export type EventEdge =
  | { action: 'open'; owner: string; event: NewEvent; observedAt?: string }
  | { action: 'update'; owner: string; kind: EventKind; subject: EventSubject; changes: EventChanges }
  /** `changes` first (the final figures, e.g. how long a silence lasted), then the clearing. */
  | { action: 'clear'; owner: string; kind: EventKind; subject: EventSubject; changes?: EventChanges; observedAt?: string };

/** Edges written in one transaction at most. */
const BATCH_EDGES = 200;

export class EdgeWriter {
  readonly #database: Database;
  readonly #bus: Bus;
  readonly #onError: (error: unknown, edge: EventEdge) => void;
  readonly #queue: EventEdge[] = [];
  #draining: Promise<void> | null = null;

  constructor(database: Database, bus: Bus, onError: (error: unknown, edge: EventEdge) => void) {
    this.#database = database;
    this.#bus = bus;
    this.#onError = onError;
  }

  write(edges: readonly EventEdge[]): void {
    if (edges.length === 0) return;
    this.#queue.push(...edges);
    this.#draining ??= this.#drain().finally(() => (this.#draining = null));
  }

  /** Resolves once every edge written so far is applied. */
  async settled(): Promise<void> {
    while (this.#draining !== null) await this.#draining;
  }

  async #drain(): Promise<void> {
    const events = new EventStore(this.#database, this.#bus);
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, BATCH_EDGES);
      try {
        // One transaction; the changes are announced once it commits.
        await events.batch(async (inBatch) => {
          for (const edge of batch) await apply(inBatch, edge);
        });
      } catch {
        for (const edge of batch) await apply(events, edge).catch((error: unknown) => this.#onError(error, edge));
      }
    }
  }
}

async function apply(events: EventStore, edge: EventEdge): Promise<void> {
  if (edge.action === 'open') {
    await events.open(edge.owner, edge.event, edge.observedAt);
    return;
  }
  const open = await events.findOpen(edge.owner, edge.kind, edge.subject);
  if (open === null) return;
  if (edge.changes !== undefined) await events.update(edge.owner, open.id, edge.changes);
  if (edge.action === 'clear') await events.clear(edge.owner, open.id, edge.observedAt);
}
