// The dashboard's API key. A session is not an API key, and the dashboard calls the data routes as
// any client would, so it needs one: one per user and organisation, named `dashboard`, made on the
// first call of `POST /v3/organisations/{orgId}/dashboard-key` and handed as it is to every later
// session of the user, so signing in makes no key and writes nothing to the audit log.
//
// Its secret is derived from the master key and the key's id (HKDF-SHA256 for this one purpose),
// so it is stored nowhere (only its SHA-256, as for every key) and can still be given again. Once
// it is older than a session may last (LAMIS_SESSION_MAX_HOURS) the next call rotates it, and the
// old one works as long again, so every session's key works until the session ends. It is a
// production key when the user's identity is verified, else a development key; the development one
// is revoked when the production one is made.
import { hkdfSync } from 'node:crypto';
import type { DerivedKeyResult, KeyStore, SecretMaterial } from './keys.ts';
import type { Environment } from './keys.table.ts';

export const DASHBOARD_KEY_NAME = 'dashboard';
const MS_PER_HOUR = 3_600_000;

export class DashboardKeys {
  readonly #keys: KeyStore;
  readonly #material: SecretMaterial;
  readonly #sessionMaxHours: number;

  constructor(keys: KeyStore, masterKey: Buffer, sessionMaxHours: number) {
    this.#keys = keys;
    this.#material = (id) => Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `lamis dashboard key v1\0${id}`, 64));
    this.#sessionMaxHours = sessionMaxHours;
  }

  /** The user's dashboard key in the organisation, with its secret. */
  forUser(orgId: string, userId: string, environment: Environment): Promise<DerivedKeyResult> {
    return this.#keys.derivedKey({
      orgId,
      userId,
      name: DASHBOARD_KEY_NAME,
      environment,
      material: this.#material,
      rotateAfterMs: this.#sessionMaxHours * MS_PER_HOUR,
      overlapHours: this.#sessionMaxHours,
    });
  }
}
