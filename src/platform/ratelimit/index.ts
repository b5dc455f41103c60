import type { PlatformSettings } from '../settings.ts';
import { createMemoryCounterStore } from './memory.ts';
import type { CounterStore } from './store.ts';

export type { CounterStore } from './store.ts';
export { DEVELOPMENT_KEYS, PLANS, WINDOW_SECONDS, developmentRate, type Plan, type PlanName } from '../../../common/plans.ts';
export { RateLimiter, budgetFor, rateLimitHeaders, type Budget, type Decision } from './limiter.ts';
export { StreamGate, type Scheduler, type StreamGateOptions, type StreamGrant } from './streams.ts';
export { LoadShedder, type LoadShedderOptions, type OverloadReason, type OverloadSignal, type OverloadState, type Shed } from './shedder.ts';
export { reportLoad } from './report.ts';
export { installRateLimits, overloaded, overloadRefused, rateLimited, type RateLimitOptions } from './install.ts';

/** Counters in this process, or in Redis when REDIS_URL is set so that instances share budgets (its client loaded only then). */
export async function openCounterStore(settings: Pick<PlatformSettings, 'redisUrl'>, prefix = 'lamis:ratelimit:'): Promise<CounterStore> {
  if (!settings.redisUrl) return createMemoryCounterStore();
  const { createRedisCounterStore } = await import('./redis.ts');
  return createRedisCounterStore({ url: settings.redisUrl, prefix });
}
