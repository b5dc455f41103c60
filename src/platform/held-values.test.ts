import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HeldValues } from './held-values.ts';

/** A read the test completes by hand, counting how often it was started. */
function manualReads<V>() {
  const pending: ((value: V) => void)[] = [];
  return {
    started: () => pending.length,
    read: () => new Promise<V>((resolve) => pending.push(resolve)),
    finish: (index: number, value: V) => pending[index]!(value),
  };
}

test('a value read once is held; concurrent requests share the read', async () => {
  const held = new HeldValues<string, number>();
  const reads = manualReads<number>();
  const both = Promise.all([held.get('EGLL', reads.read), held.get('EGLL', reads.read)]);
  assert.equal(reads.started(), 1);
  reads.finish(0, 7);
  assert.deepEqual(await both, [7, 7]);
  assert.equal(await held.get('EGLL', reads.read), 7);
  assert.equal(reads.started(), 1);
  assert.equal(held.peek('EGLL'), 7);
  assert.equal(held.peek('KJFK'), undefined);
});

test('forgetting drops the value, and a read under way at that moment is not kept', async () => {
  const held = new HeldValues<string, string>();
  const reads = manualReads<string>();
  const early = held.get('EGLL', reads.read);
  held.forget('EGLL'); // a change committed while the first read ran: it may have missed it
  const late = held.get('EGLL', reads.read);
  assert.equal(reads.started(), 2, 'a request after the change reads again');
  reads.finish(0, 'before');
  reads.finish(1, 'after');
  assert.equal(await early, 'before');
  assert.equal(await late, 'after');
  assert.equal(await held.get('EGLL', reads.read), 'after');
  assert.equal(reads.started(), 2);
});

test('a value is read again once older than maxAgeMs, and a failed read is not held', async () => {
  let now = 0;
  const held = new HeldValues<string, number>({ maxAgeMs: 1000, clock: () => now });
  let calls = 0;
  const read = async () => ++calls;
  assert.equal(await held.get('k', read), 1);
  now = 999;
  assert.equal(await held.get('k', read), 1);
  now = 1000;
  assert.equal(held.peek('k'), undefined);
  assert.equal(await held.get('k', read), 2);

  await assert.rejects(held.get('broken', async () => { throw new Error('storage down'); }), /storage down/);
  assert.equal(await held.get('broken', async () => 5), 5);
});
