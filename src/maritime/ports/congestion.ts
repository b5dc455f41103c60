// Congestion at a port: who is waiting for a berth now and for how long, how long ships waited
// lately, how full the berths are, and how that went hour by hour.
//
// - Waiting now: the open calls that have not berthed yet: at anchor, stopped or moving in the
//   port's area before going alongside. Each is `anchorage` when its latest position lies in one of
//   the port's anchorage clusters (radius plus CLUSTER_MARGIN_NM), else `approach`. It has waited
//   since its call began: when it first stopped in the area (port calls, calls.ts).
// - Median wait: over the calls that berthed in the last `days` after first anchoring, the time
//   from arrival to berthing (stored calls). Calls that went straight alongside are counted beside
//   it, not in it, so the median says how long a ship that has to wait waits.
// - Berth occupancy: vessels at berth now (moored or stopped in an open call) over the berth
//   capacity (berths.ts: the records the caller sees, else the estimate).
// - History: at the start of each hour of the last `days`, the calls waiting (arrived, not yet
//   berthed or gone) and at berth (berthed, not yet gone), from the stored calls.
import { haversineNm } from '../../platform/geo/great-circle.ts';
import type { Vessel } from '../vessels/store.ts';
import { CLUSTER_MARGIN_NM, type PortArea } from './areas.ts';
import type { Capacity } from './berths.ts';
import type { InPortStatus, PortCall } from './calls.ts';

export const DEFAULT_CONGESTION_DAYS = 7;
export const MAX_CONGESTION_DAYS = 30;
/** At most this many waiting vessels are listed; the count covers all. */
export const MAX_WAITING_LISTED = 200;
const HOUR_MS = 3_600_000;

export type WaitingVessel = {
  readonly mmsi: number;
  readonly name: string | null;
  readonly call_id: string;
  readonly where: 'anchorage' | 'approach';
  readonly state: InPortStatus;
  readonly waiting_since: string;
  readonly waiting_hours: number;
  readonly lat: number | null;
  readonly lon: number | null;
};

export type CongestionHour = { readonly at: string; readonly waiting: number; readonly at_berth: number };

export type Congestion = {
  readonly port_id: string;
  readonly at: string;
  readonly days: number;
  readonly waiting: number;
  readonly waiting_vessels: readonly WaitingVessel[];
  readonly at_berth: number;
  readonly capacity: Capacity;
  /** at_berth over capacity.berths, two decimals. */
  readonly berth_occupancy: number;
  readonly median_wait_hours: number | null;
  readonly calls_berthed: number;
  readonly calls_waited: number;
  readonly history: readonly CongestionHour[];
};

export type CongestionInput = {
  readonly area: PortArea;
  readonly nowMs: number;
  readonly days: number;
  /** Open calls now, with the latest state of each vessel. */
  readonly inPort: readonly { readonly call: PortCall; readonly status: InPortStatus }[];
  /** Stored calls at the port spanning the last `days`. */
  readonly history: readonly PortCall[];
  readonly capacity: Capacity;
  readonly vessel: (mmsi: number) => Vessel | undefined;
};

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const hundredths = (value: number) => Math.round(value * 100) / 100;

export function congestion(input: CongestionInput): Congestion {
  const { area, nowMs, days } = input;
  const since = nowMs - days * 24 * HOUR_MS;

  const waiting: WaitingVessel[] = [];
  let atBerth = 0;
  for (const { call, status } of input.inPort) {
    if (call.berthed_at !== null) {
      if (status === 'moored' || status === 'stopped') atBerth++;
      continue;
    }
    const vessel = input.vessel(call.mmsi);
    const position = vessel?.position ?? null;
    const inAnchorage = position !== null && area.anchorages.some((cluster) =>
      haversineNm(cluster.lat, cluster.lon, position.lat, position.lon) <= cluster.radius_nm + CLUSTER_MARGIN_NM);
    waiting.push({
      mmsi: call.mmsi,
      name: vessel?.name ?? call.vessel_name,
      call_id: call.id,
      where: inAnchorage ? 'anchorage' : 'approach',
      state: status,
      waiting_since: call.arrived_at,
      waiting_hours: hundredths((nowMs - Date.parse(call.arrived_at)) / HOUR_MS),
      lat: position?.lat ?? null,
      lon: position?.lon ?? null,
    });
  }
  waiting.sort((a, b) => a.waiting_since.localeCompare(b.waiting_since) || a.mmsi - b.mmsi);

  const berthed = input.history.filter((call) => call.berthed_at !== null && Date.parse(call.berthed_at) >= since && Date.parse(call.berthed_at) <= nowMs);
  const waited = berthed.filter((call) => call.arrival_status === 'anchored');
  const medianWait = median(waited.map((call) => (Date.parse(call.berthed_at!) - Date.parse(call.arrived_at)) / HOUR_MS));

  const capacity = input.capacity;
  return {
    port_id: area.port.id,
    at: new Date(nowMs).toISOString(),
    days,
    waiting: waiting.length,
    waiting_vessels: waiting.slice(0, MAX_WAITING_LISTED),
    at_berth: atBerth,
    capacity,
    berth_occupancy: capacity.berths === 0 ? 0 : Math.round((atBerth / capacity.berths) * 100) / 100,
    median_wait_hours: medianWait === null ? null : hundredths(medianWait),
    calls_berthed: berthed.length,
    calls_waited: waited.length,
    history: hourly(input.history, since, nowMs),
  };
}

/** Calls waiting and at berth at the start of each hour from `fromMs` to `toMs`. */
export function hourly(calls: readonly PortCall[], fromMs: number, toMs: number): CongestionHour[] {
  const first = Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
  const count = Math.max(0, Math.floor((toMs - first) / HOUR_MS) + 1);
  const waiting = new Array<number>(count).fill(0);
  const atBerth = new Array<number>(count).fill(0);
  /** Adds one to each hour in [start, end). */
  const mark = (counts: number[], start: number, end: number) => {
    const from = Math.max(0, Math.ceil((start - first) / HOUR_MS));
    const to = Math.min(count, Math.ceil((end - first) / HOUR_MS));
    for (let i = from; i < to; i++) counts[i]! += 1;
  };
  for (const call of calls) {
    const arrived = Date.parse(call.arrived_at);
    const departed = call.departed_at === null ? Number.POSITIVE_INFINITY : Date.parse(call.departed_at);
    const berthed = call.berthed_at === null ? null : Date.parse(call.berthed_at);
    mark(waiting, arrived, Math.min(berthed ?? departed, departed));
    if (berthed !== null) mark(atBerth, berthed, departed);
  }
  return waiting.map((value, i) => ({ at: new Date(first + i * HOUR_MS).toISOString(), waiting: value, at_berth: atBerth[i]! }));
}
