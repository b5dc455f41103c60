import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

test('the simulator sails on sea lanes and calls at ports each made on a thread of its own: its thread reads neither', async () => {
  // A fresh process, whose own thread's file reads are recorded (a worker thread has an fs of its own).
  const script = `
    import fs from 'node:fs';
    import { syncBuiltinESMExports } from 'node:module';
    const read = [];
    const readFileSync = fs.readFileSync;
    fs.readFileSync = (file, ...rest) => { read.push(String(file)); return readFileSync(file, ...rest); };
    syncBuiltinESMExports();
    fs.readFileSync(new URL(import.meta.url)); // shows the recording works
    const { createSimulatorFeed } = await import(${JSON.stringify(import.meta.resolve('./feed.ts'))});
    const feed = createSimulatorFeed({ vessels: 20, tickMs: 50 });
    let lines = 0;
    // The feed's timer does not hold the process open.
    const alive = setInterval(() => {}, 1000);
    await new Promise((resolve, reject) => {
      feed.start({ lines: (batch) => { lines += batch.length; resolve(); }, messages: () => {} }).catch(reject);
    });
    await feed.stop();
    clearInterval(alive);
    console.log(JSON.stringify({ lines, read }));`;
  // A file rather than --eval, whose --input-type the loading thread would inherit and refuse.
  const folder = await mkdtemp(join(tmpdir(), 'lamis-simulator-'));
  const answer = await writeFile(join(folder, 'sail.mjs'), script)
    .then(() => new Promise<{ lines: number; read: string[] }>((resolve, reject) => {
      execFile(process.execPath, [join(folder, 'sail.mjs')], (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout))));
    }))
    .finally(() => rm(folder, { recursive: true }));
  assert.ok(answer.lines > 0, 'the fleet reported');
  assert.ok(answer.read.some((file) => file.endsWith('sail.mjs')), 'the reads were recorded');
  assert.deepEqual(answer.read.filter((file) => /marnet|land-10m|ports\.json|wpi\.json/.test(file)), []);
});
