// Users and what hangs off them: memberships of organisations, e-mail verification links,
// dashboard sessions, throttling events and identity checks. Times are ISO 8601 UTC text with
// milliseconds, as in `0006_accounts`; lists and objects are JSON text. Secrets (session ids,
// verification tokens) are stored only as SHA-256 hashes, identity documents only sealed.
import { sql } from 'kysely';
import type { VehicleType } from '../../common/vehicle-types.ts';
import type { Migration } from '../platform/db/migrate.ts';
import type { DocumentType } from './identity/index.ts';

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const IDENTITY_STATUSES = ['pending', 'manual_review', 'verified', 'rejected'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

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

export interface MembershipRow {
  org_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}

export interface EmailVerificationRow {
  /** SHA-256 of the token in the link, hex. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SessionRow {
  /** `ses_` and 16 base62 characters: names the session in lists, not secret. */
  id: string;
  /** SHA-256 of the cookie value, hex. */
  secret_hash: string;
  user_id: string;
  created_at: string;
  /** Written at most once a minute. */
  last_seen_at: string;
  /** The absolute end, whatever the activity. */
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  address: string | null;
}

export interface ThrottleEventRow {
  /** SHA-256 of what is throttled (`sign-in-account:<e-mail>`, `sign-up-address:<ip>`...), hex. */
  subject: string;
  at: string;
}

export interface IdentityCheckRow {
  /** `idc_` and 16 base62 characters. */
  id: string;
  user_id: string;
  status: IdentityStatus;
  /** Envelope token of the uploaded bytes; null once the check is settled. */
  document_sealed: string | null;
  document_type: DocumentType;
  document_sha256: string;
  /** JSON array of `{ code, field?, message }`. */
  reasons: string;
  /** JSON object of the MRZ summary (no name, no birth date), or null. */
  document_summary: string | null;
  created_at: string;
  /** When a worker took the check; a claim older than the job timeout may be taken again. */
  started_at: string | null;
  checked_at: string | null;
  settled_at: string | null;
  settled_by: 'automatic' | 'operator' | null;
}

declare module '../platform/db/database.ts' {
  interface Tables {
    users: UserRow;
    memberships: MembershipRow;
    email_verifications: EmailVerificationRow;
    sessions: SessionRow;
    throttle_events: ThrottleEventRow;
    identity_checks: IdentityCheckRow;
  }
}

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const usersMigration: Migration = {
  name: '0008_users',
  async up(db) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_key', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('duplicate_of', 'text', (c) => c.references('users.id'))
      .addColumn('email_verified_at', 'text')
      .addColumn('vehicle_category', 'text', (c) => c.check(sql`vehicle_category in ('aircraft', 'helicopter', 'vessel')`))
      .addColumn('country', 'text')
      .addColumn('default_feeds', 'text')
      .addColumn('password_changed_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // One account per address; duplicate sign-ups (which never own it) are outside the index.
    await db.schema.createIndex('users_email_key').on('users').column('email_key').unique()
      .where(sql.ref('duplicate_of'), 'is', null).execute();

    await db.schema
      .createTable('memberships')
      .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in (${list(ROLES)})`))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
      .execute();
    await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

    await db.schema
      .createTable('email_verifications')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('email_verifications_user').on('email_verifications').column('user_id').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('address', 'text')
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('throttle_events')
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('throttle_events_subject').on('throttle_events').columns(['subject', 'at']).execute();
    await db.schema.createIndex('throttle_events_at').on('throttle_events').column('at').execute();

    await db.schema
      .createTable('identity_checks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in (${list(IDENTITY_STATUSES)})`))
      .addColumn('document_sealed', 'text')
      .addColumn('document_type', 'text', (c) => c.notNull())
      .addColumn('document_sha256', 'text', (c) => c.notNull())
      .addColumn('reasons', 'text', (c) => c.notNull())
      .addColumn('document_summary', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('checked_at', 'text')
      .addColumn('settled_at', 'text')
      .addColumn('settled_by', 'text', (c) => c.check(sql`settled_by in ('automatic', 'operator')`))
      .execute();
    await db.schema.createIndex('identity_checks_user').on('identity_checks').columns(['user_id', 'created_at']).execute();
    // A user has at most one check that is not rejected: a new upload only after a rejection.
    await db.schema.createIndex('identity_checks_open').on('identity_checks').column('user_id').unique()
      .where(sql.ref('status'), '<>', 'rejected').execute();
    await db.schema.createIndex('identity_checks_status').on('identity_checks').column('status').execute();
  },
};
