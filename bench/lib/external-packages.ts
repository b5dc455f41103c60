// Third-party packages that benchmarks compare against. They are never project dependencies: they are
// installed on demand into a cache folder outside the work tree (<tmpdir>/lamis-bench-deps) with
// `npm install --no-save --prefix`, and loaded from there with createRequire.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where compared packages live; override with $LAMIS_BENCH_DEPS_DIR. */
export const BENCH_DEPS_DIR = process.env.LAMIS_BENCH_DEPS_DIR ?? join(tmpdir(), 'lamis-bench-deps');

const INSTALL_TIMEOUT_MS = 120_000;

export interface PackageSpec {
  name: string;
  /** Exact version, so that numbers from different days compare the same code. */
  version: string;
}

export type LoadedPackage = { ok: true; name: string; version: string; exports: unknown; dir: string } | { ok: false; name: string; reason: string };

function installedVersion(name: string): string | null {
  const manifest = join(BENCH_DEPS_DIR, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return null;
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join(' | ');
}

/** The telling part of npm's error output: its error code and the first message line. */
function npmFailure(output: string): string {
  const lines = output
    .split('\n')
    .filter((line) => line.startsWith('npm error') || line.startsWith('npm ERR!'))
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim());
  const code = lines.find((line) => /^code \S+$/.test(line));
  const message =
    lines.find((line) => /error:|request to|not found|no matching|etarget|enotfound|timed? ?out/i.test(line)) ??
    lines.find((line) => line !== '' && !/^(code|syscall|errno|path) /.test(line) && !/^(at |[{}]|\w+: ['\d])/.test(line));
  return [code, message].filter((part) => part !== undefined).join(': ') || lastLines(output, 2);
}

/**
 * Makes sure each package is installed at its version in BENCH_DEPS_DIR (installing the missing ones
 * in one npm call, saying so), then loads each one. A package that cannot be had comes back as
 * `{ ok: false, reason }` instead of throwing, so the benchmark can report it as skipped.
 */
export function loadBenchPackages(specs: readonly PackageSpec[], log: (line: string) => void = console.log): LoadedPackage[] {
  const missing = specs.filter((spec) => installedVersion(spec.name) !== spec.version);
  let installFailure: string | null = null;
  if (missing.length > 0) {
    mkdirSync(BENCH_DEPS_DIR, { recursive: true });
    const targets = missing.map((spec) => `${spec.name}@${spec.version}`);
    const args = [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--fetch-retries=1',
      '--fetch-timeout=30000',
      '--prefix',
      BENCH_DEPS_DIR,
      ...targets,
    ];
    log(`  installing ${targets.join(', ')} for the benchmark only (not a project dependency):`);
    log(`    npm ${args.join(' ')}`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, args, { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, shell: process.platform === 'win32' });
    if (result.error) installFailure = `npm could not run: ${result.error.message}`;
    else if (result.status !== 0) {
      installFailure = `npm install failed (${result.signal ?? `exit ${result.status}`}): ${npmFailure(`${result.stderr}\n${result.stdout}`)}`;
    } else log(`    done (${lastLines(result.stdout, 1) || 'ok'})`);
  }

  const require = createRequire(join(BENCH_DEPS_DIR, 'package.json'));
  return specs.map((spec): LoadedPackage => {
    const version = installedVersion(spec.name);
    if (version === null) return { ok: false, name: spec.name, reason: installFailure ?? 'not installed' };
    if (version !== spec.version && installFailure !== null) {
      log(`  note: using ${spec.name}@${version} already in ${BENCH_DEPS_DIR} (wanted ${spec.version}; ${installFailure})`);
    }
    try {
      return { ok: true, name: spec.name, version, exports: require(spec.name), dir: join(BENCH_DEPS_DIR, 'node_modules', spec.name) };
    } catch (error) {
      return { ok: false, name: spec.name, reason: `cannot load: ${(error as Error).message}` };
    }
  });
}
