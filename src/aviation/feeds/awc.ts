// Client for the aviationweather.gov Data API (`/api/data/metar`, `/api/data/taf`), or any server
// answering in its format at a configured base URL.
//
// Politeness, as the service asks: requests go one at a time with a minimum gap between them,
// many stations share one request (`ids=A,B,C`), and after a 429, a server error or a network
// failure the client calls nothing until the retry time (Retry-After when given, else doubling
// from 10 s), answering the same error at once meanwhile. An answer larger than any the API gives
// is cut off (`too_large`) and backs off the same way. It never throws: every failure comes back as
// a typed error, and entries it cannot use are listed, not dropped.
import packageJson from '../../../package.json' with { type: 'json' };
import { parseMetar, parseTaf } from '../weather/index.ts';
import { answerMessage, excerpt, readAnswer, requestFailure, retryAfterMs, type OutboundAnswer, type OutboundLogger } from '../../platform/http/outbound.ts';

export const AWC_DEFAULT_BASE_URL = 'https://aviationweather.gov';

export interface AwcClientOptions {
  /** Default https://aviationweather.gov; a path prefix (a proxy's /awc/) is kept. */
  baseUrl?: string;
  userAgent?: string;
  /** Whole request, body included (default 10 s). */
  timeoutMs?: number;
  /** Largest answer read (default 4 MiB; a full answer, 400 reports in JSON, is well under 1 MiB). */
  maxAnswerBytes?: number;
  /** Where an answer cut off at that size is reported. */
  logger?: OutboundLogger;
  /** Stations per request (default 50): the API caps a response at 400 entries. */
  maxIdsPerRequest?: number;
  /** Gap between the end of one request and the start of the next (default 1 s, well under 100/min). */
  minIntervalMs?: number;
  /** `json` (default) carries the observation and issue times; `raw` is plain report text. */
  format?: 'json' | 'raw';
  /** How many hours of METARs to ask for (default 2): enough to hold the latest of every station. */
  metarHours?: number;
  fetch?: typeof fetch;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** One report as the API gave it. */
export interface RawReport {
  icao: string;
  raw: string;
  /** ISO 8601 UTC: the observation time of a METAR, the issue time of a TAF. */
  observed_at: string;
}

/** An entry of the response that could not be used, and why. */
export interface RejectedEntry {
  entry: string;
  reason: string;
}

export type AwcErrorKind = 'rate_limited' | 'upstream' | 'network' | 'bad_response' | 'too_large';

export interface AwcError {
  kind: AwcErrorKind;
  message: string;
  /** HTTP status, when the server answered. */
  status?: number;
  /** How long the client will refuse to call again. */
  retry_after_ms?: number;
}

export type AwcResult =
  | { ok: true; reports: RawReport[]; rejected: RejectedEntry[] }
  /** `reports` holds what earlier batches of the same call returned before the failure. */
  | { ok: false; error: AwcError; reports: RawReport[]; rejected: RejectedEntry[] };

export interface AwcBackoff {
  until_ms: number;
  error: AwcError;
}

type Product = 'metar' | 'taf';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_IDS = 50;
const DEFAULT_MIN_INTERVAL_MS = 1_000;
const DEFAULT_METAR_HOURS = 2;
/** 429 without Retry-After: wait a minute, the API's own polling unit. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;
/** Server errors and network failures: 10 s, doubling with each failure in a row, at most 10 min. */
const FAILURE_BACKOFF_BASE_MS = 10_000;
const FAILURE_BACKOFF_MAX_MS = 10 * 60_000;
const STATION_ID = /^[A-Z0-9]{3,4}$/;

export class AwcClient {
  readonly baseUrl: string;
  readonly #userAgent: string;
  readonly #timeoutMs: number;
  readonly #maxAnswerBytes: number;
  readonly #logger: OutboundLogger | undefined;
  readonly #maxIds: number;
  readonly #minIntervalMs: number;
  readonly #format: 'json' | 'raw';
  readonly #metarHours: number;
  readonly #fetch: typeof fetch;
  readonly #clock: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Requests run one after another: each waits on the one before. */
  #queue: Promise<unknown> = Promise.resolve();
  #lastRequestEndedAt = -Infinity;
  #backoff: AwcBackoff | null = null;
  #failuresInARow = 0;

  constructor(options: AwcClientOptions = {}) {
    const base = options.baseUrl ?? AWC_DEFAULT_BASE_URL;
    this.baseUrl = base.endsWith('/') ? base : `${base}/`;
    this.#userAgent =
      options.userAgent ?? `LAMIS/${packageJson.version} (Landing and Maritime Intelligence Service)`;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.#logger = options.logger;
    this.#maxIds = Math.max(1, Math.floor(options.maxIdsPerRequest ?? DEFAULT_MAX_IDS));
    this.#minIntervalMs = Math.max(0, options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS);
    this.#format = options.format ?? 'json';
    this.#metarHours = options.metarHours ?? DEFAULT_METAR_HOURS;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#clock = options.clock ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Recent METARs (and SPECIs) of these stations, every one the API returned. */
  fetchMetars(icaos: readonly string[]): Promise<AwcResult> {
    return this.#fetchProduct('metar', icaos);
  }

  /** Current TAFs of these stations (amendments included). */
  fetchTafs(icaos: readonly string[]): Promise<AwcResult> {
    return this.#fetchProduct('taf', icaos);
  }

  /** Set after a 429, a server error or a network failure: until when calls are refused, and why. */
  backoff(): AwcBackoff | null {
    return this.#backoff !== null && this.#backoff.until_ms > this.#clock() ? this.#backoff : null;
  }

  async #fetchProduct(product: Product, icaos: readonly string[]): Promise<AwcResult> {
    const reports: RawReport[] = [];
    const rejected: RejectedEntry[] = [];
    const ids = new Set<string>();
    for (const icao of icaos) {
      const id = String(icao).trim().toUpperCase();
      if (STATION_ID.test(id)) ids.add(id);
      else rejected.push({ entry: String(icao), reason: 'not a station identifier (three or four letters and digits)' });
    }
    const list = [...ids];
    for (let start = 0; start < list.length; start += this.#maxIds) {
      const batch = await this.#serialised(() => this.#request(product, list.slice(start, start + this.#maxIds)));
      reports.push(...batch.reports);
      rejected.push(...batch.rejected);
      if (!batch.ok) return { ok: false, error: batch.error, reports, rejected };
    }
    return { ok: true, reports, rejected };
  }

  #serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #request(product: Product, ids: string[]): Promise<AwcResult> {
    const refused = this.#refusal();
    if (refused !== null) return { ok: false, error: refused, reports: [], rejected: [] };
    const wait = this.#lastRequestEndedAt + this.#minIntervalMs - this.#clock();
    if (wait > 0) await this.#sleep(wait);

    const url = new URL(`api/data/${product}`, this.baseUrl);
    url.searchParams.set('ids', ids.join(','));
    url.searchParams.set('format', this.#format);
    if (product === 'metar') url.searchParams.set('hours', String(this.#metarHours));

    let answer: OutboundAnswer;
    try {
      answer = await readAnswer(url, {
        headers: { 'user-agent': this.#userAgent, accept: this.#format === 'json' ? 'application/json' : 'text/plain' },
        timeoutMs: this.#timeoutMs,
        maxBytes: this.#maxAnswerBytes,
        logger: this.#logger,
        fetch: this.#fetch,
      });
    } catch (error) {
      const failure = requestFailure(error, url, this.#timeoutMs);
      return this.#failed({ kind: failure.reason === 'too_large' ? 'too_large' : 'network', message: failure.message });
    } finally {
      this.#lastRequestEndedAt = this.#clock();
    }
    const { status } = answer;
    const retryAfter = answer.headers.get('retry-after');
    const body = answer.text();

    if (status === 429) {
      const waitMs = retryAfterMs(retryAfter, this.#clock()) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
      return this.#failed({ kind: 'rate_limited', status, message: `429 from ${url.host}: too many requests` }, waitMs);
    }
    if (status >= 500) {
      const message = answerMessage(String(status), url, body);
      return this.#failed({ kind: 'upstream', status, message }, retryAfterMs(retryAfter, this.#clock()));
    }
    if (status === 204) return this.#succeeded({ reports: [], rejected: [] });
    if (status !== 200) {
      return { ok: false, error: { kind: 'bad_response', status, message: answerMessage(String(status), url, body) }, reports: [], rejected: [] };
    }
    const decoded = this.#format === 'json' ? decodeJson(product, body) : decodeRaw(product, body, this.#clock());
    if (!decoded.ok) return { ok: false, error: { kind: 'bad_response', status, message: decoded.message }, reports: [], rejected: [] };
    return this.#succeeded(decoded);
  }

  /** The error to answer without calling, while a back-off runs. */
  #refusal(): AwcError | null {
    const backoff = this.backoff();
    if (backoff === null) return null;
    const remaining = backoff.until_ms - this.#clock();
    return {
      ...backoff.error,
      retry_after_ms: remaining,
      message: `not calling until ${new Date(backoff.until_ms).toISOString()} after: ${backoff.error.message}`,
    };
  }

  #succeeded(result: { reports: RawReport[]; rejected: RejectedEntry[] }): AwcResult {
    this.#failuresInARow = 0;
    this.#backoff = null;
    return { ok: true, ...result };
  }

  /** Starts a back-off: the server's wait when it gave one, else doubling with each failure in a row. */
  #failed(error: AwcError, serverWaitMs?: number | null): AwcResult {
    this.#failuresInARow += 1;
    const doubling = Math.min(FAILURE_BACKOFF_MAX_MS, FAILURE_BACKOFF_BASE_MS * 2 ** (this.#failuresInARow - 1));
    const waitMs = serverWaitMs ?? doubling;
    const withWait = { ...error, retry_after_ms: waitMs };
    this.#backoff = { until_ms: this.#clock() + waitMs, error: withWait };
    return { ok: false, error: withWait, reports: [], rejected: [] };
  }
}

type Decoded = { ok: true; reports: RawReport[]; rejected: RejectedEntry[] } | { ok: false; message: string };

/**
 * The JSON format: an array of objects. METAR: `icaoId`, `rawOb`, `obsTime` (Unix seconds; older
 * responses give `reportTime` text). TAF: `icaoId`, `rawTAF`, `issueTime` (ISO text, or Unix
 * seconds), else `bulletinTime`.
 */
function decodeJson(product: Product, body: string): Decoded {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return { ok: false, message: `the body is not JSON (${error instanceof Error ? error.message : String(error)}): ${excerpt(body)}` };
  }
  if (!Array.isArray(parsed)) return { ok: false, message: `expected a JSON array of reports, got ${typeName(parsed)}` };
  const reports: RawReport[] = [];
  const rejected: RejectedEntry[] = [];
  for (const entry of parsed) {
    const report = product === 'metar' ? metarEntry(entry) : tafEntry(entry);
    if (typeof report === 'string') rejected.push({ entry: excerpt(JSON.stringify(entry) ?? String(entry)), reason: report });
    else reports.push(report);
  }
  return { ok: true, reports, rejected };
}

function metarEntry(entry: unknown): RawReport | string {
  if (!isRecord(entry)) return `expected an object, got ${typeName(entry)}`;
  const { icaoId, rawOb } = entry;
  if (typeof icaoId !== 'string' || !STATION_ID.test(icaoId)) return 'no station identifier (icaoId)';
  if (typeof rawOb !== 'string' || rawOb.trim() === '') return 'no report text (rawOb)';
  const observed = apiTime(entry.obsTime) ?? apiTime(entry.reportTime);
  if (observed === null) return 'no observation time (obsTime)';
  return { icao: icaoId, raw: rawOb.trim(), observed_at: observed };
}

function tafEntry(entry: unknown): RawReport | string {
  if (!isRecord(entry)) return `expected an object, got ${typeName(entry)}`;
  const { icaoId, rawTAF } = entry;
  if (typeof icaoId !== 'string' || !STATION_ID.test(icaoId)) return 'no station identifier (icaoId)';
  if (typeof rawTAF !== 'string' || rawTAF.trim() === '') return 'no report text (rawTAF)';
  const issued = apiTime(entry.issueTime) ?? apiTime(entry.bulletinTime);
  if (issued === null) return 'no issue time (issueTime)';
  return { icao: icaoId, raw: rawTAF.trim(), observed_at: issued };
}

/** Unix seconds, or ISO-like text ("2026-05-20T08:52:00.000Z", older "2023-10-27 15:30:00", UTC). */
function apiTime(value: unknown): string | null {
  let ms: number;
  if (typeof value === 'number') ms = value * 1000;
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) {
    const text = value.replace(' ', 'T');
    ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`);
  } else return null;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/**
 * The raw format: one METAR per line; a TAF starts at the left margin and continues on indented
 * lines. Times come from the report text itself, read against the clock.
 */
function decodeRaw(product: Product, body: string, nowMs: number): Decoded {
  const now = new Date(nowMs);
  const reports: RawReport[] = [];
  const rejected: RejectedEntry[] = [];
  for (const text of product === 'metar' ? metarLines(body) : tafBlocks(body)) {
    if (product === 'metar') {
      const parsed = parseMetar(text, { now, lenient: true });
      if (parsed.ok) reports.push({ icao: parsed.metar.station, raw: text, observed_at: new Date(parsed.metar.observed_at).toISOString() });
      else rejected.push({ entry: excerpt(text), reason: parsed.error.message });
    } else {
      const parsed = parseTaf(text, { now });
      if (parsed.ok) reports.push({ icao: parsed.taf.station, raw: text, observed_at: new Date(parsed.taf.issued_at).toISOString() });
      else rejected.push({ entry: excerpt(text), reason: parsed.error.message });
    }
  }
  return { ok: true, reports, rejected };
}

function metarLines(body: string): string[] {
  return body.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
}

function tafBlocks(body: string): string[] {
  const blocks: string[][] = [];
  let current: string[] | null = null;
  for (const line of body.split(/\r?\n/)) {
    if (line.trim() === '') {
      current = null;
    } else if (current !== null && /^\s/.test(line)) {
      current.push(line.trim());
    } else {
      current = [line.trim()];
      blocks.push(current);
    }
  }
  return blocks.map((lines) => lines.join(' '));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
