// Imported port data lives in the data folder as one JSON file per source, `<data>/ports/wpi.json`
// and `<data>/ports/unlocode.json`: the parsed entries with where and when they were imported. A
// few thousand entries load in well under a second, so the merged index is rebuilt in memory at
// each start instead of keeping a database table; an import replaces its file whole (written to a
// temporary file, then renamed over the old one), so a reader never sees half a file.
import path from 'node:path';
import { readStoredJson, saveStoredJson } from '../../platform/data-sources.ts';
import type { ImportMeta, UnlocodeEntry, WpiEntry } from './model.ts';

const FORMAT = 1;

export type ImportedSource = 'wpi' | 'unlocode';
export type EntryOf<S extends ImportedSource> = S extends 'wpi' ? WpiEntry : UnlocodeEntry;

export type StoredImport<S extends ImportedSource> =
  | { readonly status: 'missing' }
  | { readonly status: 'loaded'; readonly meta: ImportMeta; readonly entries: readonly EntryOf<S>[] }
  | { readonly status: 'unreadable'; readonly file: string; readonly error: string };

export function importFile(dataDir: string, source: ImportedSource): string {
  return path.join(dataDir, 'ports', `${source}.json`);
}

/** Replaces the saved entries of `source`. */
export async function saveImport<S extends ImportedSource>(
  dataDir: string,
  source: S,
  origin: string,
  entries: readonly EntryOf<S>[],
): Promise<{ file: string; meta: ImportMeta }> {
  const file = importFile(dataDir, source);
  const meta: ImportMeta = { origin, imported_at: new Date().toISOString(), entries: entries.length };
  await saveStoredJson(file, { format: FORMAT, source, ...meta, entries });
  return { file, meta };
}

/** The saved entries of `source`; never throws. */
export async function readImport<S extends ImportedSource>(dataDir: string, source: S): Promise<StoredImport<S>> {
  const file = importFile(dataDir, source);
  const stored = await readStoredJson(file);
  if (stored.status !== 'read') return stored;
  const valid = source === 'wpi' ? isWpiEntry : isUnlocodeEntry;
  const { format, origin, imported_at: importedAt, entries } = stored.value;
  if (format !== FORMAT || typeof origin !== 'string' || typeof importedAt !== 'string' || !Array.isArray(entries)) {
    return { status: 'unreadable', file, error: `not a LAMIS ${source} import (format ${FORMAT}); import the file again` };
  }
  if (!entries.every(valid)) return { status: 'unreadable', file, error: 'an entry is damaged; import the file again' };
  return { status: 'loaded', meta: { origin, imported_at: importedAt, entries: entries.length }, entries: entries as EntryOf<S>[] };
}

/** Enough of the shape that merging cannot fail on it. */
function isPlace(value: unknown): value is { name: string; lat: number; lon: number } {
  const entry = value as Record<string, unknown> | null;
  return typeof entry === 'object' && entry !== null && typeof entry.name === 'string' && typeof entry.lat === 'number' && typeof entry.lon === 'number';
}

function isWpiEntry(value: unknown): boolean {
  return isPlace(value) && typeof (value as WpiEntry).wpi_number === 'number' && Array.isArray((value as WpiEntry).alternate_names);
}

function isUnlocodeEntry(value: unknown): boolean {
  return isPlace(value) && typeof (value as UnlocodeEntry).unlocode === 'string';
}
