// The settings machinery: a setting is one row (variable, flag, default, parser, description);
// the platform and each feature declare a table of them, and the service's configuration is their
// concatenation. Parsing, validation, `lamis <cmd> --help` and the README's configuration table
// all follow the rows, and the value types follow the parsers.

/** Reads one raw value (from the environment or a flag), or says what is wrong with it. */
export type Parse<T> = (raw: string) => { value: T } | { error: string };

export interface Setting<K extends string = string, T = unknown> {
  /** The property of the loaded settings. */
  key: K;
  env: string;
  flag: string;
  description: string;
  /** What `--help` and the README show as the default. */
  shown: string;
  /** Must fit the parser, whose type is the value's type (a default of `'auto'` stays a switch). */
  defaultValue: NoInfer<T>;
  parse: Parse<T>;
}

export type SettingsTable = readonly Setting[];

/** The values a table loads to: one property a row, typed by its parser. */
export type SettingsOf<Table extends SettingsTable> = { [S in Table[number] as S['key']]: S['defaultValue'] };

/** A row, typed: its key as written and its value as its parser reads it. */
export function setting<K extends string, T>(row: Setting<K, T>): Setting<K, T> {
  return row;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/**
 * Loads a table from the environment and flag values (by flag name, without dashes; flags win).
 * Every bad value is reported at once, each naming its variable or flag.
 */
export function loadSettings<Table extends SettingsTable>(
  table: Table,
  env: NodeJS.ProcessEnv = process.env,
  flags: Record<string, string | undefined> = {},
): SettingsOf<Table> {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const s of table) {
    const fromFlag = flags[s.flag];
    const raw = fromFlag ?? env[s.env];
    if (raw === undefined) {
      values[s.key] = s.defaultValue;
      continue;
    }
    const parsed = s.parse(raw);
    if ('error' in parsed) {
      const source = fromFlag !== undefined ? `--${s.flag}` : s.env;
      problems.push(`${source}: ${parsed.error} (got "${raw}")`);
    } else {
      values[s.key] = parsed.value;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values as SettingsOf<Table>;
}
