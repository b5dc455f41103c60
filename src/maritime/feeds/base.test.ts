import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, seconds } from './base.ts';

test('backoff doubles from the initial delay up to the cap', () => {
  const backoff = new Backoff({ initialMs: 1000, maxMs: 60_000, jitter: 0 });
  const delays = Array.from({ length: 9 }, () => backoff.next());
  assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  assert.equal(backoff.attempt, 9);
  backoff.reset();
  assert.equal(backoff.next(), 1000);
});

test('backoff jitter stays within the spread and never passes the cap', () => {
  let flip = 0;
  const extremes = () => (flip++ % 2 === 0 ? 0 : 0.999_999);
  const backoff = new Backoff({ initialMs: 1000, maxMs: 5000, jitter: 0.2 }, extremes);
  const delays = Array.from({ length: 8 }, () => backoff.next());
  assert.deepEqual(delays.slice(0, 3), [800, 2400, 3200]);
  for (const delay of delays) assert.ok(delay >= 800 && delay <= 5000, String(delay));
  const random = new Backoff({ initialMs: 100, maxMs: 400 });
  for (let i = 0; i < 50; i++) {
    const delay = random.next();
    assert.ok(delay >= 80 && delay <= 400, String(delay));
  }
});

test('backoff resets only after a connection that lived long enough', () => {
  const backoff = new Backoff({ initialMs: 10, maxMs: 1000, jitter: 0, resetAfterMs: 5000 });
  backoff.next();
  backoff.next();
  backoff.connectionClosed(1000, 3000); // lived 2 s: a flapping server keeps the delay growing
  assert.equal(backoff.next(), 40);
  backoff.connectionClosed(null, 9000); // never connected
  assert.equal(backoff.next(), 80);
  backoff.connectionClosed(1000, 6000); // lived 5 s
  assert.equal(backoff.next(), 10);
});

test('backoff options are checked', () => {
  assert.throws(() => new Backoff({ initialMs: 0 }), RangeError);
  assert.throws(() => new Backoff({ jitter: 2 }), RangeError);
  assert.throws(() => new Backoff({ resetAfterMs: -1 }), RangeError);
});

test('durations read well', () => {
  assert.equal(seconds(20), '20 ms');
  assert.equal(seconds(2500), '2.5 s');
  assert.equal(seconds(60_000), '60 s');
});
