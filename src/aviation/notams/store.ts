// The NOTAMs the service knows and which of them are in force for a time or window at an aerodrome.
//
// Operator NOTAMs arrive one by one through submit(): a NOTAMR ends the NOTAM of the same source
// it replaces when it comes into force (its item B)), a NOTAMC ends the one it cancels at its
// item B). Ending at B) rather than on receipt errs towards showing a restriction too long, never
// hiding one that still stands.
//
// Feed NOTAMs (the FAA NOTAM API, the simulator) come from providers: each feed's set for an
// aerodrome is fetched on the first question about it, kept in the table, and refreshed in the
// background once it is older than five minutes, with concurrent questions sharing one refresh. A
// feed's set replaces its previous set for that aerodrome, so NOTAMs the feed no longer lists
// drop out.
//
// Each aerodrome's NOTAMs are held in memory once read, with the sets in force at the instants
// asked (an ETA asked again is answered from there); storing NOTAMs for it drops them, as does
// `forget` when another instance announces some.
import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../../platform/db/database.ts';
import { HeldValues } from '../../platform/held-values.ts';
import { parseNotam } from './parse.ts';
import { activeInWindow } from './schedule.ts';
import type { NotamRow, NotamSource } from './notams.table.ts';
import type { FeedSource, NotamProvider } from './provider.ts';
import { toIsoUtc } from './time.ts';
import type { Notam, NotamErrorCode } from './types.ts';

export type { NotamSource } from './notams.table.ts';


export interface NotamStoreOptions {
  providers?: readonly NotamProvider[];
  /** Milliseconds since the epoch; defaults to Date.now. */
  clock?: () => number;
  /** Age after which a feed's set for an aerodrome is refreshed in the background (default 300 s). */
  refreshAfterMs?: number;
  /** Called once per location after NOTAMs for it are stored, whatever their source. */
  onStored?: (location: string) => Promise<void>;
}

/** A NOTAM as held: the parsed fields and effects, plus where it came from. */
export interface StoredNotam extends Notam {
  source: NotamSource;
  received_at: string;
  /** The NOTAMR or NOTAMC that ended this NOTAM, and when; null while it stands. */
  ended_by: string | null;
  ended_at: string | null;
}

export interface FeedStatus {
  source: FeedSource;
  /** Last successful fetch for the aerodrome; null when none succeeded yet. */
  fetched_at: string | null;
  /** Why the last attempt failed; null when it succeeded. The previous set is still served. */
  error: string | null;
}

export interface AirportNotams {
  location: string;
  notams: StoredNotam[];
  feeds: FeedStatus[];
}

/** `at`: one instant; `from`/`to`: the window [from, to). Milliseconds; default: now. */
export interface NotamQuery {
  at?: number;
  from?: number;
  to?: number;
}

export type SubmitErrorCode =
  | NotamErrorCode
  /** The NOTAM has no number, so it could never be replaced or cancelled. */
  | 'missing_number'
  /** The same number is already on file for the location with a different text. */
  | 'duplicate'
  /** A NOTAMC names a NOTAM that is not on file (or already ended) for its locations. */
  | 'unknown_reference';

export interface SubmitError {
  code: SubmitErrorCode;
  message: string;
}

export type SubmitResult =
  /** `created` is false when the identical NOTAM was already on file; `ended` lists the NOTAMs
   * this NOTAMR or NOTAMC ended. */
  | { ok: true; notam: StoredNotam; created: boolean; ended: string[] }
  | { ok: false; error: SubmitError };

const DEFAULT_REFRESH_AFTER_MS = 300_000;
/** In-force sets kept per aerodrome before they are dropped all at once (ETAs move on). */
const HELD_INSTANTS = 1_000;
const INSERT_CHUNK = 100;
const TYPE_LETTERS = { NEW: 'N', REPLACE: 'R', CANCEL: 'C' } as const;

interface FeedState {
  attemptedAt: number | null;
  succeededAt: number | null;
  error: string | null;
  running: Promise<void> | null;
}

/** An aerodrome's NOTAMs as held: sorted, each with its schedule input ended when the NOTAM was. */
interface HeldNotams {
  notams: { stored: StoredNotam; schedule: Notam }[];
  /** The NOTAMs in force at an instant, by instant: shared by every answer for it, not to be changed. */
  inForceAt: Map<number, StoredNotam[]>;
}

export class NotamStore {
  readonly #database: Database;
  readonly #providers: readonly NotamProvider[];
  readonly #clock: () => number;
  readonly #refreshAfterMs: number;
  readonly #onStored: (location: string) => Promise<void>;
  readonly #feeds = new Map<string, FeedState>();
  readonly #refreshes = new Set<Promise<void>>();
  readonly #held: HeldValues<string, HeldNotams>;

  constructor(database: Database, options: NotamStoreOptions = {}) {
    this.#database = database;
    this.#providers = options.providers ?? [];
    this.#clock = options.clock ?? Date.now;
    this.#refreshAfterMs = options.refreshAfterMs ?? DEFAULT_REFRESH_AFTER_MS;
    this.#onStored = options.onStored ?? (async () => {});
    this.#held = new HeldValues({ clock: this.#clock });
  }

  /** Validates the text by parsing it and files it under each item A) location; a new NOTAM is announced for each. */
  async submit(raw: unknown, source: NotamSource = 'operator'): Promise<SubmitResult> {
    const result = await this.#file(raw, source);
    if (result.ok && result.created) {
      const locations = new Set(result.notam.location);
      for (const location of locations) this.#held.forget(location);
      for (const location of locations) await this.#onStored(location);
    }
    return result;
  }

  async #file(raw: unknown, source: NotamSource): Promise<SubmitResult> {
    const parsed = parseNotam(raw);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const notam = parsed.notam;
    if (notam.id === null) {
      return failure('missing_number', 'the NOTAM has no "A1234/24 NOTAMN" header, so it could not be replaced or cancelled later');
    }
    const key = notamKey(notam.id);
    const receivedAt = toIsoUtc(this.#clock());
    const locations = [...new Set(notam.location)];

    return this.#database.db.transaction().execute(async (trx): Promise<SubmitResult> => {
      const existing = await trx
        .selectFrom('notams')
        .selectAll()
        .where('source', '=', source)
        .where('location', 'in', locations)
        .where('notam_key', '=', key)
        .execute();
      const conflicting = existing.find((row) => normaliseText(row.raw) !== normaliseText(notam.raw));
      if (conflicting) {
        return failure('duplicate', `${notam.id} is already on file for ${conflicting.location} with a different text`);
      }
      if (existing.length === locations.length) return { ok: true, notam: toStored(existing[0]!), created: false, ended: [] };

      const ended: string[] = [];
      if (notam.replaces !== null && (notam.type === 'REPLACE' || notam.type === 'CANCEL')) {
        const targets = await trx
          .selectFrom('notams')
          .selectAll()
          .where('source', '=', source)
          .where('location', 'in', locations)
          .where('notam_key', '=', notamKey(notam.replaces))
          .execute();
        const standing = targets.filter((row) => row.ended_by === null);
        if (notam.type === 'CANCEL' && standing.length === 0) {
          const endedBy = targets[0]?.ended_by;
          return failure(
            'unknown_reference',
            endedBy
              ? `${notam.replaces} was already ended by ${endedBy}`
              : `no NOTAM ${notam.replaces} on file for ${locations.join(', ')} from source ${source}`,
          );
        }
        // The replaced or cancelled NOTAM stands until this one comes into force, never longer.
        const endsAt = notam.start_time ?? receivedAt;
        for (const row of standing) {
          const validTo = row.valid_to === null || row.valid_to > endsAt ? endsAt : row.valid_to;
          await trx.updateTable('notams').set({ ended_by: notam.id, valid_to: validTo }).where('id', '=', row.id).execute();
          ended.push((JSON.parse(row.parsed) as Notam).id ?? row.notam_key);
        }
      }

      const present = new Set(existing.map((row) => row.location));
      const rows = locations.filter((location) => !present.has(location)).map((location) => toRow(notam, source, location, key, receivedAt));
      await trx
        .insertInto('notams')
        .values(rows)
        .onConflict((oc) => oc.columns(['source', 'location', 'notam_key']).doNothing())
        .execute();
      return { ok: true, notam: toStored(rows[0]!), created: true, ended: [...new Set(ended)] };
    });
  }

  /** The NOTAMs in force at the location for the query's instant or window, feeds refreshed as needed. */
  async forAirport(icao: string, query: NotamQuery = {}): Promise<AirportNotams> {
    const now = this.#clock();
    const from = query.from ?? query.at ?? now;
    const to = query.to ?? from + 1;
    const [set] = await this.#inForce(icao, now, [[from, to]]);
    return set!;
  }

  /**
   * The NOTAMs in force at each of the instants, in their order, from one read of the location's
   * NOTAMs: what a watcher of many arrivals at one aerodrome asks.
   */
  async forAirportAt(icao: string, instants: readonly number[]): Promise<AirportNotams[]> {
    return this.#inForce(icao, this.#clock(), instants.map((at) => [at, at + 1] as const));
  }

  async #inForce(icao: string, now: number, windows: readonly (readonly [from: number, to: number])[]): Promise<AirportNotams[]> {
    const location = icao.trim().toUpperCase();
    if (windows.some(([from, to]) => !Number.isFinite(from) || !Number.isFinite(to))) throw new RangeError('NOTAM query times must be finite milliseconds');
    await this.#ensureFresh(location, now);
    const feeds = this.#providers.map((provider) => this.#status(provider.source, location));
    if (windows.length === 0) return [];
    const held = await this.#held.get(location, () => this.#read(location));
    return windows.map(([start, end]) => ({ location, notams: inWindow(held, start, end), feeds }));
  }

  /** Another instance stored NOTAMs for the aerodrome: the next question reads the table again. */
  forget(location: string): void {
    this.#held.forget(location.trim().toUpperCase());
  }

  async #read(location: string): Promise<HeldNotams> {
    const rows = await this.#database.db.selectFrom('notams').selectAll().where('location', '=', location).where('type', '!=', 'C').execute();
    const notams = rows
      .map((row) => {
        const notam = JSON.parse(row.parsed) as Notam;
        return { stored: toStored(row, notam), schedule: { ...notam, end_time: row.valid_to } };
      })
      .sort((a, b) => (a.stored.start_time ?? '').localeCompare(b.stored.start_time ?? '') || (a.stored.id ?? '').localeCompare(b.stored.id ?? ''));
    return { notams, inForceAt: new Map() };
  }

  /** Resolves once no background refresh is running (for shutdown and tests). */
  async idle(): Promise<void> {
    while (this.#refreshes.size > 0) await Promise.all(this.#refreshes);
  }

  async #ensureFresh(location: string, now: number): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const provider of this.#providers) {
      const state = this.#state(provider.source, location);
      // The first question waits for the feed; later ones get the held set while it refreshes.
      if (state.attemptedAt === null) waits.push(this.#refresh(provider, location, state));
      else if (now - state.attemptedAt >= this.#refreshAfterMs) void this.#refresh(provider, location, state);
    }
    await Promise.all(waits);
  }

  #state(source: FeedSource, location: string): FeedState {
    const key = `${source}:${location}`;
    let state = this.#feeds.get(key);
    if (state === undefined) {
      state = { attemptedAt: null, succeededAt: null, error: null, running: null };
      this.#feeds.set(key, state);
    }
    return state;
  }

  #status(source: FeedSource, location: string): FeedStatus {
    const state = this.#state(source, location);
    return { source, fetched_at: state.succeededAt === null ? null : toIsoUtc(state.succeededAt), error: state.error };
  }

  /** One refresh per feed and aerodrome at a time; never rejects. */
  #refresh(provider: NotamProvider, location: string, state: FeedState): Promise<void> {
    if (state.running !== null) return state.running;
    const run = (async () => {
      const startedAt = this.#clock();
      try {
        const result = await provider.notamsFor(location, startedAt);
        if (result.ok) {
          await this.#replaceFeedSet(provider.source, location, result.notams, startedAt);
          state.succeededAt = startedAt;
          state.error = null;
        } else {
          state.error = result.error;
        }
      } catch (error) {
        state.error = error instanceof Error ? error.message : String(error);
      }
      state.attemptedAt = startedAt;
    })().finally(() => {
      state.running = null;
      this.#refreshes.delete(run);
    });
    state.running = run;
    this.#refreshes.add(run);
    return run;
  }

  async #replaceFeedSet(source: FeedSource, location: string, notams: Notam[], fetchedAt: number): Promise<void> {
    const receivedAt = toIsoUtc(fetchedAt);
    const byKey = new Map<string, NotamRow>();
    for (const notam of notams) {
      const key = notam.id === null ? `#${createHash('sha256').update(notam.raw).digest('hex').slice(0, 16)}` : notamKey(notam.id);
      byKey.set(key, toRow(notam, source, location, key, receivedAt));
    }
    await this.#database.db.transaction().execute(async (trx) => {
      const held = await trx.selectFrom('notams').select(['id', 'notam_key']).where('source', '=', source).where('location', '=', location).execute();
      const gone = held.filter((row) => !byKey.has(row.notam_key)).map((row) => row.id);
      for (let i = 0; i < gone.length; i += INSERT_CHUNK) {
        await trx.deleteFrom('notams').where('id', 'in', gone.slice(i, i + INSERT_CHUNK)).execute();
      }
      const rows = [...byKey.values()];
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('notams')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflict((oc) =>
            oc.columns(['source', 'location', 'notam_key']).doUpdateSet((eb) => ({
              series: eb.ref('excluded.series'),
              number: eb.ref('excluded.number'),
              year: eb.ref('excluded.year'),
              type: eb.ref('excluded.type'),
              replaces: eb.ref('excluded.replaces'),
              raw: eb.ref('excluded.raw'),
              parsed: eb.ref('excluded.parsed'),
              valid_from: eb.ref('excluded.valid_from'),
              valid_to: eb.ref('excluded.valid_to'),
              estimated: eb.ref('excluded.estimated'),
              received_at: eb.ref('excluded.received_at'),
            })),
          )
          .execute();
      }
    });
    this.#held.forget(location);
    await this.#onStored(location);
  }
}

/** The held NOTAMs in force in [from, to); a single instant's set is kept for the next request. */
function inWindow(held: HeldNotams, from: number, to: number): StoredNotam[] {
  const instant = to === from + 1;
  const kept = instant ? held.inForceAt.get(from) : undefined;
  if (kept !== undefined) return kept;
  const notams = held.notams.filter(({ schedule }) => activeInWindow(schedule, from, to)).map(({ stored }) => stored);
  if (instant) {
    if (held.inForceAt.size >= HELD_INSTANTS) held.inForceAt.clear();
    held.inForceAt.set(from, notams);
  }
  return notams;
}

function failure(code: SubmitErrorCode, detail: string): SubmitResult {
  return { ok: false, error: { code, message: `${code}: ${detail}` } };
}

function normaliseText(raw: string): string {
  return raw.replace(/\r\n?/g, '\n').trim();
}

/**
 * One spelling per NOTAM number, so that "A12/24", "A0012/24" and "A0012/2024" meet: series
 * numbers as A0012/24, US month/sequence numbers without leading zeros (6/171), FAA domestic
 * numbers with their accountability (JFK 1/123).
 */
export function notamKey(id: string): string {
  const compact = id.toUpperCase().replace(/\s+/g, ' ').replace(/ ?\/ ?/g, '/').trim();
  const series = /^([A-Z])(\d{1,5})\/(\d{2}|\d{4})$/.exec(compact);
  if (series) return `${series[1]}${String(Number(series[2])).padStart(4, '0')}/${series[3]!.slice(-2)}`;
  const plain = /^(?:([A-Z0-9]{3,4}) )?(\d{1,2})\/(\d{1,5})$/.exec(compact);
  if (plain) return `${plain[1] === undefined ? '' : `${plain[1]} `}${Number(plain[2])}/${Number(plain[3])}`;
  return compact;
}

function toRow(notam: Notam, source: NotamSource, location: string, key: string, receivedAt: string): NotamRow {
  return {
    id: randomUUID(),
    location,
    source,
    notam_key: key,
    series: notam.series,
    number: notam.number,
    year: notam.year,
    type: TYPE_LETTERS[notam.type ?? 'NEW'],
    replaces: notam.replaces,
    raw: notam.raw,
    parsed: JSON.stringify(notam),
    valid_from: notam.start_time,
    valid_to: notam.end_time,
    estimated: notam.end_estimated ? 1 : 0,
    ended_by: null,
    received_at: receivedAt,
  };
}

function toStored(row: NotamRow, notam = JSON.parse(row.parsed) as Notam): StoredNotam {
  return {
    ...notam,
    source: row.source,
    received_at: row.received_at,
    ended_by: row.ended_by,
    ended_at: row.ended_by === null ? null : row.valid_to,
  };
}
