// The fleet feature: vehicle profiles, their planned arrivals and notification settings over REST,
// for API keys under /v3/fleet and for signed-in members under their organisation's path,
// registrations sealed under the master key (LAMIS_MASTER_KEY, else the key file in the data folder).
// Every change is announced on `fleet.vehicles` or `fleet.arrivals` once stored; the store forgets
// the registrations it holds of an owner whose vehicles another instance changed.
import type { MemberGuard } from '../accounts/index.ts';
import type { Database } from '../platform/db/database.ts';
import { Envelope } from '../platform/crypto/index.ts';
import type { Feature } from '../platform/feature.ts';
import { ArrivalStore } from './arrivals.ts';
import { mountArrivalRoutes } from './arrivals.routes.ts';
import { fleetArrivalChanges, fleetVehicleChanges, type ArrivalChange, type VehicleChange } from './changes.ts';
import { API_KEY_MOUNT, mountFleetRoutes } from './vehicles.routes.ts';
import { organisationMount } from './organisation-mount.ts';
import { FleetStore, registrationIndex } from './vehicles.ts';

/** The fleet store over the service's storage, opened once; other features read profiles through it. */
export function openFleetStore(database: Database, masterKey: Buffer): FleetStore {
  return new FleetStore(database, new Envelope(masterKey), registrationIndex(masterKey));
}

/**
 * `store`: the one fleet store; `members`: the accounts' guard of the organisation's path;
 * `airportCode`: the ICAO code of an airport code a caller gives (ICAO or IATA), null when unknown.
 */
export const fleet = (store: FleetStore, members: MemberGuard, airportCode: (code: string) => Promise<string | null>): Feature => async ({ app, database, bus }) => {
  const arrivals = new ArrivalStore(database);
  const announceVehicle = (change: VehicleChange) => bus.publish(fleetVehicleChanges, change);
  const announceArrival = (change: ArrivalChange) => bus.publish(fleetArrivalChanges, change);
  const unsubscribe = await bus.subscribe(fleetVehicleChanges, (change) => {
    if (change.change !== 'settings') store.forgetOwner(change.org_id);
  });
  app.addHook('onClose', unsubscribe);
  for (const mount of [API_KEY_MOUNT, organisationMount(members)]) {
    mountFleetRoutes(app, store, mount, announceVehicle);
    mountArrivalRoutes(app, arrivals, mount, announceArrival, airportCode);
  }
};
