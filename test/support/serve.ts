// `lamis serve` (or another command) as a child process, the way an operator or a supervisor runs
// it: its output is collected, and the port it listens on is read from its log.
import { execFileSync, spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REFERENCE_CACHE } from './server.ts';

export const LAMIS_BIN = new URL('../../bin/lamis.js', import.meta.url).pathname;

export interface ServeProcess {
  child: ChildProcess;
  dataDir: string;
  /** What it wrote to standard output and error so far. */
  output(): string;
  /** The port from its "listening at" line; rejects when it exits first. */
  listening: Promise<number>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Ends it (SIGKILL when still running) and removes its data folder. */
  cleanup(): Promise<void>;
}

export interface ServeOptions {
  args?: string[];
  env?: Record<string, string | undefined>;
  /** The Node binary that starts bin/lamis.js (the test's own by default). */
  node?: string;
  /** Standard output is a pipe unless given otherwise. */
  stdio?: StdioOptions;
  /** In a process group of its own, as a terminal's foreground job is. */
  detached?: boolean;
}

/** Starts `lamis serve --port 0` on a fresh data folder with no LAMIS_API_KEYS (so a development key). */
export function startServe(options: ServeOptions = {}): ServeProcess {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-serve-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    LAMIS_DATA_DIR: dataDir,
    LAMIS_REFERENCE_CACHE_DIR: REFERENCE_CACHE,
    LAMIS_API_KEYS: undefined,
    LOG_LEVEL: 'info',
    ...options.env,
  };
  const child = spawn(options.node ?? process.execPath, [LAMIS_BIN, ...(options.args ?? ['serve', '--port', '0'])], {
    env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)) as Record<string, string>,
    stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
    detached: options.detached,
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })));
  const listening = new Promise<number>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk;
      const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    void exited.then(() => reject(new Error(`lamis exited before listening:\n${output}`)));
  });
  listening.catch(() => {}); // a caller that does not wait for it is told through `exited`
  return {
    child,
    dataDir,
    output: () => output,
    listening,
    exited,
    async cleanup() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** PATH without node_modules folders: what a fresh shell has, where `node` is the system's. */
export const SYSTEM_PATH = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => dir && !dir.includes('node_modules')).join(path.delimiter);

/** A Node older than 24 on the PATH (outside node_modules), which bin/lamis.js hands over from. */
export function olderSystemNode(): string | undefined {
  for (const dir of SYSTEM_PATH.split(path.delimiter)) {
    const candidate = path.join(dir, 'node');
    if (!existsSync(candidate)) continue;
    const major = Number(execFileSync(candidate, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim());
    if (major < 24) return candidate;
  }
  return undefined;
}

