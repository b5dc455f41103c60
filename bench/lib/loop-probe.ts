// Loaded with `--import` into a server process the startup benchmark starts: from the first moment
// it can run, notes every event-loop block longer than 20 ms (a 5 ms timer that fired late), with
// the wall-clock time it ended, one line each in the file $LAMIS_BENCH_LOOP_FILE. Worker threads
// load it too (they inherit `--import`); their work blocks no request, so it watches the main
// thread only.
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.LAMIS_BENCH_LOOP_FILE;
const INTERVAL_MS = 5;
const NOTED_MS = 20;
if (file && isMainThread) {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const blocked = now - last - INTERVAL_MS;
    if (blocked > NOTED_MS) appendFileSync(file, `${Date.now()} ${blocked.toFixed(1)}\n`);
    last = now;
  }, INTERVAL_MS).unref();
}
