// Usage per API key and UTC day: requests served and streams opened. Counting happens in memory and
// is flushed every `flushEveryMs` (and on close) as one upsert per key and day, adding to what other
// processes wrote, so the API does not write to the database on every request. A crash loses at
// most the last interval's counts. Keys of the instance's configuration (no organisation) are not
// counted: they are the operators', not a customer's.
import type { Database } from '../../platform/db/database.ts';
import type { Principal } from '../../platform/http/auth.ts';
import type { Environment } from './keys.table.ts';
import type { UsageDailyRow } from './usage.table.ts';

export type UsageKind = 'request' | 'stream';
export type UsageDay = Omit<UsageDailyRow, 'org_id'>;

export interface UsageMeterOptions {
  clock?: () => number;
  /** Default 10 s. */
  flushEveryMs?: number;
  /** A timed flush failed; its counts are kept for the next one. */
  onError?: (error: unknown) => void;
}

/** What a usage listing covers unless told otherwise, and at most, in UTC days (today included). */
export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 366;

/** Rows per statement, well under SQLite's limit on bound parameters. */
const FLUSH_BATCH = 500;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export class UsageMeter {
  readonly #database: Database;
  readonly #clock: () => number;
  readonly #timer: NodeJS.Timeout;
  /** By `org_id key_id day`. */
  #pending = new Map<string, UsageDailyRow>();

  constructor(database: Database, options: UsageMeterOptions = {}) {
    this.#database = database;
    this.#clock = options.clock ?? Date.now;
    const onError = options.onError ?? (() => {});
    this.#timer = setInterval(() => this.flush().catch(onError), options.flushEveryMs ?? 10_000);
    this.#timer.unref();
  }

  record(principal: Principal, kind: UsageKind): void {
    if (principal.organisation_id === null) return;
    const day = utcDay(this.#clock());
    const slot = `${principal.organisation_id} ${principal.key_id} ${day}`;
    let row = this.#pending.get(slot);
    if (!row) {
      row = { org_id: principal.organisation_id, key_id: principal.key_id, day, requests: 0, streams: 0 };
      this.#pending.set(slot, row);
    }
    if (kind === 'request') row.requests++;
    else row.streams++;
  }

  /** Writes the counts so far; on failure they are put back and the error is thrown. */
  async flush(): Promise<void> {
    const rows = [...this.#pending.values()];
    if (rows.length === 0) return;
    this.#pending = new Map();
    for (let start = 0; start < rows.length; start += FLUSH_BATCH) {
      const batch = rows.slice(start, start + FLUSH_BATCH);
      try {
        await this.#database.db
          .insertInto('usage_daily')
          .values(batch)
          .onConflict((oc) =>
            oc.columns(['org_id', 'day', 'key_id']).doUpdateSet((eb) => ({
              requests: eb('usage_daily.requests', '+', eb.ref('excluded.requests')),
              streams: eb('usage_daily.streams', '+', eb.ref('excluded.streams')),
            })),
          )
          .execute();
      } catch (error) {
        for (const row of rows.slice(start)) this.#putBack(row);
        throw error;
      }
    }
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  #putBack(row: UsageDailyRow): void {
    const slot = `${row.org_id} ${row.key_id} ${row.day}`;
    const pending = this.#pending.get(slot);
    if (pending) {
      pending.requests += row.requests;
      pending.streams += row.streams;
    } else {
      this.#pending.set(slot, row);
    }
  }
}

/** The organisation's flushed usage from `from` to `to` (UTC days, both included), by day then key. */
export async function listUsage(database: Database, orgId: string, from: string, to: string): Promise<UsageDay[]> {
  if (!DAY_PATTERN.test(from) || !DAY_PATTERN.test(to)) throw new RangeError(`days are YYYY-MM-DD (got ${from} and ${to})`);
  const rows = await database.db
    .selectFrom('usage_daily')
    .select(['day', 'key_id', 'requests', 'streams'])
    .where('org_id', '=', orgId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
  // Sorted here: PostgreSQL's text order depends on the database's collation, this does not.
  return rows.sort((a, b) => (a.day === b.day ? compare(a.key_id, b.key_id) : compare(a.day, b.day)));
}

/** Usage is listed newest day first, then by key id: `[day, key_id]` of the last row served. */
export type UsageListKey = readonly [day: string, key_id: string];

export type UsageEntry = UsageDay & { key_name: string; environment: Environment };

/**
 * One page of the organisation's flushed usage from `from` to `to` (UTC days, both included),
 * optionally of one key, with each key's name and environment.
 */
export async function pageUsage(
  database: Database,
  orgId: string,
  query: { from: string; to: string; keyId?: string | undefined; limit: number; after?: UsageListKey | undefined },
): Promise<{ data: UsageEntry[]; next: UsageListKey | null }> {
  const { from, to, keyId, after } = query;
  if (!DAY_PATTERN.test(from) || !DAY_PATTERN.test(to)) throw new RangeError(`days are YYYY-MM-DD (got ${from} and ${to})`);
  let select = database.db
    .selectFrom('usage_daily')
    .innerJoin('api_keys', 'api_keys.id', 'usage_daily.key_id')
    .select(['usage_daily.day', 'usage_daily.key_id', 'api_keys.name as key_name', 'api_keys.environment', 'usage_daily.requests', 'usage_daily.streams'])
    .where('usage_daily.org_id', '=', orgId)
    .where('usage_daily.day', '>=', from)
    .where('usage_daily.day', '<=', to);
  if (keyId !== undefined) select = select.where('usage_daily.key_id', '=', keyId);
  if (after) {
    select = select.where((eb) => eb.or([
      eb('usage_daily.day', '<', after[0]),
      eb.and([eb('usage_daily.day', '=', after[0]), eb('usage_daily.key_id', '>', after[1])]),
    ]));
  }
  // Key ids order by the database's collation, which may differ between back ends; the cursor
  // compares in the same collation, so pages neither skip nor repeat rows.
  const rows = await select.orderBy('usage_daily.day', 'desc').orderBy('usage_daily.key_id').limit(query.limit + 1).execute();
  const data = rows.slice(0, query.limit);
  const last = data.at(-1);
  return { data, next: rows.length > query.limit && last ? [last.day, last.key_id] : null };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
