// Landing rules: for a watched arrival, the landing answer at its ETA is held against the vehicle's
// notification thresholds (the vehicle's own, else its organisation's; the crosswind falls back to
// the aircraft's own limit), and each rule's event opens, changes or clears through the event
// store. Threshold rules clear past their dead band (DEAD_BANDS), the categorical ones (wind shear
// level, below minima) as soon as they no longer hold. A rule without data (no METAR, no runway)
// leaves its event as it is; a threshold removed clears it.
//
// Severity: warning, critical when far past the threshold — a crosswind above the aircraft's own
// limit, a safety score 20 points or more under the threshold, visibility under half the
// threshold, SEVERE wind shear; below minima is always critical.
import { landingProfileFor, type ArrivalStore, type FleetStore, type PlannedArrival, type Thresholds } from '../fleet/index.ts';
import type { LandingIntelligence, LandingWatch } from '../aviation/index.ts';
import { crossingFor, type Edge, type EventStore, type EventSubject, type NewEvent } from '../events/index.ts';

const WIND_SHEAR_ORDER = ['LOW', 'MODERATE', 'HIGH', 'SEVERE'];

type Content = Pick<NewEvent, 'severity' | 'summary' | 'data'>;

/** What one rule found: `unknown` (no data) holds its event, `off` (no threshold) clears it. */
export type Finding =
  | { kind: NewEvent['kind']; status: 'unknown' | 'off' }
  | { kind: 'landing.crosswind_above' | 'landing.safety_score_below' | 'landing.visibility_below'; status: 'measured'; value: number; threshold: number; event: Content }
  | { kind: 'landing.wind_shear_at_least' | 'landing.below_minima'; status: 'categorical'; holds: boolean; event: Content };

/** Where each threshold came from: the vehicle's settings, else the organisation's. */
export interface ArrivalThresholds {
  own: Thresholds;
  effective: Thresholds;
}

/** Each landing rule's finding for the answer at the arrival's ETA. */
export function landingFindings(bundle: LandingIntelligence, thresholds: ArrivalThresholds, name: string): Finding[] {
  const { effective } = thresholds;
  const icao = bundle.destination.icao;
  const metar = bundle.weather.metar;
  const runway = bundle.runway;
  const aircraftLimit = bundle.aircraft.crosswind_limit_kt;
  const base = { metar, eta_utc: bundle.eta_utc, runway: runway?.designator ?? null };
  const findings: Finding[] = [];

  const crosswind = runway?.max_crosswind_kt ?? null;
  if (runway === null || crosswind === null || metar === null) findings.push({ kind: 'landing.crosswind_above', status: 'unknown' });
  else {
    const threshold = effective.crosswind_kt_above ?? aircraftLimit;
    const source = thresholds.own.crosswind_kt_above !== undefined ? 'vehicle' : effective.crosswind_kt_above !== undefined ? 'organisation' : 'aircraft_limit';
    findings.push({
      kind: 'landing.crosswind_above', status: 'measured', value: crosswind, threshold,
      event: {
        severity: crosswind > aircraftLimit ? 'critical' : 'warning',
        summary: `Crosswind ${crosswind} kt on runway ${runway.designator} is above the ${threshold} kt limit of ${name}.`,
        data: { ...base, value: crosswind, threshold, threshold_source: source, aircraft_limit_kt: aircraftLimit },
      },
    });
  }

  const score = bundle.safety_score;
  const scoreBelow = effective.safety_score_below;
  if (scoreBelow === undefined) findings.push({ kind: 'landing.safety_score_below', status: 'off' });
  else {
    findings.push({
      kind: 'landing.safety_score_below', status: 'measured', value: score, threshold: scoreBelow,
      event: {
        severity: score <= scoreBelow - 20 ? 'critical' : 'warning',
        summary: `The landing safety score of ${name} at ${icao} is ${score}, below the threshold of ${scoreBelow}.`,
        data: { ...base, value: score, threshold: scoreBelow },
      },
    });
  }

  const visibility = bundle.weather.visibility_nm;
  const visibilityBelow = effective.visibility_nm_below;
  if (visibilityBelow === undefined) findings.push({ kind: 'landing.visibility_below', status: 'off' });
  else if (visibility === null) findings.push({ kind: 'landing.visibility_below', status: 'unknown' });
  else {
    findings.push({
      kind: 'landing.visibility_below', status: 'measured', value: visibility, threshold: visibilityBelow,
      event: {
        severity: visibility < visibilityBelow / 2 ? 'critical' : 'warning',
        summary: `Visibility at ${icao} is ${visibility} NM, below the ${visibilityBelow} NM threshold of ${name}.`,
        data: { ...base, value: visibility, threshold: visibilityBelow },
      },
    });
  }

  const shear = bundle.weather.wind_shear_risk;
  const shearAtLeast = effective.wind_shear_at_least;
  if (shearAtLeast === undefined) findings.push({ kind: 'landing.wind_shear_at_least', status: 'off' });
  else if (shear === null) findings.push({ kind: 'landing.wind_shear_at_least', status: 'unknown' });
  else {
    findings.push({
      kind: 'landing.wind_shear_at_least', status: 'categorical', holds: WIND_SHEAR_ORDER.indexOf(shear) >= WIND_SHEAR_ORDER.indexOf(shearAtLeast),
      event: {
        severity: shear === 'SEVERE' ? 'critical' : 'warning',
        summary: `The wind shear risk at ${icao} is ${shear}, at or above the ${shearAtLeast} threshold of ${name}.`,
        data: { ...base, value: shear, threshold: shearAtLeast, reasons: bundle.weather.wind_shear_reasons },
      },
    });
  }

  if (metar === null) findings.push({ kind: 'landing.below_minima', status: 'unknown' });
  else {
    findings.push({
      kind: 'landing.below_minima', status: 'categorical', holds: bundle.approach.below_minima,
      event: {
        severity: 'critical',
        summary: `The observed weather at ${icao} is below the typical minima of the ${bundle.approach.type} approach for ${name}.`,
        data: { ...base, approach: bundle.approach.type, minima: bundle.approach.minima },
      },
    });
  }
  return findings;
}

/** The edge a finding makes for an event that is open or not. */
export function edgeOf(finding: Finding, wasOpen: boolean): Edge {
  switch (finding.status) {
    case 'unknown': return 'hold';
    case 'off': return wasOpen ? 'clear' : 'hold';
    case 'measured': return crossingFor(finding.kind, { value: finding.value, threshold: finding.threshold, wasOpen });
    case 'categorical': return finding.holds === wasOpen ? 'hold' : finding.holds ? 'open' : 'clear';
  }
}

/** Whether the finding is past its threshold now, so an open event's content follows it. */
const holdsNow = (finding: Finding) =>
  finding.status === 'categorical' ? finding.holds : finding.status === 'measured' && crossingFor(finding.kind, { value: finding.value, threshold: finding.threshold, wasOpen: false }) === 'open';

export interface LandingRulesInputs {
  arrivals: ArrivalStore;
  fleet: FleetStore;
  landing: LandingWatch;
  events: EventStore;
}

/** Evaluates the landing rules of watched arrivals. */
export class LandingRules {
  readonly #inputs: LandingRulesInputs;

  constructor(inputs: LandingRulesInputs) {
    this.#inputs = inputs;
  }

  /** Every arrival watched now to `icao`, or (null) to anywhere. */
  async evaluateAirport(icao: string | null, nowMs = Date.now()): Promise<void> {
    for (const arrival of await this.#inputs.arrivals.watched(icao, nowMs)) await this.evaluate(arrival, nowMs);
  }

  async evaluate(arrival: PlannedArrival & { org_id: string }, nowMs = Date.now()): Promise<void> {
    const { fleet, landing, events } = this.#inputs;
    const owner = arrival.org_id;
    const vehicle = await fleet.get(owner, arrival.vehicle_id);
    const profile = vehicle && landingProfileFor(vehicle);
    const settings = await fleet.notificationSettings(owner, arrival.vehicle_id);
    if (!vehicle || !profile || !settings || vehicle.vehicle_type === 'vessel') return;
    const name = vehicle.registration ?? vehicle.id;
    const bundle = await landing.landingFor({
      icao: arrival.destination_icao, etaMs: Date.parse(arrival.eta_utc), registration: name, vehicleType: vehicle.vehicle_type, profile,
    }, arrival.id, nowMs);
    if (bundle === null) return;
    const subject: EventSubject = { type: 'arrival', id: arrival.id, vehicle_id: vehicle.id, arrival_id: arrival.id, icao: arrival.destination_icao };
    for (const finding of landingFindings(bundle, { own: settings.thresholds, effective: settings.effective }, name)) {
      const open = await events.findOpen(owner, finding.kind, subject);
      const edge = edgeOf(finding, open !== null);
      if (edge === 'open' && 'event' in finding) await events.open(owner, { kind: finding.kind, subject, ...finding.event });
      else if (edge === 'clear' && open) await events.clear(owner, open.id);
      else if (open && 'event' in finding && holdsNow(finding)) await events.update(owner, open.id, finding.event);
    }
  }
}
