// `lamis serve` and `lamis replay`: the commands that run the service.
import net from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import type { Config } from './config.ts';
import { CommandError, UsageError, type Command } from './platform/command.ts';
import { closeOnSignals } from './platform/http/shutdown.ts';
import type { FileFeedSpec } from './maritime/feeds/index.ts';
import { loggerOptions, startServer } from './server.ts';

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

async function runService(config: Config): Promise<number> {
  await checkAddress(config.host, config.port);
  const logger = pino(loggerOptions(config));
  const app = await startServer(config, logger);
  closeOnSignals(app, config.shutdownTimeoutSec * 1000);
  return -1; // keeps running until a signal
}

export const serve: Command = {
  usesSettings: true,
  run: ({ config }) => runService(config),
};

export const replay: Command = {
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
