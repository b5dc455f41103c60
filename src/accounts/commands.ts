// Operator commands on the storage the server uses (LAMIS_DATA_DIR or DATABASE_URL):
//
//   lamis org create --name NAME --plan PLAN      lamis org set-plan ORG PLAN
//   lamis org set-ais-upload ORG shared|off       lamis org set-slot-share ORG FRACTION|default
//   lamis keys create --org ORG --env ENV --name NAME [--expires TIME]
//   lamis keys revoke KEY_ID                      lamis keys list --org ORG
//   lamis usage --org ORG [--days N]
//
// Operators are trusted: they act as `operator` in the audit log and may create production keys
// without the identity check. A key created here works at once against a running server (servers
// do not cache unknown keys); a revocation within the server's key cache time (10 s). With `--json`
// each prints one JSON object. The tables of accounts are migrated first, as `lamis migrate` would.
import { fraction, type Config } from '../config.ts';
import { UsageError, type Command } from '../platform/command.ts';
import { openDatabase, type Database } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { PLANS } from '../platform/ratelimit/plans.ts';
import { KeyStore, type ApiKey } from './keys.ts';
import { accountsMigrations } from './migrations/index.ts';
import type { Environment } from './keys.table.ts';
import { isAisUpload, OrganisationGrants } from './grants.ts';
import { isPlanName, Organisations } from './organisations.ts';
import { DEFAULT_USAGE_DAYS, listUsage, MAX_USAGE_DAYS, utcDay } from './usage.ts';

const PLAN_NAMES = Object.keys(PLANS).join('|');
const MS_PER_DAY = 86_400_000;

async function withStorage<T>(config: Config, work: (database: Database) => Promise<T>): Promise<T> {
  const database = openDatabase(config);
  try {
    await migrate(database.db, database.dialect, accountsMigrations);
    return await work(database);
  } finally {
    await database.close();
  }
}

/** Input the stores reject (a name too long, an expiry in the past) is the user's to fix. */
async function asUsage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw error instanceof RangeError ? new UsageError(error.message) : error;
  }
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  return all.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

function fail(command: string, message: string): number {
  console.error(`lamis ${command}: ${message}`);
  return 1;
}

/** A fraction from 0 to 1, or `default` (null); undefined for anything else. */
function slotShare(text: string): number | null | undefined {
  if (text === 'default') return null;
  const parsed = fraction(text);
  return 'error' in parsed ? undefined : parsed.value;
}

const shareText = (share: number | null) => (share === null ? 'the instance\'s share' : String(share));

const ORG_SUBCOMMANDS = 'create, set-plan, set-ais-upload or set-slot-share';

export const orgCommand: Command = {
  args: `create --name NAME --plan ${PLAN_NAMES} | set-plan ORG ${PLAN_NAMES} | set-ais-upload ORG shared|off | set-slot-share ORG FRACTION|default`,
  usesSettings: true,
  options: {
    name: { type: 'string', description: 'create: the organisation name' },
    plan: { type: 'string', description: `create: the plan, ${PLAN_NAMES}` },
    json: { type: 'boolean', description: 'Print the organisation as one JSON object' },
  },
  async run({ config, positionals, values }) {
    const [action, ...rest] = positionals;
    if (action === 'create') {
      if (rest.length > 0) throw new UsageError('create takes no arguments, only --name and --plan');
      const name = required(values, 'name');
      const plan = required(values, 'plan');
      if (!isPlanName(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES} (got "${plan}")`);
      const org = await withStorage(config, (database) => asUsage(new Organisations(database).create({ name, plan, actor: 'operator' })));
      console.log(values.json ? JSON.stringify(org) : `Created organisation ${org.id} "${org.name}" on the ${PLANS[org.plan].title} plan.`);
      return 0;
    }
    if (action === 'set-plan') {
      if (rest.length !== 2) throw new UsageError('set-plan takes the organisation id and the plan');
      const [id, plan] = rest as [string, string];
      if (!isPlanName(plan)) throw new UsageError(`the plan must be one of ${PLAN_NAMES} (got "${plan}")`);
      const result = await withStorage(config, (database) => new Organisations(database).setPlan(id, plan, 'operator'));
      if (result.status === 'not_found') return fail('org', `no organisation "${id}"`);
      const { organisation } = result;
      const previous = result.status === 'changed' ? result.previous : organisation.plan;
      if (values.json) {
        console.log(JSON.stringify({ ...organisation, previous_plan: previous, changed: result.status === 'changed' }));
      } else {
        console.log(result.status === 'changed'
          ? `${organisation.id} "${organisation.name}": plan changed from ${PLANS[previous].title} to ${PLANS[organisation.plan].title}.`
          : `${organisation.id} "${organisation.name}" is already on the ${PLANS[organisation.plan].title} plan.`);
      }
      return 0;
    }
    if (action === 'set-ais-upload') {
      if (rest.length !== 2) throw new UsageError('set-ais-upload takes the organisation id and shared or off');
      const [id, value] = rest as [string, string];
      if (!isAisUpload(value)) throw new UsageError(`AIS uploads are shared or off (got "${value}")`);
      const result = await withStorage(config, (database) => new OrganisationGrants(database).setAisUpload(id, value, 'operator'));
      if (result.status === 'not_found') return fail('org', `no organisation "${id}"`);
      const { organisation, previous } = result;
      if (values.json) {
        console.log(JSON.stringify({ id, name: organisation.name, ais_upload: value, previous, changed: result.status === 'changed' }));
      } else if (result.status === 'unchanged') {
        console.log(`${id} "${organisation.name}": AIS uploads are already ${value}.`);
      } else {
        console.log(value === 'shared'
          ? `${id} "${organisation.name}": AIS uploads shared (were off); what its production keys upload, every organisation sees.`
          : `${id} "${organisation.name}": AIS uploads off (were shared); its keys may not upload.`);
      }
      return 0;
    }
    if (action === 'set-slot-share') {
      if (rest.length !== 2) throw new UsageError('set-slot-share takes the organisation id and a share (a fraction from 0 to 1, or default)');
      const [id, text] = rest as [string, string];
      const share = slotShare(text);
      if (share === undefined) throw new UsageError(`the share is a fraction from 0 to 1, or default (got "${text}")`);
      const result = await withStorage(config, (database) => new OrganisationGrants(database).setSlotShare(id, share, 'operator'));
      if (result.status === 'not_found') return fail('org', `no organisation "${id}"`);
      const { organisation, previous } = result;
      if (values.json) {
        console.log(JSON.stringify({ id, name: organisation.name, slot_share: share, previous, changed: result.status === 'changed' }));
      } else if (result.status === 'unchanged') {
        console.log(`${id} "${organisation.name}": slot share is already ${shareText(share)}.`);
      } else {
        console.log(share === null
          ? `${id} "${organisation.name}": slot share back to the instance's (LAMIS_SLOT_FAIR_SHARE; was ${shareText(previous)}).`
          : `${id} "${organisation.name}": may hold ${share} of each airport hour's arrival slots (was ${shareText(previous)}).`);
      }
      return 0;
    }
    throw new UsageError(action === undefined ? `give a subcommand: ${ORG_SUBCOMMANDS}` : `unknown subcommand "${action}": use ${ORG_SUBCOMMANDS}`);
  },
};

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

export const usageCommand: Command = {
  args: '--org ORG [--days N]',
  usesSettings: true,
  options: {
    org: { type: 'string', description: 'The organisation id' },
    days: { type: 'string', description: `How many UTC days back, today included (default ${DEFAULT_USAGE_DAYS}, at most ${MAX_USAGE_DAYS})` },
    json: { type: 'boolean', description: 'Print one JSON object' },
  },
  async run({ config, positionals, values }) {
    if (positionals.length > 0) throw new UsageError('usage takes no arguments, only options');
    const orgId = required(values, 'org');
    const days = values.days === undefined ? DEFAULT_USAGE_DAYS : /^\d+$/.test(String(values.days)) ? Number(values.days) : NaN;
    if (!(days >= 1 && days <= MAX_USAGE_DAYS)) {
      throw new UsageError(`--days must be a whole number from 1 to ${MAX_USAGE_DAYS} (got "${values.days}")`);
    }
    const now = Date.now();
    const from = utcDay(now - (days - 1) * MS_PER_DAY);
    const to = utcDay(now);
    const rows = await withStorage(config, async (database) =>
      (await new Organisations(database).get(orgId)) ? listUsage(database, orgId, from, to) : undefined);
    if (!rows) return fail('usage', `no organisation "${orgId}"`);
    if (values.json) console.log(JSON.stringify({ org: orgId, from, to, data: rows }));
    else if (rows.length === 0) console.log(`No usage recorded for ${orgId} from ${from} to ${to}.`);
    else console.log(table(['DAY', 'KEY', 'REQUESTS', 'STREAMS'], rows.map((r) => [r.day, r.key_id, String(r.requests), String(r.streams)])));
    return 0;
  },
};
