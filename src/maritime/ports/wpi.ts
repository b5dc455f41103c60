// The NGA World Port Index (Pub. 150) as the monthly "UpdatedPub150.csv": one row per port with
// 109 named columns, measurements in metres, Yes/No/Unknown flags, and the country as an English
// name. A row without a usable WPI number, name or position is rejected; a value that cannot be
// read is dropped from its row with a warning, and the row kept. See model.ts for what the depths mean.
import { decodeText, readCsvRows } from '../../platform/csv.ts';
import type { EntranceRestrictions, HarbourSize, HarbourType, RejectedRow, Shelter, WpiEntry } from './model.ts';
import { countryCode, normaliseUnlocode } from './places.ts';

export type WpiParseResult =
  | {
      readonly ok: true;
      readonly entries: WpiEntry[];
      /** Rows left out. */
      readonly rejected: RejectedRow[];
      /** Rows kept without a value that could not be read. */
      readonly warnings: RejectedRow[];
    }
  | { readonly ok: false; readonly error: string };

const COLUMNS = {
  wpi: 'World Port Index Number',
  name: 'Main Port Name',
  alternate: 'Alternate Port Name',
  unlocode: 'UN/LOCODE',
  country: 'Country Code',
  lat: 'Latitude',
  lon: 'Longitude',
  size: 'Harbor Size',
  type: 'Harbor Type',
  shelter: 'Shelter Afforded',
  tidal: 'Tidal Range (m)',
  channel: 'Channel Depth (m)',
  anchorage: 'Anchorage Depth (m)',
  cargoPier: 'Cargo Pier Depth (m)',
  oilTerminal: 'Oil Terminal Depth (m)',
  maxLength: 'Maximum Vessel Length (m)',
  maxBeam: 'Maximum Vessel Beam (m)',
  maxDraught: 'Maximum Vessel Draft (m)',
  tide: 'Entrance Restriction - Tide',
  swell: 'Entrance Restriction - Heavy Swell',
  ice: 'Entrance Restriction - Ice',
  other: 'Entrance Restriction - Other',
} as const;
type Column = keyof typeof COLUMNS;

/** The CSV column each depth of a port comes from, for answers that say where a depth was read. */
export const WPI_DEPTH_COLUMNS = {
  channel_depth_m: COLUMNS.channel,
  anchorage_depth_m: COLUMNS.anchorage,
  cargo_pier_depth_m: COLUMNS.cargoPier,
  oil_terminal_depth_m: COLUMNS.oilTerminal,
} as const;

const HARBOUR_SIZES: Readonly<Record<string, HarbourSize>> = {
  'Large': 'large', 'Medium': 'medium', 'Small': 'small', 'Very Small': 'very_small',
};

/** "Unknown" is a value of its own in the column: no shelter known. */
const SHELTERS: Readonly<Record<string, Shelter | null>> = {
  'Excellent': 'excellent', 'Good': 'good', 'Fair': 'fair', 'Poor': 'poor', 'None': 'none', 'Unknown': null,
};

const HARBOUR_TYPES: Readonly<Record<string, HarbourType>> = {
  'Coastal (Natural)': 'coastal_natural',
  'Coastal (Breakwater)': 'coastal_breakwater',
  'Coastal (Tide Gates)': 'coastal_tide_gates',
  'River (Natural)': 'river_natural',
  'River (Basins)': 'river_basins',
  'River (Tide Gates)': 'river_tide_gates',
  'Canal or Lake': 'canal_or_lake',
  'Open Roadstead': 'open_roadstead',
  'Typhoon Harbor': 'typhoon_harbour',
};

/** Reads the CSV; never throws. `ok: false` when the file is not in the UpdatedPub150 format. */
export function parseWpiCsv(input: string | Uint8Array): WpiParseResult {
  const text = typeof input === 'string' ? input : decodeText(input);
  const { rows, rejected } = readCsvRows(text);
  const header = rows[0];
  if (header === undefined) return { ok: false, error: 'the file holds no CSV rows' };
  const names = header.fields.map((field) => field.trim());
  const missing = Object.values(COLUMNS).filter((name) => !names.includes(name));
  if (missing.length > 0) {
    return { ok: false, error: `not a World Port Index CSV in the UpdatedPub150 format: no column ${missing.map((m) => `"${m}"`).join(', ')}` };
  }
  const positions = Object.fromEntries(Object.entries(COLUMNS).map(([key, name]) => [key, names.indexOf(name)])) as Record<Column, number>;

  const entries: WpiEntry[] = [];
  const warnings: RejectedRow[] = [];
  const firstLine = new Map<number, number>();
  for (const { line, fields } of rows.slice(1)) {
    const cell = (column: Column) => fields[positions[column]]!.trim();
    const warn = (reason: string) => warnings.push({ line, reason });
    const reject = (reason: string) => rejected.push({ line, reason });

    // Mostly whole numbers written "7950.0"; a port inserted later between two gets a fraction ("9510.1").
    const wpiNumber = Number(cell('wpi'));
    if (!/^\d+(\.\d+)?$/.test(cell('wpi')) || wpiNumber <= 0) {
      reject(`"${COLUMNS.wpi}" is not a positive number: "${cell('wpi')}"`);
      continue;
    }
    const seenOn = firstLine.get(wpiNumber);
    if (seenOn !== undefined) {
      reject(`WPI number ${wpiNumber} again (first on line ${seenOn})`);
      continue;
    }
    const name = cell('name');
    if (name === '') {
      reject(`WPI ${wpiNumber} has no "${COLUMNS.name}"`);
      continue;
    }
    const lat = Number(cell('lat'));
    const lon = Number(cell('lon'));
    if (cell('lat') === '' || cell('lon') === '' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) {
      reject(`WPI ${wpiNumber} has no valid position: "${cell('lat')}", "${cell('lon')}"`);
      continue;
    }
    firstLine.set(wpiNumber, line);

    const country = cell('country') === '' ? null : countryCode(cell('country'));
    if (country === null && cell('country') !== '') warn(`WPI ${wpiNumber}: country "${cell('country')}" is not one LAMIS knows`);
    let unlocode = normaliseUnlocode(cell('unlocode'));
    if (cell('unlocode') !== '' && unlocode === null) warn(`WPI ${wpiNumber}: "${cell('unlocode')}" is not a UN/LOCODE`);
    if (unlocode !== null && country !== null && !unlocode.startsWith(country)) {
      warn(`WPI ${wpiNumber}: UN/LOCODE ${unlocode} is not in ${cell('country')} (${country}); left out`);
      unlocode = null;
    }

    const metres = (column: Column): number | null => {
      const text = cell(column);
      const value = Number(text);
      if (text === '' || value === 0) return null;
      if (!Number.isFinite(value) || value < 0) {
        warn(`WPI ${wpiNumber}: "${COLUMNS[column]}" is not a measurement: "${text}"`);
        return null;
      }
      return value;
    };
    const choice = <T>(column: Column, table: Readonly<Record<string, T>>): T | null => {
      const text = cell(column);
      if (text === '') return null;
      const value = Object.hasOwn(table, text) ? table[text] : undefined;
      if (value === undefined) warn(`WPI ${wpiNumber}: unknown "${COLUMNS[column]}" "${text}"`);
      return value ?? null;
    };
    const flag = (column: Column): boolean | null => choice(column, FLAGS);
    const restrictions: EntranceRestrictions = { tide: flag('tide'), swell: flag('swell'), ice: flag('ice'), other: flag('other') };

    entries.push({
      wpi_number: wpiNumber,
      unlocode,
      name,
      alternate_names: alternateNames(cell('alternate'), name),
      country,
      lat,
      lon,
      harbour_size: choice('size', HARBOUR_SIZES),
      harbour_type: choice('type', HARBOUR_TYPES),
      shelter: choice('shelter', SHELTERS),
      channel_depth_m: metres('channel'),
      anchorage_depth_m: metres('anchorage'),
      cargo_pier_depth_m: metres('cargoPier'),
      oil_terminal_depth_m: metres('oilTerminal'),
      tidal_range_m: metres('tidal'),
      max_vessel_length_m: metres('maxLength'),
      max_vessel_beam_m: metres('maxBeam'),
      max_vessel_draught_m: metres('maxDraught'),
      entrance_restrictions: restrictions,
    });
  }
  rejected.sort((a, b) => a.line - b.line);
  return { ok: true, entries, rejected, warnings };
}

const FLAGS: Readonly<Record<string, boolean | null>> = { Yes: true, No: false, Unknown: null };

/** The WPI separates alternate names with semicolons ("Dairen; Dalian; Ta Lien"). */
function alternateNames(text: string, name: string): string[] {
  const names = text.split(';').map((part) => part.trim()).filter((part) => part !== '' && part !== name);
  return [...new Set(names)];
}
