// Zone changes, announced on the bus so that watchers keeping every organisation's zones in memory
// (the intelligence engine's zone watch) re-read the zone, on every instance: a zone was added,
// changed or removed. The message names it only; the zone store holds what it is now.
import { topic } from '../platform/bus/index.ts';

export interface ZoneChange {
  /** The organisation, or the API key outside any. */
  owner: string;
  zone_id: string;
}

export const zoneChanges = topic<ZoneChange>('zones.changes');
