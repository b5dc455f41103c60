// The port data `lamis import` and `lamis data sync` take: the World Port Index CSV and the
// UN/LOCODE code list (CSV parts, or the release ZIP that holds them), from files or from their
// official download addresses, saved in the data folder (store.ts), where the service reads them
// at its next start.
import { DataError, type DataFile, type DataImporter, type DataReport, type SyncedSource } from '../../platform/data-sources.ts';
import type { RejectedRow, UnlocodeEntry, WpiEntry } from './model.ts';
import { saveImport, type EntryOf, type ImportedSource } from './store.ts';
import { parseUnlocodeCsv, type UnlocodeCounts } from './unlocode.ts';
import { parseWpiCsv } from './wpi.ts';
import { isZip, readZip } from './zip.ts';

/** NGA's Maritime Safety Information download of the current Pub. 150 CSV (updated monthly). */
const WPI_URL = 'https://msi.nga.mil/api/publications/download?type=view&key=16920959/SFH00000/UpdatedPub150.csv';
/** UNECE's CSV release of UN/LOCODE; the file name carries the release (242 = 2024-2). */
const UNLOCODE_URL = 'https://service.unece.org/trade/locode/loc242csv.zip';
/** Rejected rows printed before "... and N more" (`--json` gives them all). */
const SHOWN_REJECTIONS = 20;

type FileRejection = RejectedRow & { readonly file: string };

type Parsed<T> =
  | { ok: true; entries: T[]; rejected: FileRejection[]; warnings: FileRejection[]; skipped?: UnlocodeCounts }
  | { ok: false; error: string };

type Report = {
  source: ImportedSource;
  origin: string;
  file: string;
  ports: number;
  rejected: FileRejection[];
  warnings: FileRejection[];
  skipped?: UnlocodeCounts;
};

function wpiFrom(name: string, bytes: Uint8Array): Parsed<WpiEntry> {
  const result = parseWpiCsv(bytes);
  if (!result.ok) return { ok: false, error: `${name}: ${result.error}` };
  const tag = (rows: RejectedRow[]) => rows.map((row) => ({ file: name, ...row }));
  return { ok: true, entries: result.entries, rejected: tag(result.rejected), warnings: tag(result.warnings) };
}

/** The code list from CSV parts and release archives (whose CodeListPart files are read). */
function unlocodeFrom(files: readonly DataFile[]): Parsed<UnlocodeEntry> {
  const parts: DataFile[] = [];
  for (const file of files) {
    if (!isZip(file.bytes)) {
      parts.push(file);
      continue;
    }
    const zip = readZip(file.bytes);
    if (!zip.ok) return { ok: false, error: `${file.name}: ${zip.error}` };
    const lists = zip.entries.filter((entry) => /CodeListPart\d+\.csv$/i.test(entry.name));
    if (lists.length === 0) return { ok: false, error: `${file.name}: the archive holds no "CodeListPart" CSV file` };
    parts.push(...lists.map((entry) => ({ name: entry.name, bytes: entry.data })));
  }
  const entries: UnlocodeEntry[] = [];
  const rejected: FileRejection[] = [];
  const skipped = { not_port: 0, no_coordinates: 0, withdrawn: 0 };
  const seen = new Set<string>();
  for (const part of parts) {
    const result = parseUnlocodeCsv(part.bytes);
    if (!result.ok) return { ok: false, error: `${part.name}: ${result.error}` };
    rejected.push(...result.rejected.map((row) => ({ file: part.name, ...row })));
    for (const key of Object.keys(skipped) as (keyof UnlocodeCounts)[]) skipped[key] += result.skipped[key];
    for (const entry of result.entries) {
      if (seen.has(entry.unlocode)) {
        rejected.push({ file: part.name, line: 0, reason: `${entry.unlocode} is in an earlier file too` });
        continue;
      }
      seen.add(entry.unlocode);
      entries.push(entry);
    }
  }
  return { ok: true, entries, rejected, warnings: [], skipped };
}

async function save<S extends ImportedSource>(dataDir: string, source: S, origin: string, parsed: Parsed<EntryOf<S>>): Promise<DataReport> {
  if (!parsed.ok) throw new DataError(parsed.error);
  // An empty result would replace good data with nothing: more likely a wrong file than a real list.
  if (parsed.entries.length === 0) throw new DataError(`${origin}: no ports found; nothing saved`);
  const { file } = await saveImport(dataDir, source, origin, parsed.entries);
  const { entries, ok: _ok, ...rows } = parsed;
  const report: Report = { source, origin, file, ports: entries.length, ...rows };
  return { text: reportText(report), json: report };
}

const LABEL = { wpi: 'World Port Index', unlocode: 'UN/LOCODE' } as const;

function reportText(report: Report): string {
  const lines = [`${LABEL[report.source]}: ${report.ports} ports from ${report.origin}, saved to ${report.file}.`];
  if (report.skipped) {
    lines.push(`  Left out: ${report.skipped.not_port} locations that are not ports, ${report.skipped.no_coordinates} ports without coordinates, ${report.skipped.withdrawn} withdrawn entries.`);
  }
  const rows = (title: string, list: FileRejection[]) => {
    if (list.length === 0) return;
    lines.push(`  ${title} (${list.length}):`);
    for (const row of list.slice(0, SHOWN_REJECTIONS)) lines.push(`    ${row.file}${row.line > 0 ? ` line ${row.line}` : ''}: ${row.reason}`);
    if (list.length > SHOWN_REJECTIONS) lines.push(`    ... and ${list.length - SHOWN_REJECTIONS} more (--json lists them all)`);
  };
  rows('Rows rejected', report.rejected);
  rows('Rows kept without a value', report.warnings);
  return lines.join('\n');
}

export const PORT_IMPORTERS: readonly DataImporter[] = [
  { name: 'wpi', files: 'FILE', label: LABEL.wpi, import: (dataDir, [file]) => save(dataDir, 'wpi', file!.name, wpiFrom(file!.name, file!.bytes)) },
  {
    name: 'unlocode', files: 'FILE...', label: LABEL.unlocode,
    import: (dataDir, files) => save(dataDir, 'unlocode', files.map((file) => file.name).join(', '), unlocodeFrom(files)),
  },
];

export const PORT_SYNC_SOURCES: readonly SyncedSource[] = [
  { name: 'wpi', label: LABEL.wpi, defaultUrl: WPI_URL, save: (dataDir, file, url) => save(dataDir, 'wpi', url.href, wpiFrom(file.name, file.bytes)) },
  { name: 'unlocode', label: LABEL.unlocode, defaultUrl: UNLOCODE_URL, save: (dataDir, file, url) => save(dataDir, 'unlocode', url.href, unlocodeFrom([file])) },
];
