#!/usr/bin/env node
// The `lamis` command. LAMIS runs its TypeScript sources directly on Node.js 24 (type stripping),
// which the project brings as a dependency; when an older system Node starts this file, hand over
// to the bundled one. The hand-over is transparent: signals sent to this process reach the
// service, and its exit code (or the signal that ended it) becomes this process's.
import { spawn } from 'node:child_process';
import module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);

// The service's V8 settings, given to the process that runs it (V8 reads them only as it starts;
// worker threads and stream processes inherit them). Semi-spaces of at most 8 MB: left to itself,
// V8 grows a busy thread's young generation to 64 MB semi-spaces, and the service held 0.3 to 0.5
// GiB more, with no gain in speed (bench/README, "Memory"). An operator's own
// --max-semi-space-size (NODE_OPTIONS) wins.
const SERVICE_COMMANDS = new Set(['serve', 'replay']);
const SERVICE_V8_FLAGS = ['--max-semi-space-size=8'];
// And its environment for the C library, read as the process starts too: glibc gives threads that
// allocate malloc arenas of their own (up to 8 a core), where what the service's threads (AIS
// ingest, the reference data loads, libuv's pool) freed stays resident; with two the service held
// 12 to 71 MiB less at rest, for no loss of speed (README "Memory"). An operator's own
// MALLOC_ARENA_MAX wins.
const SERVICE_ENV = { MALLOC_ARENA_MAX: '2' };
const service = SERVICE_COMMANDS.has(process.argv[2]);
const v8Flags = service &&
  ![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((option) => option.includes('--max-semi-space-size'))
  ? SERVICE_V8_FLAGS
  : [];
const serviceEnv = service ? Object.fromEntries(Object.entries(SERVICE_ENV).filter(([name]) => process.env[name] === undefined)) : {};
const startsAgain = v8Flags.length > 0 || Object.keys(serviceEnv).length > 0;

if (major >= 24 && startsAgain) {
  // Start again in this process with them: the same pid, so signals and exit codes need no relay.
  process.execve(process.execPath, [process.execPath, ...v8Flags, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...serviceEnv });
} else if (major >= 24) {
  // Node keeps the sources with their types stripped, and V8's compiled code, in its compile cache
  // (NODE_COMPILE_CACHE names the folder, by default in the system's temporary folder;
  // NODE_DISABLE_COMPILE_CACHE=1 turns it off): a later start skips that work for every module. A
  // named import would stop an older Node before it can hand over, hence `module.`. Worker threads
  // (the AIS ingest, the reference data loads) find the folder in the environment only.
  process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'node-compile-cache');
  module.enableCompileCache();
  await import('../src/cli.ts');
} else {
  const require = createRequire(import.meta.url);
  let bundled;
  try {
    bundled = require.resolve('node/bin/node');
  } catch {
    console.error(`lamis needs Node.js 24 (found ${process.version}); run \`npm install\` first.`);
    process.exit(1);
  }
  const child = spawn(bundled, [...v8Flags, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, ...serviceEnv } });
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  const forward = (signal) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  child.on('error', (error) => {
    console.error(`lamis: cannot start ${bundled}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      for (const s of signals) process.off(s, forward);
      process.kill(process.pid, signal);
    } else {
      process.exit(code ?? 1);
    }
  });
}
