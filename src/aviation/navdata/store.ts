// Imported navigation data lives in the data folder as `<data>/navdata/localizers.json`: the
// localizers read from the operator's nav.dat with where and when they came from. A few thousand
// entries load in well under a second, so the service reads the file at each start; an import
// replaces it whole (a temporary file renamed over the old one), so a reader never sees half a file.
import path from 'node:path';
import { readStoredJson, saveStoredJson } from '../../platform/data-sources.ts';
import { ILS_CATEGORIES, LOCALIZER_KINDS, NAVDAT_VERSIONS, type LocalizerRecord, type NavDatVersion } from './navdat.ts';

const FORMAT = 1;

export interface NavDataImportMeta {
  /** The imported file's name. */
  origin: string;
  version: NavDatVersion;
  cycle: string | null;
  imported_at: string;
}

export type StoredNavData =
  | { readonly status: 'missing' }
  | { readonly status: 'loaded'; readonly meta: NavDataImportMeta; readonly localizers: readonly LocalizerRecord[] }
  | { readonly status: 'unreadable'; readonly file: string; readonly error: string };

export function navDataFile(dataDir: string): string {
  return path.join(dataDir, 'navdata', 'localizers.json');
}

/** Replaces the saved navigation data. */
export async function saveNavData(dataDir: string, meta: NavDataImportMeta, localizers: readonly LocalizerRecord[]): Promise<string> {
  const file = navDataFile(dataDir);
  await saveStoredJson(file, { format: FORMAT, ...meta, localizers });
  return file;
}

/** The saved navigation data; never throws. */
export async function readNavData(dataDir: string): Promise<StoredNavData> {
  const file = navDataFile(dataDir);
  const stored = await readStoredJson(file);
  if (stored.status !== 'read') return stored;
  const { format, origin, version, cycle, imported_at: importedAt, localizers } = stored.value;
  if (format !== FORMAT || typeof origin !== 'string' || !(NAVDAT_VERSIONS as readonly unknown[]).includes(version)
    || (cycle !== null && typeof cycle !== 'string') || typeof importedAt !== 'string' || !Array.isArray(localizers)) {
    return { status: 'unreadable', file, error: `not a LAMIS navigation data import (format ${FORMAT}); import the nav.dat file again` };
  }
  if (!localizers.every(isLocalizer)) return { status: 'unreadable', file, error: 'an entry is damaged; import the nav.dat file again' };
  return { status: 'loaded', meta: { origin, version: version as NavDatVersion, cycle, imported_at: importedAt }, localizers };
}

function isLocalizer(value: unknown): value is LocalizerRecord {
  const entry = value as Record<string, unknown> | null;
  return typeof entry === 'object' && entry !== null
    && typeof entry.airport === 'string' && typeof entry.runway === 'string' && typeof entry.ident === 'string'
    && LOCALIZER_KINDS.includes(entry.kind as never)
    && (entry.category === null || ILS_CATEGORIES.includes(entry.category as never))
    && typeof entry.frequency_mhz === 'number' && typeof entry.course_true_deg === 'number';
}
