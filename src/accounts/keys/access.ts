// Who may call the API and how much: the keys from the configuration (instance operators) or
// from accounts, the plan budgets of their organisations, load shedding, and usage counting.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/database.ts';
import type { Access } from '../../platform/http/access.ts';
import { configuredKeys, developmentKey, type KeyVerifier } from '../../platform/http/auth.ts';
import { LoadShedder, StreamGate, openCounterStore, overloadRefused } from '../../platform/ratelimit/index.ts';
import type { PlatformSettings } from '../../platform/settings.ts';
import type { KeyStore } from './keys.ts';
import { Organisations } from '../organisations/organisations.ts';
import { UsageMeter } from './usage.ts';

/** LAMIS_API_KEYS are operators' production keys; without them, the data folder's development key. */
function operatorKeys(config: PlatformSettings, logger: FastifyBaseLogger): KeyVerifier {
  if (config.apiKeys.length) return configuredKeys(config.apiKeys, 'production');
  const { secret, file } = developmentKey(config.dataDir);
  logger.info({ file }, 'no LAMIS_API_KEYS set: the development API key is in this file');
  return configuredKeys([secret], 'development');
}

/** `keys` is the store the accounts routes also use, so a revocation there takes effect at once. */
export async function openAccess(config: PlatformSettings, database: Database, keys: KeyStore, logger: FastifyBaseLogger): Promise<Access> {
  const operators = operatorKeys(config, logger);
  const organisations = new Organisations(database);
  const usage = new UsageMeter(database, { onError: (error) => logger.warn({ err: error }, 'API usage not recorded; kept for the next write') });
  const store = await openCounterStore(config);
  const shedder = new LoadShedder({ closeStreamsAfterMs: config.overloadStreamCloseSec * 1000 });
  // Over the same counter store as the budgets, so stream caps hold across instances too.
  const streams = new StreamGate({ store, onError: (error) => logger.warn({ err: error }, 'stream lease not renewed; the next renewal retries') });
  return {
    // Operator keys first: they need no storage round trip.
    async verifyKey(secret) {
      const operator = await operators(secret);
      return operator.ok ? operator : keys.verify(secret);
    },
    rateLimits: { store, shedder, planOf: (principal) => organisations.planOf(principal) },
    recordRequest: (principal) => usage.record(principal, 'request'),
    async admitStream(principal) {
      const shed = shedder.sheds(principal.environment, 'stream');
      if (shed) return { ok: false, reason: 'overloaded', refusal: overloadRefused(shedder, shed) };
      const plan = await organisations.planOf(principal);
      // Operator keys belong to no organisation: no plan, no cap.
      if (plan === null) return { ok: true, plan, release: async () => {} };
      const grant = await streams.acquireStream(principal.organisation_id!, plan);
      if (!grant.ok) return { ok: false, reason: grant.reason, plan };
      usage.record(principal, 'stream');
      return { ok: true, plan, release: grant.release };
    },
    closesStream: (principal) => shedder.closesStream(principal.environment),
    async close() {
      shedder.close();
      await Promise.all([usage.close(), store.close()]);
    },
  };
}
