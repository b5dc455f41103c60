// What `lamis data sync` downloads for the airport index: OurAirports' runways, airport frequencies
// and navaids CSV files. Each is parsed and merged into the OurAirports file of the data folder
// (ourairports.ts), the other parts taken from the file in use until then; the next start finds
// it newer than the committed one and compiles the airport index from it.
import type { RejectedRow } from '../../platform/csv.ts';
import { DataError, type DataReport, type SyncedSource } from '../../platform/data-sources.ts';
import {
  currentOurAirportsFile,
  decodeOurAirports,
  OURAIRPORTS_CSV,
  OURAIRPORTS_FORMAT,
  OURAIRPORTS_PARTS,
  PART_PARSERS,
  syncedOurAirportsFile,
  writeOurAirports,
  type OurAirportsData,
  type OurAirportsPart,
} from './ourairports.ts';

/** Where OurAirports publishes its data files (a mirror of https://ourairports.com/data/, updated nightly). */
const OURAIRPORTS_DATA_URL = 'https://davidmegginson.github.io/ourairports-data/';

/** Rejected rows printed before "... and N more" (`--json` gives them all). */
const SHOWN_REJECTIONS = 10;

const LABELS: Readonly<Record<OurAirportsPart, string>> = {
  runways: 'OurAirports runways',
  frequencies: 'OurAirports airport frequencies',
  navaids: 'OurAirports navaids',
};

const UNITS: Readonly<Record<OurAirportsPart, string>> = { runways: 'runways', frequencies: 'frequencies', navaids: 'navaids' };

const NO_DATA: OurAirportsData = {
  header: {
    format: OURAIRPORTS_FORMAT,
    compiled_at: new Date(0).toISOString(),
    parts: Object.fromEntries(OURAIRPORTS_PARTS.map((part) => [part, { from: 'none', read_at: new Date(0).toISOString(), rows: 0 }])) as OurAirportsData['header']['parts'],
  },
  runways: [],
  frequencies: [],
  navaids: [],
};

/** Parses one downloaded part and saves it over the data in use; throws DataError and saves nothing when it is not such a file. */
async function saveOurAirportsPart(dataDir: string, part: OurAirportsPart, bytes: Uint8Array, origin: string, now = new Date()): Promise<DataReport> {
  const parsed = PART_PARSERS[part](new TextDecoder('utf-8').decode(bytes));
  if (!parsed.ok) throw new DataError(`${origin}: ${parsed.error}; nothing saved`);
  // An empty file would replace good data with nothing: more likely a wrong file than a real list.
  if (parsed.rows.length === 0) throw new DataError(`${origin}: no ${UNITS[part]} found; nothing saved`);
  const current = await currentOurAirportsFile(dataDir);
  let base = NO_DATA;
  if (current !== null) {
    try {
      base = decodeOurAirports(current.bytes);
    } catch (error) {
      throw new DataError(`the OurAirports data in use (${current.file}) cannot be read (${(error as Error).message}); nothing saved`);
    }
  }
  const read_at = now.toISOString();
  const data = {
    ...base,
    [part]: parsed.rows,
    header: { format: OURAIRPORTS_FORMAT, compiled_at: read_at, parts: { ...base.header.parts, [part]: { from: origin, read_at, rows: parsed.rows.length } } },
  } as OurAirportsData;
  const file = syncedOurAirportsFile(dataDir);
  try {
    await writeOurAirports(file, data);
  } catch (error) {
    throw new DataError(`cannot write ${file}: ${(error as Error).message}`);
  }
  return report(part, origin, file, parsed.rows.length, parsed.rejected);
}

function report(part: OurAirportsPart, origin: string, file: string, rows: number, rejected: RejectedRow[]): DataReport {
  const lines = [`${LABELS[part]}: ${rows} ${UNITS[part]} from ${origin}, saved to ${file}.`];
  if (rejected.length > 0) {
    lines.push(`  Rows rejected (${rejected.length}):`);
    for (const row of rejected.slice(0, SHOWN_REJECTIONS)) lines.push(`    line ${row.line}: ${row.reason}`);
    if (rejected.length > SHOWN_REJECTIONS) lines.push(`    ... and ${rejected.length - SHOWN_REJECTIONS} more (--json lists them all)`);
  }
  return { text: lines.join('\n'), json: { source: `ourairports-${part}`, origin, file, [UNITS[part]]: rows, rejected } };
}

const syncedPart = (part: OurAirportsPart): SyncedSource => ({
  name: `ourairports-${part}`,
  label: LABELS[part],
  defaultUrl: new URL(OURAIRPORTS_CSV[part], OURAIRPORTS_DATA_URL).href,
  save: (dataDir, download, url) => saveOurAirportsPart(dataDir, part, download.bytes, url.href),
});

export const AIRPORT_SYNC_SOURCES: readonly SyncedSource[] = [syncedPart('runways'), syncedPart('frequencies'), syncedPart('navaids')];
