// The fleet feature: vehicle profiles, their planned arrivals and notification settings over REST,
// for API keys under /v3/fleet and for signed-in members under their organisation's path,
// registrations sealed under the master key (LAMIS_MASTER_KEY, else the key file in the data folder).
import type { MemberGuard } from '../accounts/index.ts';
import type { Bus } from '../platform/bus/index.ts';
import type { Database } from '../platform/db/database.ts';
import { Envelope } from '../platform/crypto/index.ts';
import type { Feature } from '../platform/feature.ts';
import { ArrivalStore } from './arrivals.ts';
import { mountArrivalRoutes } from './arrivals.routes.ts';
import { API_KEY_MOUNT, mountFleetRoutes } from './vehicles.routes.ts';
import { organisationMount } from './organisation-mount.ts';
import { FleetStore, registrationIndex } from './vehicles.ts';

/**
 * The fleet store over the service's storage, opened once; other features read profiles through it.
 * Vehicle changes go out on the bus (`fleetVehicleChanges`).
 */
export function openFleetStore(database: Database, masterKey: Buffer, bus: Bus): FleetStore {
  return new FleetStore(database, new Envelope(masterKey), registrationIndex(masterKey), bus);
}

/** `store`: the one fleet store; `members`: the accounts' guard of the organisation's path. */
export const fleet = (store: FleetStore, members: MemberGuard): Feature => async ({ app, database }) => {
  const arrivals = new ArrivalStore(database);
  for (const mount of [API_KEY_MOUNT, organisationMount(members)]) {
    mountFleetRoutes(app, store, mount);
    mountArrivalRoutes(app, arrivals, mount);
  }
};
