// OurAirports' own CSV files (public domain, https://ourairports.com/data/): runways with both
// ends, airport frequencies and navaids, reduced to the fields the airport index uses and kept as
// one gzipped JSON file. The repository carries a compiled copy (reference/ourairports/, rebuilt by
// scripts/compile-ourairports.ts); `lamis data sync` downloads the CSV files again and writes the
// same file into the data folder. Whichever of the two was compiled last is the one used.
//
// The file is JSON of fixed-order arrays (see the *Row types), one record a line, gzipped: the
// header first, so its date can be read without decoding the rest.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { readCsvRows, type RejectedRow } from '../../platform/csv.ts';
import { writeFileAtomic } from '../../platform/files.ts';

/** The committed compilation, at the repository root. */
export const COMMITTED_OURAIRPORTS_FILE = fileURLToPath(new URL('../../../reference/ourairports/ourairports.json.gz', import.meta.url));

/** Where `lamis data sync` keeps its compilation inside the data folder. */
export function syncedOurAirportsFile(dataDir: string): string {
  return path.join(dataDir, 'ourairports', 'ourairports.json.gz');
}

export const OURAIRPORTS_FORMAT = 1;

export type OurAirportsPart = 'runways' | 'frequencies' | 'navaids';

export const OURAIRPORTS_PARTS: readonly OurAirportsPart[] = ['runways', 'frequencies', 'navaids'];

/** The CSV file each part is compiled from, as OurAirports names it. */
export const OURAIRPORTS_CSV: Readonly<Record<OurAirportsPart, string>> = {
  runways: 'runways.csv',
  frequencies: 'airport-frequencies.csv',
  navaids: 'navaids.csv',
};

/** ident, latitude, longitude, elevation ft, true heading, displaced threshold ft; unknowns null. */
export type RunwayEndRow = [string, number | null, number | null, number | null, number | null, number | null];

/** id, airport ident, length ft, width ft, surface as written, lighted, closed, low end, high end. */
export type RunwayRow = [number, string, number | null, number | null, string, boolean, boolean, RunwayEndRow | null, RunwayEndRow | null];

/** Airport ident, type ("TWR", "ATIS"), description, MHz. */
export type FrequencyRow = [string, string, string | null, number];

/** ident, name, type, kHz, latitude, longitude, elevation ft, country, DME channel, associated airport ident. */
export type NavaidRow = [string, string, string, number | null, number, number, number | null, string | null, string | null, string | null];

export type PartOrigin = {
  /** The file or address it was read from. */
  readonly from: string;
  /** When it was read. */
  readonly read_at: string;
  readonly rows: number;
};

export type OurAirportsHeader = {
  readonly format: number;
  /** When the file was written: the later of two files is the one used. */
  readonly compiled_at: string;
  readonly parts: Readonly<Record<OurAirportsPart, PartOrigin>>;
};

export type OurAirportsData = {
  readonly header: OurAirportsHeader;
  readonly runways: readonly RunwayRow[];
  readonly frequencies: readonly FrequencyRow[];
  readonly navaids: readonly NavaidRow[];
};


export type ParsedPart<T> =
  | { readonly ok: true; readonly rows: T[]; readonly rejected: RejectedRow[] }
  | { readonly ok: false; readonly error: string };

export type ParsedParts = {
  runways: ParsedPart<RunwayRow>;
  frequencies: ParsedPart<FrequencyRow>;
  navaids: ParsedPart<NavaidRow>;
};

type Columns = (name: string) => string;

/** Reads an OurAirports CSV by its header names; rows without the fields a record needs are rejected. */
function parsePart<T>(text: string, required: readonly string[], row: (field: Columns) => T | string): ParsedPart<T> {
  const { rows: lines, rejected } = readCsvRows(text);
  const [header, ...records] = lines;
  const columns = header?.fields ?? [];
  const missing = required.filter((name) => !columns.includes(name));
  if (missing.length > 0) return { ok: false, error: `not an OurAirports file: no ${missing.map((name) => `"${name}"`).join(', ')} column` };
  const index = new Map(columns.map((name, i) => [name, i]));
  const rows: T[] = [];
  for (const { line, fields } of records) {
    const made = row((name) => (fields[index.get(name) ?? -1] ?? '').trim());
    if (typeof made === 'string') rejected.push({ line, reason: made });
    else rows.push(made);
  }
  rejected.sort((a, b) => a.line - b.line);
  return { ok: true, rows, rejected };
}

function numberOf(text: string): number | null {
  if (text === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** Six decimals of a degree are 0.1 m: finer digits in the files are single-precision noise. */
function degreesOf(text: string): number | null {
  const value = numberOf(text);
  return value === null ? null : Math.round(value * 1e6) / 1e6;
}

function textOf(text: string): string | null {
  return text === '' ? null : text;
}

function endOf(field: Columns, prefix: 'le' | 'he'): RunwayEndRow | null {
  const ident = field(`${prefix}_ident`).toUpperCase();
  if (ident === '') return null;
  const lat = degreesOf(field(`${prefix}_latitude_deg`));
  const lon = degreesOf(field(`${prefix}_longitude_deg`));
  const placed = lat !== null && lon !== null;
  return [
    ident,
    placed ? lat : null,
    placed ? lon : null,
    numberOf(field(`${prefix}_elevation_ft`)),
    numberOf(field(`${prefix}_heading_degT`)),
    numberOf(field(`${prefix}_displaced_threshold_ft`)),
  ];
}

const RUNWAY_COLUMNS = ['id', 'airport_ident', 'length_ft', 'width_ft', 'surface', 'lighted', 'closed', 'le_ident', 'le_latitude_deg',
  'le_longitude_deg', 'le_elevation_ft', 'le_heading_degT', 'le_displaced_threshold_ft', 'he_ident'];

export function parseRunwaysCsv(text: string): ParsedPart<RunwayRow> {
  return parsePart(text, RUNWAY_COLUMNS, (field) => {
    const id = numberOf(field('id'));
    const airport = field('airport_ident').toUpperCase();
    if (id === null || !Number.isInteger(id)) return `runway id "${field('id')}" is not a whole number`;
    if (airport === '') return `runway ${id} names no airport`;
    const positive = (name: string) => {
      const value = numberOf(field(name));
      return value !== null && value > 0 ? value : null;
    };
    return [id, airport, positive('length_ft'), positive('width_ft'), field('surface'), field('lighted') === '1', field('closed') === '1',
      endOf(field, 'le'), endOf(field, 'he')];
  });
}

export function parseFrequenciesCsv(text: string): ParsedPart<FrequencyRow> {
  return parsePart(text, ['airport_ident', 'type', 'description', 'frequency_mhz'], (field) => {
    const airport = field('airport_ident').toUpperCase();
    const mhz = numberOf(field('frequency_mhz'));
    if (airport === '') return 'the frequency names no airport';
    if (mhz === null || mhz <= 0) return `${airport}: frequency "${field('frequency_mhz')}" is not a number of MHz`;
    return [airport, field('type').toUpperCase() || 'UNKNOWN', textOf(field('description')), mhz];
  });
}

export function parseNavaidsCsv(text: string): ParsedPart<NavaidRow> {
  return parsePart(text, ['ident', 'name', 'type', 'frequency_khz', 'latitude_deg', 'longitude_deg', 'associated_airport'], (field) => {
    const ident = field('ident');
    const lat = degreesOf(field('latitude_deg'));
    const lon = degreesOf(field('longitude_deg'));
    if (ident === '') return 'the navaid has no ident';
    if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) return `navaid ${ident}: no valid position`;
    const khz = numberOf(field('frequency_khz'));
    return [ident, field('name'), field('type').toUpperCase(), khz !== null && khz > 0 ? khz : null, lat, lon,
      numberOf(field('elevation_ft')), textOf(field('iso_country')), textOf(field('dme_channel')), textOf(field('associated_airport').toUpperCase())];
  });
}

export const PART_PARSERS: { readonly [P in OurAirportsPart]: (text: string) => ParsedParts[P] } = {
  runways: parseRunwaysCsv,
  frequencies: parseFrequenciesCsv,
  navaids: parseNavaidsCsv,
};

/** The file's bytes: a header line, then one row a line, gzipped. */
export function encodeOurAirports(data: OurAirportsData): Buffer {
  const lines = [JSON.stringify(data.header)];
  for (const part of OURAIRPORTS_PARTS) {
    lines.push(JSON.stringify(part));
    for (const row of data[part]) lines.push(JSON.stringify(row));
  }
  return gzipSync(`${lines.join('\n')}\n`, { level: 9 });
}

/** The data in a file's bytes; throws when they are not such a file. */
export function decodeOurAirports(bytes: Uint8Array): OurAirportsData {
  const lines = gunzipSync(bytes).toString('utf8').split('\n');
  const header = JSON.parse(lines[0] ?? '') as OurAirportsHeader;
  if (header?.format !== OURAIRPORTS_FORMAT) throw new Error(`OurAirports data of format ${String(header?.format)}, not ${OURAIRPORTS_FORMAT}`);
  const parts: Record<OurAirportsPart, unknown[]> = { runways: [], frequencies: [], navaids: [] };
  let current: unknown[] | null = null;
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const value = JSON.parse(line) as unknown;
    if (typeof value === 'string') {
      if (!(OURAIRPORTS_PARTS as readonly string[]).includes(value)) throw new Error(`unknown part "${value}" in OurAirports data`);
      current = parts[value as OurAirportsPart];
    } else if (current === null || !Array.isArray(value)) {
      throw new Error('OurAirports data: a row outside any part');
    } else {
      current.push(value);
    }
  }
  return {
    header,
    runways: parts.runways as RunwayRow[],
    frequencies: parts.frequencies as FrequencyRow[],
    navaids: parts.navaids as NavaidRow[],
  };
}

/** Compressed bytes inflated to read the header line: it is a few hundred bytes of text. */
const HEADER_BYTES = 4096;

/**
 * When a file was compiled, from its first line alone: only the start of the file is inflated
 * (a sync flush at the end of the input yields what it holds instead of failing on the cut), and
 * the whole file only if the line is longer than that.
 */
function compiledAt(bytes: Uint8Array): string {
  let text = gunzipSync(bytes.subarray(0, HEADER_BYTES), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  if (!text.includes('\n')) text = gunzipSync(bytes).toString('utf8');
  return (JSON.parse(text.slice(0, text.indexOf('\n'))) as OurAirportsHeader).compiled_at;
}

/** The OurAirports file in use: its bytes, where it lies and a digest that names its content. */
export type OurAirportsFile = {
  readonly file: string;
  readonly origin: 'committed' | 'synced';
  readonly bytes: Buffer;
  readonly sha256: string;
};

/**
 * The later compiled of the committed file and the one `lamis data sync` saved in `dataDir`; null
 * when neither can be read (the airport index then stands on the package data alone).
 */
export async function currentOurAirportsFile(dataDir: string | null, committed = COMMITTED_OURAIRPORTS_FILE): Promise<OurAirportsFile | null> {
  const read = async (file: string, origin: OurAirportsFile['origin']): Promise<OurAirportsFile | null> => {
    try {
      const bytes = await readFile(file);
      return { file, origin, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
    } catch {
      return null;
    }
  };
  const [fromRepo, fromSync] = await Promise.all([read(committed, 'committed'), dataDir === null ? null : read(syncedOurAirportsFile(dataDir), 'synced')]);
  if (fromSync === null || fromRepo === null) return fromSync ?? fromRepo;
  try {
    return compiledAt(fromSync.bytes) >= compiledAt(fromRepo.bytes) ? fromSync : fromRepo;
  } catch {
    return fromRepo;
  }
}

/** Writes the file atomically, creating its folder. */
export async function writeOurAirports(file: string, data: OurAirportsData): Promise<void> {
  await writeFileAtomic(file, encodeOurAirports(data));
}
