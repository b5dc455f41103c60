// `lamis import wpi FILE`, `lamis import unlocode FILE...` and `lamis data sync`: read the World
// Port Index CSV and the UN/LOCODE code list (CSV parts, or the release ZIP that holds them), from
// files or from their official download addresses, and save the ports they hold in the data
// folder (store.ts), where the service reads them at its next start.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError, type Command } from '../../platform/command.ts';
import { AnswerTooLargeError, readAnswer, type OutboundAnswer } from '../../platform/http/outbound.ts';
import type { RejectedRow, UnlocodeEntry, WpiEntry } from './model.ts';
import { saveImport, type EntryOf, type ImportedSource } from './store.ts';
import { parseUnlocodeCsv, type UnlocodeCounts } from './unlocode.ts';
import { parseWpiCsv } from './wpi.ts';
import { isZip, readZip } from './zip.ts';

/** NGA's Maritime Safety Information download of the current Pub. 150 CSV (updated monthly). */
export const WPI_URL = 'https://msi.nga.mil/api/publications/download?type=view&key=16920959/SFH00000/UpdatedPub150.csv';
/** UNECE's CSV release of UN/LOCODE; the file name carries the release (242 = 2024-2). */
export const UNLOCODE_URL = 'https://service.unece.org/trade/locode/loc242csv.zip';
const DEFAULT_TIMEOUT_SEC = 120;
/** Largest download accepted: the WPI CSV is about 3.5 MB and the UN/LOCODE ZIP about 3 MB. */
const DEFAULT_MAX_MB = 32;
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
function unlocodeFrom(files: readonly { name: string; bytes: Uint8Array }[]): Parsed<UnlocodeEntry> {
  const parts: { name: string; bytes: Uint8Array }[] = [];
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

async function save<S extends ImportedSource>(dataDir: string, source: S, origin: string, parsed: Parsed<EntryOf<S>>): Promise<Report> {
  if (!parsed.ok) throw new ImportError(parsed.error);
  // An empty result would replace good data with nothing: more likely a wrong file than a real list.
  if (parsed.entries.length === 0) throw new ImportError(`${origin}: no ports found; nothing saved`);
  const { file } = await saveImport(dataDir, source, origin, parsed.entries);
  const { entries, ok: _ok, ...rows } = parsed;
  return { source, origin, file, ports: entries.length, ...rows };
}

/** A failure to tell the user in one line; the command exits 1. */
class ImportError extends Error {}

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

function print(reports: Report[], json: boolean | string | undefined): void {
  if (json) console.log(JSON.stringify(reports));
  else console.log([...reports.map(reportText), 'Restart the service to serve the new port data.'].join('\n'));
}

export const importCommand: Command = {
  args: 'wpi FILE | unlocode FILE...',
  usesSettings: true,
  options: {
    json: { type: 'boolean', description: 'Print the report as JSON, every rejected row included' },
  },
  async run({ config, positionals, values }) {
    const [source, ...files] = positionals;
    if (source !== 'wpi' && source !== 'unlocode') {
      throw new UsageError(source === undefined ? 'say what to import: wpi FILE or unlocode FILE...' : `unknown source "${source}": use wpi or unlocode`);
    }
    if (files.length === 0) throw new UsageError(`give the ${LABEL[source]} file to import`);
    if (source === 'wpi' && files.length > 1) throw new UsageError('wpi takes one file');
    try {
      const read = await Promise.all(files.map(async (file) => ({ name: path.basename(file), bytes: await readInput(file) })));
      const origin = read.map((file) => file.name).join(', ');
      const report = source === 'wpi'
        ? await save(config.dataDir, 'wpi', origin, wpiFrom(read[0]!.name, read[0]!.bytes))
        : await save(config.dataDir, 'unlocode', origin, unlocodeFrom(read));
      print([report], values.json);
      return 0;
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      console.error(`lamis import: ${error.message}`);
      return 1;
    }
  },
};

async function readInput(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new ImportError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

export const dataCommand: Command = {
  args: 'sync',
  usesSettings: true,
  options: {
    'wpi-url': { type: 'string', description: `Where to download the World Port Index CSV (default ${WPI_URL})` },
    'unlocode-url': { type: 'string', description: `Where to download the UN/LOCODE release ZIP or a CSV (default ${UNLOCODE_URL})` },
    timeout: { type: 'string', description: `Seconds to wait for each download (default ${DEFAULT_TIMEOUT_SEC})` },
    'max-mb': { type: 'string', description: `Largest download accepted, in MiB (default ${DEFAULT_MAX_MB}); a larger one is cut off and changes nothing` },
    json: { type: 'boolean', description: 'Print the reports as JSON, every rejected row included' },
  },
  async run({ config, positionals, values }) {
    const [action, ...rest] = positionals;
    if (action !== 'sync') throw new UsageError(action === undefined ? 'give a subcommand: sync' : `unknown subcommand "${action}": use sync`);
    if (rest.length > 0) throw new UsageError('sync takes no arguments');
    const timeoutSec = values.timeout === undefined ? DEFAULT_TIMEOUT_SEC : Number(values.timeout);
    if (typeof values.timeout === 'boolean' || !(Number.isFinite(timeoutSec) && timeoutSec > 0)) {
      throw new UsageError(`--timeout must be a number of seconds above 0 (got "${values.timeout}")`);
    }
    const maxMb = values['max-mb'] === undefined ? DEFAULT_MAX_MB : Number(values['max-mb']);
    if (typeof values['max-mb'] === 'boolean' || !(Number.isFinite(maxMb) && maxMb > 0)) {
      throw new UsageError(`--max-mb must be a number of MiB above 0 (got "${values['max-mb']}")`);
    }
    const limits = { timeoutSec, maxBytes: Math.floor(maxMb * 1024 * 1024) };
    const wpiUrl = urlOption(values['wpi-url'], WPI_URL, 'wpi-url');
    const unlocodeUrl = urlOption(values['unlocode-url'], UNLOCODE_URL, 'unlocode-url');

    // Each source stands alone: one failing leaves the other's fresh data saved.
    const reports: Report[] = [];
    const failures: string[] = [];
    const attempt = async (run: () => Promise<Report>) => {
      try {
        reports.push(await run());
      } catch (error) {
        if (!(error instanceof ImportError)) throw error;
        failures.push(error.message);
      }
    };
    await attempt(async () => {
      const bytes = await download(LABEL.wpi, wpiUrl, limits);
      return save(config.dataDir, 'wpi', wpiUrl.href, wpiFrom(fileName(wpiUrl), bytes));
    });
    await attempt(async () => {
      const bytes = await download(LABEL.unlocode, unlocodeUrl, limits);
      return save(config.dataDir, 'unlocode', unlocodeUrl.href, unlocodeFrom([{ name: fileName(unlocodeUrl), bytes }]));
    });
    if (reports.length > 0) print(reports, values.json);
    for (const failure of failures) console.error(`lamis data sync: ${failure}`);
    return failures.length === 0 ? 0 : 1;
  },
};

function urlOption(value: string | boolean | undefined, fallback: string, name: string): URL {
  const text = typeof value === 'string' ? value : fallback;
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw new UsageError(`--${name} must be an http or https URL (got "${text}")`);
}

/** The last path segment, or the `key` NGA's download address names the file by. */
function fileName(url: URL): string {
  const key = url.searchParams.get('key');
  return path.posix.basename(key ?? url.pathname) || url.host;
}

async function download(what: string, url: URL, limits: { timeoutSec: number; maxBytes: number }): Promise<Uint8Array> {
  let answer: OutboundAnswer;
  try {
    answer = await readAnswer(url, { timeoutMs: limits.timeoutSec * 1000, maxBytes: limits.maxBytes });
  } catch (error) {
    if (error instanceof AnswerTooLargeError) {
      throw new ImportError(`the ${what} download from ${url.href} is over the limit of ${limits.maxBytes / (1024 * 1024)} MiB (--max-mb); nothing was changed for it.`);
    }
    throw new ImportError(`cannot download the ${what} from ${url.href}: ${networkReason(error, limits.timeoutSec)}. Is this machine online? Nothing was changed for it.`);
  }
  if (!answer.ok) {
    throw new ImportError(`the ${what} download at ${url.href} answered HTTP ${answer.status} ${answer.statusText}; nothing was changed for it.`);
  }
  return new Uint8Array(answer.body);
}

/** fetch reports "fetch failed" and keeps the reason (ENOTFOUND, ECONNREFUSED) in `cause`. */
function networkReason(error: unknown, timeoutSec: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${timeoutSec} s`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return `${cause.code}${typeof cause.message === 'string' ? ` (${cause.message})` : ''}`;
  return (error as Error).message;
}
