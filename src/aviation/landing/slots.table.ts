// The rows of the slot tables (0004_slots). Times are ISO 8601 UTC text with milliseconds.

export interface SlotBookingRow {
  /** Random UUID. */
  id: string;
  icao: string;
  /** The UTC hour booked, ISO 8601 ("2025-06-21T14:00:00.000Z"). */
  hour: string;
  /** The organisation that booked, as the accounts feature names it. */
  org_id: string;
  /** Upper case, as given. */
  registration: string;
  /** Unique per organisation. */
  idempotency_key: string;
  created_at: string;
  /** null while the booking stands. */
  cancelled_at: string | null;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    slot_capacity_overrides: { icao: string; arrivals_per_hour: number; updated_at: string };
    /** Active bookings per airport-hour; the row every booking change locks first. */
    slot_hours: { icao: string; hour: string; booked: number };
    slot_bookings: SlotBookingRow;
  }
}
