// How the vessel rules speak of a vessel: the name a person reads in a summary, and the position
// facts an event's data carries.
import type { Vessel } from '../maritime/index.ts';

/** Its AIS name, else its MMSI. */
export function vesselName(vessel: Pick<Vessel, 'mmsi' | 'name'>): string {
  const name = vessel.name?.trim();
  return name ? name : `MMSI ${vessel.mmsi}`;
}

/** Where and how it was going at its latest report. */
export function positionFacts(vessel: Vessel): Record<string, unknown> {
  const position = vessel.position;
  if (position === null) return { position: null };
  return {
    position: { lat: position.lat, lon: position.lon, sog: position.sog, cog: position.cog, nav_status: position.nav_status, timestamp: position.timestamp },
  };
}
