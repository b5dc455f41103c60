// Vessel changes to the streams whose subscriptions they pass. Each change's WebSocket frames are
// made once, when the first stream wants them, and the same bytes go to every stream.
import type { Change } from '../vessels/store.ts';
import type { Outbox } from './outbox.ts';
import { wireFrame, positionData, staticData } from './protocol.ts';
import type { Filter } from './stream.schemas.ts';
import { CompiledFilter, SubscriptionIndex } from './subscriptions.ts';

export class Fanout {
  readonly #index = new SubscriptionIndex<Outbox>();
  readonly #clock: () => number;

  /** `clock` is monotonic milliseconds (pacing measures intervals with it). */
  constructor(clock: () => number = () => performance.now()) {
    this.#clock = clock;
  }

  get subscriptions(): number {
    return this.#index.size;
  }

  now(): number {
    return this.#clock();
  }

  /** Sets (or replaces) what a stream receives. */
  subscribe(outbox: Outbox, filter: Filter): void {
    outbox.restart(filter.updateIntervalSec * 1000);
    this.#index.set(outbox, new CompiledFilter(filter));
  }

  unsubscribe(outbox: Outbox): void {
    this.#index.delete(outbox);
  }

  publish(change: Change): void {
    if (!change.position && !change.static) return;
    const { vessel } = change;
    const now = this.#clock();
    let position: Buffer | null | undefined;
    let statics: Buffer | undefined;
    this.#index.forEachMatch(vessel, (outbox) => {
      if (change.position) {
        if (position === undefined) {
          const data = positionData(vessel);
          position = data && wireFrame('position', data);
        }
        if (position) outbox.position(vessel.mmsi, position, now);
      }
      if (change.static) outbox.static(vessel.mmsi, (statics ??= wireFrame('static', staticData(vessel))));
    });
  }
}
