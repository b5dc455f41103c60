// Request budgets per organisation and key.
//
// Algorithm: a sliding log. A budget keeps the times of its admitted requests over the last
// WINDOW_SECONDS and admits a request while fewer than its quota are logged. Chosen because it is
// exact, and so are its headers: no 60-second span ever holds more than the quota (a token bucket or
// GCRA lets a full burst plus the refill through in one minute, and the weighted two-window
// estimate assumes the previous minute's requests were evenly spread), `r` is the quota minus the
// log, and `t` is when the oldest logged request leaves, which is exactly the draft's "effective
// window": until then no more than `r` requests will be admitted. The cost is memory in proportion
// to the quota (at most 1,000 timestamps for a Pro organisation); a plan with a far larger quota
// would want GCRA instead.
import type { Principal } from '../http/auth.ts';
import { WINDOW_SECONDS, developmentRate, type Plan } from '../../../common/plans.ts';
import type { CounterStore } from './store.ts';

export interface Budget {
  /** The policy name in the RateLimit headers. */
  policy: 'organisation' | 'key';
  /** The store key of the budget's log. */
  key: string;
  quota: number;
}

/**
 * The budget a request draws from:
 * - a production key draws on its organisation's budget, the plan's requests per minute shared by
 *   all the organisation's production keys (policy "organisation"); a production key with no
 *   organisation has the plan's rate to itself (policy "key");
 * - a development key draws only on its own budget, `developmentRate(plan)` (policy "key"), never
 *   on the organisation's, so development traffic cannot use up production's budget;
 * - nothing is drawn when the plan has no request cap (production keys on Enterprise) or the
 *   principal has no plan at all (`null`, e.g. the instance's own operator keys).
 */
export function budgetFor(principal: Principal, plan: Plan | null): Budget | null {
  if (!plan) return null;
  if (principal.environment === 'development') return { policy: 'key', key: `req:key:${principal.key_id}`, quota: developmentRate(plan) };
  if (plan.requestsPerWindow === null) return null;
  return principal.organisation_id === null
    ? { policy: 'key', key: `req:key:${principal.key_id}`, quota: plan.requestsPerWindow }
    : { policy: 'organisation', key: `req:org:${principal.organisation_id}`, quota: plan.requestsPerWindow };
}

export type Decision =
  | { limited: false }
  | {
      limited: true;
      allowed: boolean;
      policy: Budget['policy'];
      quota: number;
      remaining: number;
      /** Whole seconds until the oldest logged request leaves the window and a unit comes back. */
      resetSeconds: number;
    };

export class RateLimiter {
  readonly #store: CounterStore;
  readonly #clock: () => number;

  constructor(options: { store: CounterStore; clock?: () => number }) {
    this.#store = options.store;
    this.#clock = options.clock ?? Date.now;
  }

  /** Counts the request against its budget (if admitted) and says whether it may go ahead. */
  async check(principal: Principal, plan: Plan | null): Promise<Decision> {
    const budget = budgetFor(principal, plan);
    if (!budget) return { limited: false };
    const now = this.#clock();
    const windowMs = WINDOW_SECONDS * 1000;
    const { allowed, count, oldest } = await this.#store.hit(budget.key, budget.quota, windowMs, now);
    // Rounded up: at `now + resetSeconds` the oldest hit is certainly out of the window.
    const resetSeconds = Math.ceil((oldest + windowMs - now) / 1000);
    // A log can hold more than the quota just after a plan is downgraded.
    const remaining = Math.max(0, budget.quota - count);
    return { limited: true, allowed, policy: budget.policy, quota: budget.quota, remaining, resetSeconds };
  }
}

/**
 * The response headers for a decision. `RateLimit-Policy` and `RateLimit` follow
 * draft-ietf-httpapi-ratelimit-headers-11 (May 2026): Structured Field lists whose items are the
 * policy name as a String with `q`/`w` and `r`/`t` parameters. `X-RateLimit-Limit`, `-Remaining`
 * and `-Reset` repeat the quota, `r` and `t` (seconds, not a timestamp) for older clients. A refusal
 * adds `Retry-After`, equal to `t` as the draft asks (no earlier than the end of the window).
 *
 * With no cap there is no quota to state, and the draft's `q` and `r` must be integers: any number
 * would read as a real limit, so the draft's fields are left out (the draft lets a server omit
 * them) and `X-RateLimit-Limit` and `X-RateLimit-Remaining` say `unlimited`.
 */
export function rateLimitHeaders(decision: Decision): Record<string, string> {
  if (!decision.limited) return { 'X-RateLimit-Limit': 'unlimited', 'X-RateLimit-Remaining': 'unlimited' };
  const { policy, quota, remaining, resetSeconds } = decision;
  return {
    'RateLimit-Policy': `"${policy}";q=${quota};w=${WINDOW_SECONDS}`,
    RateLimit: `"${policy}";r=${remaining};t=${resetSeconds}`,
    'X-RateLimit-Limit': String(quota),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(resetSeconds),
    ...(decision.allowed ? {} : { 'Retry-After': String(resetSeconds) }),
  };
}
