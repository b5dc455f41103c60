import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoadShedder } from './shedder.ts';

test('over the in-flight threshold development requests are shed and production ones pass', () => {
  const shedder = new LoadShedder({ maxInFlight: 2, eventLoopDelayMs: () => 0 });
  const first = shedder.track();
  shedder.track();
  assert.equal(shedder.sheds('development'), null);
  shedder.track();
  assert.equal(shedder.sheds('development'), 'in_flight');
  assert.equal(shedder.sheds('production'), null);
  // Counting a request out twice counts it out once.
  first();
  first();
  assert.equal(shedder.inFlight, 2);
  assert.equal(shedder.sheds('development'), null);
});

test('a late event loop sheds development requests until it catches up', () => {
  let delayMs = 250;
  const shedder = new LoadShedder({ maxEventLoopDelayMs: 100, eventLoopDelayMs: () => delayMs });
  assert.equal(shedder.sheds('development'), 'event_loop');
  assert.equal(shedder.sheds('production'), null);
  delayMs = 40;
  assert.equal(shedder.sheds('development'), null);
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
    assert.equal(shedder.sheds('development'), null, 'a single stall is no overload');

    // Every turn of the loop runs 150 ms late for well over the window of 4 samples of 100 ms.
    let shedUnderLoad: string | null = null;
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
    assert.equal(shedUnderLoad, 'event_loop', 'a sustained delay is overload');
    await pause(600);
    assert.equal(shedder.sheds('development'), null, 'shedding ends once the loop keeps time again');
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
    assert.equal(shedder.sheds('development'), null);
  } finally {
    shedder.close();
  }
});

test('a signal holds the instance overloaded from its first active check until it has been calm for calmMs', () => {
  let now = 1_000_000;
  let active = false;
  const shedder = new LoadShedder({ eventLoopDelayMs: () => 0, calmMs: 5_000, clock: () => now, retryAfterSeconds: 3 });
  shedder.addSignal({ reason: 'ingest', description: 'ingest is behind', active: () => active, detail: () => ({ coalesced: 7 }) });
  shedder.startMeasuring();
  shedder.check();
  assert.equal(shedder.sheds('development'), null);

  active = true;
  assert.equal(shedder.sheds('development'), null, 'requests read what the last check found');
  shedder.check();
  assert.equal(shedder.sheds('development'), 'ingest');
  assert.equal(shedder.sheds('production'), null, 'production keys are never shed');
  assert.equal(shedder.describe('ingest'), 'ingest is behind');
  const since = new Date(now).toISOString();

  // Calm, but not for long enough: still overloaded. Active once more: the calm starts over.
  active = false;
  now += 4_000;
  shedder.check();
  assert.equal(shedder.sheds('development', 'stream'), 'ingest');
  active = true;
  shedder.check();
  assert.equal(shedder.sheds('development'), 'ingest');
  active = false;
  now += 4_999;
  shedder.check();
  assert.equal(shedder.sheds('development'), 'ingest');
  assert.deepEqual(shedder.state().signals, { ingest: { overloaded: true, since, coalesced: 7 } });
  assert.deepEqual(shedder.state().reasons, ['ingest']);

  now += 1;
  shedder.check();
  assert.equal(shedder.sheds('development'), null);
  const state = shedder.state();
  assert.equal(state.overloaded, false);
  assert.deepEqual(state.signals, { ingest: { overloaded: false, since: null, coalesced: 7 } });
  assert.deepEqual(shedder.shedCounts().toSorted((a, b) => a.what.localeCompare(b.what)), [
    { what: 'request', reason: 'ingest', count: 3 },
    { what: 'stream', reason: 'ingest', count: 1 },
  ]);
  shedder.close();
});

test('open development streams are closed only once the overload has lasted closeStreamsAfterMs on end', () => {
  let now = 2_000_000;
  let active = true;
  const shedder = new LoadShedder({ eventLoopDelayMs: () => 0, calmMs: 1_000, closeStreamsAfterMs: 10_000, clock: () => now });
  shedder.addSignal({ reason: 'ingest', description: 'ingest is behind', active: () => active });
  shedder.startMeasuring();
  shedder.check();
  assert.equal(shedder.closesStream('development'), null, 'just overloaded');
  now += 9_999;
  shedder.check();
  assert.equal(shedder.closesStream('development'), null);
  now += 1;
  shedder.check();
  assert.equal(shedder.closesStream('development'), 'ingest');
  assert.equal(shedder.closesStream('production'), null, 'production streams are never closed');
  assert.equal(shedder.state().since, new Date(now - 10_000).toISOString());

  // Calm for a moment: the overload ends, and a new one starts its own clock.
  active = false;
  now += 1_000;
  shedder.check();
  assert.equal(shedder.closesStream('development'), null);
  assert.equal(shedder.state().since, null);
  active = true;
  now += 5_000;
  shedder.check();
  assert.equal(shedder.closesStream('development'), null);
  assert.deepEqual(shedder.shedCounts(), [{ what: 'open_stream', reason: 'ingest', count: 1 }]);
  shedder.close();
});

test("the shedder's own reasons come before a signal's, and every one is listed", () => {
  const shedder = new LoadShedder({ maxInFlight: 0, eventLoopDelayMs: () => 0 });
  shedder.addSignal({ reason: 'ingest', description: 'ingest is behind', active: () => true });
  shedder.startMeasuring();
  shedder.check();
  shedder.track();
  assert.equal(shedder.sheds('development'), 'in_flight');
  assert.deepEqual(shedder.reasons(), ['in_flight', 'ingest']);
  assert.match(shedder.describe('in_flight'), /more than 0 requests are in flight/);
  assert.throws(() => shedder.addSignal({ reason: 'ingest', description: '', active: () => false }), /registered twice/);
  assert.throws(() => shedder.addSignal({ reason: 'in_flight', description: '', active: () => false }), /registered twice/);
  shedder.close();
});

test('once measuring, a signal active for a moment between requests is caught by the periodic check', async () => {
  // Active for a single check: the way "the counters rose since the last look" behaves.
  let pulse = false;
  const shedder = new LoadShedder({ eventLoopDelayMs: () => 0, calmMs: 600 });
  shedder.addSignal({ reason: 'ingest', description: 'ingest is behind', active: () => (pulse ? !(pulse = false) : false) });
  shedder.startMeasuring();
  try {
    pulse = true;
    await pause(300);
    assert.equal(pulse, false, 'checked without a request');
    assert.equal(shedder.sheds('development'), 'ingest');
    // Calm for 600 ms as the next check after that sees it (checks are 250 ms apart).
    await pause(600 + 250 + 100);
    assert.equal(shedder.sheds('development'), null);
  } finally {
    shedder.close();
  }
});

test('before it starts measuring signals are not judged, and what start-up did is taken in by a first look', () => {
  // Like ingest's signal: active when its counter rose since the last look.
  let coalesced = 0;
  let seen = 0;
  const shedder = new LoadShedder({ eventLoopDelayMs: () => 0 });
  shedder.addSignal({
    reason: 'ingest', description: 'ingest is behind',
    active: () => {
      const rose = coalesced > seen;
      seen = coalesced;
      return rose;
    },
  });
  try {
    coalesced += 100;
    shedder.check();
    assert.equal(shedder.sheds('development'), null, 'the server is not listening yet');
    shedder.startMeasuring();
    shedder.check();
    assert.equal(shedder.sheds('development'), null, 'start-up is no overload');
    coalesced += 1;
    shedder.check();
    assert.equal(shedder.sheds('development'), 'ingest');
  } finally {
    shedder.close();
  }
});
