// Berth availability at a port, now, at a past time, or at a time to come.
//
// - Now: the vessels in port from the open calls, each at berth (moored, or stopped by speed) or at
//   anchor by its latest report; a vessel moving in the port is neither.
// - Past: the recorded calls that spanned the time; at berth from `berthed_at`, else at anchor.
// - To come: the vessels at berth now stay until their expected departure; those at anchor now
//   want a berth; expected arrivals with an ETA by then join and stay their typical time. That
//   demand fills the berths up to capacity (`at_berth`) and the rest waits (`waiting`).
// - Expected departure: when the vessel berthed (or arrived) plus the typical stay: the median of
//   the calls that ended at the port in the last HISTORY_DAYS (at least MIN_HISTORY_CALLS of
//   them), else a default by vessel category. A vessel past it is `overdue` and counted as staying.
// - Capacity: the berth records, or, without records, an estimate (berths.ts).
// - Named berths with a position: each vessel at berth is placed at the nearest berth within
//   reach of where it berthed (half the berth's length plus 150 m, or 250 m), one vessel a berth;
//   a forecast shows the vessels at berth now that are expected to be there still.
import { haversineNm } from '../../platform/geo/great-circle.ts';
import type { VesselCategory } from '../vessels/reference/index.ts';
import type { Vessel } from '../vessels/store.ts';
import type { ExpectedArrival } from './arrivals.ts';
import { berthReachM, capacityOf, type Berth, type Capacity } from './berths.ts';
import type { InPortStatus, PortCall } from './calls.ts';
import { median } from './congestion.ts';
import type { Port } from './model.ts';

export const HISTORY_DAYS = 30;
export const MIN_HISTORY_CALLS = 5;
/** At most this many vessels are listed in each list of an answer; the counts cover all. */
export const MAX_LISTED = 200;
const HOUR_MS = 3_600_000;
const METRES_PER_NM = 1852;

/** Typical hours alongside when the port's own history is too thin. */
export const DEFAULT_STAY_HOURS: Readonly<Partial<Record<VesselCategory, number>>> & { readonly other: number } = {
  CARGO: 24,
  TANKER: 36,
  PASSENGER: 10,
  HSC: 2,
  FISHING: 24,
  other: 24,
};

export type StayBasis = 'port_history' | 'default' | 'overdue';

export type VesselInPort = {
  readonly mmsi: number;
  readonly name: string | null;
  readonly state: 'at_berth' | 'at_anchor';
  readonly call_id: string;
  readonly arrived_at: string;
  readonly berthed_at: string | null;
  /** null when overdue. */
  readonly expected_departure_at: string | null;
  readonly expected_departure_basis: StayBasis;
  readonly berth_id: string | null;
};

export type ArrivalInWindow = {
  readonly mmsi: number;
  readonly name: string | null;
  readonly eta: string;
  readonly eta_basis: 'reported' | 'course';
};

export type BerthOccupancy = {
  readonly id: string;
  readonly name: string;
  /** The organisation whose own record it is; null: shared. */
  readonly organisation_id: string | null;
  /** The vessel placed at the berth; null when free or when no vessel could be placed by position. */
  readonly occupied_by: { readonly mmsi: number; readonly name: string | null } | null;
};

export type Availability = {
  readonly port_id: string;
  readonly at: string;
  /** `now`: live state; `recorded`: from stored calls; `forecast`: from expected departures and arrivals. */
  readonly basis: 'now' | 'recorded' | 'forecast';
  readonly capacity: Capacity;
  /** Vessels at berth; in a forecast, the demand for berths up to capacity. */
  readonly at_berth: number;
  /** Vessels at anchor; in a forecast, the demand for berths beyond capacity. */
  readonly waiting: number;
  /** Berths free: capacity less the vessels at berth (less the demand, in a forecast). */
  readonly available: number;
  readonly vessels: readonly VesselInPort[];
  /** Vessels in port now expected to leave by `at` (forecast), or in the next 24 hours (now). */
  readonly expected_departures: readonly VesselInPort[];
  /** Vessels expected by `at` (forecast), or in the next 24 hours (now). */
  readonly expected_arrivals: readonly ArrivalInWindow[];
  /** Only for berth records with a position. */
  readonly berths: readonly BerthOccupancy[];
  readonly typical_stay_hours: number | null;
};

export type AvailabilityInput = {
  readonly port: Port;
  readonly atMs: number;
  readonly nowMs: number;
  readonly berths: readonly Berth[];
  /** Calls at the port spanning the last HISTORY_DAYS up to now (and `at` when it is earlier). */
  readonly history: readonly PortCall[];
  /** Open calls now, with the latest state of each vessel. */
  readonly inPort: readonly { readonly call: PortCall; readonly status: InPortStatus }[];
  readonly arrivals: readonly ExpectedArrival[];
  readonly vessel: (mmsi: number) => Vessel | undefined;
};

/** Start of a call's time at berth, or of the call when it never berthed. */
const stayStart = (call: PortCall) => Date.parse(call.berthed_at ?? call.arrived_at);

/** The most vessels at berth at once over the calls given, between `fromMs` and `toMs`. */
export function peakAtBerth(calls: readonly PortCall[], fromMs: number, toMs: number): number {
  const events: [number, number][] = [];
  for (const call of calls) {
    if (call.berthed_at === null) continue;
    const start = Math.max(fromMs, Date.parse(call.berthed_at));
    const end = Math.min(toMs, call.departed_at === null ? toMs : Date.parse(call.departed_at));
    if (end <= start) continue;
    events.push([start, 1], [end, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let current = 0;
  let peak = 0;
  for (const [, change] of events) peak = Math.max(peak, (current += change));
  return peak;
}

export function availability(input: AvailabilityInput): Availability {
  const { port, atMs, nowMs, berths } = input;
  const since = nowMs - HISTORY_DAYS * 24 * HOUR_MS;
  const finished = input.history.filter((call) => call.departed_at !== null && Date.parse(call.departed_at) >= since);
  const portStay = finished.length >= MIN_HISTORY_CALLS
    ? median(finished.map((call) => (Date.parse(call.departed_at!) - stayStart(call)) / HOUR_MS))
    : null;
  const stayHours = (category: VesselCategory | undefined) =>
    portStay ?? (category === undefined ? DEFAULT_STAY_HOURS.other : DEFAULT_STAY_HOURS[category] ?? DEFAULT_STAY_HOURS.other);
  const capacity = capacityOf(port, berths.length, peakAtBerth(input.history, since, nowMs));
  const basis = Math.abs(atMs - nowMs) <= 60_000 ? 'now' : atMs < nowMs ? 'recorded' : 'forecast';

  const inPortView = (call: PortCall, state: VesselInPort['state']): VesselInPort => {
    const vessel = input.vessel(call.mmsi);
    const expected = stayStart(call) + stayHours(vessel?.category) * HOUR_MS;
    const overdue = expected < nowMs && call.departed_at === null;
    return {
      mmsi: call.mmsi,
      name: vessel?.name ?? call.vessel_name,
      state,
      call_id: call.id,
      arrived_at: call.arrived_at,
      berthed_at: call.berthed_at,
      expected_departure_at: overdue ? null : new Date(expected).toISOString(),
      expected_departure_basis: overdue ? 'overdue' : portStay !== null ? 'port_history' : 'default',
      berth_id: null,
    };
  };

  let vessels: VesselInPort[];
  const expectedDepartures: VesselInPort[] = [];
  const expectedArrivals: ArrivalInWindow[] = [];
  /** Forecasts: the vessels wanting a berth at `at`. */
  let demand = 0;
  if (basis === 'recorded') {
    vessels = input.history
      .filter((call) => Date.parse(call.arrived_at) <= atMs && (call.departed_at === null || Date.parse(call.departed_at) > atMs))
      .map((call) => inPortView(call, call.berthed_at !== null && Date.parse(call.berthed_at) <= atMs ? 'at_berth' : 'at_anchor'));
  } else {
    const now = input.inPort
      .filter(({ status }) => status !== 'under_way')
      .map(({ call, status }) => inPortView(call, status === 'anchored' ? 'at_anchor' : 'at_berth'));
    const horizon = basis === 'now' ? nowMs + 24 * HOUR_MS : atMs;
    const leaves = (vessel: VesselInPort) => vessel.expected_departure_at !== null && Date.parse(vessel.expected_departure_at) <= horizon;
    expectedDepartures.push(...now.filter((vessel) => vessel.state === 'at_berth' && leaves(vessel)));
    for (const arrival of input.arrivals) {
      const eta = arrival.course_eta ?? arrival.vessel.eta;
      if (eta === null) continue;
      const etaMs = Date.parse(eta);
      if (etaMs < nowMs - HOUR_MS || etaMs > horizon) continue;
      expectedArrivals.push({ mmsi: arrival.vessel.mmsi, name: arrival.vessel.name, eta, eta_basis: arrival.course_eta === null ? 'reported' : 'course' });
    }
    if (basis === 'now') {
      vessels = now;
    } else {
      // At `at`: who is still there, plus those that came by then and have not yet gone again.
      vessels = now.filter((vessel) => vessel.state === 'at_anchor' || !leaves(vessel));
      const arriving = expectedArrivals.filter((arrival) => {
        const category = input.vessel(arrival.mmsi)?.category;
        return Date.parse(arrival.eta) + stayHours(category) * HOUR_MS > atMs;
      });
      demand = vessels.length + arriving.length;
    }
  }

  const placed = placeAtBerths(berths, vessels, input.history, input.inPort);
  vessels = vessels.map((vessel) => ({ ...vessel, berth_id: placed.get(vessel.call_id) ?? null }));
  const occupant = new Map<string, VesselInPort>();
  for (const vessel of vessels) if (vessel.berth_id !== null) occupant.set(vessel.berth_id, vessel);

  const counted = vessels.filter((vessel) => vessel.state === 'at_berth').length;
  const atBerth = basis === 'forecast' ? Math.min(demand, capacity.berths) : counted;
  return {
    port_id: port.id,
    at: new Date(atMs).toISOString(),
    basis,
    capacity,
    at_berth: atBerth,
    waiting: basis === 'forecast' ? Math.max(0, demand - capacity.berths) : vessels.length - counted,
    available: Math.max(0, capacity.berths - (basis === 'forecast' ? demand : counted)),
    vessels: vessels.slice(0, MAX_LISTED),
    expected_departures: expectedDepartures.slice(0, MAX_LISTED),
    expected_arrivals: expectedArrivals.slice(0, MAX_LISTED),
    berths: berths
      .filter((berth) => berth.lat !== null && berth.lon !== null)
      .map((berth) => {
        const vessel = occupant.get(berth.id);
        return {
          id: berth.id, name: berth.name, organisation_id: berth.organisation_id,
          occupied_by: vessel === undefined ? null : { mmsi: vessel.mmsi, name: vessel.name },
        };
      }),
    typical_stay_hours: portStay === null ? null : Math.round(portStay * 10) / 10,
  };
}

/** Call id → berth id, each vessel at berth at the nearest positioned berth within reach, one a berth. */
function placeAtBerths(
  berths: readonly Berth[],
  vessels: readonly VesselInPort[],
  history: readonly PortCall[],
  inPort: readonly { readonly call: PortCall }[],
): Map<string, string> {
  const positioned = berths.filter((berth) => berth.lat !== null && berth.lon !== null);
  const calls = new Map<string, PortCall>();
  for (const call of history) calls.set(call.id, call);
  for (const { call } of inPort) calls.set(call.id, call);
  const pairs: { callId: string; berthId: string; metres: number }[] = [];
  for (const vessel of vessels) {
    const call = calls.get(vessel.call_id);
    if (vessel.state !== 'at_berth' || call?.berth_lat == null || call.berth_lon == null) continue;
    for (const berth of positioned) {
      const metres = haversineNm(call.berth_lat, call.berth_lon, berth.lat!, berth.lon!) * METRES_PER_NM;
      if (metres <= berthReachM(berth)) pairs.push({ callId: call.id, berthId: berth.id, metres });
    }
  }
  pairs.sort((a, b) => a.metres - b.metres);
  const placed = new Map<string, string>();
  const taken = new Set<string>();
  for (const { callId, berthId } of pairs) {
    if (placed.has(callId) || taken.has(berthId)) continue;
    placed.set(callId, berthId);
    taken.add(berthId);
  }
  return placed;
}
