// Vessel changes for those who read the port data with them (port calls; the intelligence engine's
// port areas and destinations), heard from the start but passed on only once it has loaded.
import { backgroundTurn } from '../../platform/background-turns.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Change } from './store.ts';

/** At most this many changes wait (a feed pouring in while the data loads); later ones are dropped. */
const HELD_CHANGES = 100_000;
/** Passed on this many a turn once released, so the backlog does not hold the event loop. */
const HELD_SLICE = 500;

/**
 * Keeps what it hears in order until `release`, then passes that on a slice a turn and from then
 * on every change as it comes. A change is kept with a copy of its vessel as the change left it:
 * the read copy updates its vessel objects in place (changes.ts). Drops past HELD_CHANGES are
 * counted in the log: the read copy and the streams have those changes all the same.
 */
export class HeldChanges<T extends Change> {
  readonly #log: FastifyBaseLogger;
  readonly #deliver: (change: T) => void;
  #held: T[] | null = [];
  #dropped = 0;
  #releasing: Promise<void> | null = null;

  constructor(log: FastifyBaseLogger, deliver: (change: T) => void) {
    this.#log = log;
    this.#deliver = deliver;
  }

  readonly heard = (change: T): void => {
    if (this.#held === null) this.#deliver(change);
    else if (this.#held.length < HELD_CHANGES) this.#held.push({ ...change, vessel: { ...change.vessel } });
    else this.#dropped++;
  };

  /** Passes on what was held, and from then on every change as it comes. */
  release(): Promise<void> {
    this.#releasing ??= (async () => {
      const held = this.#held!;
      // Changes heard while these are passed on join the end of the list.
      for (let from = 0; from < held.length; from += HELD_SLICE) {
        for (const change of held.slice(from, from + HELD_SLICE)) this.#deliver(change);
        await backgroundTurn();
      }
      this.#held = null;
      if (this.#dropped > 0) this.#log.warn({ dropped: this.#dropped }, 'vessel changes heard while the port data loaded were dropped past the bound');
    })();
    return this.#releasing;
  }
}
