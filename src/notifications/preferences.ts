// What each member of an organisation chose, per severity, for e-mail about its events:
// `immediately` (one mail per change), `hourly` (one digest an hour) or `off`. Only choices that
// were made are stored; the others are the defaults, so a new member gets mail about critical
// events at once and a digest of warnings without setting anything.
import type { Database } from '../platform/db/database.ts';
import { SEVERITIES, type Severity } from '../events/index.ts';

export const DELIVERIES = ['immediately', 'hourly', 'off'] as const;
export type Delivery = (typeof DELIVERIES)[number];

export type Preferences = Record<Severity, Delivery>;

export const DEFAULT_PREFERENCES: Readonly<Preferences> = { info: 'off', warning: 'hourly', critical: 'immediately' };

export class PreferenceStore {
  readonly #database: Database;
  readonly #now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
  }

  /** Each of these members' choices in the organisation, defaults filled in. */
  async of(orgId: string, userIds: readonly string[]): Promise<Map<string, Preferences>> {
    const chosen = new Map(userIds.map((id) => [id, { ...DEFAULT_PREFERENCES }]));
    if (userIds.length === 0) return chosen;
    const rows = await this.#database.db.selectFrom('notification_preferences').select(['user_id', 'severity', 'delivery'])
      .where('org_id', '=', orgId).where('user_id', 'in', userIds).execute();
    for (const row of rows) chosen.get(row.user_id)![row.severity as Severity] = row.delivery as Delivery;
    return chosen;
  }

  async get(orgId: string, userId: string): Promise<Preferences> {
    return (await this.of(orgId, [userId])).get(userId)!;
  }

  /** Sets the severities given, keeps the others; answers all three. */
  async set(orgId: string, userId: string, changes: Partial<Preferences>): Promise<Preferences> {
    const updatedAt = this.#now().toISOString();
    const rows = SEVERITIES.filter((severity) => changes[severity] !== undefined)
      .map((severity) => ({ org_id: orgId, user_id: userId, severity, delivery: changes[severity]!, updated_at: updatedAt }));
    if (rows.length > 0) {
      await this.#database.db.insertInto('notification_preferences').values(rows)
        .onConflict((oc) => oc.columns(['org_id', 'user_id', 'severity']).doUpdateSet((eb) => ({
          delivery: eb.ref('excluded.delivery'), updated_at: eb.ref('excluded.updated_at'),
        })))
        .execute();
    }
    return this.get(orgId, userId);
  }
}
