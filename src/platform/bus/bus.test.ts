// The bus suite: the same tests in-process (always), on Redis (LAMIS_TEST_REDIS_URL) and on NATS
// (LAMIS_TEST_NATS_URL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { natsUrl, redisUrl, skipNats, skipRedis, uniqueName } from '../../../test/support/backends.ts';
import { defaultConfig } from '../../config.ts';
import { openBus, topic, type Bus, type Topic } from './index.ts';

interface Position {
  mmsi: number;
  seq: number;
}
const positions = topic<Position>('test.positions');
const other = topic<Position>('test.other');
/** Partitioned by a region number carried in the message. */
interface Located extends Position {
  region: number;
}
const located = topic<Located>('test.located', (m) => `r${m.region}`);

/** Subscribes and collects; `all` resolves once `count` messages arrived. */
async function collect<T>(bus: Bus, t: Topic<T>, count: number): Promise<{ messages: T[]; all: Promise<void> }> {
  const messages: T[] = [];
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  await bus.subscribe(t, (message) => {
    messages.push(message);
    if (messages.length === count) done();
  });
  return { messages, all };
}

/** Resolves when the condition holds, or fails after a while. */
async function until(condition: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const backends = [
  { name: 'in-process', skip: false as const, config: () => defaultConfig() },
  { name: 'Redis', skip: skipRedis, config: () => defaultConfig({ redisUrl }) },
  { name: 'NATS', skip: skipNats, config: () => defaultConfig({ natsUrl }) },
];
const servers = backends.filter((backend) => backend.name !== 'in-process');

for (const backend of backends) {
  describe(`bus ${backend.name}`, { skip: backend.skip, timeout: 10_000 }, () => {
    const errors: unknown[] = [];
    const prefix = `${uniqueName('lamis_test')}:`;
    let bus: Bus;
    before(async () => {
      bus = await openBus(backend.config(), (error) => errors.push(error), prefix);
    });
    after(() => bus.close());

    test('a subscriber receives what is published, in order, only on its topic', async () => {
      const { messages, all } = await collect<Position>(bus, positions, 100);
      await bus.publish(other, { mmsi: 1, seq: -1 });
      for (let seq = 0; seq < 100; seq++) await bus.publish(positions, { mmsi: 244_123_456, seq });
      await all;
      assert.deepEqual(messages.map((m) => m.seq), [...Array(100).keys()]);
      assert.ok(messages.every((m) => m.mmsi === 244_123_456));
    });

    test('messages published in one turn arrive in order, and one a handler publishes meanwhile after them', async () => {
      const burst = topic<Position>('test.burst');
      await bus.subscribe(burst, (m) => {
        if (m.seq === 3) void bus.publish(burst, { mmsi: 9, seq: 100 });
      });
      const { messages, all } = await collect<Position>(bus, burst, 11);
      for (let seq = 0; seq < 10; seq++) void bus.publish(burst, { mmsi: 9, seq });
      await all;
      assert.deepEqual(messages.map((m) => m.seq), [...Array(10).keys(), 100]);
    });

    test('delivery never happens inside publish', async () => {
      let delivered = false;
      const unsubscribe = await bus.subscribe(positions, () => (delivered = true));
      const publishing = bus.publish(positions, { mmsi: 2, seq: 0 });
      assert.equal(delivered, false);
      await publishing;
      await until(() => delivered);
      await unsubscribe();
    });

    test('after unsubscribing a handler gets nothing more', async () => {
      const seen: number[] = [];
      const unsubscribe = await bus.subscribe(positions, (m) => seen.push(m.seq));
      const { all } = await collect<Position>(bus, positions, 2);
      await bus.publish(positions, { mmsi: 3, seq: 1 });
      await until(() => seen.length === 1);
      await unsubscribe();
      await bus.publish(positions, { mmsi: 3, seq: 2 });
      await all; // the other subscriber saw both, so the second was delivered
      assert.deepEqual(seen, [1]);
    });

    test('a subscription ended during a delivery still gets that message, and none after', async () => {
      const snapshot = topic<Position>('test.snapshot');
      const got: string[] = [];
      let endOther!: () => Promise<void>;
      await bus.subscribe(snapshot, (m) => {
        got.push(`first ${m.seq}`);
        if (m.seq === 0) void endOther();
      });
      endOther = await bus.subscribe(snapshot, (m) => got.push(`second ${m.seq}`));
      const { all } = await collect<Position>(bus, snapshot, 2);
      await bus.publish(snapshot, { mmsi: 8, seq: 0 });
      await bus.publish(snapshot, { mmsi: 8, seq: 1 });
      await all;
      assert.deepEqual(got, ['first 0', 'second 0', 'first 1']);
    });

    test('a handler that throws is reported and does not stop the others', async () => {
      const failing = topic<Position>('test.failing');
      await bus.subscribe(failing, () => {
        throw new Error('handler broke');
      });
      const { messages, all } = await collect<Position>(bus, failing, 1);
      await bus.publish(failing, { mmsi: 4, seq: 0 });
      await all;
      assert.equal(messages.length, 1);
      assert.ok(errors.some((e) => (e as Error).message === 'handler broke'));
    });

    test('readiness reports the bus as up', async () => {
      const health = await bus.check();
      assert.equal(health.state, 'up');
      assert.equal(health.detail?.kind, bus.kind);
    });

    test('a part subscription gets only the parts it watches; a whole subscription gets every part', async () => {
      const parted: Located[] = [];
      const whole = await collect<Located>(bus, located, 6);
      const subscription = await bus.subscribeParts(located, (m) => parted.push(m));
      await subscription.watch(new Set(['r1', 'r3']));
      for (let seq = 0; seq < 6; seq++) await bus.publish(located, { mmsi: 6, seq, region: seq % 4 });
      await whole.all;
      await until(() => parted.length === 3);
      assert.deepEqual(parted.map((m) => m.seq), [1, 3, 5]);
      await subscription.close();
    });

    test('while the watched parts change under traffic, every message of a kept part arrives once, in order', async () => {
      const seen: Located[] = [];
      const subscription = await bus.subscribeParts(located, (m) => seen.push(m));
      await subscription.watch(new Set(['r0']));
      const changes: Parameters<typeof subscription.watch>[0][] = ['all', new Set(['r0', 'r1']), 'all', new Set(['r0']), new Set(['r0', 'r2'])];
      let seq = 0;
      let publishing = true;
      const publisher = (async () => {
        while (publishing) {
          for (let i = 0; i < 20; i++, seq++) void bus.publish(located, { mmsi: 7, seq, region: seq % 3 });
          await new Promise((r) => setImmediate(r));
        }
      })();
      for (const parts of changes) {
        await subscription.watch(parts);
        await new Promise((r) => setTimeout(r, 15));
      }
      publishing = false;
      await publisher;
      // Region 0 was watched throughout: all of it arrives (and, after a pause, nothing more).
      const region0 = Array.from({ length: Math.ceil(seq / 3) }, (_, i) => i * 3);
      const ofRegion0 = () => seen.filter((m) => m.region === 0).map((m) => m.seq);
      await until(() => ofRegion0().length >= region0.length);
      await new Promise((r) => setTimeout(r, 50));
      await subscription.close();
      assert.deepEqual(ofRegion0(), region0);
      const seqs = seen.map((m) => m.seq);
      assert.deepEqual(seqs, [...new Set(seqs)].sort((a, b) => a - b), 'nothing twice, in order');
      assert.ok(seen.some((m) => m.region === 1) && seen.some((m) => m.region === 2));
    });
  });
}

test('a bus whose server does not answer is not opened', async () => {
  const closedPort = 'nats://127.0.0.1:1';
  await assert.rejects(openBus(defaultConfig({ natsUrl: closedPort }), () => {}));
});

for (const backend of servers) {
  describe(`bus across instances (${backend.name})`, { skip: backend.skip, timeout: 10_000 }, () => {
    const prefix = `${uniqueName('lamis_test')}:`;
    let a: Bus;
    let b: Bus;
    before(async () => {
      [a, b] = await Promise.all([openBus(backend.config(), () => {}, prefix), openBus(backend.config(), () => {}, prefix)]);
    });
    after(() => Promise.all([a.close(), b.close()]));

    test('an event published on one instance reaches subscribers on another', async () => {
      const { messages, all } = await collect<Position>(b, positions, 1);
      await a.publish(positions, { mmsi: 5, seq: 7 });
      await all;
      assert.deepEqual(messages, [{ mmsi: 5, seq: 7 }]);
    });

    test('messages of both instances, on parts watched on each, arrive once and in order per publisher', async () => {
      const onA: Located[] = [];
      const onB: Located[] = [];
      const partsA = await a.subscribeParts(located, (m) => onA.push(m));
      const partsB = await b.subscribeParts(located, (m) => onB.push(m));
      await partsA.watch(new Set(['r0', 'r1']));
      await partsB.watch('all');
      // Each instance publishes its own vessels (mmsi 1 from a, 2 from b) across four regions.
      for (let seq = 0; seq < 200; seq++) {
        await a.publish(located, { mmsi: 1, seq, region: seq % 4 });
        await b.publish(located, { mmsi: 2, seq, region: (seq + 1) % 4 });
      }
      await until(() => onB.length === 400 && onA.length === 200);
      const ofVessel = (list: Located[], mmsi: number) => list.filter((m) => m.mmsi === mmsi).map((m) => m.seq);
      const expected = (mmsi: number, regions: number[]) => [...Array(200).keys()].filter((seq) => regions.includes((seq + mmsi - 1) % 4));
      assert.deepEqual(ofVessel(onB, 1), expected(1, [0, 1, 2, 3]));
      assert.deepEqual(ofVessel(onB, 2), expected(2, [0, 1, 2, 3]));
      assert.deepEqual(ofVessel(onA, 1), expected(1, [0, 1]));
      assert.deepEqual(ofVessel(onA, 2), expected(2, [0, 1]));
      await Promise.all([partsA.close(), partsB.close()]);
    });
  });
}
