// Arrival slots: one per booking in an airport's UTC hour, up to the hour's capacity (the admin
// override, else the capacity derived from the runways). An organisation holds at most its fair
// share of an hour's capacity (`fairShareSlots`), so that no one organisation can book them all.
//
// No overbooking, whatever the concurrency: a booking or cancellation first writes the airport-hour
// row of `slot_hours` (an upsert), then reads the count it holds and changes it. On PostgreSQL
// that write locks the row until commit, so a second transaction for the same airport-hour waits
// and then sees the first one's count. On SQLite a write as the transaction's first statement takes
// the database write lock at once (as BEGIN IMMEDIATE would), waiting for other connections up to
// the busy timeout, so no transaction can act on a count another has since changed. The same lock
// covers the count of the organisation's own bookings for its fair share.
//
// Idempotency keys are per organisation: the same key returns the booking it first made. Every
// booking, cancellation and capacity change is announced (`onChanged`), so that what depends on an
// airport's slots can look again.

import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database, Tables } from '../../platform/db/database.ts';
import type { SlotBookingRow } from './slots.table.ts';

export const MS_PER_HOUR = 3_600_000;

export type SlotBooking = SlotBookingRow;

export interface SlotAvailability {
  icao: string;
  hour: string;
  capacity: number;
  /** `override`: set by an admin; `derived`: from the runways. */
  capacity_source: 'override' | 'derived';
  booked: number;
  remaining: number;
  available: boolean;
}

export interface BookRequest {
  icao: string;
  etaMs: number;
  orgId: string;
  registration: string;
  idempotencyKey: string;
  /** The capacity derived from the runways (deriveCapacity), used unless an admin overrides it. */
  derivedCapacity: number;
  /** The fraction of an hour's capacity the organisation may hold (see fairShareSlots); null: no limit (operators). */
  fairShare: number | null;
}

export type BookResult =
  | { status: 'created'; booking: SlotBooking; availability: SlotAvailability }
  /** The idempotency key was used before for this slot: the booking it made, as it is now. */
  | { status: 'existing'; booking: SlotBooking }
  /** The idempotency key was used before for another airport, hour or registration. */
  | { status: 'key_reused'; booking: SlotBooking }
  | { status: 'full'; availability: SlotAvailability }
  /** The organisation already holds `held` of the `allowed` places its fair share gives it in the hour. */
  | { status: 'over_share'; availability: SlotAvailability; held: number; allowed: number };

export type CancelResult = { status: 'cancelled'; booking: SlotBooking } | { status: 'not_found' };

/** The start of the UTC hour containing `ms`, ISO 8601. */
export function slotHour(ms: number): string {
  return new Date(Math.floor(ms / MS_PER_HOUR) * MS_PER_HOUR).toISOString();
}

/**
 * How many places of an hour of `capacity` a fair share (a fraction from 0 to 1) allows: rounded
 * down, but at least one, so that every organisation can book in an hour with a place left.
 */
export function fairShareSlots(capacity: number, share: number): number {
  // The small term keeps 0.29 × 100 at 29, not the 28.999… floating point makes of it.
  return Math.max(1, Math.floor(capacity * share + 1e-9));
}

type Executor = Database['db'] | Transaction<Tables>;

/**
 * An airport's slot hours read at once: the admin's capacity and each hour's bookings, with every
 * standing booking's organisation and registration (how a watcher tells whether its arrival holds one).
 */
export interface SlotHours {
  icao: string;
  override: number | null;
  booked: ReadonlyMap<string, number>;
  bookings: readonly Pick<SlotBooking, 'hour' | 'org_id' | 'registration'>[];
}

/** The availability of one hour of `hours`, reading nothing. */
export function availabilityIn(hours: SlotHours, hourMs: number, derivedCapacity: number): SlotAvailability {
  const hour = slotHour(hourMs);
  const capacity = hours.override ?? Math.max(0, Math.floor(derivedCapacity));
  return withBooked({ icao: hours.icao, hour, capacity, capacity_source: hours.override === null ? 'derived' : 'override', booked: 0, remaining: 0, available: false }, hours.booked.get(hour) ?? 0);
}

/** Rows read at once by `hours`, so a look-up of many hours stays within the back ends' parameter limits. */
const HOURS_CHUNK = 500;

export class SlotBook {
  readonly #database: Database;
  readonly #clock: () => number;
  readonly #onChanged: (icao: string) => Promise<void>;

  /** `onChanged`: called after a booking, a cancellation or a capacity change at the airport. */
  constructor(database: Database, clock: () => number = Date.now, onChanged: (icao: string) => Promise<void> = async () => {}) {
    this.#database = database;
    this.#clock = clock;
    this.#onChanged = onChanged;
  }

  /** The airport's capacity override and the bookings of each of the hours containing `hourMs`, in three queries at most per 500 hours. */
  async hours(icao: string, hourMs: readonly number[]): Promise<SlotHours> {
    const code = normaliseIcao(icao);
    const wanted = [...new Set(hourMs.map(slotHour))];
    const db = this.#database.db;
    const override = await db.selectFrom('slot_capacity_overrides').select('arrivals_per_hour').where('icao', '=', code).executeTakeFirst();
    const booked = new Map<string, number>();
    const bookings: SlotHours['bookings'][number][] = [];
    for (let i = 0; i < wanted.length; i += HOURS_CHUNK) {
      const chunk = wanted.slice(i, i + HOURS_CHUNK);
      for (const row of await db.selectFrom('slot_hours').select(['hour', 'booked']).where('icao', '=', code).where('hour', 'in', chunk).execute()) booked.set(row.hour, row.booked);
      bookings.push(...await db.selectFrom('slot_bookings').select(['hour', 'org_id', 'registration'])
        .where('icao', '=', code).where('hour', 'in', chunk).where('cancelled_at', 'is', null).execute());
    }
    return { icao: code, override: override?.arrivals_per_hour ?? null, booked, bookings };
  }

  async availability(icao: string, hourMs: number, derivedCapacity: number): Promise<SlotAvailability> {
    const code = normaliseIcao(icao);
    const hour = slotHour(hourMs);
    const row = await this.#database.db.selectFrom('slot_hours').select('booked').where('icao', '=', code).where('hour', '=', hour).executeTakeFirst();
    return this.#availability(this.#database.db, code, hour, row?.booked ?? 0, derivedCapacity);
  }

  async book(request: BookRequest): Promise<BookResult> {
    const icao = normaliseIcao(request.icao);
    const hour = slotHour(request.etaMs);
    const registration = request.registration.trim().toUpperCase();
    const result = await this.#book(request, icao, hour, registration);
    if (result.status === 'created') await this.#onChanged(icao);
    return result;
  }

  async #book(request: BookRequest, icao: string, hour: string, registration: string): Promise<BookResult> {
    const wanted = { icao, hour, registration };
    try {
      return await this.#database.db.transaction().execute(async (trx): Promise<BookResult> => {
        const { booked } = await trx
          .insertInto('slot_hours')
          .values({ icao, hour, booked: 0 })
          .onConflict((oc) => oc.columns(['icao', 'hour']).doUpdateSet({ booked: (eb) => eb.ref('slot_hours.booked') }))
          .returning('booked')
          .executeTakeFirstOrThrow();
        const previous = await findByKey(trx, request.orgId, request.idempotencyKey);
        if (previous !== undefined) return replay(previous, wanted);

        const availability = await this.#availability(trx, icao, hour, booked, request.derivedCapacity);
        if (!availability.available) return { status: 'full', availability };
        if (request.fairShare !== null) {
          const allowed = fairShareSlots(availability.capacity, request.fairShare);
          const held = await heldBy(trx, icao, hour, request.orgId);
          if (held >= allowed) return { status: 'over_share', availability, held, allowed };
        }
        const booking: SlotBooking = {
          id: randomUUID(),
          icao,
          hour,
          org_id: request.orgId,
          registration,
          idempotency_key: request.idempotencyKey,
          created_at: new Date(this.#clock()).toISOString(),
          cancelled_at: null,
        };
        await trx.insertInto('slot_bookings').values(booking).execute();
        await trx.updateTable('slot_hours').set({ booked: booked + 1 }).where('icao', '=', icao).where('hour', '=', hour).execute();
        return { status: 'created', booking, availability: withBooked(availability, booked + 1) };
      });
    } catch (error) {
      // The same key for another airport-hour, booked at the same moment: the unique index let
      // one through; answer with it.
      const previous = await findByKey(this.#database.db, request.orgId, request.idempotencyKey);
      if (previous === undefined) throw error;
      return replay(previous, wanted);
    }
  }

  /** Cancelling again, or a booking that is already cancelled, returns it unchanged. */
  /** Cancels the organisation's booking `id` at the airport; a booking elsewhere is not found. */
  async cancel(icao: string, id: string, orgId: string): Promise<CancelResult> {
    const code = normaliseIcao(icao);
    const cancelledAt = new Date(this.#clock()).toISOString();
    let cancelledNow = false;
    const result = await this.#database.db.transaction().execute(async (trx): Promise<CancelResult> => {
      const cancelled = await trx
        .updateTable('slot_bookings')
        .set({ cancelled_at: cancelledAt })
        .where('id', '=', id)
        .where('icao', '=', code)
        .where('org_id', '=', orgId)
        .where('cancelled_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (cancelled === undefined) {
        const booking = await trx.selectFrom('slot_bookings').selectAll().where('id', '=', id).where('icao', '=', code).where('org_id', '=', orgId).executeTakeFirst();
        return booking === undefined ? { status: 'not_found' } : { status: 'cancelled', booking };
      }
      await trx
        .updateTable('slot_hours')
        .set((eb) => ({ booked: eb('booked', '-', 1) }))
        .where('icao', '=', cancelled.icao)
        .where('hour', '=', cancelled.hour)
        .execute();
      cancelledNow = true;
      return { status: 'cancelled', booking: cancelled };
    });
    if (cancelledNow) await this.#onChanged(code);
    return result;
  }

  /** An admin's hourly capacity for the airport; null removes the override. */
  async setCapacity(icao: string, capacity: number | null): Promise<void> {
    const code = normaliseIcao(icao);
    if (capacity === null) {
      await this.#database.db.deleteFrom('slot_capacity_overrides').where('icao', '=', code).execute();
      await this.#onChanged(code);
      return;
    }
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`capacity must be a whole number of arrivals per hour, 0 or more (got ${capacity})`);
    const updatedAt = new Date(this.#clock()).toISOString();
    await this.#database.db
      .insertInto('slot_capacity_overrides')
      .values({ icao: code, arrivals_per_hour: capacity, updated_at: updatedAt })
      .onConflict((oc) => oc.column('icao').doUpdateSet({ arrivals_per_hour: capacity, updated_at: updatedAt }))
      .execute();
    await this.#onChanged(code);
  }

  async #availability(db: Executor, icao: string, hour: string, booked: number, derivedCapacity: number): Promise<SlotAvailability> {
    const override = await db.selectFrom('slot_capacity_overrides').select('arrivals_per_hour').where('icao', '=', icao).executeTakeFirst();
    return availabilityIn({ icao, override: override?.arrivals_per_hour ?? null, booked: new Map([[hour, booked]]), bookings: [] }, Date.parse(hour), derivedCapacity);
  }
}

function withBooked(availability: SlotAvailability, booked: number): SlotAvailability {
  const remaining = Math.max(0, availability.capacity - booked);
  return { ...availability, booked, remaining, available: remaining > 0 };
}

/** The organisation's bookings that stand in the airport-hour. */
async function heldBy(db: Executor, icao: string, hour: string, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('slot_bookings')
    .select((eb) => eb.fn.countAll<number>().as('held'))
    .where('icao', '=', icao)
    .where('hour', '=', hour)
    .where('org_id', '=', orgId)
    .where('cancelled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.held);
}

function findByKey(db: Executor, orgId: string, key: string): Promise<SlotBooking | undefined> {
  return db.selectFrom('slot_bookings').selectAll().where('org_id', '=', orgId).where('idempotency_key', '=', key).executeTakeFirst();
}

function replay(previous: SlotBooking, wanted: Pick<SlotBooking, 'icao' | 'hour' | 'registration'>): BookResult {
  const same = previous.icao === wanted.icao && previous.hour === wanted.hour && previous.registration === wanted.registration;
  return { status: same ? 'existing' : 'key_reused', booking: previous };
}

function normaliseIcao(icao: string): string {
  return icao.trim().toUpperCase();
}
