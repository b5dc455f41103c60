// What the HTTP platform needs to admit a request: a key check, rate limits, and a usage counter.
// Accounts provide it; the platform only asks.
import type { Principal, KeyVerifier } from './auth.ts';
import type { RateLimitOptions } from '../ratelimit/index.ts';

export interface Access {
  verifyKey: KeyVerifier;
  rateLimits: RateLimitOptions;
  /** Counts one answered request of an authenticated caller. */
  recordRequest(principal: Principal): void;
  /** Flushes counters and closes connections; storage closes after. */
  close(): Promise<void>;
}
