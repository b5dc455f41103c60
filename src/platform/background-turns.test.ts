import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backgroundTurn } from './background-turns.ts';

/** Keeps this thread busy for `ms` of its own CPU time (time spent waiting for a core does not count). */
function spin(ms: number): void {
  const cpu = () => { const { user, system } = process.threadCpuUsage(); return (user + system) / 1000; };
  for (const until = cpu() + ms; cpu() < until;);
}

test('slices of several loads run one a turn in all: a timer waits for at most one of them', async () => {
  const SLICE_MS = 20;
  let longest = 0;
  let last = process.threadCpuUsage();
  const probe = setInterval(() => {
    const now = process.threadCpuUsage();
    longest = Math.max(longest, (now.user - last.user + now.system - last.system) / 1000);
    last = now;
  }, 1);
  const load = async (slices: number) => {
    for (let i = 0; i < slices; i++) {
      await backgroundTurn();
      spin(SLICE_MS);
    }
  };
  try {
    await Promise.all([load(4), load(4), load(4)]);
  } finally {
    clearInterval(probe);
  }
  // Three loads taking a slice each turn would make a timer wait for three slices (60 ms).
  assert.ok(longest >= SLICE_MS && longest < 1.75 * SLICE_MS, `a timer waited for ${longest.toFixed(1)} ms of CPU`);
});
