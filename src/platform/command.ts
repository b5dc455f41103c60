// The shape of a `lamis` subcommand, with option parsing and help text shared by all of them.
// The settings (and what they import) are loaded only for the commands that take them.
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';

export interface CommandOption {
  type: 'string' | 'boolean';
  description: string;
  short?: string;
}

export interface CommandContext {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** What a command that takes the service settings runs with. */
export interface SettingsContext extends CommandContext {
  config: Config;
}

/** A command as `lamis --help` lists it; its module is loaded only when it runs or shows its help. */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

interface CommandShape {
  /** Arguments after the options, for the usage line, e.g. `[FILE]`. */
  args?: string;
  options?: Record<string, CommandOption>;
}

/** `usesSettings`: whether the service settings (storage, bus, ...) apply to the command. */
export type Command =
  | (CommandShape & { usesSettings: true; run(context: SettingsContext): Promise<number> })
  | (CommandShape & { usesSettings: false; run(context: CommandContext): Promise<number> });

export async function commandHelp(entry: CommandEntry, command: Command): Promise<string> {
  const lines = [`Usage: lamis ${entry.name} [options]${command.args ? ` ${command.args}` : ''}`, '', entry.summary, '', 'Options:'];
  const rows: [string, string][] = [];
  for (const [name, option] of Object.entries(command.options ?? {})) {
    rows.push([`--${name}${option.type === 'string' ? ' VALUE' : ''}`, option.description]);
  }
  if (command.usesSettings) {
    const { SETTINGS } = await import('../config.ts');
    for (const s of SETTINGS) rows.push([`--${s.flag} VALUE`, `${s.description} [env ${s.env}; default ${s.shown}]`]);
  }
  rows.push(['-h, --help', 'Show this help']);
  const width = Math.max(...rows.map(([left]) => left.length));
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}  ${right}`);
  return lines.join('\n');
}

export class UsageError extends Error {}

/** A failure told in one line, with exit status 2: the user can fix it (a port in use, say). */
export class CommandError extends Error {}

/**
 * Parses argv for a command and runs it, or answers 'help' when asked for its help; throws
 * UsageError or ConfigError with a message for the user.
 */
export async function runCommand(command: Command, argv: string[]): Promise<number | 'help'> {
  const settings = command.usesSettings ? (await import('../config.ts')).SETTINGS : [];
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, option] of Object.entries(command.options ?? {})) {
    options[name] = option.short ? { type: option.type, short: option.short } : { type: option.type };
  }
  for (const s of settings) options[s.flag] = { type: 'string' };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return 'help';
  const context = { values, positionals: parsed.positionals };
  if (!command.usesSettings) return command.run(context);
  const flags: Record<string, string | undefined> = {};
  for (const s of settings) flags[s.flag] = values[s.flag] as string | undefined;
  const { loadConfig } = await import('../config.ts');
  return command.run({ ...context, config: loadConfig(process.env, flags) });
}
