// The latest METAR and TAF per airport, from three kinds of source: the live feed
// (aviationweather.gov), the simulator (when no live feed is configured) and reports an operator
// pushes from its own source. All land in one table; the newest observation wins, by observation
// (or issue) time, not by arrival.
//
// Freshness: a report is `live` when LAMIS confirmed it with its source less than a minute ago,
// `recent` up to five minutes, then `stale`. A request that finds stale data is answered at once
// with what is held, and starts one background refresh for that airport and kind; requests that
// come while it runs share it, so each airport costs one upstream call however many ask. Only an
// airport with nothing held at all waits for its first fetch. When the source fails, the last good
// report stays and is served, marked stale, and the source is left alone until its retry time.
//
// Reports come on a schedule: routine METARs hourly (the simulator's at :50), TAFs every six hours.
// Once the next one is due (an hour after the METAR held, six after the TAF), the held report is
// the previous one: the first request from then on refreshes however recently the source was asked,
// and waits for that refresh, a few seconds at most, so it is answered with the current report.
//
// The newest report of each airport and kind is held in memory: storing a report drops it, as does
// `forget` when another instance announces one, and the next request reads the table again.
import type { Database } from '../../platform/db/database.ts';
import { HeldValues } from '../../platform/held-values.ts';
import type { AwcClient } from '../feeds/awc.ts';
import { simulateMetar, simulateTaf } from '../feeds/weather-simulator.ts';
import type { SimulatorAirport } from '../feeds/weather-simulator.ts';
import { parseMetar } from './metar.ts';
import type { ReportKind, ReportSource, WeatherReportsTable } from './reports.table.ts';
import { parseTaf } from './taf.ts';
import type { WeatherError } from './types.ts';

export type { ReportKind, ReportSource } from './reports.table.ts';

export type Freshness = 'live' | 'recent' | 'stale';

export interface StoredReport {
  icao: string;
  kind: ReportKind;
  source: ReportSource;
  raw: string;
  /** ISO 8601 UTC: observation time of a METAR, issue time of a TAF. */
  observed_at: string;
  /** When the report last came in from its source. */
  received_at: string;
  /** When LAMIS last confirmed with its source that nothing newer exists (at least received_at). */
  checked_at: string;
  /** Seconds since checked_at. */
  age_s: number;
  freshness: Freshness;
}

/** A report as a provider hands it over (the live client's RawReport has this shape). */
export interface ProvidedReport {
  icao: string;
  raw: string;
  observed_at: string;
}

export type ProviderResult =
  | { ok: true; reports: ProvidedReport[] }
  /** `reports`: what the provider got before it failed; stored all the same. */
  | { ok: false; message: string; retry_after_ms?: number; reports: ProvidedReport[] };

export interface WeatherProvider {
  readonly source: Exclude<ReportSource, 'operator'>;
  fetch(kind: ReportKind, icaos: readonly string[], nowMs: number): Promise<ProviderResult>;
}

/** The aviationweather.gov client as a provider; it keeps its own politeness and back-off. */
export function awcProvider(client: AwcClient): WeatherProvider {
  return {
    source: 'live',
    async fetch(kind, icaos) {
      const result = kind === 'metar' ? await client.fetchMetars(icaos) : await client.fetchTafs(icaos);
      if (result.ok) return { ok: true, reports: result.reports };
      return { ok: false, message: result.error.message, retry_after_ms: result.error.retry_after_ms, reports: result.reports };
    },
  };
}

/** The simulator as a provider: a refresh writes the current report of each known airport. */
export function simulatorProvider(airportOf: (icao: string) => SimulatorAirport | undefined, seed = 1): WeatherProvider {
  return {
    source: 'simulated',
    async fetch(kind, icaos, nowMs) {
      const reports: ProvidedReport[] = [];
      for (const icao of icaos) {
        const airport = airportOf(icao);
        if (airport === undefined) continue;
        if (kind === 'metar') {
          const metar = simulateMetar(airport, nowMs, seed);
          reports.push({ icao, raw: metar.raw, observed_at: metar.observed_at });
        } else {
          const taf = simulateTaf(airport, nowMs, seed);
          reports.push({ icao, raw: taf.raw, observed_at: taf.issued_at });
        }
      }
      return { ok: true, reports };
    },
  };
}

/** How long after a report its successor is due: the routine interval of each kind. */
const NEXT_REPORT_AFTER_MS: Readonly<Record<ReportKind, number>> = { metar: 3600 * 1000, taf: 6 * 3600 * 1000 };

export interface WeatherReportsOptions {
  /** Where refreshes come from; null (the default): operator reports only. */
  provider?: WeatherProvider | null;
  clock?: () => number;
  /** Older than this (default 300 s), a request triggers a refresh. */
  staleAfterMs?: number;
  /** Longest a request waits for the refresh of a report whose successor is due (default 3 s). */
  dueWaitMs?: number;
  /** Younger than this (default 60 s) counts as live. */
  liveWithinMs?: number;
  /** After a failed refresh, wait this long (default 60 s) unless the provider says how long. */
  retryAfterFailureMs?: number;
  /** Reports this much older than a newer one from the same source are deleted (default 48 h). */
  retentionMs?: number;
  /** How far ahead of the clock a submitted report may be dated (default 10 min, for clock skew). */
  maxFutureMs?: number;
  /** Called once per airport and kind after reports are stored, whatever their source. */
  onStored?: (icao: string, kind: ReportKind) => Promise<void>;
}

export type SubmitErrorCode = 'bad_station' | 'wrong_kind' | 'invalid_report' | 'station_mismatch' | 'in_future';

export interface SubmitError {
  code: SubmitErrorCode;
  message: string;
  /** The decoder's reason, for `invalid_report`. */
  report_error?: WeatherError;
}

export type SubmitResult = { ok: true; report: StoredReport } | { ok: false; error: SubmitError };

export interface RefreshOutcome {
  /** Reports this refresh wrote (refreshes it joined are not counted). */
  stored: number;
  /** Why the provider failed, when it did; null otherwise. */
  error: string | null;
}

const STATION = /^[A-Z][A-Z0-9]{3}$/;
const SECOND_MS = 1000;

export class WeatherReports {
  readonly #database: Database;
  readonly #provider: WeatherProvider | null;
  readonly #clock: () => number;
  readonly #staleAfterMs: number;
  readonly #dueWaitMs: number;
  readonly #liveWithinMs: number;
  readonly #retryAfterFailureMs: number;
  readonly #retentionMs: number;
  readonly #maxFutureMs: number;
  readonly #onStored: (icao: string, kind: ReportKind) => Promise<void>;
  /** Refreshes under way, by airport and kind: later requests wait on these instead of calling again. */
  readonly #inFlight = new Map<string, Promise<unknown>>();
  /** Last successful provider answer, by airport and kind. */
  readonly #checkedAt = new Map<string, number>();
  /** After a failure, no refresh before this time. */
  readonly #retryAt = new Map<string, number>();
  /** The newest stored report by airport and kind, so a request reads memory, not the table. */
  readonly #newestHeld: HeldValues<string, WeatherReportsTable | undefined>;

  constructor(database: Database, options: WeatherReportsOptions = {}) {
    this.#database = database;
    this.#provider = options.provider ?? null;
    this.#clock = options.clock ?? Date.now;
    this.#staleAfterMs = options.staleAfterMs ?? 300 * SECOND_MS;
    this.#dueWaitMs = options.dueWaitMs ?? 3 * SECOND_MS;
    this.#liveWithinMs = options.liveWithinMs ?? 60 * SECOND_MS;
    this.#retryAfterFailureMs = options.retryAfterFailureMs ?? 60 * SECOND_MS;
    this.#retentionMs = options.retentionMs ?? 48 * 3600 * SECOND_MS;
    this.#maxFutureMs = options.maxFutureMs ?? 10 * 60 * SECOND_MS;
    this.#onStored = options.onStored ?? (async () => {});
    this.#newestHeld = new HeldValues({ clock: this.#clock });
  }

  /**
   * The newest report for the airport, or null when there is none. Stale data is returned at once
   * and refreshed in the background; with nothing held, the first fetch is awaited, and with a
   * report whose successor is due, its refresh for `dueWaitMs` at most.
   */
  async latest(icao: string, kind: ReportKind): Promise<StoredReport | null> {
    const station = icao.trim().toUpperCase();
    if (!STATION.test(station)) return null;
    let row = await this.#newest(station, kind);
    if (this.#needsRefresh(station, kind, row)) {
      const refresh = this.refresh([station], kind);
      if (row === undefined) {
        await refresh;
        row = await this.#newest(station, kind);
      } else if (this.#clock() >= nextDue(row) && (await settlesWithin(refresh, this.#dueWaitMs))) {
        row = await this.#newest(station, kind);
      }
    }
    return row === undefined ? null : this.#view(row);
  }

  /**
   * Validates and stores a report pushed by an operator (or another source): it must decode, be
   * for this station and not be dated ahead of the clock. A report already held is updated.
   */
  async submit(icao: string, kind: ReportKind, raw: string, source: ReportSource = 'operator'): Promise<SubmitResult> {
    const station = String(icao).trim().toUpperCase();
    if (!STATION.test(station)) {
      return fail('bad_station', `"${icao}" is not an ICAO location indicator (four letters or digits, a letter first)`);
    }
    if (typeof raw !== 'string') return fail('invalid_report', `the ${kind.toUpperCase()} must be text`);
    const first = raw.trim().split(/\s+/)[0]?.toUpperCase();
    if (kind === 'metar' && first === 'TAF') return fail('wrong_kind', 'this is a TAF: submit it as a TAF, not a METAR');
    if (kind === 'taf' && (first === 'METAR' || first === 'SPECI')) {
      return fail('wrong_kind', `this is a ${first}: submit it as a METAR, not a TAF`);
    }

    const now = this.#clock();
    const decoded = decodeReport(kind, raw, new Date(now));
    if (!decoded.ok) {
      return { ok: false, error: { code: 'invalid_report', message: decoded.error.message, report_error: decoded.error } };
    }
    if (decoded.station !== station) {
      return fail('station_mismatch', `the report is for ${decoded.station}, not ${station}`);
    }
    const observed = Date.parse(decoded.time);
    if (observed - now > this.#maxFutureMs) {
      const what = kind === 'metar' ? 'observed' : 'issued';
      return fail('in_future', `${what} at ${decoded.time}, more than ${this.#maxFutureMs / 60_000} minutes after the current time ${new Date(now).toISOString()}`);
    }
    const row: WeatherReportsTable = {
      icao: station,
      kind,
      source,
      observed_at: new Date(observed).toISOString(),
      received_at: new Date(now).toISOString(),
      raw: raw.trim(),
    };
    await this.#store([row]);
    return { ok: true, report: this.#view(row) };
  }

  /**
   * Asks the provider for these airports, in one call, and stores what it returns. Airports with
   * a refresh already under way are not asked again: this waits for that refresh instead.
   * Never rejects.
   */
  async refresh(icaos: readonly string[], kind: ReportKind): Promise<RefreshOutcome> {
    const provider = this.#provider;
    if (provider === null) return { stored: 0, error: null };
    const stations = [...new Set(icaos.map((icao) => icao.trim().toUpperCase()))].filter((icao) => STATION.test(icao));
    const joined = stations.flatMap((icao) => this.#inFlight.get(keyOf(icao, kind)) ?? []);
    const asking = stations.filter((icao) => !this.#inFlight.has(keyOf(icao, kind)));
    let own: Promise<RefreshOutcome> | null = null;
    if (asking.length > 0) {
      own = this.#fetchAndStore(provider, kind, asking);
      for (const icao of asking) this.#inFlight.set(keyOf(icao, kind), own);
      void own.then(() => {
        for (const icao of asking) this.#inFlight.delete(keyOf(icao, kind));
      });
    }
    await Promise.all(joined);
    return own === null ? { stored: 0, error: null } : own;
  }

  /** Another instance stored a report for the airport: the next request reads the table again. */
  forget(icao: string, kind: ReportKind): void {
    this.#newestHeld.forget(keyOf(icao.trim().toUpperCase(), kind));
  }

  /** Resolves when no refresh is under way (for shutdown and tests). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
  }

  async #fetchAndStore(provider: WeatherProvider, kind: ReportKind, icaos: string[]): Promise<RefreshOutcome> {
    let result: ProviderResult;
    try {
      result = await provider.fetch(kind, icaos, this.#clock());
    } catch (error) {
      result = { ok: false, message: `the ${provider.source} source failed: ${errorMessage(error)}`, reports: [] };
    }
    const now = this.#clock();
    const asked = new Set(icaos);
    const rows: WeatherReportsTable[] = [];
    for (const report of result.reports) {
      const observed = Date.parse(report.observed_at);
      const station = report.icao.toUpperCase();
      if (!asked.has(station) || !Number.isFinite(observed) || typeof report.raw !== 'string') continue;
      rows.push({
        icao: station,
        kind,
        source: provider.source,
        observed_at: new Date(observed).toISOString(),
        received_at: new Date(now).toISOString(),
        raw: report.raw.trim(),
      });
    }
    let error = result.ok ? null : result.message;
    let stored = 0;
    try {
      await this.#store(rows);
      stored = rows.length;
    } catch (storeError) {
      error = `storing ${kind.toUpperCase()} reports failed: ${errorMessage(storeError)}`;
    }
    for (const icao of icaos) {
      const key = keyOf(icao, kind);
      if (error === null) {
        this.#checkedAt.set(key, now);
        this.#retryAt.delete(key);
      } else {
        const wait = result.ok ? this.#retryAfterFailureMs : (result.retry_after_ms ?? this.#retryAfterFailureMs);
        this.#retryAt.set(key, now + wait);
      }
    }
    return { stored, error };
  }

  #needsRefresh(icao: string, kind: ReportKind, row: WeatherReportsTable | undefined): boolean {
    if (this.#provider === null) return false;
    const key = keyOf(icao, kind);
    const now = this.#clock();
    if (now < (this.#retryAt.get(key) ?? -Infinity)) return false;
    const confirmed = this.#confirmedAt(key, row);
    // Asked before the next report was due, the source may hold it by now.
    const successorDue = row !== undefined && confirmed < nextDue(row) && now >= nextDue(row);
    return successorDue || now - confirmed > this.#staleAfterMs;
  }

  #confirmedAt(key: string, row: WeatherReportsTable | undefined): number {
    const received = row === undefined ? -Infinity : Date.parse(row.received_at);
    return Math.max(received, this.#checkedAt.get(key) ?? -Infinity);
  }

  #newest(icao: string, kind: ReportKind): Promise<WeatherReportsTable | undefined> {
    return this.#newestHeld.get(keyOf(icao, kind), () => this.#readNewest(icao, kind));
  }

  async #readNewest(icao: string, kind: ReportKind): Promise<WeatherReportsTable | undefined> {
    return this.#database.db
      .selectFrom('weather_reports')
      .selectAll()
      .where('icao', '=', icao)
      .where('kind', '=', kind)
      .orderBy('observed_at', 'desc')
      .orderBy('received_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Inserts or updates each report, then drops reports of the same source long superseded: the one
   * place every report is stored, so the one that announces it.
   */
  async #store(rows: readonly WeatherReportsTable[]): Promise<void> {
    if (rows.length === 0) return;
    await this.#database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('weather_reports')
        .values([...rows])
        .onConflict((conflict) =>
          conflict
            .columns(['icao', 'kind', 'source', 'observed_at'])
            .doUpdateSet((update) => ({ raw: update.ref('excluded.raw'), received_at: update.ref('excluded.received_at') })),
        )
        .execute();
      for (const row of rows) {
        const cutoff = new Date(Date.parse(row.observed_at) - this.#retentionMs).toISOString();
        await trx
          .deleteFrom('weather_reports')
          .where('icao', '=', row.icao)
          .where('kind', '=', row.kind)
          .where('source', '=', row.source)
          .where('observed_at', '<', cutoff)
          .execute();
      }
    });
    const stored = new Map(rows.map((row) => [keyOf(row.icao, row.kind), row]));
    for (const key of stored.keys()) this.#newestHeld.forget(key);
    for (const row of stored.values()) await this.#onStored(row.icao, row.kind);
  }

  #view(row: WeatherReportsTable): StoredReport {
    const confirmed = this.#confirmedAt(keyOf(row.icao, row.kind), row);
    const ageMs = Math.max(0, this.#clock() - confirmed);
    return {
      icao: row.icao,
      kind: row.kind,
      source: row.source,
      raw: row.raw,
      observed_at: row.observed_at,
      received_at: row.received_at,
      checked_at: new Date(confirmed).toISOString(),
      age_s: Math.floor(ageMs / SECOND_MS),
      freshness: ageMs < this.#liveWithinMs ? 'live' : ageMs <= this.#staleAfterMs ? 'recent' : 'stale',
    };
  }
}

function keyOf(icao: string, kind: ReportKind): string {
  return `${kind}:${icao}`;
}

/** When the report after this one is due from its source (ms). */
function nextDue(row: WeatherReportsTable): number {
  return Date.parse(row.observed_at) + NEXT_REPORT_AFTER_MS[row.kind];
}

/** Whether the promise settles within `ms`; it goes on either way. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

type DecodedReport = { ok: true; station: string; time: string } | { ok: false; error: WeatherError };

function decodeReport(kind: ReportKind, raw: string, now: Date): DecodedReport {
  if (kind === 'metar') {
    const parsed = parseMetar(raw, { now });
    return parsed.ok ? { ok: true, station: parsed.metar.station, time: parsed.metar.observed_at } : parsed;
  }
  const parsed = parseTaf(raw, { now });
  return parsed.ok ? { ok: true, station: parsed.taf.station, time: parsed.taf.issued_at } : parsed;
}

function fail(code: SubmitErrorCode, message: string): { ok: false; error: SubmitError } {
  return { ok: false, error: { code, message: `${code}: ${message}` } };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
