// The `lamis` command: `lamis <command> [options]`. Every option also reads its environment
// variable (see `lamis <command> --help` and the README).
import path from 'node:path';
import { pino } from 'pino';
import { ConfigError, type Config } from './config.ts';
// Before any feature: the order the server imports them in is the order of the named schemas in the OpenAPI document.
import { loggerOptions, startServer, VERSION } from './server.ts';
import { commandHelp, parseCommandArgs, UsageError, type Command } from './platform/command.ts';
import { migrate } from './platform/db/migrate.ts';
import { openDatabase } from './platform/db/database.ts';
import { closeOnSignals } from './platform/http/shutdown.ts';
import { mailCommand } from './platform/mail/mail-command.ts';
import { keysCommand, orgCommand, usageCommand } from './accounts/commands.ts';
import { identityCommand } from './accounts/identity-command.ts';
import { dataCommand, decodeCommand, importCommand, type FileFeedSpec } from './maritime/index.ts';
import { MIGRATIONS } from './migrations/index.ts';

async function runService(config: Config): Promise<number> {
  const logger = pino(loggerOptions(config));
  const app = await startServer(config, logger);
  closeOnSignals(app, config.shutdownTimeoutSec * 1000);
  return -1; // keeps running until a signal
}

const serve: Command = {
  name: 'serve',
  summary: 'Run the LAMIS service: REST API under /v3, docs at /docs, health at /healthz and /readyz, metrics at /metrics.',
  usesSettings: true,
  run: ({ config }) => runService(config),
};

const replay: Command = {
  name: 'replay',
  args: 'FILE',
  summary: 'Run the service with a recorded NMEA file as an AIS feed (source `replay`), paced by its tag-block times; the AIS simulator stays off.',
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

const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Apply pending storage migrations (SQLite in the data folder, or PostgreSQL when DATABASE_URL is set) and exit.',
  usesSettings: true,
  async run({ config }) {
    const database = openDatabase(config);
    try {
      const applied = await migrate(database.db, database.dialect, MIGRATIONS);
      console.log(applied.length ? `Applied ${applied.join(', ')} to ${database.dialect} (${database.location}).` : `Nothing to apply: ${database.dialect} (${database.location}) is up to date.`);
      return 0;
    } finally {
      await database.close();
    }
  },
};

const COMMANDS: Command[] = [serve, replay, migrateCommand, decodeCommand, mailCommand, orgCommand, keysCommand, usageCommand, identityCommand, importCommand, dataCommand];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `lamis ${VERSION}: the Landing and Maritime Intelligence Service`,
    '',
    'Usage: lamis <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `lamis <command> --help` for its options and their environment variables.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    console.log(VERSION);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`lamis: unknown command "${name}"\n\n${mainHelp()}`);
    return 2;
  }
  try {
    const context = parseCommandArgs(command, rest);
    if (context === 'help') {
      console.log(commandHelp(command));
      return 0;
    }
    return await command.run(context);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`lamis ${command.name}: ${error.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      console.error(`lamis ${command.name}: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
