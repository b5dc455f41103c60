// What the alerts pages say about an event, in words: its kind, what crossed which threshold, the
// dashboard page of what it is about, the inbox's filters, and the count of open events nobody has
// acknowledged yet. Pure, so it is tested without a browser.
import type { OperationResponse } from '@lamis/sdk';

export type LamisEvent = OperationResponse<'GET /v3/events/{id}'>;
export type EventKind = LamisEvent['kind'];
export type Severity = LamisEvent['severity'];

/** Each kind in plain words, as a heading. */
export const KIND_WORDS: Record<EventKind, string> = {
  'landing.safety_score_below': 'Landing safety score below the threshold',
  'landing.crosswind_above': 'Crosswind above the limit',
  'landing.wind_shear_at_least': 'Wind shear risk at or above the threshold',
  'landing.visibility_below': 'Visibility below the threshold',
  'landing.below_minima': 'Below the approach minima',
  'landing.runway_changed': 'Recommended runway changed',
  'landing.slot_unavailable': 'No landing slot in the hour of the ETA',
  'airport.status_changed': 'Airport limited or closed',
  'airport.notam_issued': 'NOTAM issued',
  'vessel.port_arrival': 'Vessel arrived in port',
  'vessel.port_departure': 'Vessel left port',
  'vessel.zone_entered': 'Vessel entered a zone',
  'vessel.zone_exited': 'Vessel left a zone',
  'vessel.ais_gap': 'Vessel silent on AIS',
  'vessel.eta_delayed': 'Arrival delayed',
  'vessel.voyage_changed': 'Voyage data changed',
  'port.weather_hold': 'Weather hold at the port',
  'vessel.tide_restricted': 'No tidal window at the ETA',
  'vessel.encounter': 'Close encounter with another vessel',
  'feed.stale': 'Data feed stale',
};

export const EVENT_KINDS = Object.keys(KIND_WORDS) as EventKind[];
export const SEVERITIES: Severity[] = ['critical', 'warning', 'info'];
export const SEVERITY_TONES = { critical: 'bad', warning: 'warn', info: 'info' } as const;

/** The measured kinds: what is compared, in which unit, and which way it crosses. */
const MEASURES: Partial<Record<EventKind, { measure: string; unit: string; crossed: string }>> = {
  'landing.crosswind_above': { measure: 'Crosswind', unit: ' kt', crossed: 'above the limit of' },
  'landing.safety_score_below': { measure: 'Safety score', unit: '', crossed: 'below the threshold of' },
  'landing.visibility_below': { measure: 'Visibility', unit: ' NM', crossed: 'below the threshold of' },
  'landing.wind_shear_at_least': { measure: 'Wind shear risk', unit: '', crossed: 'at or above the threshold' },
  'vessel.eta_delayed': { measure: 'Delay', unit: ' min', crossed: 'above the threshold of' },
};

const scalar = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';

/** "Crosswind 25 kt, above the limit of 15 kt": the value and the threshold it crossed, when the event has both. */
export function crossingOf(event: Pick<LamisEvent, 'kind' | 'data'>): string | null {
  const measure = MEASURES[event.kind];
  const { value, threshold } = event.data;
  if (!measure || !scalar(value) || !scalar(threshold)) return null;
  return `${measure.measure} ${value}${measure.unit}, ${measure.crossed} ${threshold}${measure.unit}`;
}

/** The reasons the event gives (`data.reasons`, e.g. an airport's status or the wind shear's), as sentences. */
export function reasonsOf(event: Pick<LamisEvent, 'data'>): string[] {
  const reasons = event.data.reasons;
  return Array.isArray(reasons) ? reasons.filter((reason): reason is string => typeof reason === 'string') : [];
}

export interface SubjectLink {
  href: string;
  label: string;
}

/** The dashboard pages of what the event is about: the briefing, the vehicle, the vessel on the map, the port, the zone. */
export function subjectLinks(subject: LamisEvent['subject']): SubjectLink[] {
  const links: SubjectLink[] = [];
  if (subject.type === 'arrival' && subject.icao) {
    const vehicle = subject.vehicle_id ? `&vehicle=${encodeURIComponent(subject.vehicle_id)}` : '';
    links.push({ href: `/landing?icao=${encodeURIComponent(subject.icao)}${vehicle}`, label: `Landing briefing for ${subject.icao}` });
  } else if (subject.type === 'airport' && subject.icao) {
    links.push({ href: `/landing?icao=${encodeURIComponent(subject.icao)}`, label: `Landing briefing for ${subject.icao}` });
  }
  if (subject.vehicle_id) links.push({ href: `/fleet/${encodeURIComponent(subject.vehicle_id)}`, label: 'The vehicle' });
  if (subject.mmsi !== undefined) links.push({ href: `/map?vessel=${subject.mmsi}`, label: `MMSI ${subject.mmsi} on the map` });
  if (subject.port_id) links.push({ href: `/ports/${encodeURIComponent(subject.port_id)}`, label: `Port ${subject.port_id}` });
  if (subject.zone_id) links.push({ href: `/zones/${encodeURIComponent(subject.zone_id)}`, label: 'The zone' });
  return links;
}

/** "arrival arr_…, EGLL": the subject as the event names it. */
export function subjectWords(subject: LamisEvent['subject']): string {
  const parts = [`${subject.type} ${subject.id}`];
  if (subject.icao && subject.icao !== subject.id) parts.push(subject.icao);
  if (subject.port_id && subject.port_id !== subject.id) parts.push(subject.port_id);
  return parts.join(', ');
}

// ---------- The inbox's filters, kept in the address ----------

export interface InboxFilters {
  state: 'open' | 'cleared' | '';
  kind: EventKind | '';
  severity: Severity | '';
  subject_type: string;
  subject_id: string;
}

export const NO_FILTERS: InboxFilters = { state: 'open', kind: '', severity: '', subject_type: '', subject_id: '' };

/** The filters in `?state=&kind=&severity=&subject_type=&subject_id=`; open events unless `state=all`. */
export function filtersFrom(query: URLSearchParams): InboxFilters {
  const state = query.get('state');
  const kind = query.get('kind') ?? '';
  const severity = query.get('severity') ?? '';
  return {
    state: state === 'cleared' ? 'cleared' : state === 'all' ? '' : 'open',
    kind: (EVENT_KINDS as string[]).includes(kind) ? (kind as EventKind) : '',
    severity: (SEVERITIES as string[]).includes(severity) ? (severity as Severity) : '',
    subject_type: query.get('subject_type')?.trim() ?? '',
    subject_id: query.get('subject_id')?.trim() ?? '',
  };
}

/** The address of the inbox with these filters. */
export function inboxPath(filters: InboxFilters): string {
  const query = new URLSearchParams();
  if (filters.state !== 'open') query.set('state', filters.state || 'all');
  for (const name of ['kind', 'severity', 'subject_type', 'subject_id'] as const) if (filters[name]) query.set(name, filters[name]);
  const search = query.toString();
  return search ? `/alerts?${search}` : '/alerts';
}

/** The `GET /v3/events` query of the filters (empty ones left out). */
export function listQuery(filters: InboxFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) if (value) query[name] = value;
  return query;
}

/** Whether an event (say, one that just came over the stream) belongs in the list these filters show. */
export function matches(event: LamisEvent, filters: InboxFilters): boolean {
  return (!filters.state || event.state === filters.state) && (!filters.kind || event.kind === filters.kind)
    && (!filters.severity || event.severity === filters.severity)
    && (!filters.subject_type || event.subject.type === filters.subject_type)
    && (!filters.subject_id || event.subject.id === filters.subject_id);
}

/**
 * The list after an event changed: replaced where it is, added in its place (newest opening first)
 * when it now matches, dropped when it no longer does.
 */
export function mergeEvent(list: readonly LamisEvent[], event: LamisEvent, filters: InboxFilters): LamisEvent[] {
  const rest = list.filter((item) => item.id !== event.id);
  if (!matches(event, filters)) return rest;
  const at = rest.findIndex((item) => item.opened_at < event.opened_at || (item.opened_at === event.opened_at && item.id < event.id));
  return at === -1 ? [...rest, event] : [...rest.slice(0, at), event, ...rest.slice(at)];
}

// ---------- The header's count ----------

/** Whether an event counts in the header's badge: open, and nobody acknowledged it. */
export const needsAttention = (event: Pick<LamisEvent, 'state' | 'acknowledged_at'>): boolean =>
  event.state === 'open' && event.acknowledged_at === null;

/** The ids of the events that need attention, after one changed. */
export function countChange(ids: ReadonlySet<string>, event: Pick<LamisEvent, 'id' | 'state' | 'acknowledged_at'>): Set<string> {
  const next = new Set(ids);
  if (needsAttention(event)) next.add(event.id);
  else next.delete(event.id);
  return next;
}

// ---------- Thresholds and the events they drive ----------

export type ThresholdName = 'safety_score_below' | 'crosswind_kt_above' | 'wind_shear_at_least' | 'visibility_nm_below' | 'weather_hold' | 'eta_delay_minutes_above';

/** What each alert threshold raises, as the engine's rules use it (src/intelligence). */
export const THRESHOLD_RAISES: Record<ThresholdName, { kinds: EventKind[]; words: string }> = {
  safety_score_below: {
    kinds: ['landing.safety_score_below'],
    words: 'A landing safety score alert for a planned arrival whose score at its ETA falls below it; critical 20 points under.',
  },
  crosswind_kt_above: {
    kinds: ['landing.crosswind_above'],
    words: 'A crosswind alert for a planned arrival whose runway crosswind, gusts included, exceeds it. Switched off, the aircraft\'s own crosswind limit is used.',
  },
  wind_shear_at_least: {
    kinds: ['landing.wind_shear_at_least'],
    words: 'A wind shear alert for a planned arrival when the risk at the destination reaches this level; critical when severe.',
  },
  visibility_nm_below: {
    kinds: ['landing.visibility_below'],
    words: 'A visibility alert for a planned arrival when the destination\'s visibility falls below it; critical under half of it.',
  },
  weather_hold: {
    kinds: ['port.weather_hold'],
    words: 'A weather hold alert for a fleet vessel when the forecast holds the port its AIS destination names.',
  },
  eta_delay_minutes_above: {
    kinds: ['vessel.eta_delayed'],
    words: 'An arrival delay alert for a fleet vessel whose predicted ETA is later than the ETA it reports by more than this.',
  },
};
