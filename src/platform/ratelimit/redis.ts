import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { CounterStore } from './store.ts';

// Each script runs atomically in Redis, so concurrent instances see one budget. Every key gets a
// TTL as long as the longest-lived entry it holds, so idle budgets and dead leases vanish.

/** KEYS[1]: hit log, scored by time. ARGV: now, window (ms), limit, unique member. */
const HIT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {allowed, count, oldest or ARGV[1]}
`;

/** KEYS[1]: holders, scored by lease expiry. ARGV: holder, cap, now, lease (ms). */
const CLAIM = `
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

/**
 * KEYS: holder sets, scored by lease expiry. ARGV: holder, now, then cap and lease (ms) of each
 * set in turn. Returns 0 when the holder got a place in every set, else the milliseconds until
 * every full set has room (and claims nothing).
 */
const CLAIM_ALL = `
local now = tonumber(ARGV[2])
local wait = 0
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local cap = tonumber(ARGV[1 + 2 * i])
  local count = redis.call('ZCARD', key)
  if count >= cap then
    local freed = redis.call('ZRANGE', key, count - cap, count - cap, 'WITHSCORES')[2]
    wait = math.max(wait, tonumber(freed) - now)
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  local lease = tonumber(ARGV[2 + 2 * i])
  redis.call('ZADD', key, now + lease, ARGV[1])
  redis.call('PEXPIRE', key, lease)
end
return 0
`;

interface Scripts {
  lamisRateHit(key: string, now: number, windowMs: number, limit: number, member: string): Promise<[number, number, string]>;
  lamisRateClaim(key: string, holder: string, cap: number, now: number, leaseMs: number): Promise<number>;
  lamisRateClaimAll(...keysAndArgs: (string | number)[]): Promise<number>;
}

export interface RedisCounterStoreOptions {
  url: string;
  /** Key prefix, so several deployments (or test runs) can share one Redis. */
  prefix: string;
}

export async function createRedisCounterStore(options: RedisCounterStoreOptions): Promise<CounterStore> {
  // No offline queue: while Redis is unreachable a check fails at once instead of holding the
  // request until a reconnect.
  const redis = new Redis(options.url, { lazyConnect: true, enableOfflineQueue: false, enableAutoPipelining: true }) as Redis & Scripts;
  redis.defineCommand('lamisRateHit', { numberOfKeys: 1, lua: HIT });
  redis.defineCommand('lamisRateClaim', { numberOfKeys: 1, lua: CLAIM });
  // The number of keys comes first in each call: it varies.
  redis.defineCommand('lamisRateClaimAll', { lua: CLAIM_ALL });
  await redis.connect();
  const k = (key: string) => options.prefix + key;

  return {
    kind: 'redis',
    async hit(key, limit, windowMs, now) {
      const [allowed, count, oldest] = await redis.lamisRateHit(k(key), now, windowMs, limit, randomUUID());
      return { allowed: allowed === 1, count, oldest: Number(oldest) };
    },
    async claim(key, holder, cap, now, leaseMs) {
      return (await redis.lamisRateClaim(k(key), holder, cap, now, leaseMs)) === 1;
    },
    async claimAll(claims, holder, now) {
      const keys = claims.map((claim) => k(claim.key));
      const limits = claims.flatMap((claim) => [claim.cap, claim.leaseMs]);
      const retryAfterMs = await redis.lamisRateClaimAll(keys.length, ...keys, holder, now, ...limits);
      return retryAfterMs === 0 ? { claimed: true } : { claimed: false, retryAfterMs };
    },
    async renew(key, holder, now, leaseMs) {
      await redis.multi().zadd(k(key), now + leaseMs, holder).pexpire(k(key), leaseMs).exec();
    },
    async release(key, holder) {
      await redis.zrem(k(key), holder);
    },
    async clear(key) {
      await redis.del(k(key));
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
