// Organisations and their API keys, made in a running server's storage as the operator commands
// make them (`lamis org create`, `lamis keys create`: no identity check).
import assert from 'node:assert/strict';
import { KeyStore } from '../../src/accounts/keys/keys.ts';
import type { Environment } from '../../src/accounts/keys/keys.table.ts';
import { Organisations } from '../../src/accounts/organisations/organisations.ts';
import type { Config } from '../../src/config.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import type { PlanName } from '../../common/plans.ts';

export interface OrganisationKey {
  orgId: string;
  keyId: string;
  secret: string;
  headers: Record<string, string>;
}

/** A key of a new organisation on the plan, or, with `orgId`, one more key of that organisation. */
export async function organisationKey(
  config: Config,
  plan: PlanName,
  options: { environment?: Environment; orgId?: string } = {},
): Promise<OrganisationKey> {
  const database = openDatabase(config);
  try {
    const orgId = options.orgId ?? (await new Organisations(database).create({ name: `Test organisation on ${plan}`, plan, actor: 'operator' })).id;
    const environment = options.environment ?? 'production';
    const created = await new KeyStore(database).createKey({ orgId, environment, name: `test ${environment}`, actor: 'operator' });
    assert.equal(created.status, 'created');
    if (created.status !== 'created') throw new Error('no key');
    return { orgId, keyId: created.key.id, secret: created.secret, headers: { authorization: `Bearer ${created.secret}` } };
  } finally {
    await database.close();
  }
}
