// Users, their organisations and where they are in onboarding:
//
//   1 details    full name, e-mail, password: creates the user, an organisation on the Starter
//                plan and the user's owner membership of it
//   2 vehicle    vehicle category and country; sets the default feeds
//   3 email      the address verified through a mailed link
//   4 identity   a government ID checked (onboarding/identity-checks.ts)
//
// Signing up with an address that already has an account must not tell anyone so. Such a sign-up
// creates an account like any other, marked `duplicate_of` the owner's: it answers exactly as a
// new account through every step a stranger can take, but its address can never be verified (no
// link is mailed for it) and it can never be signed into, so it reaches nothing. The address's
// owner gets a mail saying someone tried (at most one a day, see accounts feature). Like every
// account never verified, it is deleted after LAMIS_UNVERIFIED_ACCOUNT_DAYS (cleanup.ts).
import type { Kysely } from 'kysely';
import type { VehicleType } from '../../../common/vehicle-types.ts';
import type { Database, Tables } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import { appendAudit } from '../audit/audit.ts';
import type { OrganisationRow } from '../organisations/organisations.table.ts';
import type { IdentityStatus } from '../onboarding/identity-checks.table.ts';
import type { Role } from '../organisations/roles.ts';
import type { UserRow } from './users.table.ts';

export const ONBOARDING_STEPS = ['details', 'vehicle', 'email', 'identity'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export const MAX_NAME_LENGTH = 200;

/**
 * The dashboard's first feeds for each vehicle category, in the order it shows them: landing
 * intelligence, airports, weather and NOTAMs for those who land; the live vessel map and ports
 * for those who sail.
 */
export const DEFAULT_FEEDS: Readonly<Record<VehicleType, readonly string[]>> = {
  aircraft: ['landing', 'airports', 'weather', 'notams'],
  helicopter: ['landing', 'airports', 'weather', 'notams'],
  vessel: ['vessels_map', 'ports'],
};

export interface SignUpInput {
  fullName: string;
  /** As `normaliseEmail` gave them. */
  email: string;
  emailKey: string;
  passwordHash: string;
}

export interface SignUpResult {
  user: UserRow;
  /** The account that already had the address, when there was one: `user` is then a duplicate. */
  existing: UserRow | null;
}

export interface MembershipView {
  org_id: string;
  name: string;
  plan: OrganisationRow['plan'];
  role: Role;
}

export interface OnboardingView {
  steps: { step: OnboardingStep; done: boolean }[];
  /** The first step not done; null when onboarding is complete. */
  next_step: OnboardingStep | null;
}

/** Full names: trimmed, 1 to 200 characters, no control characters; null when not acceptable. */
export function checkedFullName(raw: string): string | null {
  const name = raw.trim().replace(/\s+/g, ' ');
  return name.length >= 1 && name.length <= MAX_NAME_LENGTH && !/\p{Cc}/u.test(name) ? name : null;
}

export function onboardingOf(user: UserRow, identity: IdentityStatus | null): OnboardingView {
  const done: Record<OnboardingStep, boolean> = {
    details: true,
    vehicle: user.vehicle_category !== null,
    email: user.email_verified_at !== null,
    identity: identity === 'verified',
  };
  const steps = ONBOARDING_STEPS.map((step) => ({ step, done: done[step] }));
  return { steps, next_step: steps.find((s) => !s.done)?.step ?? null };
}

/** The first step before `step` that is not done, or null when all of them are. */
export function missingStepBefore(user: UserRow, step: OnboardingStep): OnboardingStep | null {
  const view = onboardingOf(user, null);
  const before = ONBOARDING_STEPS.slice(0, ONBOARDING_STEPS.indexOf(step));
  return view.steps.find((s) => before.includes(s.step) && !s.done)?.step ?? null;
}

export class Users {
  readonly #database: Database;
  readonly #clock: () => number;

  constructor(database: Database, clock: () => number = Date.now) {
    this.#database = database;
    this.#clock = clock;
  }

  get(id: string): Promise<UserRow | undefined> {
    return this.#database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The account that owns the address (never a duplicate sign-up). */
  findByEmail(emailKey: string): Promise<UserRow | undefined> {
    return this.#database.db.selectFrom('users').selectAll().where('email_key', '=', emailKey).where('duplicate_of', 'is', null).executeTakeFirst();
  }

  async signUp(input: SignUpInput): Promise<SignUpResult> {
    // Two sign-ups for one new address at once: the unique index lets one through, the other
    // finds it on the second pass and becomes its duplicate.
    for (let pass = 1; ; pass++) {
      const existing = await this.findByEmail(input.emailKey);
      try {
        return { user: await this.#create(input, existing?.id ?? null), existing: existing ?? null };
      } catch (error) {
        if (existing || pass > 1 || !(await this.findByEmail(input.emailKey))) throw error;
      }
    }
  }

  async setVehicle(userId: string, category: VehicleType, country: string): Promise<UserRow | undefined> {
    return this.#database.db
      .updateTable('users')
      .set({ vehicle_category: category, country, default_feeds: JSON.stringify(DEFAULT_FEEDS[category]) })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** `db`: a transaction to make the change part of (a password reset); storage otherwise. */
  async setPasswordHash(userId: string, passwordHash: string, db: Kysely<Tables> = this.#database.db): Promise<void> {
    await db
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: new Date(this.#clock()).toISOString() })
      .where('id', '=', userId)
      .execute();
  }

  /** The organisations the user belongs to, oldest membership first. */
  memberships(userId: string): Promise<MembershipView[]> {
    return this.#database.db
      .selectFrom('memberships')
      .innerJoin('organisations', 'organisations.id', 'memberships.org_id')
      .select(['memberships.org_id', 'organisations.name', 'organisations.plan', 'memberships.role'])
      .where('memberships.user_id', '=', userId)
      .orderBy('memberships.created_at')
      .orderBy('memberships.org_id')
      .execute();
  }

  #create(input: SignUpInput, duplicateOf: string | null): Promise<UserRow> {
    const at = new Date(this.#clock()).toISOString();
    const user: UserRow = {
      id: newId('usr'),
      email: input.email,
      email_key: input.emailKey,
      full_name: input.fullName,
      password_hash: input.passwordHash,
      duplicate_of: duplicateOf,
      email_verified_at: null,
      vehicle_category: null,
      country: null,
      default_feeds: null,
      password_changed_at: at,
      created_at: at,
    };
    return this.#database.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user).execute();
      await createOwnOrganisation(trx, user, at);
      return user;
    });
  }
}

/** The organisation a new user owns, named after them, on the Starter plan; audited as theirs. */
async function createOwnOrganisation(trx: Kysely<Tables>, user: UserRow, at: string): Promise<void> {
  const org: OrganisationRow = { id: newId('org'), name: user.full_name, plan: 'starter', created_at: at };
  const actor = `user:${user.id}` as const;
  await trx.insertInto('organisations').values(org).execute();
  await trx.insertInto('memberships').values({ org_id: org.id, user_id: user.id, role: 'owner', created_at: at }).execute();
  await appendAudit(trx, { orgId: org.id, actor, action: 'org.created', target: org.id, detail: { name: org.name, plan: org.plan }, at });
  await appendAudit(trx, { orgId: org.id, actor, action: 'member.added', target: user.id, detail: { role: 'owner' }, at });
}
