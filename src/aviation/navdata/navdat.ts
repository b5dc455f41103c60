// X-Plane navigation data (`nav.dat`, `earth_nav.dat`): the format FlightGear ships and
// commercial AIRAC providers sell. Read here for the ILS and localizers of each runway end; the
// other navaids are counted, not kept. Facts from X-Plane's specifications XP NAV810 and
// XP NAV1100/1150/1200 (developer.x-plane.com):
//
// - Line 1 is "I" or "A" (empty in FlightGear's copy); line 2 starts "<version> Version" (810,
//   1100, 1150, 1200) and may name the "data cycle"; "99" ends the data. Fields are separated by
//   any white space.
// - Every row starts: row code, latitude, longitude, elevation (ft), frequency, range (nm), then a
//   heading-like field and the ident. Frequencies of VOR, ILS, glide slope and DME rows are in
//   10 kHz (11090 = 110.90 MHz); NDBs in kHz.
// - Row codes: 2 NDB, 3 VOR, 4 localizer of an ILS, 5 localizer alone (LOC, LDA, SDF), 6 glide
//   slope, 7/8/9 outer/middle/inner marker, 12/13 DME; 1100 adds 14 FPAP, 15 GLS, 16 LTP/FTP.
// - 810 ILS rows (4-9): ident, airport ICAO, runway, type ("ILS-cat-III", "LOC", "GS", "OM").
//   1100+ put the ICAO region code between the airport and the runway.
// - Localizer course: degrees true; from 1150 the magnetic front course may be folded in as
//   magnetic × 360 + true (97109.717 is 269° magnetic, 269.717° true). Glide slope: the angle in
//   hundredths of a degree × 1,000 + the true course (300030.664 is 3.00° on 030.664°).
//
// The parser never throws: a file that is not nav.dat is an error, a bad row is rejected with its
// line number and the rest is read.
import { gunzipSync } from 'node:zlib';

export const NAVDAT_VERSIONS = [810, 1100, 1150, 1200] as const;
export type NavDatVersion = (typeof NAVDAT_VERSIONS)[number];

/** What a localizer row says it is: an ILS of a category, or a localizer-type aid without one. */
export type LocalizerKind = 'ILS' | 'LOC' | 'LOC-GS' | 'LDA' | 'LDA-GS' | 'SDF' | 'IGS';
export const LOCALIZER_KINDS: readonly LocalizerKind[] = ['ILS', 'LOC', 'LOC-GS', 'LDA', 'LDA-GS', 'SDF', 'IGS'];

/** ILS facility performance category as nav.dat gives it (CAT III is not split into A/B/C). */
export type IlsCategory = 'I' | 'II' | 'III';
export const ILS_CATEGORIES: readonly IlsCategory[] = ['I', 'II', 'III'];

/** One localizer with its glide slope when the file lists one. */
export interface LocalizerRecord {
  /** Airport ICAO code, upper case. */
  airport: string;
  /** Runway designator, two digits ("04R"). */
  runway: string;
  ident: string;
  kind: LocalizerKind;
  /** For kind ILS only. */
  category: IlsCategory | null;
  frequency_mhz: number;
  course_true_deg: number;
  /** Only in 1150+ files. */
  course_magnetic_deg: number | null;
  /** null when the file lists no glide slope for it. */
  glide_slope_deg: number | null;
  lat: number;
  lon: number;
  /** The line of the localizer row. */
  line: number;
}

/** A localizer as served with a runway end. */
export interface LocalizerSystem {
  ident: string;
  runway: string;
  kind: LocalizerKind;
  category: IlsCategory | null;
  frequency_mhz: number;
  course_true_deg: number;
  course_magnetic_deg: number | null;
  glide_slope_deg: number | null;
  /** Where it comes from: "nav.dat (X-Plane 810, data cycle 2013.10), imported 2026-11-26". */
  source: string;
}

export interface NavDatCounts {
  ils: number;
  localizers: number;
  glide_slopes: number;
  markers: number;
  dme: number;
  vor: number;
  ndb: number;
  /** FPAP, GLS and threshold rows (1100+): valid, not used. */
  other: number;
}

export interface RejectedLine {
  line: number;
  reason: string;
}

export type NavDatResult =
  | {
    ok: true;
    version: NavDatVersion;
    /** "2013.10", "1802"; null when the header does not say. */
    cycle: string | null;
    localizers: LocalizerRecord[];
    counts: NavDatCounts;
    rejected: RejectedLine[];
  }
  | { ok: false; error: string };

const GZIP_MAGIC = [0x1f, 0x8b];
/** Localizers use the band 108–112 MHz, channels 108.10–111.95 (ICAO Annex 10 Vol. I, 3.1.3.2). */
const LOCALIZER_MHZ = { min: 108, max: 112 };
const END_OF_DATA = '99';

const KIND_BY_NAME: Readonly<Record<string, { kind: LocalizerKind; category: IlsCategory | null }>> = {
  'ILS-CAT-I': { kind: 'ILS', category: 'I' },
  'ILS-CAT-II': { kind: 'ILS', category: 'II' },
  'ILS-CAT-III': { kind: 'ILS', category: 'III' },
  'LOC-GS': { kind: 'LOC-GS', category: null },
  'LDA-GS': { kind: 'LDA-GS', category: null },
  IGS: { kind: 'IGS', category: null },
  LOC: { kind: 'LOC', category: null },
  LDA: { kind: 'LDA', category: null },
  SDF: { kind: 'SDF', category: null },
};

/** "4R" and "04R" alike become "04R" ("T": a runway numbered by true heading); anything else is upper-cased as written. */
export function runwayKey(ident: string): string {
  const text = ident.trim().toUpperCase();
  return /^\d[LCRT]?$/.test(text) ? `0${text}` : text;
}

/** Reads a nav.dat file, plain or gzip-compressed. */
export function parseNavDat(bytes: Uint8Array): NavDatResult {
  try {
    return parseText(decode(bytes));
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function decode(bytes: Uint8Array): string {
  const gzipped = bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  let plain: Uint8Array;
  try {
    plain = gzipped ? gunzipSync(bytes) : bytes;
  } catch (error) {
    throw new Error(`the gzip data is damaged (${(error as Error).message})`);
  }
  // The header's copyright sign is Latin-1; every field is ASCII.
  return Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength).toString('latin1');
}

function parseText(text: string): NavDatResult {
  const lines = text.split(/\r\n|\r|\n/);
  const origin = lines[0]?.trim();
  const header = lines[1]?.trim() ?? '';
  const version = Number(/^(\d+)\s+Version\b/i.exec(header)?.[1]);
  // FlightGear's copy leaves the first line empty.
  if (!['I', 'A', ''].includes(origin ?? 'missing') || !Number.isInteger(version)) {
    return { ok: false, error: 'not an X-Plane nav.dat file: it must start with a line "I" or "A" and then "810 Version", "1100 Version", "1150 Version" or "1200 Version"' };
  }
  if (!(NAVDAT_VERSIONS as readonly number[]).includes(version)) {
    return { ok: false, error: `nav.dat format ${version} is not supported (use ${NAVDAT_VERSIONS.join(', ')})` };
  }
  const reader = new RowReader(version as NavDatVersion);
  let ended = false;
  for (let index = 2; index < lines.length; index += 1) {
    const fields = lines[index]!.trim().split(/\s+/);
    if (fields[0] === '') continue;
    if (fields[0] === END_OF_DATA && fields.length === 1) {
      ended = true;
      break;
    }
    reader.read(fields, index + 1);
  }
  const localizers = reader.localizers();
  if (!ended && localizers.length === 0) return { ok: false, error: 'no navigation data rows and no "99" end line: is this a nav.dat file?' };
  return {
    ok: true,
    version: version as NavDatVersion,
    cycle: /data cycle\s+([0-9.]+\d)/i.exec(header)?.[1] ?? null,
    localizers,
    counts: reader.counts,
    rejected: reader.rejected,
  };
}

class RowReader {
  readonly counts: NavDatCounts = { ils: 0, localizers: 0, glide_slopes: 0, markers: 0, dme: 0, vor: 0, ndb: 0, other: 0 };
  readonly rejected: RejectedLine[] = [];
  readonly #localizers = new Map<string, LocalizerRecord>();
  /** Glide path angles by ident, airport and runway. */
  readonly #glides = new Map<string, number>();
  /** 1100+ insert the ICAO region after the airport of ILS rows, the terminal area of others. */
  readonly #regionColumn: boolean;

  constructor(version: NavDatVersion) {
    this.#regionColumn = version >= 1100;
  }

  read(fields: string[], line: number): void {
    const reason = this.#row(fields, line);
    if (reason !== null) this.rejected.push({ line, reason });
  }

  /** Each localizer with the glide slope of the same ident, airport and runway. */
  localizers(): LocalizerRecord[] {
    return [...this.#localizers.entries()].map(([key, record]) => ({ ...record, glide_slope_deg: this.#glides.get(key) ?? null }));
  }

  /** null when the row was read; else why not. */
  #row(fields: string[], line: number): string | null {
    const code = fields[0]!;
    if (!/^\d+$/.test(code)) return `"${code}" is not a row code`;
    const lat = Number(fields[1]);
    const lon = Number(fields[2]);
    if (fields.length < 8) return `row code ${code} needs at least 8 fields, found ${fields.length}`;
    if (!(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) return `latitude "${fields[1]}" or longitude "${fields[2]}" is not a position`;
    switch (Number(code)) {
      case 2: this.counts.ndb += 1; return null;
      case 3: this.counts.vor += 1; return null;
      case 12: case 13: this.counts.dme += 1; return null;
      case 14: case 15: case 16:
        if (!this.#regionColumn) return `row code ${code} is not in format 810`;
        this.counts.other += 1;
        return null;
      case 4: case 5: return this.#localizer(fields, line, Number(code), lat, lon);
      case 6: return this.#glideSlope(fields);
      case 7: case 8: case 9: {
        const place = this.#airportRunway(fields);
        if (typeof place === 'string') return place;
        this.counts.markers += 1;
        return null;
      }
      default: return `unknown row code ${code}`;
    }
  }

  /** The airport, runway and type name of an ILS-family row, or why they cannot be read. */
  #airportRunway(fields: string[]): { airport: string; runway: string; name: string } | string {
    const at = this.#regionColumn ? 10 : 9;
    if (fields.length < at + 2) return `row code ${fields[0]} needs ident, airport, ${this.#regionColumn ? 'region, ' : ''}runway and type: found ${fields.length} fields`;
    const airport = fields[8]!.toUpperCase();
    const runway = runwayKey(fields[at]!);
    if (!/^[A-Z0-9]{3,4}$/.test(airport)) return `airport "${fields[8]}" is not an ICAO code`;
    if (!/^(0[1-9]|[1-2]\d|3[0-6])[LCRT]?$/.test(runway)) return `runway "${fields[at]}" is not a runway designator`;
    return { airport, runway, name: fields.slice(at + 1).join(' ').toUpperCase() };
  }

  #localizer(fields: string[], line: number, code: number, lat: number, lon: number): string | null {
    const place = this.#airportRunway(fields);
    if (typeof place === 'string') return place;
    const type = KIND_BY_NAME[place.name.split(' ').at(-1)!];
    if (type === undefined || (code === 4) !== (type.kind === 'ILS' || type.kind.endsWith('GS') || type.kind === 'IGS')) {
      return `type "${place.name}" is not a ${code === 4 ? 'localizer with glide slope (ILS-cat-I/II/III, LOC-GS, LDA-GS, IGS)' : 'localizer alone (LOC, LDA, SDF)'}`;
    }
    const frequency = Number(fields[4]) / 100;
    if (!(frequency >= LOCALIZER_MHZ.min && frequency < LOCALIZER_MHZ.max)) return `frequency "${fields[4]}" is not a localizer channel (10800-11195)`;
    const course = decodeCourse(Number(fields[6]));
    if (course === null) return `course "${fields[6]}" is not a bearing`;
    const ident = fields[7]!.toUpperCase();
    const key = `${place.airport} ${place.runway} ${ident}`;
    const earlier = this.#localizers.get(key);
    if (earlier !== undefined) return `${ident} for ${place.airport} runway ${place.runway} again (first on line ${earlier.line})`;
    this.#localizers.set(key, {
      airport: place.airport, runway: place.runway, ident, kind: type.kind, category: type.category,
      frequency_mhz: frequency, course_true_deg: course.true_deg, course_magnetic_deg: course.magnetic_deg,
      glide_slope_deg: null, lat, lon, line,
    });
    if (type.kind === 'ILS') this.counts.ils += 1;
    else this.counts.localizers += 1;
    return null;
  }

  #glideSlope(fields: string[]): string | null {
    const place = this.#airportRunway(fields);
    if (typeof place === 'string') return place;
    const encoded = Number(fields[6]);
    const angle = Math.floor(encoded / 1000) / 100;
    if (!Number.isFinite(encoded) || !(angle > 0 && angle < 10) || encoded % 1000 > 360) {
      return `glide slope "${fields[6]}" is not an angle in hundredths of a degree × 1,000 + course`;
    }
    this.#glides.set(`${place.airport} ${place.runway} ${fields[7]!.toUpperCase()}`, angle);
    this.counts.glide_slopes += 1;
    return null;
  }
}

/** True course, and the magnetic one when the 1150+ encoding carries it. */
function decodeCourse(value: number): { true_deg: number; magnetic_deg: number | null } | null {
  if (!Number.isFinite(value) || value < 0) return null;
  if (value <= 360) return { true_deg: value, magnetic_deg: null };
  const magnetic = Math.floor(value / 360);
  if (magnetic > 360) return null;
  return { true_deg: Math.round((value - magnetic * 360) * 1000) / 1000, magnetic_deg: magnetic };
}
