// Landing rules: for a watched arrival, the landing answer at its ETA is held against the vehicle's
// notification thresholds (the vehicle's own, else its organisation's; the crosswind falls back to
// the aircraft's own limit), and each rule's event opens, changes or clears through the event
// store. Threshold rules clear past their dead band (DEAD_BANDS), the categorical ones (wind shear
// level, below minima, no slot, NOTAMs) as soon as they no longer hold. A rule without data (no
// weather known at the ETA, no runway) leaves its event as it is; a threshold removed clears it.
// The weather at the ETA is the answer's (`weather.basis`): the METAR while it holds, the TAF
// beyond; past the TAF nothing is known, so an arrival days ahead raises no weather event from
// today's METAR, and its safety score (lowered for want of weather, not for a hazard) is not held
// against the threshold either.
//
// When the wind rules out every open runway end there is no recommended runway, and the crosswind
// rule reads the least crosswind among the open ends (gusts included) against the lesser of the
// threshold and the aircraft's limit: the wind is why there is no runway.
//
// Change rules (`landing.runway_changed`, `airport.status_changed`) compare the answer with what
// was last seen for the arrival (kept in storage, so a restart is not a change); a runway chosen
// with no weather known at the ETA was not decided by the wind, so the first choice with weather
// is no change. A change opens an
// event, or updates the one open; once that one is acknowledged, the next change clears it and
// opens a new one. They clear when the arrival is archived or removed, like every event of it.
//
// Severity: warning, critical when far past the threshold — a crosswind above the aircraft's own
// limit, a safety score 20 points or more under the threshold, visibility under half the
// threshold, SEVERE wind shear; below minima is always critical; a slot missing is a warning; a
// runway change is info; a status change is a warning to LIMITED, critical to CLOSED, info back to
// OPERATIONAL; NOTAMs are a warning, critical when one closes the aerodrome.
import { landingProfileFor, normaliseRegistration, type ArrivalStore, type FleetStore, type PlannedArrival, type Thresholds } from '../fleet/index.ts';
import { restrictionCode, slotHour, type LandingIntelligence, type LandingWatch, type RunwayChoice, type WatchedAnswer } from '../aviation/index.ts';
import { crossingFor, type Edge, type EventKind, type EventStore, type EventSubject, type LamisEvent, type NewEvent } from '../events/index.ts';
import type { ArrivalLandingState, ArrivalRef, ArrivalStateStore } from './arrival-state.ts';

const WIND_SHEAR_ORDER = ['LOW', 'MODERATE', 'HIGH', 'SEVERE'];
/** Statuses a change is told of; UNKNOWN (no runway in the data) says nothing new. */
const TOLD_STATUSES = ['OPERATIONAL', 'LIMITED', 'CLOSED'];
/** NOTAM effects that bear on the whole aerodrome, whichever runway is recommended. */
const AERODROME_EFFECTS = new Set(['aerodrome_closed', 'runway_closed']);

type Content = Pick<NewEvent, 'severity' | 'summary' | 'data'>;

/** What one rule found: `unknown` (no data) holds its event, `off` (no threshold) clears it. */
export type Finding =
  | { kind: EventKind; status: 'unknown' | 'off' }
  | { kind: 'landing.crosswind_above' | 'landing.safety_score_below' | 'landing.visibility_below'; status: 'measured'; value: number; threshold: number; event: Content }
  | { kind: EventKind; status: 'categorical'; holds: boolean; event: Content }
  /** A change from what was last seen: opens or updates the event; no change holds it. */
  | { kind: 'landing.runway_changed' | 'airport.status_changed'; status: 'change'; changed: boolean; event: Content };

/** Where each threshold came from: the vehicle's settings, else the organisation's. */
export interface ArrivalThresholds {
  own: Thresholds;
  effective: Thresholds;
}

/** What the rules know of the arrival besides its landing answer. */
export interface ArrivalFacts {
  thresholds: ArrivalThresholds;
  /** The vehicle as people name it: its registration. */
  name: string;
  /** The arrival's vehicle holds a booked slot in the ETA's hour. */
  holdsSlot: boolean;
  /** What was last seen for the arrival; null the first time. */
  previous: Pick<ArrivalLandingState, 'runway' | 'approach' | 'status'> | null;
}

/** The least crosswind (gusts included) among the open runway ends when the wind rules every one of them out; else null. */
export function leastCrosswindOfNone(choice: RunwayChoice): number | null {
  if (choice.runway !== null) return null;
  const open = choice.candidates.filter((end) => !end.closed_in_data && end.closed_by.length === 0);
  if (open.length === 0 || open.some((end) => end.excluded === null || end.max_crosswind_kt === null)) return null;
  return Math.min(...open.map((end) => end.max_crosswind_kt!));
}

/** Each landing rule's finding for the answer at the arrival's ETA. */
export function landingFindings({ bundle, choice }: WatchedAnswer, facts: ArrivalFacts): Finding[] {
  const { thresholds: { own, effective }, name } = facts;
  const icao = bundle.destination.icao;
  const known = bundle.weather.basis !== 'none';
  const base = baseData(bundle);
  const findings: Finding[] = [crosswindFinding(bundle, choice, own, effective, name)];

  const score = bundle.safety_score;
  const scoreBelow = effective.safety_score_below;
  if (scoreBelow === undefined) findings.push({ kind: 'landing.safety_score_below', status: 'off' });
  else if (!known) findings.push({ kind: 'landing.safety_score_below', status: 'unknown' });
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

  if (!known) findings.push({ kind: 'landing.below_minima', status: 'unknown' });
  else {
    findings.push({
      kind: 'landing.below_minima', status: 'categorical', holds: bundle.approach.below_minima,
      event: {
        severity: 'critical',
        summary: `The ${bundle.weather.basis === 'forecast' ? 'forecast' : 'observed'} weather at ${icao} is below the typical minima of the ${bundle.approach.type} approach for ${name}.`,
        data: { ...base, approach: bundle.approach.type, minima: bundle.approach.minima },
      },
    });
  }

  const slot = bundle.slot;
  findings.push({
    kind: 'landing.slot_unavailable', status: 'categorical', holds: !bundle.slot_available && !facts.holdsSlot,
    event: {
      severity: 'warning',
      summary: `No arrival slot is left at ${icao} in the hour of ${bundle.eta_utc.slice(11, 16)} UTC for ${name}: ${slot.booked} of ${slot.capacity} booked.`,
      data: { eta_utc: bundle.eta_utc, hour: slot.hour, capacity: slot.capacity, capacity_source: slot.capacity_source, booked: slot.booked, remaining: slot.remaining },
    },
  });

  findings.push(...changeFindings(bundle, facts), notamFinding(bundle, name));
  return findings;
}

/** What every weather event of the arrival says of its inputs: the METAR held, and what the weather at the ETA rests on (`observation`, `forecast`). */
function baseData(bundle: LandingIntelligence) {
  return { metar: bundle.weather.metar, basis: bundle.weather.basis, eta_utc: bundle.eta_utc, runway: bundle.runway?.designator ?? null };
}

function crosswindFinding(bundle: LandingIntelligence, choice: RunwayChoice, own: Thresholds, effective: Thresholds, name: string): Finding {
  const kind = 'landing.crosswind_above';
  const runway = bundle.runway;
  const aircraftLimit = bundle.aircraft.crosswind_limit_kt;
  const threshold = effective.crosswind_kt_above ?? aircraftLimit;
  const source = own.crosswind_kt_above !== undefined ? 'vehicle' : effective.crosswind_kt_above !== undefined ? 'organisation' : 'aircraft_limit';
  const base = baseData(bundle);
  if (bundle.weather.basis === 'none') return { kind, status: 'unknown' };
  if (runway !== null) {
    const crosswind = runway.max_crosswind_kt;
    if (crosswind === null) return { kind, status: 'unknown' };
    return {
      kind, status: 'measured', value: crosswind, threshold,
      event: {
        severity: crosswind > aircraftLimit ? 'critical' : 'warning',
        summary: `Crosswind ${crosswind} kt on runway ${runway.designator} is above the ${threshold} kt limit of ${name}.`,
        data: { ...base, value: crosswind, threshold, threshold_source: source, aircraft_limit_kt: aircraftLimit },
      },
    };
  }
  const least = leastCrosswindOfNone(choice);
  if (least === null) return { kind, status: 'unknown' };
  // The aircraft's own limit is what ruled every end out, whatever alert threshold is set above it.
  const limit = Math.min(threshold, aircraftLimit);
  return {
    kind, status: 'measured', value: least, threshold: limit,
    event: {
      severity: 'critical',
      summary: `No runway at ${bundle.destination.icao} is within the crosswind limit of ${name}: the least crosswind is ${least} kt, above the ${limit} kt limit.`,
      data: {
        ...base, value: least, threshold: limit, threshold_source: limit < threshold ? 'aircraft_limit' : source, aircraft_limit_kt: aircraftLimit,
        no_runway_within_limits: true, reason: choice.reason,
      },
    },
  };
}

function changeFindings(bundle: LandingIntelligence, { previous, name }: ArrivalFacts): Finding[] {
  const icao = bundle.destination.icao;
  const runway = bundle.runway?.designator ?? null;
  const approach = bundle.recommended_approach;
  // With no weather at the ETA the wind could not decide the runway: the first weather to come is no change.
  const runwayChanged = previous?.approach != null && bundle.weather.basis !== 'none' && (previous.runway !== runway || previous.approach !== approach);
  const runwayFinding: Finding = {
    kind: 'landing.runway_changed', status: 'change', changed: runwayChanged,
    event: {
      severity: 'info',
      summary: `The recommended landing at ${icao} for ${name} changed from ${previous?.approach ?? approach} to ${approach}.`,
      data: {
        previous: { runway: previous?.runway ?? null, approach: previous?.approach ?? null }, current: { runway, approach },
        reason: bundle.runway_choice.reason, metar: bundle.weather.metar, basis: bundle.weather.basis, eta_utc: bundle.eta_utc,
      },
    },
  };
  const status = bundle.destination.status;
  const statusChanged = previous !== null && previous.status !== status && TOLD_STATUSES.includes(previous.status) && TOLD_STATUSES.includes(status);
  const statusFinding: Finding = {
    kind: 'airport.status_changed', status: 'change', changed: statusChanged,
    event: {
      severity: status === 'CLOSED' ? 'critical' : status === 'LIMITED' ? 'warning' : 'info',
      summary: `${icao} is ${status} for the arrival of ${name}, ${previous?.status ?? status} before.`,
      data: { old: previous?.status ?? null, new: status, reasons: bundle.destination.status_reasons, eta_utc: bundle.eta_utc },
    },
  };
  return [runwayFinding, statusFinding];
}

/**
 * The NOTAMs in force at the ETA that bear on the landing: those closing the aerodrome or a
 * runway, restricting the aerodrome or a runway, or taking out equipment of the recommended
 * runway end (or of every end, when they name none; any end's, when no runway is recommended).
 */
export function landingNotams(bundle: LandingIntelligence): LandingIntelligence['notams'] {
  const runway = bundle.runway?.designator ?? null;
  return bundle.notams.filter((notam) => restrictionCode(notam.q_code) !== null || notam.effects.some((effect) =>
    effect.kind !== 'other' && (AERODROME_EFFECTS.has(effect.kind) || effect.runways.length === 0 || runway === null || effect.runways.includes(runway))));
}

function notamFinding(bundle: LandingIntelligence, name: string): Finding {
  const notams = landingNotams(bundle);
  const ids = notams.map((notam) => notam.id ?? 'without number');
  const closing = notams.some((notam) => notam.effects.some((effect) => effect.kind === 'aerodrome_closed'));
  return {
    kind: 'airport.notam_issued', status: 'categorical', holds: notams.length > 0,
    event: {
      severity: closing ? 'critical' : 'warning',
      summary: `${notams.length === 1 ? 'A NOTAM' : `${notams.length} NOTAMs`} in force at ${bundle.destination.icao} at the ETA of ${name} ${notams.length === 1 ? 'bears' : 'bear'} on the landing: ${ids.join(', ')}.`,
      data: {
        eta_utc: bundle.eta_utc, runway: bundle.runway?.designator ?? null,
        notams: notams.map((notam) => ({ id: notam.id, q_code: notam.q_code, effects: notam.effects, start_time: notam.start_time, end_time: notam.end_time, text: notam.text })),
      },
    },
  };
}

/** The edge a finding makes for an event that is open or not. */
export function edgeOf(finding: Finding, wasOpen: boolean): Edge {
  switch (finding.status) {
    case 'unknown': return 'hold';
    case 'off': return wasOpen ? 'clear' : 'hold';
    case 'measured': return crossingFor(finding.kind, { value: finding.value, threshold: finding.threshold, wasOpen });
    case 'categorical': return finding.holds === wasOpen ? 'hold' : finding.holds ? 'open' : 'clear';
    case 'change': return finding.changed && !wasOpen ? 'open' : 'hold';
  }
}

/** Whether the finding is past its threshold now, so an open event's content follows it. */
const holdsNow = (finding: Finding) =>
  finding.status === 'categorical' ? finding.holds
    : finding.status === 'change' ? finding.changed
      : finding.status === 'measured' && crossingFor(finding.kind, { value: finding.value, threshold: finding.threshold, wasOpen: false }) === 'open';

/** The data but the METAR text: a new report that changes nothing else rewrites no event. */
const lasting = ({ metar: _, ...data }: Record<string, unknown>) => JSON.stringify(data);

const sameContent = (event: LamisEvent, content: Content) =>
  event.severity === content.severity && event.summary === content.summary && lasting(event.data) === lasting(content.data);

export interface LandingRulesInputs {
  arrivals: ArrivalStore;
  fleet: FleetStore;
  landing: LandingWatch;
  events: EventStore;
  state: ArrivalStateStore;
}

type WatchedArrival = PlannedArrival & { org_id: string };

/** Arrivals whose event writes share one transaction: short enough not to hold other writers back long. */
const WRITE_BATCH = 200;

/** Evaluates the landing rules of watched arrivals, an airport's at a time. */
export class LandingRules {
  readonly #inputs: LandingRulesInputs;

  constructor(inputs: LandingRulesInputs) {
    this.#inputs = inputs;
  }

  /**
   * Every arrival watched now to `icao`, or (null) to anywhere; the latter also forgets the
   * arrivals seen before that are no longer watched (removed or archived while no instance ran).
   */
  async evaluateAirport(icao: string | null, nowMs = Date.now()): Promise<void> {
    const watched = await this.#inputs.arrivals.watched(icao, nowMs);
    await this.#evaluateAll(watched, nowMs);
    if (icao !== null) return;
    const ids = new Set(watched.map((arrival) => arrival.id));
    await this.forget((await this.#inputs.state.all()).filter((seen) => !ids.has(seen.arrival_id)));
  }

  /** One arrival just created or moved; forgotten when it is no longer watched. */
  async evaluateArrival(owner: string, vehicleId: string, arrivalId: string, nowMs = Date.now()): Promise<void> {
    const arrival = await this.#inputs.arrivals.get(owner, vehicleId, arrivalId, nowMs);
    if (arrival === null || arrival.state === 'archived') return this.forget([{ org_id: owner, arrival_id: arrivalId }]);
    await this.#evaluateAll([{ ...arrival, org_id: owner }], nowMs);
  }

  /** The owner's arrivals of one vehicle, or (null) of all: after a change of the vehicle or of settings. */
  async evaluateVehicle(owner: string, vehicleId: string | null, nowMs = Date.now()): Promise<void> {
    await this.#evaluateAll(await this.#inputs.arrivals.watchedOf(owner, vehicleId, nowMs), nowMs);
  }

  /** A removed vehicle: its arrivals went with it. */
  async forgetVehicle(owner: string, vehicleId: string): Promise<void> {
    await this.forget(await this.#inputs.state.ofVehicle(owner, vehicleId));
  }

  /** Clears the events of arrivals archived by `nowMs`. */
  async sweepArchived(nowMs = Date.now()): Promise<void> {
    await this.forget(await this.#inputs.state.archived(nowMs));
  }

  /** Clears every open event of the arrivals and what was seen of them. */
  async forget(arrivals: readonly ArrivalRef[]): Promise<void> {
    const { events, state } = this.#inputs;
    for (const [owner, ids] of groupBy(arrivals, (arrival) => arrival.org_id, (arrival) => arrival.arrival_id)) {
      const found = await events.openAbout(owner, 'arrival', ids);
      if (found.length > 0) await events.batch(async (store) => { for (const event of found) await store.clear(owner, event.id); });
    }
    await state.remove(arrivals.map((arrival) => arrival.arrival_id));
  }

  async #evaluateAll(arrivals: readonly WatchedArrival[], nowMs: number): Promise<void> {
    for (const [icao, group] of groupBy(arrivals, (arrival) => arrival.destination_icao, (arrival) => arrival)) await this.#evaluateAt(icao, group, nowMs);
  }

  /** The arrivals to one airport: each input read once for them all, events written on edges only. */
  async #evaluateAt(icao: string, arrivals: readonly WatchedArrival[], nowMs: number): Promise<void> {
    const { fleet, landing, events, state } = this.#inputs;
    const contexts = await fleet.landingContexts(arrivals.map((arrival) => ({ owner: arrival.org_id, vehicleId: arrival.vehicle_id })));
    const eligible = arrivals.flatMap((arrival) => {
      const context = contexts.get(arrival.vehicle_id);
      const profile = context && landingProfileFor(context.vehicle);
      if (!context || !profile || context.vehicle.vehicle_type === 'vessel') return [];
      return [{ arrival, context, profile, name: context.vehicle.registration ?? context.vehicle.id, vehicleType: context.vehicle.vehicle_type }];
    });
    if (eligible.length === 0) return;
    const answered = await landing.landingsAt(icao, eligible.map(({ arrival, profile, name, vehicleType }) => ({
      etaMs: Date.parse(arrival.eta_utc), registration: name, vehicleType, profile, reference: arrival.id,
    })), nowMs);
    if (answered === null) return;
    const held = new Set(answered.slots.bookings.map((booking) => `${booking.org_id}|${booking.hour}|${normaliseRegistration(booking.registration)}`));
    const seen = await state.read(eligible.map(({ arrival }) => arrival.id));
    const open = new Map<string, LamisEvent>();
    for (const [owner, ids] of groupBy(eligible, ({ arrival }) => arrival.org_id, ({ arrival }) => arrival.id)) {
      for (const event of await events.openAbout(owner, 'arrival', ids)) open.set(`${event.subject.id}|${event.kind}`, event);
    }

    const changed: ArrivalLandingState[] = [];
    for (let start = 0; start < eligible.length; start += WRITE_BATCH) {
      const batch = eligible.slice(start, start + WRITE_BATCH).map((entry, offset) => {
        const { arrival, context, name } = entry;
        const answer = answered.answers[start + offset]!;
        const previous = seen.get(arrival.id) ?? null;
        const holdsSlot = held.has(`${arrival.org_id}|${slotHour(Date.parse(arrival.eta_utc))}|${normaliseRegistration(name)}`);
        const findings = landingFindings(answer, { thresholds: { own: context.settings.thresholds, effective: context.settings.effective }, name, holdsSlot, previous });
        const now: ArrivalLandingState = {
          arrival_id: arrival.id, org_id: arrival.org_id, vehicle_id: arrival.vehicle_id,
          ...(answer.bundle.weather.basis === 'none' ? { runway: null, approach: null } : { runway: answer.bundle.runway?.designator ?? null, approach: answer.bundle.recommended_approach }),
          status: answer.bundle.destination.status,
          watched_until: arrival.watched_until,
        };
        if (previous === null || (['runway', 'approach', 'status', 'watched_until'] as const).some((key) => previous[key] !== now[key])) changed.push(now);
        const subject: EventSubject = { type: 'arrival', id: arrival.id, vehicle_id: arrival.vehicle_id, arrival_id: arrival.id, icao: arrival.destination_icao };
        return findings.flatMap((finding) => {
          const event = open.get(`${arrival.id}|${finding.kind}`) ?? null;
          const write = writeFor(finding, event);
          return write === null ? [] : [{ owner: arrival.org_id, subject, finding, event, write }];
        });
      }).flat();
      // Most evaluations move nothing: no transaction for them.
      if (batch.length > 0) await events.batch(async (store) => { for (const each of batch) await apply(store, each); });
    }
    await state.write(changed, nowMs);
  }
}

/** What a finding writes to its event, open or not: nothing, most of the time. */
export function writeFor(finding: Finding, open: LamisEvent | null): 'open' | 'clear' | 'update' | 'replace' | null {
  // A change told in an event already acknowledged is news again: a new event.
  if (finding.status === 'change' && finding.changed && open?.acknowledged_at != null) return 'replace';
  const edge = edgeOf(finding, open !== null);
  if (edge !== 'hold') return edge;
  return open && 'event' in finding && holdsNow(finding) && !sameContent(open, finding.event) ? 'update' : null;
}

async function apply(events: EventStore, { owner, subject, finding, event, write }: {
  owner: string; subject: EventSubject; finding: Finding; event: LamisEvent | null; write: NonNullable<ReturnType<typeof writeFor>>;
}): Promise<void> {
  const content = 'event' in finding ? finding.event : null;
  if ((write === 'clear' || write === 'replace') && event) await events.clear(owner, event.id);
  if ((write === 'open' || write === 'replace') && content) await events.open(owner, { kind: finding.kind, subject, ...content });
  if (write === 'update' && event && content) await events.update(owner, event.id, content, event);
}

/** `items` grouped by `keyOf`, each group's items mapped by `valueOf`, in first-seen order. */
function groupBy<T, V>(items: readonly T[], keyOf: (item: T) => string, valueOf: (item: T) => V): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(valueOf(item));
    else groups.set(key, [valueOf(item)]);
  }
  return groups;
}
