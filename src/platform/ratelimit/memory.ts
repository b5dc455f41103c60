import type { CounterStore } from './store.ts';

interface Log {
  /** Hit times, oldest first. */
  hits: number[];
  windowMs: number;
}

/** Idle entries are dropped at most this often, so keys seen once do not stay for ever. */
const SWEEP_EVERY_MS = 60_000;

/** Forgets the hits made at or before `cutoff`. */
function prune(hits: number[], cutoff: number): void {
  let stale = 0;
  while (stale < hits.length && hits[stale]! <= cutoff) stale++;
  if (stale) hits.splice(0, stale);
}

function expire(holders: Map<string, number>, now: number): void {
  for (const [holder, expiry] of holders) if (expiry <= now) holders.delete(holder);
}

/** How long until a set of unexpired holders has fewer than `cap`: 0 when it has already. */
function waitForRoom(holders: Map<string, number>, cap: number, now: number): number {
  if (holders.size < cap) return 0;
  const expiries = [...holders.values()].sort((a, b) => a - b);
  return expiries[holders.size - cap]! - now;
}

export function createMemoryCounterStore(): CounterStore {
  const logs = new Map<string, Log>();
  const sets = new Map<string, Map<string, number>>();
  let nextSweep = -Infinity;
  let closed = false;

  const open = () => {
    if (closed) throw new Error('rate-limit store is closed');
  };
  const setOf = (key: string, now: number) => {
    let holders = sets.get(key);
    if (!holders) sets.set(key, (holders = new Map()));
    expire(holders, now);
    return holders;
  };
  const sweep = (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + SWEEP_EVERY_MS;
    for (const [key, log] of logs) {
      prune(log.hits, now - log.windowMs);
      if (log.hits.length === 0) logs.delete(key);
    }
    for (const [key, holders] of sets) {
      expire(holders, now);
      if (holders.size === 0) sets.delete(key);
    }
  };

  return {
    kind: 'memory',
    async hit(key, limit, windowMs, now) {
      open();
      sweep(now);
      let log = logs.get(key);
      if (!log) logs.set(key, (log = { hits: [], windowMs }));
      log.windowMs = windowMs;
      prune(log.hits, now - windowMs);
      const allowed = log.hits.length < limit;
      if (allowed) log.hits.push(now);
      return { allowed, count: log.hits.length, oldest: log.hits[0] ?? now };
    },
    async claim(key, holder, cap, now, leaseMs) {
      open();
      sweep(now);
      const holders = setOf(key, now);
      if (!holders.has(holder) && holders.size >= cap) return false;
      holders.set(holder, now + leaseMs);
      return true;
    },
    async claimAll(claims, holder, now) {
      open();
      sweep(now);
      // No await between the check and the claims: nothing else runs in between.
      const retryAfterMs = Math.max(0, ...claims.map((claim) => waitForRoom(setOf(claim.key, now), claim.cap, now)));
      if (retryAfterMs > 0) return { claimed: false, retryAfterMs };
      for (const claim of claims) setOf(claim.key, now).set(holder, now + claim.leaseMs);
      return { claimed: true };
    },
    async renew(key, holder, now, leaseMs) {
      open();
      let holders = sets.get(key);
      if (!holders) sets.set(key, (holders = new Map()));
      holders.set(holder, now + leaseMs);
    },
    async release(key, holder) {
      open();
      sets.get(key)?.delete(holder);
    },
    async clear(key) {
      open();
      sets.delete(key);
    },
    async close() {
      closed = true;
      logs.clear();
      sets.clear();
    },
  };
}
