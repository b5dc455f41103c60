// The fleet feature: vehicle profiles and notification settings over REST, registrations sealed
// under the master key (LAMIS_MASTER_KEY, else the key file in the data folder).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../platform/db/database.ts';
import { Envelope, masterKey } from '../platform/crypto/index.ts';
import type { Feature } from '../platform/feature.ts';
import { registerFleetRoutes } from './api.ts';
import { FleetStore, registrationIndex } from './vehicles.ts';

/** The fleet store over the service's storage; other features read profiles through it. */
export function openFleetStore(config: Config, database: Database, logger: FastifyBaseLogger): FleetStore {
  const key = masterKey({ fromEnv: config.masterKey, dataDir: config.dataDir });
  // The key id and where it came from, never the key: enough to tell which key sealed the data.
  logger.debug({ master_key: key.id, source: key.source }, 'fleet registrations are sealed under this master key');
  return new FleetStore(database, new Envelope(key.key), registrationIndex(key.key));
}

export const fleet: Feature = async ({ app, config, database, logger }) => {
  registerFleetRoutes(app, { store: openFleetStore(config, database, logger) });
};
