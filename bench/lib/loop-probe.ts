// Loaded with `--import` into a server process the startup and first-requests benchmarks start
// (they read its file with `longestBlock`): from the first moment it can run, notes every
// event-loop block longer than 20 ms (a 5 ms timer that fired late), with the wall-clock time it
// ended, its length and the main thread's CPU time over it, one line each in the file
// $LAMIS_BENCH_LOOP_FILE. On a machine shared with other work a block's length grows with
// the wait for a core, its CPU time does not: a block that used more than 20 ms of CPU is noted too.
// Worker threads load it too (they inherit `--import`); their work blocks no request, so it watches
// the main thread only.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.LAMIS_BENCH_LOOP_FILE;
const INTERVAL_MS = 5;
const NOTED_MS = 20;
if (file && isMainThread) {
  let last = performance.now();
  let lastCpu = process.threadCpuUsage();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.threadCpuUsage();
    const blocked = now - last - INTERVAL_MS;
    const used = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    if (blocked > NOTED_MS || used > NOTED_MS) appendFileSync(file, `${Date.now()} ${blocked.toFixed(1)} ${used.toFixed(1)}\n`);
    last = now;
    lastCpu = cpu;
  }, INTERVAL_MS).unref();
}

/** For the benchmark reading the file: the longest block that ended in (from, to], and the most CPU time one used. */
export function longestBlock(file: string, from: number, to: number): { wall: number; cpu: number } {
  const longest = { wall: 0, cpu: 0 };
  if (!existsSync(file)) return longest;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [at, ms, cpu] = line.split(' ').map(Number);
    if (at === undefined || ms === undefined || cpu === undefined || !(at > from && at <= to)) continue;
    longest.wall = Math.max(longest.wall, ms);
    longest.cpu = Math.max(longest.cpu, cpu);
  }
  return longest;
}
