#!/usr/bin/env node
// The `lamis` command. LAMIS runs its TypeScript sources directly on Node.js 24 (type stripping),
// which the project brings as a dependency; when an older system Node starts this file, hand over
// to the bundled one.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const major = Number(process.versions.node.split('.')[0]);
if (major >= 24) {
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
  const child = spawnSync(bundled, [new URL(import.meta.url).pathname, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}
