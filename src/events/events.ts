// Events: what the rules of the intelligence engine raise about a subject (an arrival, a vessel, an
// airport...) for one organisation. An event opens, may change severity, summary or data while
// open, may be acknowledged, and clears. Open events are state kept in storage, so a restart
// neither loses nor raises them again, and one open event per kind and subject exists per
// organisation however many instances evaluate the same input. Each transition reports what
// happened, and the real ones (not a repeat) are written to the change log `event_changes` in the
// transition's transaction and published on `events.changes` once, after it has committed, with
// their number in the log: a stream resumes from that number exactly. Work that must happen exactly
// when a transition does (an outbox row) joins the transition's transaction through `onEventTransition`.
import { sql, type Kysely } from 'kysely';
import { topic, type Bus } from '../platform/bus/index.ts';
import type { Database, Tables } from '../platform/db/database.ts';
import type { Principal } from '../platform/http/auth.ts';
import { newId } from '../platform/ids.ts';
import type { EventsTable } from './events.table.ts';

export const EVENT_KINDS = [
  'landing.safety_score_below', 'landing.crosswind_above', 'landing.wind_shear_at_least', 'landing.visibility_below',
  'landing.below_minima', 'landing.runway_changed', 'landing.slot_unavailable', 'airport.status_changed',
  'airport.notam_issued', 'vessel.port_arrival', 'vessel.port_departure', 'vessel.zone_entered', 'vessel.zone_exited',
  'vessel.ais_gap', 'vessel.eta_delayed', 'vessel.voyage_changed', 'port.weather_hold', 'vessel.tide_restricted',
  'vessel.encounter', 'feed.stale',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const EVENT_STATES = ['open', 'cleared'] as const;
export type EventState = (typeof EVENT_STATES)[number];

/** In rising order: an update to a later one is an escalation. */
export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** What an event is about: `type` and `id` identify it; the rest says what it relates to. */
export interface EventSubject {
  type: string;
  id: string;
  vehicle_id?: string;
  arrival_id?: string;
  mmsi?: number;
  icao?: string;
  port_id?: string;
  zone_id?: string;
}

export interface LamisEvent {
  id: string;
  kind: EventKind;
  state: EventState;
  severity: Severity;
  subject: EventSubject;
  opened_at: string;
  cleared_at: string | null;
  acknowledged_at: string | null;
  /** One sentence a person reads. */
  summary: string;
  /** The value, the threshold and the inputs that decided it. */
  data: Record<string, unknown>;
}

/** What a rule raises: the event's content, without the state the store keeps. */
export interface NewEvent {
  kind: EventKind;
  severity: Severity;
  subject: EventSubject;
  summary: string;
  data: Record<string, unknown>;
}

export type EventChanges = Partial<Pick<NewEvent, 'severity' | 'summary' | 'data'>>;

/**
 * What a transition did. `opened`, `escalated`, `updated`, `cleared` and `acknowledged` changed the
 * event and are published; the others found it so already and change nothing.
 */
export type Change =
  | 'opened' | 'already_open'
  | 'escalated' | 'updated' | 'unchanged'
  | 'cleared' | 'already_cleared'
  | 'acknowledged' | 'already_acknowledged';

/** The changes a transition makes; the others are repeats. */
const REAL_CHANGES: ReadonlySet<Change> = new Set(['opened', 'escalated', 'updated', 'cleared', 'acknowledged']);

const isLogged = (made: Transition | EventChange): made is EventChange => 'seq' in made;

export interface Transition {
  change: Change;
  event: LamisEvent;
}

/** A real transition, as `events.changes` carries it. */
export interface EventChange extends Transition {
  org_id: string;
  /** Its number in the change log: rises with every change, in the order they commit. */
  seq: number;
}

/** A change of the log as a resume replays it: the number of the event's latest change, and the event as it is now. */
export interface LoggedChange {
  seq: number;
  event: LamisEvent;
}

/** Where an event's changes start in the log: none when it is not the organisation's, `unlogged` when none of its changes is in the log. */
export type LatestChange = { seq: number } | 'unlogged' | null;

/** Every real transition of every organisation's events, once each. */
export const eventChanges = topic<EventChange>('events.changes');

/**
 * Runs in the transaction of a real transition, with its change: whatever it writes through `trx`
 * commits with the transition, and when it throws, neither does.
 */
export type TransitionHook = (trx: Kysely<Tables>, change: EventChange) => Promise<void>;

// By storage rather than by store: every EventStore on the storage (each feature makes its own)
// runs the hooks installed for it.
const transitionHooks = new WeakMap<Database, Set<TransitionHook>>();

/** Runs `hook` in every real transition made on this storage from now on; the answer removes it. */
export function onEventTransition(database: Database, hook: TransitionHook): () => void {
  let hooks = transitionHooks.get(database);
  if (!hooks) transitionHooks.set(database, (hooks = new Set()));
  hooks.add(hook);
  return () => hooks.delete(hook);
}

// SQLite has one writer at a time, and node:sqlite waits for it by blocking the thread: a second
// handle on the same file in this process (a second instance in a test) would wait there for a
// transaction whose commit could then never run. So on SQLite the transitions' transactions of
// this process run one at a time per file; other processes wait in SQLite itself.
const sqliteTransitions = new Map<string, Promise<void>>();

function oneAtATime<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.dialect !== 'sqlite') return work();
  const run = (sqliteTransitions.get(database.location) ?? Promise.resolve()).then(work);
  const settled = run.then(() => {}, () => {});
  sqliteTransitions.set(database.location, settled);
  void settled.then(() => {
    if (sqliteTransitions.get(database.location) === settled) sqliteTransitions.delete(database.location);
  });
  return run;
}

/** Whose events a caller sees: its organisation's, or for an API key outside any its own (an operator key acts as its own owner). */
export const ownerOf = (principal: Principal): string => principal.organisation_id ?? principal.key_id;

/** Events read at once when replaying changes. */
const CHANGES_PAGE = 100;
/** Events deleted in one transaction of a prune: a page holds the writers back briefly. */
const PRUNE_PAGE = 500;
/** Subjects looked up at once, within the back ends' parameter limits. */
const SUBJECTS_CHUNK = 500;

/** One open event per key and organisation: the kind and the subject's identity. */
export const dedupeKey = (kind: EventKind, subject: EventSubject) => `${kind}|${subject.type}|${subject.id}`;

/** Where a page continues: after the event with this opening time and id, newest first. */
export type EventCursor = readonly [openedAt: string, id: string];

export interface EventFilter {
  kind?: EventKind;
  state?: EventState;
  severity?: Severity;
  subject_type?: string;
  subject_id?: string;
  /** Events opened at or after this time (ISO 8601). */
  since?: string;
  limit: number;
  after?: EventCursor;
}

function eventOf(row: EventsTable): LamisEvent {
  return {
    id: row.id,
    kind: row.kind as EventKind,
    state: row.state as EventState,
    severity: row.severity as Severity,
    subject: JSON.parse(row.subject) as EventSubject,
    opened_at: row.opened_at,
    cleared_at: row.cleared_at,
    acknowledged_at: row.acknowledged_at,
    summary: row.summary,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}

/** A store working inside `batch`: its transaction, and the changes to publish once it commits. */
interface Batch {
  trx: Kysely<Tables>;
  pending: EventChange[];
}

export class EventStore {
  readonly #database: Database;
  readonly #bus: Bus;
  readonly #now: () => Date;
  readonly #batch: Batch | null;
  /** Where reads and writes go: the storage, or the batch's transaction. */
  readonly #db: Kysely<Tables>;

  constructor(database: Database, bus: Bus, now: () => Date = () => new Date(), batch: Batch | null = null) {
    this.#database = database;
    this.#bus = bus;
    this.#now = now;
    this.#batch = batch;
    this.#db = batch?.trx ?? database.db;
  }

  /**
   * Runs `work` with a store whose transitions share one transaction, and publishes their changes
   * once it commits (none when it fails): a rule with many events to write writes them together.
   */
  async batch<T>(work: (store: EventStore) => Promise<T>): Promise<T> {
    const pending: EventChange[] = [];
    const result = await oneAtATime(this.#database, () => this.#database.db.transaction().execute((trx) => work(new EventStore(this.#database, this.#bus, this.#now, { trx, pending }))));
    for (const change of pending) await this.#bus.publish(eventChanges, change);
    return result;
  }

  /**
   * Opens the event, or answers the one already open for its kind and subject (`already_open`,
   * unchanged): whichever instance inserts first wins, the others find its event. `observedAt`: the
   * time of the observation that raised it. An instance that comes to it late, after another has
   * opened and cleared the event on a later observation (the vessel in and out of a zone again),
   * is answered with that event (`already_cleared`) rather than opening it a second time.
   */
  async open(orgId: string, event: NewEvent, observedAt?: string): Promise<Transition> {
    const now = this.#now().toISOString();
    const key = dedupeKey(event.kind, event.subject);
    const row: EventsTable = {
      id: newId('evt'), org_id: orgId, kind: event.kind, state: 'open', severity: event.severity,
      subject_type: event.subject.type, subject_id: event.subject.id, subject: JSON.stringify(event.subject),
      dedupe_key: key, summary: event.summary, data: JSON.stringify(event.data),
      opened_at: now, updated_at: now, cleared_at: null, acknowledged_at: null, observed_at: observedAt ?? null,
    };
    // The literal predicate names the partial index on both back ends (a parameter would not).
    const opened = await this.#transition(orgId, async (db) => {
      if (observedAt !== undefined) {
        const superseded = await this.#clearedSince(db, orgId, event, observedAt);
        if (superseded) return { change: 'already_cleared', event: superseded };
      }
      const inserted = await db.insertInto('events').values(row)
        .onConflict((oc) => oc.columns(['org_id', 'dedupe_key']).where('state', '=', sql.lit('open')).doNothing())
        .returningAll().executeTakeFirst();
      return inserted && { change: 'opened', event: eventOf(inserted) };
    });
    if (opened) return opened;
    const existing = await this.findOpen(orgId, event.kind, event.subject);
    // Cleared between the conflict and the look-up: the key is free again.
    return existing ? { change: 'already_open', event: existing } : this.open(orgId, event, observedAt);
  }

  /** The latest event of this kind about this subject when an observation later than `observedAt` cleared it. */
  async #clearedSince(db: Kysely<Tables>, orgId: string, event: NewEvent, observedAt: string): Promise<LamisEvent | undefined> {
    const latest = await db.selectFrom('events').selectAll()
      .where('org_id', '=', orgId).where('subject_type', '=', event.subject.type).where('subject_id', '=', event.subject.id).where('kind', '=', event.kind)
      .orderBy('opened_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    const clearedLater = latest?.state === 'cleared' && latest.observed_at !== null && Date.parse(latest.observed_at) > Date.parse(observedAt);
    return clearedLater ? eventOf(latest) : undefined;
  }

  /**
   * Changes what an open event says; its acknowledgement stays. `escalated` when the severity
   * rises, `already_cleared` for a cleared event (nothing changes), null when there is none.
   * `read`: the event as the caller just read it, which spares reading it again (a rule updating
   * many events it read together); the write still applies to an open event only.
   */
  async update(orgId: string, id: string, changes: EventChanges, read?: LamisEvent): Promise<Transition | null> {
    const before = read?.id === id ? read : await this.get(orgId, id);
    if (before === null) return null;
    if (before.state !== 'open') return { change: 'already_cleared', event: before };
    const next = { severity: changes.severity ?? before.severity, summary: changes.summary ?? before.summary, data: changes.data ?? before.data };
    if (next.severity === before.severity && next.summary === before.summary && JSON.stringify(next.data) === JSON.stringify(before.data)) {
      return { change: 'unchanged', event: before };
    }
    const escalated = SEVERITIES.indexOf(next.severity) > SEVERITIES.indexOf(before.severity);
    const updated = await this.#transition(orgId, async (db) => {
      const row = await db.updateTable('events')
        .set({ severity: next.severity, summary: next.summary, data: JSON.stringify(next.data), updated_at: this.#now().toISOString() })
        .where('org_id', '=', orgId).where('id', '=', id).where('state', '=', 'open')
        .returningAll().executeTakeFirst();
      return row && { change: escalated ? 'escalated' : 'updated', event: eventOf(row) };
    });
    return updated ?? { change: 'already_cleared', event: (await this.get(orgId, id))! };
  }

  /**
   * Clears an open event (`cleared`), once: a cleared one answers `already_cleared`. Null when there
   * is none. `observedAt`: the time of the observation that cleared it; an opening from before it
   * comes too late (see `open`).
   */
  async clear(orgId: string, id: string, observedAt?: string): Promise<Transition | null> {
    const now = this.#now().toISOString();
    const cleared = await this.#transition(orgId, async (db) => {
      const row = await db.updateTable('events')
        .set({ state: 'cleared', cleared_at: now, updated_at: now, ...(observedAt === undefined ? {} : { observed_at: observedAt }) })
        .where('org_id', '=', orgId).where('id', '=', id).where('state', '=', 'open')
        .returningAll().executeTakeFirst();
      return row && { change: 'cleared', event: eventOf(row) };
    });
    if (cleared) return cleared;
    const event = await this.get(orgId, id);
    return event && { change: 'already_cleared', event };
  }

  /** Records the first acknowledgement (`acknowledged`); later ones answer `already_acknowledged`. Null when there is none. */
  async acknowledge(orgId: string, id: string): Promise<Transition | null> {
    const now = this.#now().toISOString();
    const acknowledged = await this.#transition(orgId, async (db) => {
      const row = await db.updateTable('events')
        .set({ acknowledged_at: now, updated_at: now })
        .where('org_id', '=', orgId).where('id', '=', id).where('acknowledged_at', 'is', null)
        .returningAll().executeTakeFirst();
      return row && { change: 'acknowledged', event: eventOf(row) };
    });
    if (acknowledged) return acknowledged;
    const event = await this.get(orgId, id);
    return event && { change: 'already_acknowledged', event };
  }

  /** The organisation's event, or null for a missing one and another organisation's alike. */
  async get(orgId: string, id: string): Promise<LamisEvent | null> {
    const row = await this.#db.selectFrom('events').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    return row ? eventOf(row) : null;
  }

  /** The open event of this kind about this subject, if any. */
  async findOpen(orgId: string, kind: EventKind, subject: EventSubject): Promise<LamisEvent | null> {
    const row = await this.#db.selectFrom('events').selectAll()
      .where('org_id', '=', orgId).where('dedupe_key', '=', dedupeKey(kind, subject)).where('state', '=', 'open')
      .executeTakeFirst();
    return row ? eventOf(row) : null;
  }

  /**
   * The open events of every kind about the subjects of `subjectType` named, in a few queries
   * however many there are: a rule evaluating many subjects at once reads their events once.
   */
  async openAbout(orgId: string, subjectType: string, subjectIds: readonly string[]): Promise<LamisEvent[]> {
    const found: LamisEvent[] = [];
    for (let i = 0; i < subjectIds.length; i += SUBJECTS_CHUNK) {
      const rows = await this.#db.selectFrom('events').selectAll()
        .where('org_id', '=', orgId).where('subject_type', '=', subjectType).where('subject_id', 'in', subjectIds.slice(i, i + SUBJECTS_CHUNK)).where('state', '=', 'open')
        .execute();
      found.push(...rows.map(eventOf));
    }
    return found;
  }

  /** Every organisation's open events of these kinds, with their owner: what a rule takes back at start. */
  async openOfKinds(kinds: readonly EventKind[]): Promise<(LamisEvent & { org_id: string })[]> {
    if (kinds.length === 0) return [];
    const rows = await this.#db.selectFrom('events').selectAll().where('state', '=', 'open').where('kind', 'in', [...kinds]).execute();
    return rows.map((row) => ({ ...eventOf(row), org_id: row.org_id }));
  }

  /** One page of the organisation's events, newest opening first (ties by id). */
  async page(orgId: string, filter: EventFilter): Promise<LamisEvent[]> {
    let query = this.#db.selectFrom('events').selectAll().where('org_id', '=', orgId);
    if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
    if (filter.state !== undefined) query = query.where('state', '=', filter.state);
    if (filter.severity !== undefined) query = query.where('severity', '=', filter.severity);
    if (filter.subject_type !== undefined) query = query.where('subject_type', '=', filter.subject_type);
    if (filter.subject_id !== undefined) query = query.where('subject_id', '=', filter.subject_id);
    if (filter.since !== undefined) query = query.where('opened_at', '>=', filter.since);
    if (filter.after !== undefined) {
      const [openedAt, id] = filter.after;
      query = query.where((eb) => eb.or([eb('opened_at', '<', openedAt), eb.and([eb('opened_at', '=', openedAt), eb('id', '<', id)])]));
    }
    const rows = await query.orderBy('opened_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
    return rows.map(eventOf);
  }

  /** The number of the event's latest change in the log, for a resume that names the event rather than a change. */
  async latestChange(orgId: string, id: string): Promise<LatestChange> {
    const event = await this.#db.selectFrom('events').select('id').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    if (!event) return null;
    const latest = await this.#db.selectFrom('event_changes').select((eb) => eb.fn.max('seq').as('seq'))
      .where('org_id', '=', orgId).where('event_id', '=', id).executeTakeFirst();
    return latest?.seq == null ? 'unlogged' : { seq: Number(latest.seq) };
  }

  /**
   * The organisation's events changed after the change numbered `after`, each once in its current
   * state with the number of its latest change, oldest latest change first, read a page at a time.
   * Each page reads the log and the events in one statement, so an event and its number agree; an
   * event that changes again while the pages are read comes again later, with its new number.
   */
  changesAfter(orgId: string, after: number): AsyncIterable<LoggedChange> {
    const db = this.#db;
    return (async function* () {
      let from = after;
      for (;;) {
        const rows = await db.selectFrom('events')
          .innerJoin(
            (eb) => eb.selectFrom('event_changes').select(['event_id', (inner) => inner.fn.max('seq').as('last_seq')])
              .where('org_id', '=', orgId).where('seq', '>', from).groupBy('event_id').as('changed'),
            (join) => join.onRef('changed.event_id', '=', 'events.id'),
          )
          .selectAll('events').select('changed.last_seq')
          .where('events.org_id', '=', orgId)
          .orderBy('changed.last_seq').limit(CHANGES_PAGE).execute();
        yield* rows.map((row) => ({ seq: Number(row.last_seq), event: eventOf(row) }));
        if (rows.length < CHANGES_PAGE) return;
        from = Number(rows.at(-1)!.last_seq);
      }
    })();
  }

  /** The number of the organisation's last change that retention took out of the log; 0 when none was. */
  async logHorizon(orgId: string): Promise<number> {
    const row = await this.#db.selectFrom('event_log_horizons').select('pruned_through').where('org_id', '=', orgId).executeTakeFirst();
    return row === undefined ? 0 : Number(row.pruned_through);
  }

  /**
   * Deletes what retention lets go: every event cleared before `before`, with its changes, a page
   * at a time, each page in a transaction of its own that moves its organisations' horizons past
   * those changes (a stream resuming from before one could miss a clearing, so it is refused); then
   * each kept event's changes from before `before` that a later change of the same event follows (a
   * resume replays an event's latest change only, so those are never read again).
   */
  async prune(before: Date): Promise<{ events: number; changes: number }> {
    const cutoff = before.toISOString();
    const latest = sql.raw(this.#database.dialect === 'postgres' ? 'greatest' : 'max');
    let events = 0;
    let changes = 0;
    for (;;) {
      const page = await this.#db.selectFrom('events').select('id').where('state', '=', 'cleared').where('cleared_at', '<', cutoff)
        .orderBy('cleared_at').limit(PRUNE_PAGE).execute();
      if (page.length === 0) break;
      const ids = page.map((row) => row.id);
      changes += await oneAtATime(this.#database, () => this.#database.db.transaction().execute(async (trx) => {
        const horizons = await trx.selectFrom('event_changes').select(['org_id', (eb) => eb.fn.max('seq').as('seq')])
          .where('event_id', 'in', ids).groupBy('org_id').execute();
        for (const { org_id, seq } of horizons) {
          await trx.insertInto('event_log_horizons').values({ org_id, pruned_through: Number(seq) })
            .onConflict((oc) => oc.column('org_id').doUpdateSet({ pruned_through: sql<number>`${latest}(event_log_horizons.pruned_through, excluded.pruned_through)` }))
            .execute();
        }
        const deleted = await trx.deleteFrom('event_changes').where('event_id', 'in', ids).executeTakeFirst();
        await trx.deleteFrom('events').where('id', 'in', ids).execute();
        return Number(deleted.numDeletedRows);
      }));
      events += page.length;
    }
    const superseded = await oneAtATime(this.#database, () => this.#db.deleteFrom('event_changes').where('changed_at', '<', cutoff)
      .where(({ exists, selectFrom }) => exists(selectFrom('event_changes as later').select('later.seq')
        .whereRef('later.event_id', '=', 'event_changes.event_id').whereRef('later.seq', '>', 'event_changes.seq')))
      .executeTakeFirst());
    return { events, changes: changes + Number(superseded.numDeletedRows) };
  }

  /**
   * Makes a transition with `write`, which answers it, or undefined when it changed nothing. A real
   * one is logged and runs the storage's hooks in its transaction (the batch's, inside `batch`) and
   * is announced once that has committed; a repeat `write` found is answered as it is.
   */
  async #transition(orgId: string, write: (db: Kysely<Tables>) => Promise<Transition | undefined>): Promise<Transition | undefined> {
    const hooks = [...(transitionHooks.get(this.#database) ?? [])];
    const writeAndLog = async (db: Kysely<Tables>): Promise<Transition | EventChange | undefined> => {
      await this.#lockLog(db);
      const made = await write(db);
      if (!made || !REAL_CHANGES.has(made.change)) return made;
      const logged = await db.insertInto('event_changes')
        .values({ org_id: orgId, event_id: made.event.id, change: made.change, changed_at: this.#now().toISOString() })
        .returning('seq').executeTakeFirstOrThrow();
      const change: EventChange = { org_id: orgId, seq: Number(logged.seq), ...made };
      for (const hook of hooks) await hook(db, change);
      return change;
    };
    const made = this.#batch !== null
      ? await writeAndLog(this.#batch.trx)
      : await oneAtATime(this.#database, () => this.#db.transaction().execute(writeAndLog));
    if (!made || !isLogged(made)) return made;
    if (this.#batch !== null) this.#batch.pending.push(made);
    else await this.#bus.publish(eventChanges, made);
    return { change: made.change, event: made.event };
  }

  /**
   * Before a transition writes: its change must commit in the order of its number, or a client
   * resuming after a later number would miss it. SQLite has one writer at a time already; on
   * PostgreSQL, transitions take this lock, held until their transaction ends, so one numbers and
   * commits its changes at a time (taken again inside a batch, it is held already). A lock per
   * schema: services sharing a database in schemas of their own have change logs of their own.
   */
  async #lockLog(db: Kysely<Tables>): Promise<void> {
    if (this.#database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.event_changes'))`.execute(db);
  }
}
