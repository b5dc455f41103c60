// Where rate-limit counters live: in this process by default, in Redis when REDIS_URL is set so
// that every instance draws on the same budgets. Each operation is atomic in the store, so two
// instances cannot both take the last unit. Times are milliseconds from the caller's clock.

/** One set of `claimAll`: room for `cap` holders, each for `leaseMs`. */
export interface Claim {
  key: string;
  cap: number;
  leaseMs: number;
}

/** What `claimAll` did: when refused, how long until every full set has room again. */
export type ClaimAll = { claimed: true } | { claimed: false; retryAfterMs: number };

/** What a sliding-log hit found. */
export interface WindowCount {
  /** The hit fitted under the limit and was recorded. */
  allowed: boolean;
  /** Hits in the window, this one included when allowed. */
  count: number;
  /** When the oldest hit still in the window was made: one unit comes back as it leaves. */
  oldest: number;
}

export interface CounterStore {
  readonly kind: 'memory' | 'redis';
  /**
   * Sliding log: forgets the hits on `key` made at or before `now - windowMs`, then records one
   * at `now` if fewer than `limit` remain. Refused hits are not recorded.
   */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<WindowCount>;
  /**
   * Gives `holder` a place in the set `key` until `now + leaseMs` if the set has fewer than `cap`
   * unexpired holders (or already holds it). Returns whether it did.
   */
  claim(key: string, holder: string, cap: number, now: number, leaseMs: number): Promise<boolean>;
  /**
   * `claim` on several sets at once, all or nothing: gives `holder` a place in every set, leased
   * for that set's `leaseMs`, or in none when any set already has `cap` unexpired holders.
   */
  claimAll(claims: readonly Claim[], holder: string, now: number): Promise<ClaimAll>;
  /** Extends a holder's lease, putting it back if it had lapsed: a live holder keeps its place. */
  renew(key: string, holder: string, now: number, leaseMs: number): Promise<void>;
  release(key: string, holder: string): Promise<void>;
  /** Empties the set `key`. */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}
