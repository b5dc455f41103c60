// The zones feature: each organisation's geofences over REST under /v3/zones, for API keys.
import type { Feature } from '../platform/feature.ts';
import { registerZoneRoutes } from './zones.routes.ts';
import { ZoneStore } from './zones.ts';

export const zones: Feature = async ({ app, database }) => {
  registerZoneRoutes(app, new ZoneStore(database));
};
