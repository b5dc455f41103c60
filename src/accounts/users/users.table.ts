// The rows of `users` (0008_users). Lists are JSON text.
import type { VehicleType } from '../../../common/vehicle-types.ts';

export interface UserRow {
  /** `usr_` and 16 base62 characters. */
  id: string;
  /** As given, trimmed, the domain lower-cased: where mail goes. */
  email: string;
  /** The address fully lower-cased: what is unique and what sign-in looks up. */
  email_key: string;
  full_name: string;
  /** PHC string of an argon2id hash. */
  password_hash: string;
  /**
   * Set when someone signed up with an address that already had an account: the row answers like
   * a new account but can never verify its address or be signed into (see users.ts).
   */
  duplicate_of: string | null;
  email_verified_at: string | null;
  vehicle_category: VehicleType | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** JSON array of feed names, set with the vehicle category. */
  default_feeds: string | null;
  password_changed_at: string;
  created_at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    users: UserRow;
  }
}
