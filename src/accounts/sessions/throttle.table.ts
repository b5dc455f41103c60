// The rows of `throttle_events` (0008_users): one per counted event.

export interface ThrottleEventRow {
  /** SHA-256 of what is throttled (`sign-in-account:<e-mail>`, `sign-up-address:<ip>`...), hex. */
  subject: string;
  at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    throttle_events: ThrottleEventRow;
  }
}
