// What `lamis import` and `lamis data sync` need whatever the data: reading a file, downloading
// from a publisher within a time and size limit, and the shape each feature's data source takes.
// The commands themselves (src/data.command.ts) list the features' sources.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError, type CommandOption } from './command.ts';
import { writeFileAtomic } from './files.ts';
import { AnswerTooLargeError, readAnswer, type OutboundAnswer } from './http/outbound.ts';

/** What a source tells after an import: a text for people and the same as JSON (`--json`). */
export interface DataReport {
  text: string;
  json: unknown;
}

/** A file read for an import, named by its base name in reports. */
export interface DataFile {
  name: string;
  bytes: Uint8Array;
}

/** `lamis import NAME FILE...`: reads files and saves what they hold in the data folder. */
export interface DataImporter {
  /** The word after `lamis import`. */
  name: string;
  /** The files it takes, for the usage line: "FILE" or "FILE...". */
  files: 'FILE' | 'FILE...';
  /** What is imported, for messages: "World Port Index". */
  label: string;
  import(dataDir: string, files: DataFile[]): Promise<DataReport>;
}

/** One publisher's data that `lamis data sync` downloads and saves. */
export interface SyncedSource {
  /** Names the `--NAME-url` option. */
  name: string;
  label: string;
  defaultUrl: string;
  /** Saves what was downloaded from `url`. */
  save(dataDir: string, download: DataFile, url: URL): Promise<DataReport>;
}

/** A failure to tell the user in one line; the command exits 1 and nothing was changed for that source. */
export class DataError extends Error {}

export interface DownloadLimits {
  timeoutSec: number;
  maxBytes: number;
}

const DEFAULT_TIMEOUT_SEC = 120;
/** Largest download accepted: the biggest source (OurAirports' runways) is about 4 MB. */
const DEFAULT_MAX_MB = 32;

export const DOWNLOAD_OPTIONS: Record<string, CommandOption> = {
  timeout: { type: 'string', description: `Seconds to wait for each download (default ${DEFAULT_TIMEOUT_SEC})` },
  'max-mb': { type: 'string', description: `Largest download accepted, in MiB (default ${DEFAULT_MAX_MB}); a larger one is cut off and changes nothing` },
};

export function downloadLimits(values: Record<string, string | boolean | undefined>): DownloadLimits {
  const timeoutSec = values.timeout === undefined ? DEFAULT_TIMEOUT_SEC : Number(values.timeout);
  if (typeof values.timeout === 'boolean' || !(Number.isFinite(timeoutSec) && timeoutSec > 0)) {
    throw new UsageError(`--timeout must be a number of seconds above 0 (got "${values.timeout}")`);
  }
  const maxMb = values['max-mb'] === undefined ? DEFAULT_MAX_MB : Number(values['max-mb']);
  if (typeof values['max-mb'] === 'boolean' || !(Number.isFinite(maxMb) && maxMb > 0)) {
    throw new UsageError(`--max-mb must be a number of MiB above 0 (got "${values['max-mb']}")`);
  }
  return { timeoutSec, maxBytes: Math.floor(maxMb * 1024 * 1024) };
}

export function urlOption(value: string | boolean | undefined, fallback: string, name: string): URL {
  const text = typeof value === 'string' ? value : fallback;
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw new UsageError(`--${name} must be an http or https URL (got "${text}")`);
}

/** The last path segment, or the `key` a download address names the file by (NGA's does). */
function fileNameOf(url: URL): string {
  const key = url.searchParams.get('key');
  return path.posix.basename(key ?? url.pathname) || url.host;
}

export async function readDataFile(file: string): Promise<DataFile> {
  try {
    return { name: path.basename(file), bytes: await readFile(file) };
  } catch (error) {
    throw new DataError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

export async function download(what: string, url: URL, limits: DownloadLimits): Promise<DataFile> {
  let answer: OutboundAnswer;
  try {
    answer = await readAnswer(url, { timeoutMs: limits.timeoutSec * 1000, maxBytes: limits.maxBytes });
  } catch (error) {
    if (error instanceof AnswerTooLargeError) {
      throw new DataError(`the ${what} download from ${url.href} is over the limit of ${limits.maxBytes / (1024 * 1024)} MiB (--max-mb); nothing was changed for it.`);
    }
    throw new DataError(`cannot download the ${what} from ${url.href}: ${networkReason(error, limits.timeoutSec)}. Is this machine online? Nothing was changed for it.`);
  }
  if (!answer.ok) {
    throw new DataError(`the ${what} download at ${url.href} answered HTTP ${answer.status} ${answer.statusText}; nothing was changed for it.`);
  }
  return { name: fileNameOf(url), bytes: new Uint8Array(answer.body) };
}

/** fetch reports "fetch failed" and keeps the reason (ENOTFOUND, ECONNREFUSED) in `cause`. */
function networkReason(error: unknown, timeoutSec: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${timeoutSec} s`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return `${cause.code}${typeof cause.message === 'string' ? ` (${cause.message})` : ''}`;
  return (error as Error).message;
}

/** What an import saved in the data folder holds, read as JSON; never throws. */
export type StoredJson =
  | { readonly status: 'missing' }
  | { readonly status: 'unreadable'; readonly file: string; readonly error: string }
  | { readonly status: 'read'; readonly file: string; readonly value: Record<string, unknown> };

export async function readStoredJson(file: string): Promise<StoredJson> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return { status: 'unreadable', file, error: (error as Error).message };
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { status: 'unreadable', file, error: 'not a JSON object' };
    return { status: 'read', file, value: value as Record<string, unknown> };
  } catch (error) {
    return { status: 'unreadable', file, error: `not JSON: ${(error as Error).message}` };
  }
}

/** Replaces the file whole, so a reader never sees half of it. */
export async function saveStoredJson(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(value));
}
