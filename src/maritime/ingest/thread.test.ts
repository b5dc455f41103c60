// The ingest thread started before the service loads: until the service takes it, it must not keep
// a start that failed from ending.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';

test('a process whose ingest thread started early, and was never taken, still ends by itself', { timeout: 30_000 }, async () => {
  const thread = new URL('./thread.ts', import.meta.url).href;
  const child = spawn(process.execPath, ['-e', `import(${JSON.stringify(thread)}).then((m) => m.startIngestThreadEarly())`], { stdio: 'inherit' });
  const ended = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const tooLong = setTimeout(() => child.kill('SIGKILL'), 15_000);
  try {
    assert.equal(await ended, 0, 'it ended by itself within 15 s');
  } finally {
    clearTimeout(tooLong);
  }
});
