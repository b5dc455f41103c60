// Client for the FAA NOTAM API (`GET {base}/notams`, credentials in the `client_id` and
// `client_secret` headers), or any server answering in its format at a configured base URL.
//
// The GeoJSON response is paged: `pageSize`, `pageNum`, `totalCount`, `totalPages` and `items[]`,
// each item a Feature whose `properties.coreNOTAMData` holds `notam` (id, number, series, type,
// issued, affectedFIR, selectionCode, location, icaoLocation, effectiveStart/End, text,
// classification, accountId ...) and `notamTranslation[]` ({ type: 'ICAO', formattedText } and
// { type: 'LOCAL_FORMAT', simpleText }). Every page up to a bound is fetched, and each NOTAM goes
// through the project's parser: the ICAO translation first (it carries the Q code), else the
// domestic text. NOTAMs neither text makes readable are listed with the reasons, not dropped
// silently.
//
// Never throws. After a 429, a server error, a network failure or an unusable body (one larger than
// its limit included) the client calls nothing until the retry time; meanwhile, and on any failure,
// the last good set of the aerodrome comes back beside the error.
import { parseNotam } from '../notams/index.ts';
import type { Notam, NotamType } from '../notams/index.ts';
import type { NotamProvider, ProviderResult } from '../notams/provider.ts';
import { answerMessage, excerpt, readAnswer, requestFailure, retryAfterMs, type OutboundAnswer, type OutboundLogger } from '../../platform/http/outbound.ts';
import { FAA_NOTAM_DEFAULT_BASE_URL } from '../settings.ts';

export interface FaaNotamClientOptions {
  clientId: string;
  clientSecret: string;
  /** Default https://external-api.faa.gov/notamapi/v1; a path prefix is kept. */
  baseUrl?: string;
  /** NOTAMs per page (default 1000, the API's largest). */
  pageSize?: number;
  /** Pages read per aerodrome at most (default 10); more are reported as `truncated`. */
  maxPages?: number;
  /** Per request, body included (default 15 s). */
  timeoutMs?: number;
  /** Largest page read (default 16 MiB; a page of 1,000 NOTAMs in GeoJSON is a few MiB). */
  maxAnswerBytes?: number;
  /** Where a page cut off at that size is reported. */
  logger?: OutboundLogger;
  clock?: () => number;
}

/** A NOTAM of the response that could not be read, and why. */
export interface FaaNotamFailure {
  /** The API's id ("NOTAM_1_72438024") and number ("07/025"), when the item had them. */
  id: string | null;
  number: string | null;
  reason: string;
}

export interface FaaNotamSet {
  location: string;
  notams: Notam[];
  failures: FaaNotamFailure[];
  /** `totalCount` as the API gave it. */
  total_count: number | null;
  /** The API had more pages than `maxPages`; those were not read. */
  truncated: boolean;
  fetched_at: string;
}

export type FaaNotamErrorCode =
  | 'bad_location'
  /** 401 or 403: the credentials were refused. */
  | 'unauthorized'
  | 'rate_limited'
  | 'server_error'
  /** Another unexpected HTTP status. */
  | 'http_error'
  /** 200, but not the documented JSON. */
  | 'bad_response'
  | 'timeout'
  | 'network'
  /** The answer passed its size limit and was cut off. */
  | 'too_large'
  /** Not called: a back-off from an earlier failure is running. */
  | 'backing_off';

export interface FaaNotamError {
  code: FaaNotamErrorCode;
  /** Starts with the code: `rate_limited: ...`. */
  message: string;
  status: number | null;
  /** When the client will call again; null when it would now. */
  retry_at: string | null;
}

export type FaaNotamResult =
  | { ok: true; set: FaaNotamSet }
  | { ok: false; error: FaaNotamError; last_good: FaaNotamSet | null };

const DEFAULT_PAGE_SIZE = 1000;
const DEFAULT_MAX_PAGES = 10;
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** 429 without a usable Retry-After: a minute. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;
/** Server errors, timeouts, network failures, unusable bodies: 30 s, doubling per failure in a row, at most 15 min. */
const FAILURE_BACKOFF_BASE_MS = 30_000;
const FAILURE_BACKOFF_MAX_MS = 900_000;
/** Refused credentials do not mend themselves; asking again every few minutes is enough. */
const UNAUTHORIZED_WAIT_MS = 300_000;
const LOCATION = /^[A-Z0-9]{3,4}$/;

/** A failed request, with the wait the failure calls for when it sets its own. */
type RequestFailure = FaaNotamError & { waitMs?: number };
type PageRead = { ok: true; items: unknown[]; totalCount: number | null; totalPages: number | null } | { ok: false; error: RequestFailure };

export class FaaNotamClient implements NotamProvider {
  readonly source = 'live';
  readonly baseUrl: string;
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #pageSize: number;
  readonly #maxPages: number;
  readonly #timeoutMs: number;
  readonly #maxAnswerBytes: number;
  readonly #logger: OutboundLogger | undefined;
  readonly #clock: () => number;
  readonly #lastGood = new Map<string, FaaNotamSet>();
  #backoff: { until: number; cause: FaaNotamError } | null = null;
  #failuresInARow = 0;

  constructor(options: FaaNotamClientOptions) {
    const base = options.baseUrl ?? FAA_NOTAM_DEFAULT_BASE_URL;
    this.baseUrl = base.endsWith('/') ? base : `${base}/`;
    this.#clientId = options.clientId;
    this.#clientSecret = options.clientSecret;
    this.#pageSize = Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE));
    this.#maxPages = Math.max(1, Math.floor(options.maxPages ?? DEFAULT_MAX_PAGES));
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.#logger = options.logger;
    this.#clock = options.clock ?? Date.now;
  }

  /** The NOTAMs the API lists for the aerodrome, all pages up to the bound. */
  async fetchNotams(icao: string): Promise<FaaNotamResult> {
    const location = String(icao).trim().toUpperCase();
    if (!LOCATION.test(location)) {
      return { ok: false, error: error('bad_location', `"${icao}" is not a location indicator (three or four letters and digits)`), last_good: null };
    }
    const refusal = this.#refusal();
    if (refusal !== null) return { ok: false, error: refusal, last_good: this.lastGood(location) };

    const seen = new Set<string>();
    const set: FaaNotamSet = { location, notams: [], failures: [], total_count: null, truncated: false, fetched_at: '' };
    let pages = 1;
    for (let pageNum = 1; pageNum <= Math.min(pages, this.#maxPages); pageNum++) {
      const page = await this.#page(location, pageNum);
      if (!page.ok) return { ok: false, error: this.#failed(page.error), last_good: this.lastGood(location) };
      if (pageNum === 1) {
        set.total_count = page.totalCount;
        pages = page.totalPages ?? (page.totalCount === null ? 1 : Math.ceil(page.totalCount / this.#pageSize));
        set.truncated = pages > this.#maxPages;
      }
      for (const item of page.items) {
        // Pages can shift while they are read; an item met twice counts once.
        const apiId = coreOf(item)?.notam.id;
        if (typeof apiId === 'string') {
          if (seen.has(apiId)) continue;
          seen.add(apiId);
        }
        const read = readItem(item);
        if (read.ok) set.notams.push(read.notam);
        else set.failures.push(read.failure);
      }
      if (page.items.length === 0) break;
    }
    this.#failuresInARow = 0;
    this.#backoff = null;
    set.fetched_at = new Date(this.#clock()).toISOString();
    this.#lastGood.set(location, set);
    return { ok: true, set };
  }

  /** The NotamProvider view: the parsed NOTAMs, or the error's message. */
  async notamsFor(location: string): Promise<ProviderResult> {
    const result = await this.fetchNotams(location);
    return result.ok ? { ok: true, notams: result.set.notams } : { ok: false, error: result.error.message };
  }

  /** The last successful set for the aerodrome in this process. */
  lastGood(icao: string): FaaNotamSet | null {
    return this.#lastGood.get(icao.trim().toUpperCase()) ?? null;
  }

  /** When the client will call again, while a back-off runs; else null. */
  retryAt(): string | null {
    return this.#backoff !== null && this.#backoff.until > this.#clock() ? new Date(this.#backoff.until).toISOString() : null;
  }

  #refusal(): FaaNotamError | null {
    const retryAt = this.retryAt();
    if (retryAt === null) return null;
    return { ...error('backing_off', `not calling the FAA NOTAM API until ${retryAt} after ${this.#backoff!.cause.message}`), retry_at: retryAt };
  }

  /** Starts the back-off the error calls for and returns the error with its retry time. */
  #failed(cause: RequestFailure): FaaNotamError {
    const { waitMs, ...failure } = cause;
    this.#failuresInARow += 1;
    const wait = waitMs ?? Math.min(FAILURE_BACKOFF_MAX_MS, FAILURE_BACKOFF_BASE_MS * 2 ** (this.#failuresInARow - 1));
    const until = this.#clock() + wait;
    const withRetry = { ...failure, retry_at: new Date(until).toISOString() };
    this.#backoff = { until, cause: withRetry };
    return withRetry;
  }

  async #page(location: string, pageNum: number): Promise<PageRead> {
    const url = new URL('notams', this.baseUrl);
    url.searchParams.set('icaoLocation', location);
    url.searchParams.set('responseFormat', 'geoJson');
    url.searchParams.set('pageSize', String(this.#pageSize));
    url.searchParams.set('pageNum', String(pageNum));

    let read: OutboundAnswer;
    try {
      read = await readAnswer(url, {
        headers: { client_id: this.#clientId, client_secret: this.#clientSecret, accept: 'application/json' },
        timeoutMs: this.#timeoutMs,
        maxBytes: this.#maxAnswerBytes,
        logger: this.#logger,
      });
    } catch (failure) {
      const { reason, message } = requestFailure(failure, url, this.#timeoutMs);
      return { ok: false, error: error(reason, message) };
    }
    const { status } = read;
    const retryAfter = read.headers.get('retry-after');
    const body = read.text();

    const answer = answerMessage(`HTTP ${status}`, url, body);
    if (status === 401 || status === 403) {
      return { ok: false, error: { ...error('unauthorized', `${answer} (check the client_id and client_secret)`, status), waitMs: UNAUTHORIZED_WAIT_MS } };
    }
    if (status === 429) {
      const waitMs = retryAfterMs(retryAfter, this.#clock()) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
      return { ok: false, error: { ...error('rate_limited', answer, status), waitMs } };
    }
    if (status >= 500) {
      return { ok: false, error: { ...error('server_error', answer, status), waitMs: retryAfterMs(retryAfter, this.#clock()) ?? undefined } };
    }
    if (status !== 200) return { ok: false, error: error('http_error', answer, status) };
    return readPage(body);
  }
}

function error(code: FaaNotamErrorCode, detail: string, status: number | null = null): FaaNotamError {
  return { code, message: `${code}: ${detail}`, status, retry_at: null };
}

function readPage(body: string): PageRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (failure) {
    return { ok: false, error: error('bad_response', `the body is not JSON (${failure instanceof Error ? failure.message : String(failure)}): ${excerpt(body)}`, 200) };
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.items)) {
    return { ok: false, error: error('bad_response', `expected an object with an items array: ${excerpt(body)}`, 200) };
  }
  return { ok: true, items: parsed.items, totalCount: count(parsed.totalCount), totalPages: count(parsed.totalPages) };
}

function count(value: unknown): number | null {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : null;
}

/** `properties.coreNOTAMData` of a Feature: the structured fields and the translations. */
function coreOf(item: unknown): { notam: Record<string, unknown>; translations: Record<string, unknown>[] } | null {
  const properties = isRecord(item) ? item.properties : undefined;
  const core = isRecord(properties) ? properties.coreNOTAMData : undefined;
  if (!isRecord(core) || !isRecord(core.notam)) return null;
  return { notam: core.notam, translations: Array.isArray(core.notamTranslation) ? core.notamTranslation.filter(isRecord) : [] };
}

type ItemRead = { ok: true; notam: Notam } | { ok: false; failure: FaaNotamFailure };

/** One Feature: the ICAO translation parsed if it can be, else the domestic text. */
function readItem(item: unknown): ItemRead {
  const core = coreOf(item);
  if (core === null) return { ok: false, failure: { id: null, number: null, reason: 'not a Feature with properties.coreNOTAMData.notam' } };
  const fields = core.notam;
  const id = typeof fields.id === 'string' ? fields.id : null;
  const number = typeof fields.number === 'string' ? fields.number : null;
  const icao = core.translations.find((translation) => translation.type === 'ICAO');
  const local = core.translations.find((translation) => translation.type === 'LOCAL_FORMAT');
  const candidates: [string, unknown][] = [
    ['ICAO', icao?.formattedText],
    ['LOCAL_FORMAT', local?.simpleText ?? local?.formattedText],
  ];
  const reasons: string[] = [];
  for (const [format, text] of candidates) {
    if (typeof text !== 'string' || text.trim() === '') continue;
    const parsed = parseNotam(text);
    if (parsed.ok) return { ok: true, notam: withApiNumber(parsed.notam, fields) };
    reasons.push(`${format}: ${parsed.error.message}`);
  }
  return { ok: false, failure: { id, number, reason: reasons.length > 0 ? reasons.join('; ') : 'no ICAO or LOCAL_FORMAT translation text' } };
}

const API_TYPES: Record<string, NotamType> = { N: 'NEW', R: 'REPLACE', C: 'CANCEL' };

/**
 * ICAO translations of FDC NOTAMs start at Q) with no number: the API's own fields supply it,
 * written as the domestic format would ("FDC 3/8210"), or "A2157/24" for a series number.
 */
function withApiNumber(notam: Notam, fields: Record<string, unknown>): Notam {
  if (notam.id !== null || typeof fields.number !== 'string') return notam;
  const type = notam.type ?? API_TYPES[String(fields.type)] ?? null;
  const series = /^([A-Z])(\d{1,5})\/(\d{2}|\d{4})$/.exec(fields.number);
  if (series) {
    const year = Number(series[3]);
    return { ...notam, id: fields.number, series: series[1]!, number: Number(series[2]), year: year < 100 ? 2000 + year : year, type };
  }
  const plain = /^\d{1,2}\/(\d{1,5})$/.exec(fields.number);
  if (!plain) return notam;
  const account = typeof fields.accountId === 'string' && /^[A-Z0-9]{3,4}$/.test(fields.accountId) ? `${fields.accountId} ` : '';
  return { ...notam, id: `${account}${fields.number}`, number: Number(plain[1]), type };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
