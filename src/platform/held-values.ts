// Values read from storage and held in memory until their owner is told they changed. Storage
// stays the truth: a key not held is read again, and one held longer than `maxAgeMs` too, which
// bounds how long a missed change notice (a bus message lost while Redis reconnected) can go
// unseen. Concurrent requests for a key share one read; a read under way when its key is forgotten
// answers the requests that joined it but is not kept, since it may have read the state before the
// change.

export interface HeldValuesOptions {
  /** Longest a value is served before it is read again (default 60 s). */
  maxAgeMs?: number;
  clock?: () => number;
}

export class HeldValues<K, V> {
  readonly #held = new Map<K, { value: V; readAt: number }>();
  readonly #reading = new Map<K, Promise<V>>();
  readonly #maxAgeMs: number;
  readonly #clock: () => number;

  constructor(options: HeldValuesOptions = {}) {
    this.#maxAgeMs = options.maxAgeMs ?? 60_000;
    this.#clock = options.clock ?? Date.now;
  }

  /** The value held for `key`, else what `read` gives (then held). */
  get(key: K, read: () => Promise<V>): Promise<V> {
    const held = this.#held.get(key);
    if (held !== undefined && this.#clock() - held.readAt < this.#maxAgeMs) return Promise.resolve(held.value);
    let reading = this.#reading.get(key);
    if (reading === undefined) {
      const readAt = this.#clock();
      const own = read();
      reading = own;
      this.#reading.set(key, own);
      own.then(
        (value) => {
          if (this.#reading.get(key) !== own) return;
          this.#reading.delete(key);
          this.#held.set(key, { value, readAt });
        },
        () => {
          if (this.#reading.get(key) === own) this.#reading.delete(key);
        },
      );
    }
    return reading;
  }

  /** The value held for `key`, reading nothing; undefined when none is held (or it is too old). */
  peek(key: K): V | undefined {
    const held = this.#held.get(key);
    return held !== undefined && this.#clock() - held.readAt < this.#maxAgeMs ? held.value : undefined;
  }

  /** Drops the value of `key` (and any read under way), so the next request reads storage. */
  forget(key: K): void {
    this.#held.delete(key);
    this.#reading.delete(key);
  }

}
