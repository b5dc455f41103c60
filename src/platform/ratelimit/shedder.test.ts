import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoadShedder } from './shedder.ts';

test('over the in-flight threshold development requests are shed and production ones pass', () => {
  const shedder = new LoadShedder({ maxInFlight: 2, eventLoopDelayMs: () => 0 });
  const first = shedder.track();
  shedder.track();
  assert.equal(shedder.sheds('development'), false);
  shedder.track();
  assert.equal(shedder.sheds('development'), true);
  assert.equal(shedder.sheds('production'), false);
  // Counting a request out twice counts it out once.
  first();
  first();
  assert.equal(shedder.inFlight, 2);
  assert.equal(shedder.sheds('development'), false);
});

test('a late event loop sheds development requests until it catches up', () => {
  let delayMs = 250;
  const shedder = new LoadShedder({ maxEventLoopDelayMs: 100, eventLoopDelayMs: () => delayMs });
  assert.equal(shedder.sheds('development'), true);
  assert.equal(shedder.sheds('production'), false);
  delayMs = 40;
  assert.equal(shedder.sheds('development'), false);
});
