// `lamis serve` and `lamis replay`: the commands that run the service. The service's modules load
// once the settings are read, after the AIS ingest thread has started loading its own.
import { flushCompileCache } from 'node:module';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Config } from './config.ts';
import { CommandError, UsageError, type Command } from './platform/command.ts';
import { DEVELOPMENT_KEY_FILE } from './platform/http/auth.ts';
import { closeOnSignals } from './platform/http/shutdown.ts';
import { openLog } from './platform/log.ts';
import type { FileFeedSpec } from './maritime/feeds/index.ts';
import { runsIngestThread, startIngestThreadEarly } from './maritime/ingest/thread.ts';
import type { startServer } from './server.ts';

/** Binds and releases the server's address first, so that a port in use is told before the start-up. */
async function checkAddress(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CommandError(`port ${port} on ${host} is in use (set PORT or --port)`);
    if (code === 'EACCES') throw new CommandError(`port ${port} on ${host} needs privileges (set PORT or --port)`);
    throw new CommandError(`cannot listen on ${host} port ${port}: ${(error as Error).message} (set HOST or --host)`);
  }
  await new Promise((resolve) => probe.close(resolve));
}

type App = Awaited<ReturnType<typeof startServer>>;

/** What a person starting the service wants to know first, from the running service's /readyz. */
async function banner(app: App, config: Config, version: string): Promise<string> {
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  const checks = (await app.inject({ url: '/readyz' })).json().checks;
  const feeds: { id: string; state: string; detail: string | null }[] = checks.ais?.detail.feeds ?? [];
  const rows: [string, string][] = [
    ['Dashboard', `${url}/`],
    ['API', `${url}/v3 (reference at ${url}/docs)`],
    ['Storage', config.databaseUrl ? `${checks.storage.detail.dialect} (DATABASE_URL)` : `${checks.storage.detail.dialect} in ${path.resolve(config.dataDir)}`],
    ['Bus', checks.bus.detail.kind],
    ['AIS feeds', feeds.length ? feeds.map((f) => `${f.id} (${f.detail ?? f.state})`).join(', ') : 'none'],
    ['API keys', config.apiKeys.length ? 'LAMIS_API_KEYS' : `the development key is in ${path.resolve(config.dataDir, DEVELOPMENT_KEY_FILE)}`],
  ];
  return [`LAMIS ${version} is ready`, ...rows.map(([name, value]) => `  ${name.padEnd(10)} ${value}`)].join('\n');
}

async function runService(config: Config): Promise<number> {
  await checkAddress(config.host, config.port);
  if (runsIngestThread(config.aisIngestThread)) startIngestThreadEarly();
  const { loggerOptions, startServer, VERSION } = await import('./server.ts');
  const log = openLog(loggerOptions(config), config.logFormat);
  const app = await startServer(config, log.logger);
  // Every module the service uses is loaded by now: written at once, the compile cache serves the
  // next start even when this process does not end normally.
  flushCompileCache();
  closeOnSignals(app, config.shutdownTimeoutSec * 1000, log);
  if (log.pretty) log.print(`\n${await banner(app, config, VERSION)}\n`);
  return -1; // keeps running until a signal
}

export const serve: Command<Config> = {
  usesSettings: true,
  run: ({ config }) => runService(config),
};

export const replay: Command<Config> = {
  args: 'FILE',
  options: { speed: { type: 'string', description: 'Speed factor: 1 replays at the recorded pace (default), 10 ten times faster' } },
  usesSettings: true,
  async run({ config, positionals, values }) {
    if (positionals.length !== 1) throw new UsageError('give the one NMEA file to replay');
    const speed = values.speed === undefined ? 1 : Number(values.speed);
    if (!(Number.isFinite(speed) && speed > 0)) throw new UsageError(`--speed must be a number above 0 (got "${values.speed}")`);
    const file = path.resolve(positionals[0]!);
    const feed: FileFeedSpec = { kind: 'file', id: `file:${file}`, path: file, speed };
    return runService({ ...config, aisFeeds: [...config.aisFeeds, feed], aisSimulator: 'off' });
  },
};
