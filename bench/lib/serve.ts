// A whole `lamis serve` for benchmarks that measure the service as it runs: its own process (so the
// server's cores are its own), its storage in the folder given, an AIS feed it listens for on a
// TCP port, the simulators off, warnings only (a log line per stream would fill the pipe faster
// than it is read). Answers once /healthz does.
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A TCP port free on the loopback interface now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** How long `pollServer` waits for an answer. */
const POLL_TIMEOUT_MS = 120_000;

/**
 * Asks `attempt` every `everyMs` until it answers something other than null (a throw counts as no
 * answer: the server may not listen yet); fails when the server exits or no answer comes in 120 s.
 */
export async function pollServer<T>(child: ChildProcess, attempt: () => Promise<T | null>, everyMs: number): Promise<T> {
  const deadline = Date.now() + POLL_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`no answer within ${POLL_TIMEOUT_MS / 1000} s`);
    try {
      const result = await attempt();
      if (result !== null) return result;
    } catch {
      // not listening yet
    }
    await sleep(everyMs);
  }
}

/**
 * A Node process, pinned with `taskset` to the CPUs listed (`0`, `0,1`, `2-3`) when `cpus` is given,
 * so a benchmark can give its server and its clients separate cores.
 */
export function spawnNode(args: readonly string[], cpus: string | undefined, options: SpawnOptions): ChildProcess {
  return cpus ? spawn('taskset', ['-c', cpus, process.execPath, ...args], options) : spawn(process.execPath, args, options);
}

/**
 * `apiKey`: the instance's operator key (LAMIS_API_KEYS). `feedPort` null: an instance that reads
 * no feed (it serves what another one reads, over the bus). `env` adds to (or overrides) the rest;
 * `cpus`: see `spawnNode`.
 */
export async function startLamis(dataDir: string, feedPort: number | null, apiKey: string, { env = {}, cpus }: { env?: Record<string, string>; cpus?: string } = {}): Promise<{ child: ChildProcess; url: string }> {
  const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
  const port = await freePort();
  const child = spawnNode([bin, 'serve', '--port', String(port)], cpus, {
    env: {
      ...process.env,
      LAMIS_DATA_DIR: dataDir,
      LAMIS_REFERENCE_CACHE_DIR: path.join(tmpdir(), 'lamis-bench-reference'),
      LAMIS_API_KEYS: apiKey,
      AIS_FEEDS: feedPort === null ? '' : `tcp-listen://127.0.0.1:${feedPort}`,
      AIS_SIMULATOR: 'off',
      AVIATION_SIMULATORS: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('the server did not start within 120 s');
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString());
const PAGE_BYTES = Number(execFileSync('getconf', ['PAGESIZE']).toString());

/** A process and all its descendants, each with the fields of its stat(5) line after the command name. */
function processTree(pid: number): Map<number, string[]> {
  const stats = new Map<number, string[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The fields after the command name, which may itself hold spaces and parentheses.
      stats.set(Number(entry), stat.slice(stat.lastIndexOf(')') + 2).split(' '));
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Map([[pid, stats.get(pid) ?? []]]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [each, fields] of stats) {
      if (!tree.has(each) && tree.has(Number(fields[1]))) {
        tree.set(each, fields);
        grew = true;
      }
    }
  }
  return tree;
}

/** CPU seconds used so far by a process and all its descendants (a service with processes of its own counts whole), from /proc. */
export function processTreeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const fields of processTree(pid).values()) {
    if (fields.length === 0) continue;
    // utime and stime: fields 14 and 15 of stat(5), counted from the state (field 3).
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS;
}

/**
 * CPU seconds used so far by the threads of a process and all its descendants, summed by the
 * process's script and the thread's name (`lamis.js MainThread`, `process.ts V8Worker`), from /proc.
 */
export function processTreeThreadCpu(pid: number): Map<string, number> {
  const seconds = new Map<string, number>();
  for (const each of processTree(pid).keys()) {
    let script: string;
    let threads: string[];
    try {
      const args = readFileSync(`/proc/${each}/cmdline`, 'utf8').split('\0');
      script = path.basename(args.find((arg) => /\.[cm]?[jt]s$/.test(arg)) ?? args[0] ?? '?');
      threads = readdirSync(`/proc/${each}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const thread of threads) {
      try {
        const name = readFileSync(`/proc/${each}/task/${thread}/comm`, 'utf8').trim();
        const stat = readFileSync(`/proc/${each}/task/${thread}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const key = `${script} ${name}`;
        seconds.set(key, (seconds.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
      } catch {
        // ended meanwhile
      }
    }
  }
  return seconds;
}

/**
 * pagemap(5)'s entries in 32-bit halves: the high half's "page present" and "file page or shared
 * anonymous" bits, and its bits of the page frame number (bits 0 to 54, zero unless read by root).
 */
const PAGE_PRESENT = 0x8000_0000;
const PAGE_FILE = 0x2000_0000;
const FRAME_NUMBER_HIGH = 0x7f_ffff;

/**
 * Resident bytes now of a process and all its descendants with every page counted once: the pages
 * the processes share (the `node` binary and libraries a service's processes all map) are memory
 * the machine holds once, where a sum of RSS counts them in each process. Private anonymous memory
 * (heaps, and the pages a process wrote of a file it maps) is its own, from status(5); the pages
 * resident in the file-backed mappings of maps(5), shared memory among them, are told apart by
 * their frame numbers in pagemap(5). `framesRead` is false where frame numbers cannot be read (not root): those pages then
 * count in each process, as in RSS, the processes' sum `rssSummed`. Anonymous pages two processes
 * share after a fork without exec would count in each; the servers here have none (every process
 * is a fresh `node`). Neither file walks the page tables of a whole process, as smaps(5) does.
 */
export function processTreeResident(pid: number): { bytes: number; rssSummed: number; framesRead: boolean } {
  let rssSummed = 0;
  let ownBytes = 0;
  const frames = new Set<number>();
  let framesRead = true;
  for (const each of processTree(pid).keys()) {
    let status: string;
    let maps: string;
    let pagemap: number;
    try {
      status = readFileSync(`/proc/${each}/status`, 'utf8');
      maps = readFileSync(`/proc/${each}/maps`, 'utf8');
      pagemap = openSync(`/proc/${each}/pagemap`, 'r');
    } catch {
      continue; // gone meanwhile
    }
    try {
      const kB = (field: string) => 1024 * Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
      // Shared memory is mapped as a file (shm, memfd, /dev/zero): its pages are among the frames.
      const fileBytes = kB('RssFile') + kB('RssShmem');
      rssSummed += kB('RssAnon') + fileBytes;
      ownBytes += kB('RssAnon');
      let numbered = 0;
      for (const { start, end } of fileMappings(maps)) {
        const entries = new Uint32Array(((end - start) / PAGE_BYTES) * 2);
        const read = readSync(pagemap, entries, 0, entries.byteLength, (start / PAGE_BYTES) * 8);
        // Little-endian halves: the low one first.
        for (let low = 0; low + 1 < read / 4; low += 2) {
          const high = entries[low + 1]!;
          if ((high & PAGE_PRESENT) === 0 || (high & PAGE_FILE) === 0) continue;
          const frame = (high & FRAME_NUMBER_HIGH) * 2 ** 32 + entries[low]!;
          if (frame === 0) continue;
          frames.add(frame);
          numbered++;
        }
      }
      if (fileBytes > 0 && numbered === 0) {
        framesRead = false;
        ownBytes += fileBytes;
      }
    } finally {
      closeSync(pagemap);
    }
  }
  return { bytes: ownBytes + frames.size * PAGE_BYTES, rssSummed, framesRead };
}

/** The address ranges of a maps(5) text's file-backed mappings (those with an inode). */
function* fileMappings(maps: string): Generator<{ start: number; end: number }> {
  for (const line of maps.split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)/.exec(line);
    if (mapping && mapping[3] !== '0') yield { start: Number.parseInt(mapping[1]!, 16), end: Number.parseInt(mapping[2]!, 16) };
  }
}

/** The machine's CPU time so far, all cores together, from /proc/stat: busy and all, in clock ticks. */
export function machineCpuTicks(): { busy: number; all: number } {
  // The first line sums the cores: user, nice, system, idle, iowait, irq, softirq, steal, …
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const all = fields.reduce((sum, ticks) => sum + ticks, 0);
  return { busy: all - fields[3]! - fields[4]!, all };
}

/** The share of the machine's CPU time that was busy between two readings. */
export function busyShare(before: { busy: number; all: number }, after: { busy: number; all: number }): number {
  return (after.busy - before.busy) / Math.max(1, after.all - before.all);
}
