// Rules about the airports and ports organisations watch (the watch list):
//
// - `airport.status_changed` (subject `{type: "airport", id: icao, icao}`): the airport's status now,
//   for any aircraft, by the NOTAMs in force and the reference data (the landing endpoint's
//   `destination.status` without a runway choice). LIMITED opens a warning, CLOSED a critical event
//   (a change between the two escalates or updates it), OPERATIONAL clears it; UNKNOWN (no runway
//   in the data) leaves it as it is. `data`: `status`, `previous_status`, `reasons`, the
//   `flight_category` and the `metar` held.
// - `port.weather_hold` (subject `{type: "port", id: port_id, port_id}`): the port's forecast from
//   now to the weather source's horizon exceeds the organisation's weather limits for the port.
//   Warning; `data`: the first hold (`start`, `end`, `limiting` factors with limit and worst value),
//   the `factors`, the `thresholds`, how many holds and held hours the `horizon_hours` have. Clears when no
//   hold remains in the horizon; a failing weather source leaves it as it is.
//
// Each owner watching the airport or port gets its own event; several instances raise it once.
import type { AirportNow, LandingWatch } from '../aviation/index.ts';
import type { EventStore, EventSubject } from '../events/index.ts';
import { WeatherUnavailableError, type MaritimeWatch, type PortHolds } from '../maritime/index.ts';
import type { WatchListStore } from '../watchlist/index.ts';
import { applyOutcome, type Outcome } from './outcome.ts';

/** What an open `airport.status_changed` event said. */
export interface OpenStatus {
  status: unknown;
  previous_status: unknown;
}

/**
 * What the airport's status now says for `airport.status_changed`, given what the open event (if
 * any) said: its previous status is OPERATIONAL when it opens, and the status it changed from
 * when it moves between LIMITED and CLOSED.
 */
export function airportStatusOutcome(now: AirportNow, open: OpenStatus | null): Outcome {
  if (now.status === 'UNKNOWN') return { status: 'unknown' };
  if (now.status === 'OPERATIONAL') return { status: 'categorical', holds: false };
  const previous = open === null ? 'OPERATIONAL' : open.status !== now.status ? open.status : open.previous_status;
  return {
    status: 'categorical', holds: true,
    event: {
      severity: now.status === 'CLOSED' ? 'critical' : 'warning',
      summary: `${now.name} (${now.icao}) is ${now.status === 'CLOSED' ? 'closed' : 'limited'}: ${now.reasons[0] ?? 'see the reasons'}`,
      data: { status: now.status, previous_status: previous, reasons: now.reasons, flight_category: now.flight_category, metar: now.metar },
    },
  };
}

/** What the port's holds say for `port.weather_hold`. */
export function portHoldOutcome(found: PortHolds): Outcome {
  const [first] = found.holds;
  if (first === undefined) return { status: 'categorical', holds: false };
  const factors = first.limiting.map((limit) => limit.factor);
  const heldHours = Math.round(found.holds.reduce((sum, hold) => sum + hold.duration_hours, 0) * 100) / 100;
  return {
    status: 'categorical', holds: true,
    event: {
      severity: 'warning',
      summary: `Weather is forecast to hold ${found.port.name} (${found.port.id}) from ${first.start} to ${first.end}: ${factors.join(', ')} beyond the port's limits.`,
      data: { first_hold: first, factors, thresholds: found.thresholds, holds: found.holds.length, held_hours: heldHours, horizon_hours: Math.round((Date.parse(found.to) - Date.parse(found.from)) / 3_600_000) },
    },
  };
}

export interface WatchRulesInputs {
  watchList: WatchListStore;
  landing: LandingWatch;
  maritime: MaritimeWatch;
  events: EventStore;
}

const airportSubject = (icao: string): EventSubject => ({ type: 'airport', id: icao, icao });
const portSubject = (portId: string): EventSubject => ({ type: 'port', id: portId, port_id: portId });

export class WatchRules {
  readonly #inputs: WatchRulesInputs;

  constructor(inputs: WatchRulesInputs) {
    this.#inputs = inputs;
  }

  /** Every owner watching this airport, or (null) every watched airport. */
  async evaluateAirports(icao: string | null, nowMs = Date.now()): Promise<void> {
    const { watchList, landing, events } = this.#inputs;
    const watchers = await watchList.watchers('airport', icao ?? undefined);
    const answers = new Map<string, AirportNow | null>();
    for (const { org_id: owner, target } of watchers) {
      if (!answers.has(target)) answers.set(target, await landing.airportNow(target, nowMs));
      const now = answers.get(target);
      if (!now) continue;
      const subject = airportSubject(target);
      const open = await events.findOpen(owner, 'airport.status_changed', subject);
      const outcome = airportStatusOutcome(now, open && { status: open.data.status, previous_status: open.data.previous_status });
      await applyOutcome(events, owner, 'airport.status_changed', subject, outcome);
    }
  }

  /** Every watched port, for each owner watching it with that owner's weather limits. */
  /** Every watched port, or (`portId`) the watchers of one. */
  async evaluatePorts(portId?: string, nowMs = Date.now()): Promise<void> {
    const { watchList, maritime, events } = this.#inputs;
    // Right after the start the port data may still be loading.
    await maritime.loaded();
    for (const { org_id: owner, target } of await watchList.watchers('port', portId)) {
      const port = maritime.port(target);
      if (!port) continue;
      const outcome = await holdsOutcome(() => maritime.holdsAt(port, owner, nowMs));
      await applyOutcome(events, owner, 'port.weather_hold', portSubject(port.id), outcome);
    }
  }
}

/** The holds' outcome; unknown when the weather source fails. */
export async function holdsOutcome(holds: () => Promise<PortHolds>): Promise<Outcome> {
  try {
    return portHoldOutcome(await holds());
  } catch (error) {
    if (error instanceof WeatherUnavailableError) return { status: 'unknown' };
    throw error;
  }
}
