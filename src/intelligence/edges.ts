// What the vessel rules decide, apart from doing it: an edge opens, changes or clears one event
// of one owner. The rules work out edges in memory on the hot path (no storage there) and hand
// them to an EdgeWriter, which applies them to the event store one at a time in the order they
// came, so an event's opening always lands before its clearing. Only edges touch storage.
import type { EventChanges, EventKind, EventStore, EventSubject, NewEvent } from '../events/index.ts';

export type EventEdge =
  | { action: 'open'; owner: string; event: NewEvent }
  | { action: 'update'; owner: string; kind: EventKind; subject: EventSubject; changes: EventChanges }
  /** `changes` first (the final figures, e.g. how long a silence lasted), then the clearing. */
  | { action: 'clear'; owner: string; kind: EventKind; subject: EventSubject; changes?: EventChanges };

export class EdgeWriter {
  readonly #events: EventStore;
  readonly #onError: (error: unknown, edge: EventEdge) => void;
  #queue: Promise<void> = Promise.resolve();
  #pending = 0;

  constructor(events: EventStore, onError: (error: unknown, edge: EventEdge) => void) {
    this.#events = events;
    this.#onError = onError;
  }

  /** Edges waiting to be written. */
  get pending(): number {
    return this.#pending;
  }

  write(edges: readonly EventEdge[]): void {
    for (const edge of edges) {
      this.#pending++;
      this.#queue = this.#queue
        .then(() => this.#apply(edge))
        .catch((error: unknown) => this.#onError(error, edge))
        .finally(() => this.#pending--);
    }
  }

  /** Resolves once every edge written so far is applied. */
  async settled(): Promise<void> {
    while (this.#pending > 0) await this.#queue;
  }

  async #apply(edge: EventEdge): Promise<void> {
    const events = this.#events;
    if (edge.action === 'open') {
      await events.open(edge.owner, edge.event);
      return;
    }
    const open = await events.findOpen(edge.owner, edge.kind, edge.subject);
    if (open === null) return;
    if (edge.changes !== undefined) await events.update(edge.owner, open.id, edge.changes);
    if (edge.action === 'clear') await events.clear(edge.owner, open.id);
  }
}
