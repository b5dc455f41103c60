import type { Config } from '../../config.ts';
import { createMemoryCounterStore } from './memory.ts';
import { createRedisCounterStore } from './redis.ts';
import type { CounterStore } from './store.ts';

export type { CounterStore } from './store.ts';
export { DEVELOPMENT_KEYS, PLANS, WINDOW_SECONDS, developmentRate, type Plan, type PlanName } from './plans.ts';
export { RateLimiter, budgetFor, rateLimitHeaders, type Budget, type Decision } from './limiter.ts';
export { StreamGate, type Scheduler, type StreamGateOptions, type StreamGrant } from './streams.ts';
export { LoadShedder, type LoadShedderOptions } from './shedder.ts';
export { installRateLimits, overloaded, rateLimited, type RateLimitOptions } from './install.ts';

/** Counters in this process, or in Redis when REDIS_URL is set so that instances share budgets. */
export function openCounterStore(config: Config, prefix = 'lamis:ratelimit:'): Promise<CounterStore> {
  return config.redisUrl ? createRedisCounterStore({ url: config.redisUrl, prefix }) : Promise.resolve(createMemoryCounterStore());
}
