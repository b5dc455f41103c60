// The zones feature: each organisation's geofences over REST under /v3/zones, for API keys; every
// change is announced on the bus (`zoneChanges`) for the zone watch.
import type { Feature } from '../platform/feature.ts';
import { registerZoneRoutes } from './zones.routes.ts';
import { ZoneStore } from './zones.ts';

export const zones: Feature = async ({ app, database, bus }) => {
  registerZoneRoutes(app, new ZoneStore(database, bus));
};
