// Who takes which messages on one bus: handlers of whole topics, and part subscriptions of
// partitioned topics with the parts they watch. Each bus delivers through this; a bus that goes
// through a server also asks it what to listen to.
import { partitioned, type Handler, type Parts, type PartSubscription, type Topic } from './bus.ts';

interface Partial {
  handler: Handler<unknown>;
  parts: Parts;
}

interface TopicHandlers {
  partitioned: boolean;
  everything: Set<Handler<unknown>>;
  partial: Set<Partial>;
  /**
   * The handlers of each part asked for since the subscriptions last changed (`''`: a message
   * without a part), one list a part (a topic's parts are few: vessel changes have 649). Lists
   * are made anew after a change, never altered: a delivery keeps the list it started with.
   */
  lists: Map<string, Handler<unknown>[]>;
}

/** What a bus must receive of one topic: the whole of it, or these parts; null: nothing. */
export type Wanted = 'all' | ReadonlySet<string> | null;

const NONE: readonly Handler<unknown>[] = [];

export class Subscribers {
  readonly #topics = new Map<string, TopicHandlers>();

  #of(topic: Topic<unknown>): TopicHandlers {
    let entry = this.#topics.get(topic.name);
    if (!entry) this.#topics.set(topic.name, (entry = { partitioned: topic.part !== undefined, everything: new Set(), partial: new Set(), lists: new Map() }));
    return entry;
  }

  #forget(name: string, entry: TopicHandlers): void {
    if (entry.everything.size === 0 && entry.partial.size === 0 && this.#topics.get(name) === entry) this.#topics.delete(name);
  }

  /** Adds a handler of every message of the topic; returns its removal. */
  add<T>(topic: Topic<T>, handler: Handler<T>): () => void {
    const entry = this.#of(topic as Topic<unknown>);
    const added = handler as Handler<unknown>;
    entry.everything.add(added);
    entry.lists.clear();
    return () => {
      entry.everything.delete(added);
      entry.lists.clear();
      this.#forget(topic.name, entry);
    };
  }

  /**
   * Adds a handler of no part yet, as a bus hands it out: `watch` sets its parts, `close` takes it
   * away; `changed` runs after each (a bus on a server listens to what is wanted then).
   */
  partSubscription<T>(topic: Topic<T>, handler: Handler<T>, changed: () => Promise<void> = async () => undefined): PartSubscription {
    partitioned(topic as Topic<unknown>);
    const entry = this.#of(topic as Topic<unknown>);
    const partial: Partial = { handler: handler as Handler<unknown>, parts: new Set() };
    entry.partial.add(partial);
    return {
      watch: async (parts) => {
        partial.parts = parts === 'all' ? 'all' : new Set(parts);
        entry.lists.clear();
        await changed();
      },
      close: async () => {
        entry.partial.delete(partial);
        entry.lists.clear();
        this.#forget(topic.name, entry);
        await changed();
      },
    };
  }

  /** Whether `name` is a partitioned topic someone here subscribes to. */
  isPartitioned(name: string): boolean {
    return this.#topics.get(name)?.partitioned === true;
  }

  /**
   * The handlers a message of this topic (and part, on a partitioned one) goes to, as of now: a list
   * kept until the topic's subscriptions change (a message per vessel change asks for it), not to
   * be altered.
   */
  handlers(name: string, part: string | undefined): readonly Handler<unknown>[] {
    const entry = this.#topics.get(name);
    if (!entry) return NONE;
    const key = part ?? '';
    let handlers = entry.lists.get(key);
    if (handlers) return handlers;
    handlers = [...entry.everything];
    for (const partial of entry.partial) {
      if (partial.parts === 'all' || (part !== undefined && partial.parts.has(part))) handlers.push(partial.handler);
    }
    entry.lists.set(key, handlers);
    return handlers;
  }

  wanted(name: string): Wanted {
    const entry = this.#topics.get(name);
    if (!entry) return null;
    if (entry.everything.size > 0) return 'all';
    const parts = new Set<string>();
    for (const partial of entry.partial) {
      if (partial.parts === 'all') return 'all';
      for (const part of partial.parts) parts.add(part);
    }
    return parts.size > 0 ? parts : null;
  }
}
