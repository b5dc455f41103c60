// The rate-limit suite: the same tests on the in-process store (always) and on Redis
// (LAMIS_TEST_REDIS_URL). A "peer" is a second instance's view of the same counters: on Redis its
// own connection; in process the same store, since an in-process store serves one instance.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { redisUrl, skipRedis, uniqueName } from '../../../test/support/backends.ts';
import type { Principal } from '../http/auth.ts';
import { PLANS, RateLimiter, StreamGate, rateLimitHeaders, type CounterStore, type Decision, type Scheduler } from './index.ts';
import { createMemoryCounterStore } from './memory.ts';
import { createRedisCounterStore } from './redis.ts';

interface Opened {
  store: CounterStore;
  peer(): Promise<CounterStore>;
  close(): Promise<void>;
}

const backends: { name: string; skip: string | false; open(prefix: string): Promise<Opened> }[] = [
  {
    name: 'in-process',
    skip: false,
    async open() {
      const store = createMemoryCounterStore();
      return { store, peer: async () => store, close: () => store.close() };
    },
  },
  {
    name: 'Redis',
    skip: skipRedis,
    async open(prefix) {
      const connect = () => createRedisCounterStore({ url: redisUrl!, prefix });
      const stores = [await connect()];
      return {
        store: stores[0]!,
        async peer() {
          const peer = await connect();
          stores.push(peer);
          return peer;
        },
        close: async () => void (await Promise.all(stores.map((s) => s.close()))),
      };
    },
  },
];

const T0 = 1_800_000_000_000;

function production(organisation: string, key = `${organisation}_prod`): Principal {
  return { key_id: key, organisation_id: organisation, environment: 'production', admin: false };
}
function development(organisation: string, key = `${organisation}_dev`): Principal {
  return { key_id: key, organisation_id: organisation, environment: 'development', admin: false };
}

function admitted(decision: Decision): Extract<Decision, { limited: true }> {
  assert.ok(decision.limited, 'the request should be limited');
  return decision;
}

/** Renewals run by hand: `run` performs every pending beat and waits for it. */
function manualSchedule(): { schedule: Scheduler; pending: () => number; run: () => Promise<void> } {
  const beats = new Set<() => Promise<void>>();
  return {
    schedule: (_everyMs, beat) => {
      beats.add(beat);
      return () => beats.delete(beat);
    },
    pending: () => beats.size,
    run: async () => void (await Promise.all([...beats].map((beat) => beat()))),
  };
}

for (const backend of backends) {
  describe(`rate limits ${backend.name}`, { skip: backend.skip, timeout: 20_000 }, () => {
    let opened: Opened;
    let now = T0;
    const clock = () => now;
    before(async () => {
      opened = await backend.open(`${uniqueName('lamis_test')}:`);
    });
    after(() => opened.close());

    test('Starter: 100 requests a minute, the 101st refused, the headers counting down', async () => {
      now = T0;
      const limiter = new RateLimiter({ store: opened.store, clock });
      const principal = production(uniqueName('org'));
      for (let i = 1; i <= 100; i++) {
        const decision = admitted(await limiter.check(principal, PLANS.starter));
        assert.equal(decision.allowed, true);
        assert.equal(decision.remaining, 100 - i);
        if (i === 1) {
          assert.deepEqual(rateLimitHeaders(decision), {
            'RateLimit-Policy': '"organisation";q=100;w=60',
            RateLimit: '"organisation";r=99;t=60',
            'X-RateLimit-Limit': '100',
            'X-RateLimit-Remaining': '99',
            'X-RateLimit-Reset': '60',
          });
        }
        now += 100;
      }
      // Ten seconds in: the first request leaves the window 50 s from now.
      const refused = admitted(await limiter.check(principal, PLANS.starter));
      assert.equal(refused.allowed, false);
      assert.deepEqual(rateLimitHeaders(refused), {
        'RateLimit-Policy': '"organisation";q=100;w=60',
        RateLimit: '"organisation";r=0;t=50',
        'X-RateLimit-Limit': '100',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': '50',
        'Retry-After': '50',
      });
      for (let i = 0; i < 20; i++) assert.equal(admitted(await limiter.check(principal, PLANS.starter)).allowed, false);

      // A window after the last request the whole budget is back: refusals were not counted.
      now = T0 + 100 * 100 + 60_000;
      assert.equal(admitted(await limiter.check(principal, PLANS.starter)).remaining, 99);
    });

    test('the window slides: units come back as the oldest requests leave it, and t says when', async () => {
      now = T0;
      const limiter = new RateLimiter({ store: opened.store, clock });
      const principal = production(uniqueName('org'));
      for (let i = 0; i < 50; i++) await limiter.check(principal, PLANS.starter);
      now = T0 + 30_000;
      for (let i = 0; i < 50; i++) await limiter.check(principal, PLANS.starter);

      now = T0 + 59_500;
      const refused = admitted(await limiter.check(principal, PLANS.starter));
      assert.deepEqual([refused.allowed, refused.remaining, refused.resetSeconds], [false, 0, 1]);

      now = T0 + 60_000;
      const first = admitted(await limiter.check(principal, PLANS.starter));
      assert.deepEqual([first.allowed, first.remaining, first.resetSeconds], [true, 49, 30]);

      now = T0 + 90_000;
      const later = admitted(await limiter.check(principal, PLANS.starter));
      assert.deepEqual([later.allowed, later.remaining, later.resetSeconds], [true, 98, 30]);
    });

    test("an organisation's production keys share its budget; another organisation has its own", async () => {
      now = T0;
      const limiter = new RateLimiter({ store: opened.store, clock });
      const organisation = uniqueName('org');
      const [a, b] = [production(organisation, 'key_a'), production(organisation, 'key_b')];
      for (let i = 0; i < 60; i++) assert.equal(admitted(await limiter.check(a, PLANS.starter)).allowed, true);
      for (let i = 0; i < 40; i++) assert.equal(admitted(await limiter.check(b, PLANS.starter)).allowed, true);
      assert.equal(admitted(await limiter.check(a, PLANS.starter)).allowed, false);
      assert.equal(admitted(await limiter.check(b, PLANS.starter)).allowed, false);
      assert.equal(admitted(await limiter.check(production(uniqueName('org')), PLANS.starter)).remaining, 99);
    });

    test("development keys: a tenth of the plan's rate, at most 60, each key alone and apart from production", async () => {
      now = T0;
      const limiter = new RateLimiter({ store: opened.store, clock });
      const organisation = uniqueName('org');
      const key = development(organisation, 'dev_a');
      for (let i = 1; i <= 10; i++) assert.equal(admitted(await limiter.check(key, PLANS.starter)).remaining, 10 - i);
      const refused = admitted(await limiter.check(key, PLANS.starter));
      assert.equal(refused.allowed, false);
      assert.equal(rateLimitHeaders(refused)['RateLimit-Policy'], '"key";q=10;w=60');

      assert.equal(admitted(await limiter.check(development(organisation, 'dev_b'), PLANS.starter)).remaining, 9);
      assert.equal(admitted(await limiter.check(production(organisation), PLANS.starter)).remaining, 99);
      assert.equal(admitted(await limiter.check(development(uniqueName('org')), PLANS.pro)).quota, 60);
      assert.equal(admitted(await limiter.check(development(uniqueName('org')), PLANS.enterprise)).quota, 60);
    });

    test('Enterprise production keys and principals with no plan are not limited, and the headers say so', async () => {
      const limiter = new RateLimiter({ store: opened.store, clock });
      const unlimited = { 'X-RateLimit-Limit': 'unlimited', 'X-RateLimit-Remaining': 'unlimited' };
      for (let i = 0; i < 150; i++) assert.deepEqual(await limiter.check(production('big_org'), PLANS.enterprise), { limited: false });
      assert.deepEqual(rateLimitHeaders(await limiter.check(production('big_org'), PLANS.enterprise)), unlimited);
      assert.deepEqual(rateLimitHeaders(await limiter.check(development('operator'), null)), unlimited);
    });

    test('two instances racing on one budget admit exactly its quota', async () => {
      now = T0;
      const principal = production(uniqueName('org'));
      const a = new RateLimiter({ store: opened.store, clock });
      const b = new RateLimiter({ store: await opened.peer(), clock });
      const decisions = await Promise.all(
        Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b).check(principal, PLANS.starter)),
      );
      assert.equal(decisions.filter((d) => admitted(d).allowed).length, 100);
      assert.equal(admitted(await a.check(principal, PLANS.starter)).allowed, false);
      assert.equal(admitted(await b.check(principal, PLANS.starter)).allowed, false);
    });

    test('claims on several sets are all or nothing; racing instances fill each set exactly', async () => {
      now = T0;
      const [small, large] = [uniqueName('small'), uniqueName('large')];
      const both = [{ key: small, cap: 5, leaseMs: 60_000 }, { key: large, cap: 20, leaseMs: 90_000 }];
      const peer = await opened.peer();
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? opened.store : peer).claimAll(both, `h${i}`, now)));
      assert.equal(results.filter((r) => r.claimed).length, 5);
      // The refused claims took no place in the larger set: 15 more fit.
      for (let i = 0; i < 15; i++) assert.deepEqual(await opened.store.claimAll([both[1]!], `o${i}`, now), { claimed: true });
      now = T0 + 10_000;
      // Both sets are full: room comes back as the first leases run out, 80 s from now in the larger.
      assert.deepEqual(await peer.claimAll(both, 'late', now), { claimed: false, retryAfterMs: 80_000 });
      await opened.store.release(small, 'h0');
      assert.deepEqual(await peer.claimAll([both[0]!], 'after release', now), { claimed: true });
      await peer.clear(large);
      now = T0 + 60_000;
      assert.deepEqual(await opened.store.claimAll(both, 'after clear', now), { claimed: true });
    });

    test('Pro: five streams at once per organisation across instances; a release frees one slot', async () => {
      now = T0;
      const a = new StreamGate({ store: opened.store, clock });
      const b = new StreamGate({ store: await opened.peer(), clock });
      const organisation = uniqueName('org');
      const grants = [];
      for (const gate of [a, a, a, b, b]) grants.push(await gate.acquireStream(organisation, PLANS.pro));
      assert.ok(grants.every((g) => g.ok));
      assert.deepEqual(await a.acquireStream(organisation, PLANS.pro), { ok: false, reason: 'cap' });
      assert.deepEqual(await b.acquireStream(organisation, PLANS.pro), { ok: false, reason: 'cap' });
      assert.equal((await a.acquireStream(uniqueName('org'), PLANS.pro)).ok, true);

      const first = grants[0]!;
      assert.ok(first.ok);
      await first.release();
      await first.release();
      assert.equal((await b.acquireStream(organisation, PLANS.pro)).ok, true);
      assert.deepEqual(await a.acquireStream(organisation, PLANS.pro), { ok: false, reason: 'cap' });
    });

    test('Starter has no streams; Enterprise has no cap', async () => {
      const gate = new StreamGate({ store: opened.store, clock });
      assert.deepEqual(await gate.acquireStream(uniqueName('org'), PLANS.starter), { ok: false, reason: 'plan' });
      const organisation = uniqueName('org');
      for (let i = 0; i < 20; i++) assert.equal((await gate.acquireStream(organisation, PLANS.enterprise)).ok, true);
    });

    test("the slots of an instance that stopped renewing free themselves after the lease; renewed ones don't", async () => {
      now = T0;
      const organisation = uniqueName('org');
      const alive = manualSchedule();
      const crashed = manualSchedule();
      const options = { clock, leaseMs: 30_000 };
      const live = new StreamGate({ ...options, store: opened.store, schedule: alive.schedule });
      const dead = new StreamGate({ ...options, store: await opened.peer(), schedule: crashed.schedule });
      const other = new StreamGate({ ...options, store: await opened.peer() });
      const kept = [await live.acquireStream(organisation, PLANS.pro), await live.acquireStream(organisation, PLANS.pro)];
      for (let i = 0; i < 3; i++) assert.equal((await dead.acquireStream(organisation, PLANS.pro)).ok, true);

      now = T0 + 20_000;
      await alive.run();
      now = T0 + 30_000;
      const taken = [];
      for (let i = 0; i < 3; i++) taken.push(await other.acquireStream(organisation, PLANS.pro));
      assert.ok(taken.every((g) => g.ok));
      assert.deepEqual(await other.acquireStream(organisation, PLANS.pro), { ok: false, reason: 'cap' });

      for (const grant of kept) if (grant.ok) await grant.release();
      assert.equal(alive.pending(), 0);
      assert.equal((await other.acquireStream(organisation, PLANS.pro)).ok, true);
    });
  });
}

describe('rate limits on Redis: keys', { skip: skipRedis, timeout: 10_000 }, () => {
  test('every key the counters write expires', async () => {
    const prefix = `${uniqueName('lamis_test')}:`;
    const store = await createRedisCounterStore({ url: redisUrl!, prefix });
    const redis = new Redis(redisUrl!);
    try {
      await new RateLimiter({ store }).check(production('org_ttl'), PLANS.starter);
      await new RateLimiter({ store }).check(development('org_ttl'), PLANS.starter);
      const stream = await new StreamGate({ store }).acquireStream('org_ttl', PLANS.pro);
      assert.ok(stream.ok);
      const keys = await redis.keys(`${prefix}*`);
      assert.equal(keys.length, 3);
      for (const key of keys) {
        const ttl = await redis.pttl(key);
        assert.ok(ttl > 0 && ttl <= 60_000, `${key} expires in ${ttl} ms`);
      }
      await stream.release();
    } finally {
      await store.close();
      await redis.quit();
    }
  });
});
