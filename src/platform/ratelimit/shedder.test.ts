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

/** Keeps the event loop busy for `ms` in one go, as a long synchronous task does. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('one long stall of the event loop sheds nothing; a loop late for the whole window does', async () => {
  const shedder = new LoadShedder({ maxEventLoopDelayMs: 100, delaySampleMs: 100, delayWindowSamples: 4 });
  shedder.startMeasuring();
  try {
    await pause(150);
    block(1200);
    await pause(250);
    assert.equal(shedder.sheds('development'), false, 'a single stall is no overload');

    // Every turn of the loop runs 150 ms late for well over the window of 4 samples of 100 ms.
    let shedUnderLoad = false;
    await new Promise<void>((resolve) => {
      let turns = 0;
      const load = setInterval(() => {
        block(150);
        if (++turns === 16) {
          shedUnderLoad = shedder.sheds('development');
          clearInterval(load);
          resolve();
        }
      }, 0);
    });
    assert.equal(shedUnderLoad, true, 'a sustained delay is overload');
    await pause(600);
    assert.equal(shedder.sheds('development'), false, 'shedding ends once the loop keeps time again');
  } finally {
    shedder.close();
  }
});

test('before it starts measuring (the server is not listening yet) the event loop is not judged', async () => {
  const shedder = new LoadShedder({ maxEventLoopDelayMs: 100, delaySampleMs: 50, delayWindowSamples: 2 });
  try {
    block(600);
    await pause(20);
    block(600);
    await pause(20);
    assert.equal(shedder.sheds('development'), false);
  } finally {
    shedder.close();
  }
});
