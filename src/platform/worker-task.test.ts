import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runWorkerTask, TASK_THREAD_NICE } from './worker-task.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lamis-worker-task-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A worker thread made of `source`, an ES module with `parentPort` and `workerData` in scope. */
function workerFile(name: string, source: string): URL {
  const file = path.join(dir, `${name}.mjs`);
  writeFileSync(file, `import { parentPort, workerData } from 'node:worker_threads';\n${source}\n`);
  return pathToFileURL(file);
}

describe('runWorkerTask', () => {
  it('hands each message over in order until the result is complete, and answers the thread', async () => {
    // Sends a number per 'next' it is told, then null.
    const url = workerFile('counter', `
      let sent = 0;
      const send = () => parentPort.postMessage(sent < workerData.count ? sent++ : null);
      parentPort.on('message', send);
      send();`);
    const seen: number[] = [];
    const result = await runWorkerTask(url, { task: 'counting', workerData: { count: 5 } }, (message, worker) => {
      if (message === null) return seen;
      seen.push(message as number);
      worker.postMessage('next');
      return undefined;
    });
    assert.deepEqual(result, [0, 1, 2, 3, 4]);
  });

  it('throws what the thread threw', async () => {
    const url = workerFile('failing', `throw new Error('no data file');`);
    await assert.rejects(runWorkerTask(url, { task: 'loading' }, () => 'never'), /no data file/);
  });

  it('names the task when the thread exits before the result is complete', async () => {
    const url = workerFile('quitting', `parentPort.postMessage(1); process.exit(0);`);
    await assert.rejects(runWorkerTask(url, { task: 'port loading' }, () => undefined), { message: 'the port loading thread stopped before it was done' });
  });

  it('stops the thread when the signal aborts, with the signal\'s reason', async () => {
    const url = workerFile('endless', `setInterval(() => parentPort.postMessage('tick'), 5);`);
    const controller = new AbortController();
    let ticks = 0;
    const task = runWorkerTask(url, { task: 'ticking', signal: controller.signal }, () => {
      if (++ticks === 3) controller.abort(new Error('closing'));
      return undefined;
    });
    await assert.rejects(task, /closing/);
    const aborted = new AbortController();
    aborted.abort(new Error('closed before'));
    await assert.rejects(runWorkerTask(url, { task: 'ticking', signal: aborted.signal }, () => 'never'), /closed before/);
  });
});

describe('lowerThreadPriority', { skip: process.platform !== 'linux' && 'a nice value per thread is for Linux only' }, () => {
  it('lowers the calling thread to TASK_THREAD_NICE and leaves the rest of the process as it was', async () => {
    const before = getPriority(process.pid);
    const url = workerFile('lowering', `
      import { readlinkSync } from 'node:fs';
      import { getPriority } from 'node:os';
      const { lowerThreadPriority } = await import(workerData.module);
      lowerThreadPriority();
      const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
      parentPort.postMessage({ threadId, nice: getPriority(threadId) });`);
    const seen = await runWorkerTask(url, { task: 'lowering', workerData: { module: new URL('./worker-task.ts', import.meta.url).href } }, (message) => message as { threadId: number; nice: number });
    assert.notEqual(seen.threadId, process.pid);
    assert.equal(seen.nice, Math.max(before, TASK_THREAD_NICE));
    assert.equal(getPriority(process.pid), before);
  });
});
