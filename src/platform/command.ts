// The shape of a `lamis` subcommand, with option parsing and help text shared by all of them.
import { parseArgs } from 'node:util';
import { SETTINGS, loadConfig, type Config } from '../config.ts';

export interface CommandOption {
  type: 'string' | 'boolean';
  description: string;
  short?: string;
}

export interface CommandContext {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** Present when the command takes the service settings. */
  config: Config;
}

export interface Command {
  name: string;
  summary: string;
  /** Arguments after the options, for the usage line, e.g. `[FILE]`. */
  args?: string;
  options?: Record<string, CommandOption>;
  /** Whether the service settings (storage, bus, ...) apply to this command. */
  usesSettings: boolean;
  run(context: CommandContext): Promise<number>;
}

export function commandHelp(command: Command): string {
  const lines = [`Usage: lamis ${command.name} [options]${command.args ? ` ${command.args}` : ''}`, '', command.summary, '', 'Options:'];
  const rows: [string, string][] = [];
  for (const [name, option] of Object.entries(command.options ?? {})) {
    rows.push([`--${name}${option.type === 'string' ? ' VALUE' : ''}`, option.description]);
  }
  if (command.usesSettings) {
    for (const s of SETTINGS) rows.push([`--${s.flag} VALUE`, `${s.description} [env ${s.env}; default ${s.shown}]`]);
  }
  rows.push(['-h, --help', 'Show this help']);
  const width = Math.max(...rows.map(([left]) => left.length));
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}  ${right}`);
  return lines.join('\n');
}

export class UsageError extends Error {}

/** Parses argv for a command; throws UsageError or ConfigError with a message for the user. */
export function parseCommandArgs(command: Command, argv: string[]): CommandContext | 'help' {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, option] of Object.entries(command.options ?? {})) {
    options[name] = option.short ? { type: option.type, short: option.short } : { type: option.type };
  }
  if (command.usesSettings) for (const s of SETTINGS) options[s.flag] = { type: 'string' };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return 'help';
  const flags: Record<string, string | undefined> = {};
  if (command.usesSettings) for (const s of SETTINGS) flags[s.flag] = values[s.flag] as string | undefined;
  return { values, positionals: parsed.positionals, config: loadConfig(process.env, flags) };
}
