// `lamis import navdata FILE`: an X-Plane nav.dat (formats 810 to 1200, plain or gzip), whose ILS
// and localizers are saved in the data folder (store.ts) for the service's next start.
import { DataError, type DataFile, type DataImporter, type DataReport } from '../../platform/data-sources.ts';
import { parseNavDat, type NavDatCounts, type RejectedLine } from './navdat.ts';
import { saveNavData } from './store.ts';

const LABEL = 'X-Plane navigation data (nav.dat)';
/** Rejected lines printed before "... and N more" (`--json` gives them all). */
const SHOWN_REJECTIONS = 20;

interface Report {
  source: 'navdata';
  origin: string;
  file: string;
  version: number;
  cycle: string | null;
  airports: number;
  counts: NavDatCounts;
  rejected: RejectedLine[];
}

async function importNavData(dataDir: string, { name, bytes }: DataFile): Promise<DataReport> {
  const parsed = parseNavDat(bytes);
  if (!parsed.ok) throw new DataError(`${name}: ${parsed.error}; nothing saved`);
  // An empty result would replace good data with nothing: more likely a wrong file than a real list.
  if (parsed.localizers.length === 0) throw new DataError(`${name}: no ILS or localizer found; nothing saved`);
  const meta = { origin: name, version: parsed.version, cycle: parsed.cycle, imported_at: new Date().toISOString() };
  const file = await saveNavData(dataDir, meta, parsed.localizers);
  const airports = new Set(parsed.localizers.map((record) => record.airport)).size;
  const report: Report = { source: 'navdata', origin: name, file, version: parsed.version, cycle: parsed.cycle, airports, counts: parsed.counts, rejected: parsed.rejected };
  return { text: reportText(report), json: report };
}

function reportText(report: Report): string {
  const { counts } = report;
  const cycle = report.cycle === null ? '' : `, data cycle ${report.cycle}`;
  const lines = [
    `Navigation data: ${counts.ils} ILS and ${counts.localizers} other localizers at ${report.airports} airports from ${report.origin} (format ${report.version}${cycle}), saved to ${report.file}.`,
    `  Also read, not kept: ${counts.glide_slopes} glide slopes (joined to their ILS), ${counts.markers} marker beacons, ${counts.dme} DME, ${counts.vor} VOR, ${counts.ndb} NDB, ${counts.other} other rows.`,
  ];
  if (report.rejected.length > 0) {
    lines.push(`  Lines rejected (${report.rejected.length}):`);
    for (const row of report.rejected.slice(0, SHOWN_REJECTIONS)) lines.push(`    ${report.origin} line ${row.line}: ${row.reason}`);
    if (report.rejected.length > SHOWN_REJECTIONS) lines.push(`    ... and ${report.rejected.length - SHOWN_REJECTIONS} more (--json lists them all)`);
  }
  return lines.join('\n');
}

export const NAVDATA_IMPORTERS: readonly DataImporter[] = [
  { name: 'navdata', files: 'FILE', label: LABEL, import: (dataDir, [file]) => importNavData(dataDir, file!) },
];
