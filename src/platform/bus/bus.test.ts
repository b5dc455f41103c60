// The bus suite: the same tests in-process (always) and on Redis (LAMIS_TEST_REDIS_URL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { redisUrl, skipRedis, uniqueName } from '../../../test/support/backends.ts';
import { defaultConfig } from '../../config.ts';
import { openBus, topic, type Bus, type Topic } from './index.ts';

interface Position {
  mmsi: number;
  seq: number;
}
const positions = topic<Position>('test.positions');
const other = topic<Position>('test.other');

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
];

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
      assert.equal((await bus.check()).state, 'up');
    });
  });
}

describe('bus across instances (Redis)', { skip: skipRedis, timeout: 10_000 }, () => {
  test('an event published on one instance reaches subscribers on another', async () => {
    const prefix = `${uniqueName('lamis_test')}:`;
    const config = defaultConfig({ redisUrl });
    const [a, b] = await Promise.all([openBus(config, () => {}, prefix), openBus(config, () => {}, prefix)]);
    try {
      const { messages, all } = await collect<Position>(b, positions, 1);
      await a.publish(positions, { mmsi: 5, seq: 7 });
      await all;
      assert.deepEqual(messages, [{ mmsi: 5, seq: 7 }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
