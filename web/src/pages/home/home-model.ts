// What Home shows first, from the account's primary vehicle category (GET /v3/accounts/me), the
// fleet at a glance, and a card per vehicle of the fleet feed. Pure, so it is tested without a browser.
import type { OperationResponse } from '@lamis/sdk';
import { formatUtc } from '../../app/format.ts';

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

// ---------- The fleet feed: one card per vehicle ----------

export type FeedEntry = OperationResponse<'GET /v3/organisations/{orgId}/fleet/feed'>['data'][number];
export type FactTone = 'ok' | 'warn' | 'bad' | 'neutral';

export interface Fact {
  label: string;
  value: string;
  tone: FactTone;
}

export interface FeedCard {
  id: string;
  /** The registration, or the vessel's name, or its MMSI. */
  title: string;
  type: Category;
  facts: Fact[];
  /** Why a part is missing, in the feed's own sentences. */
  notes: string[];
  links: { href: string; label: string }[];
  events: { id: string; summary: string; severity: 'info' | 'warning' | 'critical' }[];
  updatedAt: string;
}

/** "50.905° N, 1.404° W". */
export function position(lat: number, lon: number): string {
  return `${Math.abs(lat).toFixed(3)}° ${lat >= 0 ? 'N' : 'S'}, ${Math.abs(lon).toFixed(3)}° ${lon >= 0 ? 'E' : 'W'}`;
}

function ageWords(seconds: number): string {
  if (seconds < 90) return `${Math.max(0, Math.round(seconds))} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

/** A safety score as the briefing reads it: 80 and over good, under 60 poor. */
const scoreTone = (score: number): FactTone => (score >= 80 ? 'ok' : score >= 60 ? 'warn' : 'bad');

function aircraftFacts(entry: FeedEntry): { facts: Fact[]; links: FeedCard['links'] } {
  const facts: Fact[] = [];
  const links: FeedCard['links'] = [];
  const { arrival, landing } = entry;
  if (arrival) {
    const name = landing?.destination.name ? ` (${landing.destination.name})` : '';
    facts.push({ label: 'Next arrival', value: `${arrival.destination_icao}${name}, ETA ${formatUtc(arrival.eta_utc)}`, tone: 'neutral' });
    links.push({ href: `/landing?${new URLSearchParams({ icao: arrival.destination_icao, vehicle: entry.vehicle.id, eta: arrival.eta_utc })}`, label: 'Open the briefing' });
  }
  if (landing) {
    if (landing.destination.status !== 'OPERATIONAL') {
      facts.push({ label: 'Airport', value: `${landing.destination.status.toLowerCase()}: ${landing.destination.status_reasons.join(' ')}`, tone: landing.destination.status === 'CLOSED' ? 'bad' : 'warn' });
    }
    facts.push({ label: 'Safety score', value: `${landing.safety_score} of 100`, tone: scoreTone(landing.safety_score) });
    facts.push({
      label: 'Approach',
      value: `${landing.recommended_approach}${landing.flight_category ? `, ${landing.flight_category}` : ''}${landing.below_minima ? ', below minima' : ''}`,
      tone: landing.below_minima ? 'bad' : 'neutral',
    });
    const wind = landing.wind;
    if (wind) {
      const crosswind = wind.max_crosswind_kt ?? wind.crosswind_kt;
      const parts = [crosswind === null ? 'crosswind unknown' : `crosswind ${crosswind} kt of ${wind.crosswind_limit_kt} kt limit`];
      const speed = wind.speed_kt === 0 ? 'Calm' : `${wind.speed_kt}${wind.gust_kt ? `G${wind.gust_kt}` : ''} kt`;
      if (wind.max_tailwind_kt !== null && wind.max_tailwind_kt > 0) parts.push(`tailwind ${wind.max_tailwind_kt} kt of ${wind.tailwind_limit_kt} kt`);
      facts.push({
        label: `Wind, runway ${wind.runway}`,
        value: `${speed}: ${parts.join(', ')}${wind.within_limits === false ? ' (outside limits)' : ''}`,
        tone: wind.within_limits === null ? 'neutral' : wind.within_limits ? 'ok' : 'bad',
      });
    }
  }
  return { facts, links };
}

function vesselFacts(entry: FeedEntry): { facts: Fact[]; links: FeedCard['links'] } {
  const facts: Fact[] = [];
  const links: FeedCard['links'] = [];
  const voyage = entry.voyage;
  const mmsi = entry.vehicle.mmsi;
  if (mmsi !== null) links.push({ href: `/map?vessel=${mmsi}`, label: 'On the map' });
  if (!voyage) return { facts, links };
  if (voyage.position) {
    const speed = voyage.position.sog_kn === null ? '' : `, ${voyage.position.sog_kn} kn`;
    facts.push({ label: 'Position', value: `${position(voyage.position.lat, voyage.position.lon)}${speed}, ${ageWords(voyage.position.age_sec)}`, tone: 'neutral' });
  }
  const port = voyage.destination.port;
  if (port) {
    facts.push({ label: 'Destination', value: `${port.name}${port.unlocode ? ` (${port.unlocode})` : ''}`, tone: 'neutral' });
    links.push({ href: `/ports/${encodeURIComponent(port.id)}`, label: `Port of ${port.name}` });
  } else if (voyage.destination.reported) {
    facts.push({ label: 'Destination', value: `“${voyage.destination.reported}” as reported`, tone: 'neutral' });
  }
  if (voyage.eta) {
    const reported = voyage.eta.reported ? `; reported ${formatUtc(voyage.eta.reported)}` : '';
    const late = voyage.eta.reported !== null && voyage.eta.predicted > voyage.eta.reported;
    facts.push({ label: 'ETA', value: `${formatUtc(voyage.eta.predicted)}, ${voyage.eta.distance_nm} nm to go${reported}`, tone: late ? 'warn' : 'neutral' });
  }
  const tide = voyage.tidal_window;
  if (tide) {
    const draught = `draught ${tide.draught_m} m`;
    if (tide.navigable === 'always') facts.push({ label: 'Tidal window', value: `Open at every tide for ${draught}`, tone: 'ok' });
    else if (tide.next) facts.push({ label: 'Tidal window', value: `${formatUtc(tide.next.start)} to ${formatUtc(tide.next.end)} for ${draught}`, tone: 'warn' });
    else facts.push({ label: 'Tidal window', value: `None until ${formatUtc(tide.to)} for ${draught}`, tone: 'bad' });
  }
  const hold = voyage.weather_hold;
  if (hold) {
    if (hold.next) {
      const limiting = hold.next.limiting.map((factor) => `${factor.factor.replaceAll('_', ' ')} ${factor.worst} ${factor.unit} (limit ${factor.threshold})`).join(', ');
      facts.push({
        label: 'Weather hold',
        value: `${hold.active ? 'Now' : 'From ' + formatUtc(hold.next.start)} until ${formatUtc(hold.next.end)}${hold.at_eta ? ', at the ETA' : ''}: ${limiting}`,
        tone: hold.active || hold.at_eta ? 'bad' : 'warn',
      });
    } else {
      facts.push({ label: 'Weather hold', value: `None until ${formatUtc(hold.to)}`, tone: 'ok' });
    }
  }
  return { facts, links };
}

/** What a fleet feed entry shows on its card. */
export function feedCard(entry: FeedEntry): FeedCard {
  const { vehicle } = entry;
  const title = vehicle.registration ?? entry.voyage?.vessel?.name ?? (vehicle.mmsi !== null ? `MMSI ${vehicle.mmsi}` : vehicle.id);
  const { facts, links } = vehicle.vehicle_type === 'vessel' ? vesselFacts(entry) : aircraftFacts(entry);
  links.push({ href: `/fleet/${vehicle.id}`, label: 'Profile' });
  return {
    id: vehicle.id,
    title,
    type: vehicle.vehicle_type,
    facts,
    notes: entry.missing.map((missing) => missing.message),
    links,
    events: entry.open_events.map((event) => ({ id: event.id, summary: event.summary, severity: event.severity })),
    updatedAt: entry.updated_at,
  };
}

/** The feed after a `feed` frame: the entry replaced in place (a vehicle not listed yet is added at the end). */
export function mergeFeed(entries: readonly FeedEntry[], entry: FeedEntry): FeedEntry[] {
  const at = entries.findIndex((item) => item.vehicle.id === entry.vehicle.id);
  return at === -1 ? [...entries, entry] : entries.map((item, index) => (index === at ? entry : item));
}
