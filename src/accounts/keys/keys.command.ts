// `lamis keys`: an organisation's API keys.
//
//   lamis keys create --org ORG --env ENV --name NAME [--expires TIME]
//   lamis keys revoke KEY_ID                      lamis keys list --org ORG
//
// Operators may create production keys without the identity check. A key created here works at
// once against a running server (servers do not cache unknown keys); a revocation is announced to
// running servers over Redis (REDIS_URL), which refuse the key at once, and without Redis within
// their key cache time (10 s).
import { openBus } from '../../platform/bus/index.ts';
import { UsageError, type Command } from '../../platform/command.ts';
import type { PlatformSettings } from '../../platform/settings.ts';
import { asUsage, fail, required, table, withStorage } from '../command-support.ts';
import { apiKeyChanges, type KeyChange } from './changes.ts';
import { KEY_CACHE_TTL_MS, KeyStore, type ApiKey } from './keys.ts';
import type { Environment } from './keys.table.ts';
import { Organisations } from '../organisations/organisations.ts';

/** Tells the running servers over Redis; false when that failed (they see the change within their key cache time). */
async function announced(config: PlatformSettings, change: KeyChange): Promise<boolean> {
  try {
    const bus = await openBus(config, () => {});
    try {
      await bus.publish(apiKeyChanges, change);
    } finally {
      await bus.close();
    }
    return true;
  } catch {
    return false;
  }
}

function keyJson(key: ApiKey) {
  return {
    id: key.id,
    org: key.org_id,
    env: key.environment,
    name: key.name,
    prefix: key.prefix,
    last4: key.last4,
    status: key.status,
    created_at: key.created_at,
    expires_at: key.expires_at,
    last_used_at: key.last_used_at,
    revoked_at: key.revoked_at,
    rotated_from: key.rotated_from,
    overlap_until: key.overlap_until,
  };
}

function isEnvironment(value: string): value is Environment {
  return value === 'development' || value === 'production';
}

export const keysCommand: Command = {
  args: 'create --org ORG --env development|production --name NAME [--expires TIME] | revoke KEY_ID | list --org ORG',
  usesSettings: true,
  options: {
    org: { type: 'string', description: 'create, list: the organisation id' },
    env: { type: 'string', description: 'create: development or production (operators need no identity check)' },
    name: { type: 'string', description: 'create: what the key is for' },
    expires: { type: 'string', description: 'create: when the key stops working, ISO 8601 (default: never)' },
    json: { type: 'boolean', description: 'Print one JSON object (create: with the secret)' },
  },
  async run({ config, positionals, values }) {
    const [action, ...rest] = positionals;
    if (action === 'create') {
      if (rest.length > 0) throw new UsageError('create takes no arguments, only options');
      const orgId = required(values, 'org');
      const env = required(values, 'env');
      if (!isEnvironment(env)) throw new UsageError(`--env must be development or production (got "${env}")`);
      const name = required(values, 'name');
      const expiresAt = typeof values.expires === 'string' ? values.expires : null;
      const result = await withStorage(config, (database) =>
        asUsage(new KeyStore(database).createKey({ orgId, environment: env, name, expiresAt, actor: 'operator' })));
      // Operators skip the identity check, so the one refusal left is an unknown organisation.
      if (result.status !== 'created') return fail('keys', `no organisation "${orgId}"`);
      const { key, secret } = result;
      if (values.json) {
        console.log(JSON.stringify({ ...keyJson(key), secret }));
      } else {
        console.log(`Created ${key.environment} key ${key.id} "${key.name}" for ${key.org_id}. Its secret, shown only this once:\n${secret}`);
      }
      return 0;
    }
    if (action === 'revoke') {
      if (rest.length !== 1) throw new UsageError('revoke takes the id of one key');
      const id = rest[0]!;
      const result = await withStorage(config, (database) => new KeyStore(database).revokeKey(id, { actor: 'operator' }));
      if (result.status === 'not_found') return fail('keys', `no key "${id}"`);
      const { key } = result;
      if (config.redisUrl && !(await announced(config, { key_id: key.id, org_id: key.org_id }))) {
        console.error(`lamis keys: the revocation is stored but could not be announced over Redis; running servers refuse the key within ${KEY_CACHE_TTL_MS / 1000} s.`);
      }
      console.log(values.json ? JSON.stringify(keyJson(key)) : `Key ${key.id} "${key.name}" of ${key.org_id} is revoked (since ${key.revoked_at}).`);
      return 0;
    }
    if (action === 'list') {
      if (rest.length > 0) throw new UsageError('list takes no arguments, only --org');
      const orgId = required(values, 'org');
      const keys = await withStorage(config, async (database) =>
        (await new Organisations(database).get(orgId)) ? new KeyStore(database).listKeys(orgId) : undefined);
      if (!keys) return fail('keys', `no organisation "${orgId}"`);
      if (values.json) {
        console.log(JSON.stringify({ org: orgId, data: keys.map(keyJson) }));
      } else if (keys.length === 0) {
        console.log(`${orgId} has no API keys.`);
      } else {
        console.log(table(
          ['ID', 'ENV', 'KEY', 'STATUS', 'CREATED', 'LAST USED', 'NAME'],
          keys.map((k) => [k.id, k.environment, `${k.prefix}…${k.last4}`, k.status, k.created_at, k.last_used_at ?? '-', k.name]),
        ));
      }
      return 0;
    }
    throw new UsageError(action === undefined ? 'give a subcommand: create, revoke or list' : `unknown subcommand "${action}": use create, revoke or list`);
  },
};
