// The `lamis` command: `lamis <command> [options]`. Every option also reads its environment
// variable (see `lamis <command> --help` and the README). A command's module is loaded only when
// that command runs, so that `lamis decode` or `lamis --help` do not load the whole server.
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from './config.ts';
import { CommandError, commandHelp, runCommand, UsageError, type CommandEntry } from './platform/command.ts';
import { ConfigError } from './platform/config/index.ts';

/** The settings table, loaded only for the commands that take settings (with what it imports). */
const settings = async () => (await import('./config.ts')).SETTINGS;

const COMMANDS: CommandEntry<Config>[] = [
  {
    name: 'serve',
    summary: 'Run the LAMIS service: REST API under /v3, docs at /docs, health at /healthz and /readyz, metrics at /metrics.',
    load: async () => (await import('./serve.command.ts')).serve,
  },
  {
    name: 'replay',
    summary: 'Run the service with a recorded NMEA file as an AIS feed (source `replay`), paced by its tag-block times; the AIS simulator stays off.',
    load: async () => (await import('./serve.command.ts')).replay,
  },
  {
    name: 'migrate',
    summary: 'Apply pending storage migrations (SQLite in the data folder, or PostgreSQL when DATABASE_URL is set) and exit.',
    load: async () => (await import('./migrate.command.ts')).migrateCommand,
  },
  {
    name: 'decode',
    summary: 'Decode AIS NMEA sentences (AIVDM/AIVDO, tag blocks, multi-sentence messages) to JSON Lines.',
    load: async () => (await import('./maritime/ais/decode.command.ts')).decodeCommand,
  },
  {
    name: 'mail',
    summary: 'Outgoing mail as recorded in the outbox: `list` the newest messages, `show ID` one with its text (kept for the local outbox and for failed sends).',
    load: async () => (await import('./platform/mail/mail.command.ts')).mailCommand,
  },
  {
    name: 'org',
    summary:
      'Organisations: `create` one on a plan, `set-plan` to change its plan, `set-ais-upload` to let its keys upload AIS that every ' +
      'organisation sees, `set-slot-share` to grant it another share of each airport hour\'s arrival slots (each audited as an operator action).',
    load: async () => (await import('./accounts/index.ts')).orgCommand,
  },
  {
    name: 'keys',
    summary: "API keys: `create` one for an organisation (its secret is printed once), `revoke` one, `list` an organisation's keys.",
    load: async () => (await import('./accounts/index.ts')).keysCommand,
  },
  {
    name: 'usage',
    summary: "An organisation's API usage per key and UTC day: requests and streams (as flushed by the servers, every 10 s).",
    load: async () => (await import('./accounts/index.ts')).usageCommand,
  },
  {
    name: 'identity',
    summary: "Identity checks: `list` those awaiting manual review, write out one's `document`, `settle` one as verified or rejected (audited).",
    load: async () => (await import('./accounts/index.ts')).identityCommand,
  },
  {
    name: 'import',
    summary: 'Import port data into the data folder: `wpi FILE` (NGA World Port Index, UpdatedPub150.csv) or `unlocode FILE...` (UN/LOCODE CodeListPart CSV files or the release ZIP).',
    load: async () => (await import('./data.command.ts')).importCommand,
  },
  {
    name: 'data',
    summary: '`sync`: download the World Port Index and the UN/LOCODE code list from NGA and UNECE and import them (needs the internet; exits 1 when a download fails).',
    load: async () => (await import('./data.command.ts')).dataCommand,
  },
];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `lamis ${packageJson.version}: the Landing and Maritime Intelligence Service`,
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
    console.log(packageJson.version);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    console.error(`lamis: unknown command "${name}"\n\n${mainHelp()}`);
    return 2;
  }
  const command = await entry.load();
  try {
    const outcome = await runCommand(command, rest, settings);
    if (outcome !== 'help') return outcome;
    console.log(await commandHelp(entry, command, settings));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`lamis ${entry.name}: ${error.message}\n\n${await commandHelp(entry, command, settings)}`);
      return 2;
    }
    if (error instanceof CommandError || error instanceof ConfigError) {
      console.error(`lamis ${entry.name}: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
