// Sign-ups that never verified their e-mail address are deleted once they are older than
// `LAMIS_UNVERIFIED_ACCOUNT_DAYS` (7 by default): abandoned sign-ups, sign-ups with somebody
// else's address, and the shadow accounts of duplicate sign-ups (users.ts), which can never verify
// and so always go this way. A sweep runs at start and then every hour on every instance; two
// instances sweeping at once delete each account once, the other finds nothing left.
//
// With an account go its sessions, e-mail verification and password-reset links, identity checks
// and the duplicate sign-ups made with its address, however recent (they point at it). Its
// organisation goes too when nothing else is in it: no other member, never an API key, and an
// audit log holding only the account's own sign-up (its creation, the owner's membership) and
// password resets. Otherwise the organisation stays, without the account's membership, and its
// audit log records `member.removed` by `system`. Throttle counts are kept as hashes and expire on
// their own within a day.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../platform/db/database.ts';
import { appendAudit, type AuditAction } from '../audit/audit.ts';

export const CLEANUP_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;
const BATCH = 100;
/** What an organisation's audit log may hold and still be deleted with its only member. */
const SIGN_UP_TRAIL: readonly AuditAction[] = ['org.created', 'member.added', 'password.reset'];

export interface SweepResult {
  /** Accounts deleted, duplicate sign-ups included. */
  users: number;
  organisations: number;
}

export interface UnverifiedAccountCleanupOptions {
  /** LAMIS_UNVERIFIED_ACCOUNT_DAYS. */
  maxAgeDays: number;
  clock?: () => number;
  everyMs?: number;
  logger?: FastifyBaseLogger;
}

export class UnverifiedAccountCleanup {
  readonly #database: Database;
  readonly #maxAgeMs: number;
  readonly #clock: () => number;
  readonly #everyMs: number;
  readonly #logger: FastifyBaseLogger | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(database: Database, options: UnverifiedAccountCleanupOptions) {
    this.#database = database;
    this.#maxAgeMs = options.maxAgeDays * DAY_MS;
    this.#clock = options.clock ?? Date.now;
    this.#everyMs = options.everyMs ?? CLEANUP_EVERY_MS;
    this.#logger = options.logger;
  }

  /** Sweeps now and then every `everyMs`; a sweep still running when the next is due is not doubled. */
  start(): void {
    const run = () => {
      this.#running ??= this.sweep()
        .then((result) => {
          if (result.users > 0) this.#logger?.info({ deleted_users: result.users, deleted_organisations: result.organisations }, 'unverified accounts deleted');
        })
        .catch((error: unknown) => this.#logger?.error({ err: error }, 'unverified accounts not swept'))
        .finally(() => {
          this.#running = undefined;
        });
    };
    run();
    this.#timer = setInterval(run, this.#everyMs);
    this.#timer.unref();
  }

  /** Stops the schedule and waits for a sweep under way. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /** Deletes every account unverified since before the cut-off, oldest first. */
  async sweep(): Promise<SweepResult> {
    const now = this.#clock();
    const cutoff = new Date(now - this.#maxAgeMs).toISOString();
    const at = new Date(now).toISOString();
    const total: SweepResult = { users: 0, organisations: 0 };
    // Walks by (created_at, id), so an account that cannot be deleted is passed over, not retried.
    let after: { created_at: string; id: string } | undefined;
    for (;;) {
      let query = this.#database.db
        .selectFrom('users')
        .select(['id', 'created_at'])
        .where('email_verified_at', 'is', null)
        .where('created_at', '<', cutoff);
      const from = after;
      if (from) query = query.where((eb) => eb.or([eb('created_at', '>', from.created_at), eb.and([eb('created_at', '=', from.created_at), eb('id', '>', from.id)])]));
      const batch = await query.orderBy('created_at').orderBy('id').limit(BATCH).execute();
      for (const candidate of batch) {
        try {
          const deleted = await this.#database.db.transaction().execute((trx) => deleteAccount(trx, candidate.id, cutoff, at));
          total.users += deleted.users;
          total.organisations += deleted.organisations;
        } catch (error) {
          this.#logger?.error({ err: error, user_id: candidate.id }, 'unverified account not deleted');
        }
      }
      if (batch.length < BATCH) return total;
      after = batch.at(-1);
    }
  }
}

/** `at`: when the sweep started, for the audit log. */
async function deleteAccount(trx: Kysely<Tables>, userId: string, cutoff: string, at: string): Promise<SweepResult> {
  // Checked again inside the transaction: the link may have been followed since the batch was read.
  const user = await trx.selectFrom('users').select('id').where('id', '=', userId).where('email_verified_at', 'is', null)
    .where('created_at', '<', cutoff).executeTakeFirst();
  if (!user) return { users: 0, organisations: 0 };
  const duplicates = (await trx.selectFrom('users').select('id').where('duplicate_of', '=', userId).execute()).map((row) => row.id);
  const doomed = [...duplicates, userId];

  let organisations = 0;
  const orgIds = [...new Set((await trx.selectFrom('memberships').select('org_id').where('user_id', 'in', doomed).execute()).map((row) => row.org_id))];
  for (const orgId of orgIds) {
    if (await onlyTheirs(trx, orgId, doomed)) {
      await trx.deleteFrom('audit_log').where('org_id', '=', orgId).execute();
      await trx.deleteFrom('memberships').where('org_id', '=', orgId).execute();
      await trx.deleteFrom('organisations').where('id', '=', orgId).execute();
      organisations++;
      continue;
    }
    const removed = await trx.deleteFrom('memberships').where('org_id', '=', orgId).where('user_id', 'in', doomed).returning('user_id').execute();
    for (const { user_id } of removed) {
      await appendAudit(trx, { orgId, actor: 'system', action: 'member.removed', target: user_id, detail: { reason: 'email_never_verified' }, at });
    }
  }
  for (const table of ['sessions', 'email_verifications', 'password_resets', 'identity_checks'] as const) {
    await trx.deleteFrom(table).where('user_id', 'in', doomed).execute();
  }
  // Duplicates first: they point at the account.
  if (duplicates.length > 0) await trx.deleteFrom('users').where('id', 'in', duplicates).execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
  return { users: doomed.length, organisations };
}

/** Whether the organisation holds nothing but what the doomed accounts' sign-ups made. */
async function onlyTheirs(trx: Kysely<Tables>, orgId: string, doomed: readonly string[]): Promise<boolean> {
  const otherMember = await trx.selectFrom('memberships').select('user_id').where('org_id', '=', orgId).where('user_id', 'not in', doomed).limit(1).executeTakeFirst();
  if (otherMember) return false;
  const key = await trx.selectFrom('api_keys').select('id').where('org_id', '=', orgId).limit(1).executeTakeFirst();
  if (key) return false;
  const entries = await trx.selectFrom('audit_log').select(['action', 'target']).where('org_id', '=', orgId).execute();
  return entries.every((entry) => (SIGN_UP_TRAIL as readonly string[]).includes(entry.action) && (entry.action === 'org.created' || doomed.includes(entry.target)));
}
