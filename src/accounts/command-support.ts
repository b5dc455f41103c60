// What the operators' `lamis` commands of accounts share. They work on the storage the server uses
// (LAMIS_DATA_DIR or DATABASE_URL), also while it runs, after migrating the tables of accounts as
// `lamis migrate` would. Operators are trusted: they act as `operator` in the audit log. With
// `--json` each command prints one JSON object.
import { UsageError } from '../platform/command.ts';
import { openDatabase, type Database } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { accountsMigrations } from './migrations/index.ts';

/** Opens storage with the tables of accounts migrated, runs `work` and closes it. */
export async function withStorage<T>(config: PlatformSettings, work: (database: Database) => Promise<T>): Promise<T> {
  const database = openDatabase(config);
  try {
    await migrate(database.db, database.dialect, accountsMigrations);
    return await work(database);
  } finally {
    await database.close();
  }
}

/** Input the stores reject (a name too long, an expiry in the past) is the user's to fix. */
export async function asUsage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw error instanceof RangeError ? new UsageError(error.message) : error;
  }
}

export function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  return all.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

export function fail(command: string, message: string): number {
  console.error(`lamis ${command}: ${message}`);
  return 1;
}
