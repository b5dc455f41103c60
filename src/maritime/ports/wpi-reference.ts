// The World Port Index built into LAMIS: `reference/wpi/wpi.json.gz`, compiled from NGA's
// UpdatedPub150.csv by `scripts/compile-wpi.ts` through the same parser as `lamis import wpi`.
// One array per port in the order of `columns` (the WpiEntry fields; the entrance restrictions as
// [tide, swell, ice, other]), so the file holds only what the merge uses. An import in the data
// folder replaces it whole.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ImportMeta, WpiEntry } from './model.ts';

export const WPI_REFERENCE_FILE = fileURLToPath(new URL('../../../reference/wpi/wpi.json.gz', import.meta.url));

const FORMAT = 2;
const COLUMNS = [
  'wpi_number', 'unlocode', 'name', 'alternate_names', 'country', 'lat', 'lon', 'harbour_size', 'harbour_type', 'shelter',
  'channel_depth_m', 'anchorage_depth_m', 'cargo_pier_depth_m', 'oil_terminal_depth_m', 'tidal_range_m',
  'max_vessel_length_m', 'max_vessel_beam_m', 'max_vessel_draught_m', 'entrance_restrictions',
] as const satisfies readonly (keyof WpiEntry)[];

type Compiled = {
  readonly format: number;
  readonly source: string;
  readonly compiled_at: string;
  readonly columns: readonly string[];
  readonly rows: readonly unknown[][];
};

export type WpiReference = { readonly meta: ImportMeta; readonly entries: readonly WpiEntry[] };

/** The gzip file `scripts/compile-wpi.ts` writes. */
export function encodeWpiReference(entries: readonly WpiEntry[], source: string, compiledAt: Date): Uint8Array {
  const rows = entries.map((entry) =>
    COLUMNS.map((column) => {
      if (column !== 'entrance_restrictions') return entry[column];
      const { tide, swell, ice, other } = entry.entrance_restrictions;
      return [tide, swell, ice, other];
    }),
  );
  const compiled: Compiled = { format: FORMAT, source, compiled_at: compiledAt.toISOString(), columns: COLUMNS, rows };
  return gzipSync(JSON.stringify(compiled), { level: 9 });
}

export function decodeWpiReference(json: string): WpiReference {
  const compiled = JSON.parse(json) as Compiled;
  if (compiled.format !== FORMAT || compiled.columns.join() !== COLUMNS.join()) {
    throw new Error(`${WPI_REFERENCE_FILE} is not in format ${FORMAT}: compile it again with scripts/compile-wpi.ts`);
  }
  const entries = compiled.rows.map((row) => {
    const entry = Object.fromEntries(COLUMNS.map((column, i) => [column, row[i]])) as Record<string, unknown>;
    const [tide, swell, ice, other] = entry.entrance_restrictions as (boolean | null)[];
    entry.entrance_restrictions = { tide, swell, ice, other };
    return entry as WpiEntry;
  });
  return { meta: { origin: compiled.source, imported_at: compiled.compiled_at, entries: entries.length }, entries };
}

let cached: WpiReference | undefined;

/**
 * Read once per process (about 30 ms), for the port index and the simulated fleet alike. Throws
 * when the file shipped with LAMIS is missing or damaged.
 */
export function wpiReference(): WpiReference {
  cached ??= decodeWpiReference(gunzipSync(readFileSync(WPI_REFERENCE_FILE)).toString('utf8'));
  return cached;
}
