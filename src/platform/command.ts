// The shape of a `lamis` subcommand, with option parsing and help text shared by all of them.
// The settings table comes from the caller, which loads it only for the commands that take it.
import { parseArgs } from 'node:util';
import { loadSettings, type SettingsOf, type SettingsTable } from './config/index.ts';
import type { PlatformSettings } from './settings.ts';

export interface CommandOption {
  type: 'string' | 'boolean';
  description: string;
  short?: string;
}

export interface CommandContext {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** What a command that takes the service settings runs with; `Settings`: those it reads. */
export interface SettingsContext<Settings = PlatformSettings> extends CommandContext {
  config: Settings;
}

/** A command as `lamis --help` lists it; its module is loaded only when it runs or shows its help. */
export interface CommandEntry<Settings = PlatformSettings> {
  name: string;
  summary: string;
  load(): Promise<Command<Settings>>;
}

interface CommandShape {
  /** Arguments after the options, for the usage line, e.g. `[FILE]`. */
  args?: string;
  options?: Record<string, CommandOption>;
}

/** `usesSettings`: whether the service settings (storage, bus, ...) apply to the command. */
export type Command<Settings = PlatformSettings> =
  | (CommandShape & { usesSettings: true; run(context: SettingsContext<Settings>): Promise<number> })
  | (CommandShape & { usesSettings: false; run(context: CommandContext): Promise<number> });

/** `settings` loads the service's settings table, for the commands that take it. */
export async function commandHelp<Settings>(entry: CommandEntry<Settings>, command: Command<Settings>, settings: () => Promise<SettingsTable>): Promise<string> {
  const lines = [`Usage: lamis ${entry.name} [options]${command.args ? ` ${command.args}` : ''}`, '', entry.summary, '', 'Options:'];
  const rows: [string, string][] = [];
  for (const [name, option] of Object.entries(command.options ?? {})) {
    rows.push([`--${name}${option.type === 'string' ? ' VALUE' : ''}`, option.description]);
  }
  if (command.usesSettings) {
    for (const s of await settings()) rows.push([`--${s.flag} VALUE`, `${s.description} [env ${s.env}; default ${s.shown}]`]);
  }
  rows.push(['-h, --help', 'Show this help']);
  const width = Math.max(...rows.map(([left]) => left.length));
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}  ${right}`);
  return lines.join('\n');
}

export class UsageError extends Error {}

/** A failure told in one line, with exit status 2: the user can fix it (a port in use, say). */
export class CommandError extends Error {}

/** The command's options and, when it takes them, the settings' flags, parsed; or 'help'. */
function parse(command: CommandShape, argv: string[], table: SettingsTable): CommandContext | 'help' {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, option] of Object.entries(command.options ?? {})) {
    options[name] = option.short ? { type: option.type, short: option.short } : { type: option.type };
  }
  for (const s of table) options[s.flag] = { type: 'string' };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  return values.help ? 'help' : { values, positionals: parsed.positionals };
}

/**
 * Parses argv for a command and runs it, or answers 'help' when asked for its help; throws
 * UsageError or ConfigError with a message for the user. `settings` loads the service's settings
 * table, for the commands that take it.
 */
export async function runCommand<Table extends SettingsTable>(
  command: Command<NoInfer<SettingsOf<Table>>>,
  argv: string[],
  settings: () => Promise<Table>,
): Promise<number | 'help'> {
  if (!command.usesSettings) {
    const context = parse(command, argv, []);
    return context === 'help' ? 'help' : command.run(context);
  }
  const table = await settings();
  const context = parse(command, argv, table);
  if (context === 'help') return 'help';
  const flags: Record<string, string | undefined> = {};
  for (const s of table) flags[s.flag] = context.values[s.flag] as string | undefined;
  return command.run({ ...context, config: loadSettings(table, process.env, flags) });
}
