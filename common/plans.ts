// What each plan allows, as data: accounts decide which plan an organisation is on, the rate
// limiter and the stream gate read the numbers from here, and the dashboard shows them.

export type PlanName = 'starter' | 'pro' | 'enterprise';

export interface Plan {
  readonly name: PlanName;
  readonly title: string;
  /** Requests per window for the organisation's production keys together; null: no cap. */
  readonly requestsPerWindow: number | null;
  /** Whether the plan includes WebSocket streams (every plan includes REST). */
  readonly streams: boolean;
  /** Streams open at once per organisation, when `streams`; null: no cap. */
  readonly maxConcurrentStreams: number | null;
}

/** Every request budget is counted over the last minute. */
export const WINDOW_SECONDS = 60;

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  starter: { name: 'starter', title: 'Starter', requestsPerWindow: 100, streams: false, maxConcurrentStreams: 0 },
  pro: { name: 'pro', title: 'Pro', requestsPerWindow: 1000, streams: true, maxConcurrentStreams: 5 },
  enterprise: { name: 'enterprise', title: 'Enterprise', requestsPerWindow: null, streams: true, maxConcurrentStreams: null },
};

/**
 * Development keys get a tenth of the plan's rate, at most 60 requests a minute (and at least
 * one), each key on its own: Starter 10/min, Pro 60/min, Enterprise 60/min. Enough to build and
 * test a client; production traffic is what the plan pays for.
 */
export const DEVELOPMENT_KEYS = { share: 0.1, maxPerWindow: 60 } as const;

export function developmentRate(plan: Plan): number {
  if (plan.requestsPerWindow === null) return DEVELOPMENT_KEYS.maxPerWindow;
  const share = Math.floor(plan.requestsPerWindow * DEVELOPMENT_KEYS.share);
  return Math.max(1, Math.min(DEVELOPMENT_KEYS.maxPerWindow, share));
}
