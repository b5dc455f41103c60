// The fleet feature: vehicle profiles and notification settings over REST, registrations sealed
// under the master key (LAMIS_MASTER_KEY, else the key file in the data folder).
import type { Database } from '../platform/db/database.ts';
import { Envelope } from '../platform/crypto/index.ts';
import type { Feature } from '../platform/feature.ts';
import { registerFleetRoutes } from './api.ts';
import { FleetStore, registrationIndex } from './vehicles.ts';

/** The fleet store over the service's storage; other features read profiles through it. */
export function openFleetStore(database: Database, masterKey: Buffer): FleetStore {
  return new FleetStore(database, new Envelope(masterKey), registrationIndex(masterKey));
}

export const fleet: Feature = async ({ app, database, masterKey }) => {
  registerFleetRoutes(app, { store: openFleetStore(database, masterKey.key) });
};
