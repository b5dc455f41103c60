// What Home shows first, from the account's primary vehicle category (GET /v3/accounts/me), and
// the fleet at a glance. Pure, so it is tested without a browser.

export type Category = 'aircraft' | 'helicopter' | 'vessel';
export type Focus = 'aviation' | 'maritime' | 'both';

export interface Shortcut {
  href: string;
  title: string;
  text: string;
  icon: 'plane' | 'map' | 'anchor' | 'fleet';
}

/** Aircraft and helicopters put landing first, vessels the map and ports; no category yet, both. */
export function focusOf(category: Category | null): Focus {
  if (category === 'aircraft' || category === 'helicopter') return 'aviation';
  if (category === 'vessel') return 'maritime';
  return 'both';
}

const LANDING: Shortcut = { href: '/landing', title: 'Landing briefing', text: 'Weather, runway and approach, NOTAMs, slots and a safety score for one arrival.', icon: 'plane' };
const MAP: Shortcut = { href: '/map', title: 'Live vessel map', text: 'Vessels as their AIS reports come in, with tracks and filters.', icon: 'map' };
const PORTS: Shortcut = { href: '/ports', title: 'Ports', text: 'Berths, expected arrivals, tides and weather holds.', icon: 'anchor' };

/** The shortcuts in the order the account's category puts them. */
export function shortcutsFor(focus: Focus): Shortcut[] {
  switch (focus) {
    case 'aviation':
      return [LANDING, MAP, PORTS];
    case 'maritime':
      return [MAP, PORTS, LANDING];
    case 'both':
      return [LANDING, MAP, PORTS];
  }
}

export interface GlanceVehicle {
  id: string;
  vehicle_type: Category;
  home_base_icao: string | null;
  created_at: string;
}

export interface Glance {
  /** Vehicles of each type; `more` when the fleet has more than the page read. */
  counts: Record<Category, number>;
  total: number;
  more: boolean;
  /** The distinct home bases of the fleet's aircraft and helicopters, most used first. */
  bases: string[];
}

/** Counts by type and the aircraft's home bases, from the first page of the fleet. */
export function fleetGlance(vehicles: readonly GlanceVehicle[], more: boolean): Glance {
  const counts: Record<Category, number> = { aircraft: 0, helicopter: 0, vessel: 0 };
  const bases = new Map<string, number>();
  for (const vehicle of vehicles) {
    counts[vehicle.vehicle_type] += 1;
    if (vehicle.vehicle_type !== 'vessel' && vehicle.home_base_icao) {
      bases.set(vehicle.home_base_icao, (bases.get(vehicle.home_base_icao) ?? 0) + 1);
    }
  }
  const ranked = [...bases.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([icao]) => icao);
  return { counts, total: vehicles.length, more, bases: ranked };
}

/** "3 aircraft, 1 helicopter and 2 vessels"; "no vehicles". */
export function countWords(glance: Glance): string {
  const parts: string[] = [];
  if (glance.counts.aircraft) parts.push(`${glance.counts.aircraft} aircraft`);
  if (glance.counts.helicopter) parts.push(`${glance.counts.helicopter} helicopter${glance.counts.helicopter === 1 ? '' : 's'}`);
  if (glance.counts.vessel) parts.push(`${glance.counts.vessel} vessel${glance.counts.vessel === 1 ? '' : 's'}`);
  if (parts.length === 0) return 'no vehicles';
  const words = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return glance.more ? `${words}, and more` : words;
}
