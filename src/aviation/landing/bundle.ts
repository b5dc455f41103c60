// The landing bundle: every input for one airport and ETA, as held in memory (inputs.ts), then the
// rules applied in order (the weather at the ETA, runway, approach, status, slots, score), with
// where each input came from and how old it is (ages computed at the time of the answer). The
// weather at the ETA is the METAR's, the TAF's or none (weather/at-eta.ts); the raw METAR and TAF
// are carried whatever the basis.
// Reading the inputs and applying the rules are apart, so that a watcher of many arrivals at one
// airport reads the airport's inputs once (watch.ts).
import { randomUUID } from 'node:crypto';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import type { Airport } from '../reference/airports.ts';
import { AIRPORT_DATA_ATTRIBUTION } from '../reference/airports.ts';
import type { AircraftType, LandingProfile } from '../reference/aircraft-types.ts';
import type { AirportNotams } from '../notams/store.ts';
import type { AviationServices } from '../services.ts';
import { weatherAtEta, windShearAtEta, type Metar, type Taf } from '../weather/index.ts';
import type { StoredReport } from '../weather/reports.ts';
import { findAlternates, type Alternates } from './alternates.ts';
import { approachMinimaMet, NO_APPROACH, recommendApproach, type ApproachRecommendation } from './approach.ts';
import { capacityWeather, deriveCapacity } from './capacity.ts';
import type { SlotAvailability } from './slots.ts';
import { chooseRunway, landingAreas, type RunwayChoice } from './runway.ts';
import { daylight } from './daylight.ts';
import { safetyScore } from './safety.ts';
import type { LandingIntelligence } from './landing.schemas.ts';
import { airportStatus } from './status.ts';
import type { ProfileSource } from './types.ts';


export interface LandingRequest {
  airport: Airport;
  /** The destination code as the caller gave it ("LHR"); the airport's `icao` when not given. */
  requestedCode?: string;
  etaMs: number;
  registration: string;
  vehicleType: 'aircraft' | 'helicopter';
  /** A fleet vehicle's figures, an aircraft type's entry, or the conservative defaults. */
  profile: (LandingProfile & { designator?: string }) | AircraftType;
  profileSource: ProfileSource;
}

/** The airport's reports, read once and decoded once for every answer built from them. */
export interface AirportWeather {
  metarReport: StoredReport | null;
  tafReport: StoredReport | null;
  metar: Metar | null;
  taf: Taf | undefined;
}

export async function airportWeather(services: AviationServices, icao: string, nowMs: number): Promise<AirportWeather> {
  const [metarReport, tafReport] = await Promise.all([services.weather.latest(icao, 'metar'), services.weather.latest(icao, 'taf')]);
  return { metarReport, tafReport, metar: services.inputs.metar(metarReport, nowMs), taf: services.inputs.taf(tafReport, nowMs) };
}

/** What the bundle is built from: the request, the airport's weather, the NOTAMs in force at the ETA, the ETA hour's slots and the alternates. */
export interface BundleInputs {
  request: LandingRequest;
  weather: AirportWeather;
  notamSet: AirportNotams;
  slot: SlotAvailability;
  alternates: Alternates;
}

/**
 * Typed by the answer's schema, so the compiler holds the bundle to what the API documents.
 * `requestId` is the HTTP request's id (its `Request-Id`), so the body, the header and the log name one request alike.
 */
export async function landingBundle(services: AviationServices, request: LandingRequest, requestId: string, nowMs = Date.now()): Promise<LandingIntelligence> {
  const { answer, ages, freshness } = await heldAnswer(services, request, requestId, nowMs);
  return personal(aged(answer.bundle, ages, freshness), { request_id: requestId, requested_code: request.requestedCode ?? request.airport.icao, registration: request.registration });
}

/**
 * The same answer as `landingBundle`, as the UTF-8 JSON that `serialise` (the route's serialiser)
 * writes of it. The JSON is written once per answer and set of input ages, with the request's own
 * id, code asked and registration put in their places: requests in between are served it without
 * serialising or encoding anything but those three strings.
 */
export async function landingBundleJson(services: AviationServices, request: LandingRequest, requestId: string, nowMs: number, serialise: (bundle: LandingIntelligence) => string): Promise<Buffer> {
  const { answer, ages, freshness } = await heldAnswer(services, request, requestId, nowMs);
  const fields: PersonalFields = { request_id: requestId, requested_code: request.requestedCode ?? request.airport.icao, registration: request.registration };
  const agesKey = `${freshness} ${ages.metar_observation} ${ages.taf_check} ${ages.notams}`;
  let written = answer.written;
  if (written?.ages !== agesKey) answer.written = written = { ages: agesKey, template: answerTemplate(aged(answer.bundle, ages, freshness), serialise) };
  if (written.template === null) return Buffer.from(serialise(personal(aged(answer.bundle, ages, freshness), fields)));
  const { parts, order, length } = written.template;
  const values = order.map((field) => JSON.stringify(fields[field]));
  const json = Buffer.allocUnsafe(values.reduce((sum, value) => sum + Buffer.byteLength(value), length));
  let at = parts[0]!.copy(json, 0);
  values.forEach((value, i) => {
    at += json.write(value, at);
    at += parts[i + 1]!.copy(json, at);
  });
  return json;
}

/**
 * A landing answer is built again only when an input changed (any airport's: its alternates read
 * others) or it is a second old: requests for the same airport, ETA and aircraft in between get
 * the answer already built, with their own id, registration and input ages. The rules' other
 * uses of the time (the weather's age in the score) move in minutes, not within a second.
 * The key is everything the answer is built from: the airport's inputs are the same for every
 * caller, and the caller's fleet enters through the aircraft's figures, so callers whose aircraft
 * have the same figures get the same answer and no caller's answer carries another's registration.
 */
const ANSWER_REUSE_MS = 1_000;
const MAX_REUSED_ANSWERS = 1_000;

interface HeldAnswer {
  bundle: LandingIntelligence;
  generation: number;
  at: number;
  /** When its inputs were observed, checked or fetched: their ages at any moment follow. */
  inputTimes: InputTimes;
  /** The answer's JSON text at one set of input ages; null when it could not be cut into a template. */
  written?: { ages: string; template: AnswerTemplate | null };
}

const reusedAnswers = new WeakMap<AviationServices, Map<string, HeldAnswer>>();

function composedAnswers(services: AviationServices) {
  let answers = reusedAnswers.get(services);
  if (answers === undefined) reusedAnswers.set(services, (answers = new Map()));
  return answers;
}

/**
 * The answer for the request, reused or built, and the input ages at `nowMs`. A reused answer
 * reads nothing: its inputs' ages follow from the times held with it.
 */
async function heldAnswer(services: AviationServices, request: LandingRequest, requestId: string, nowMs: number) {
  const { airport, etaMs } = request;
  const key = `${airport.icao}|${etaMs}|${request.vehicleType}|${request.profileSource}|${JSON.stringify(request.profile)}`;
  const answers = composedAnswers(services);
  const generation = services.inputs.generation;
  const reused = answers.get(key);
  if (reused !== undefined && reused.generation === generation && nowMs - reused.at < ANSWER_REUSE_MS) return { answer: reused, ...inputAges(reused.inputTimes, nowMs) };
  const [weather, notamSet] = await Promise.all([airportWeather(services, airport.icao, nowMs), services.notams.forAirport(airport.icao, { at: etaMs })]);
  const alternates = await findAlternates(services.airports, request, {
    weather: (icao) => airportWeather(services, icao, nowMs),
    notams: async (icao, at) => (await services.notams.forAirport(icao, { at })).notams,
  });
  const capacity = deriveCapacity(airport, notamSet.notams, capacityWeather(weatherAtEta({ metar: weather.metar, taf: weather.taf, etaMs })));
  const slot = await services.inputs.availability(airport.icao, etaMs, capacity.arrivals_per_hour);
  const inputTimes = inputTimesOf(weather, notamSet, nowMs);
  const answer: HeldAnswer = { bundle: composeLandingBundle({ request, weather, notamSet, slot, alternates }, requestId, nowMs).bundle, generation, at: nowMs, inputTimes };
  answers.delete(key);
  if (answers.size >= MAX_REUSED_ANSWERS) answers.delete(answers.keys().next().value!);
  answers.set(key, answer);
  return { answer, ...inputAges(inputTimes, nowMs) };
}

/** The fields of an answer that are the request's own, not the answer's. */
interface PersonalFields {
  request_id: string;
  requested_code: string;
  registration: string;
}
const PERSONAL_FIELDS = ['request_id', 'requested_code', 'registration'] as const;

function aged(bundle: LandingIntelligence, ages: LandingIntelligence['sources']['ages_sec'], freshness: number): LandingIntelligence {
  return { ...bundle, intelligence_freshness_sec: freshness, sources: { ...bundle.sources, ages_sec: ages } };
}

function personal(bundle: LandingIntelligence, fields: PersonalFields): LandingIntelligence {
  return {
    ...bundle,
    request_id: fields.request_id,
    destination: { ...bundle.destination, requested_code: fields.requested_code },
    aircraft: { ...bundle.aircraft, registration: fields.registration },
  };
}

/** The answer's JSON cut around its personal fields: `parts[0]`, the field `order[0]`, `parts[1]`, and so on; `length`: the parts' bytes. */
interface AnswerTemplate {
  parts: Buffer[];
  order: (keyof PersonalFields)[];
  length: number;
}

/** Stand-ins for the personal fields, unique to this process so that no input can contain them. */
const MARKS: PersonalFields = Object.fromEntries(PERSONAL_FIELDS.map((field) => [field, `lamis-${randomUUID()}-${field}`])) as unknown as PersonalFields;

/** Null when a stand-in does not appear exactly once as a JSON string in the text (a serialiser that rewrote it). */
function answerTemplate(bundle: LandingIntelligence, serialise: (bundle: LandingIntelligence) => string): AnswerTemplate | null {
  const text = serialise(personal(bundle, MARKS));
  const found: { field: keyof PersonalFields; at: number; end: number }[] = [];
  for (const field of PERSONAL_FIELDS) {
    const quoted = JSON.stringify(MARKS[field]);
    const at = text.indexOf(quoted);
    if (at < 0 || text.includes(quoted, at + quoted.length)) return null;
    found.push({ field, at, end: at + quoted.length });
  }
  found.sort((a, b) => a.at - b.at);
  const parts = [text.slice(0, found[0]!.at), ...found.map(({ end }, i) => text.slice(end, found[i + 1]?.at ?? text.length))].map((part) => Buffer.from(part));
  return { parts, order: found.map(({ field }) => field), length: parts.reduce((sum, part) => sum + part.length, 0) };
}

/** Epoch ms of each input's observation, check or fetch; null for an input there is none of. */
interface InputTimes {
  metarObserved: number | null;
  tafChecked: number | null;
  /** The oldest fetch of the NOTAM feeds (one not fetched yet counts as fetched now). */
  notamsFetched: number | null;
}

function inputTimesOf(weather: AirportWeather, notamSet: AirportNotams, nowMs: number): InputTimes {
  return {
    metarObserved: weather.metarReport ? Date.parse(weather.metarReport.observed_at) : null,
    tafChecked: weather.tafReport ? nowMs - weather.tafReport.age_s * 1000 : null,
    notamsFetched: notamSet.feeds.length === 0 ? null : Math.min(...notamSet.feeds.map((feed) => (feed.fetched_at === null ? nowMs : Date.parse(feed.fetched_at)))),
  };
}

/**
 * How old each input is at `nowMs`, and the oldest: a METAR describes the weather when it was
 * observed; NOTAMs are as fresh as their last fetch; a TAF as its last check with its source (it
 * is meant to hold for hours).
 */
function inputAges(times: InputTimes, nowMs: number) {
  const since = (ms: number | null) => (ms === null ? null : Math.max(0, Math.round((nowMs - ms) / 1000)));
  const ages = { metar_observation: since(times.metarObserved), taf_check: since(times.tafChecked), notams: since(times.notamsFetched) };
  const measured = Object.values(ages).filter((age): age is number => age !== null);
  return { ages, freshness: measured.length ? Math.max(...measured) : 0 };
}

/**
 * The rules applied to inputs already read: the bundle, and the runway choice it was made from
 * (every end's figures, which the bundle leaves out). Reads nothing, so a watcher can build many
 * answers from one read of the airport's inputs.
 */
export function composeLandingBundle(inputs: BundleInputs, requestId: string, nowMs: number): { bundle: LandingIntelligence; choice: RunwayChoice } {
  const { request, weather: { metarReport, tafReport, metar, taf }, notamSet, slot } = inputs;
  const { airport, etaMs, profile } = request;
  const notams = notamSet.notams;

  const atEta = weatherAtEta({ metar, taf, etaMs });
  const runways = landingAreas(airport.runways, { heliport: airport.type === 'heliport', helicopter: profile.approach_category === 'H' });
  const approachAircraft = { approach_category: profile.approach_category, type_known: request.profileSource !== 'default' };
  const choice: RunwayChoice = chooseRunway({ runways, weather: atEta, aircraft: profile, notams, approachMinimaMet: approachMinimaMet(atEta, approachAircraft) });
  const approach: ApproachRecommendation = recommendApproach(choice, atEta, approachAircraft);
  const status = airportStatus({ airport: { type: airport.type, runways }, notams, choice, light: daylight(etaMs, airport).period });
  const safety = safetyScore({ position: airport, aircraft: profile, weather: atEta, choice, approach, status, etaMs, nowMs });
  const chosen = choice.runway;
  const shear = windShearAtEta(atEta, chosen?.designator);
  const known = atEta.basis !== 'none';

  const { ages, freshness } = inputAges(inputTimesOf(inputs.weather, notamSet, nowMs), nowMs);

  const bundle: LandingIntelligence = {
    request_id: requestId,
    destination: {
      icao: airport.icao, iata: airport.iata, requested_code: request.requestedCode ?? airport.icao,
      name: airport.name, status: status.status, status_reasons: status.reasons,
    },
    weather: {
      metar: metarReport?.raw ?? null,
      conditions: known ? atEta.conditions[0]! : 'UNKNOWN',
      wind_shear_risk: shear?.level ?? null,
      visibility_nm: atEta.visibility_nm?.nm ?? null,
      // Extras: the rest of what the weather at the ETA means, and what it rests on.
      basis: atEta.basis,
      basis_summary: atEta.summary,
      basis_reasoning: atEta.reasoning,
      basis_valid_until: atEta.valid_until,
      periods: atEta.periods.map(({ kind, probability, from, to, role, raw }) => ({ kind, probability, from, to, role, raw })),
      flight_category: atEta.flight_category,
      visibility_is_lower_bound: atEta.visibility_nm?.lower_bound ?? false,
      all_conditions: known ? atEta.conditions : [],
      wind_shear_reasons: shear?.reasons ?? [],
      wind: atEta.wind,
      ceiling_ft: atEta.ceiling_ft,
      observed_at: metarReport?.observed_at ?? null,
      taf: tafReport?.raw ?? null,
    },
    safety_score: safety.score,
    slot_available: slot.available,
    recommended_approach: approach.approach ?? NO_APPROACH,
    notams: notams.map((n) => ({
      id: n.id,
      type: n.type,
      q_code: n.q_code,
      subject: n.subject,
      condition: n.condition,
      start_time: n.start_time,
      end_time: n.end_time,
      end_estimated: n.end_estimated,
      permanent: n.permanent,
      schedule: n.schedule,
      text: n.text,
      effects: n.effects,
      source: n.source,
    })),
    intelligence_freshness_sec: freshness,
    runway: chosen && {
      designator: chosen.designator,
      true_heading_deg: chosen.true_heading_deg,
      landing_length_m: chosen.landing_length_m,
      headwind_kt: chosen.headwind_kt,
      crosswind_kt: chosen.crosswind_kt,
      max_crosswind_kt: chosen.max_crosswind_kt,
      max_tailwind_kt: chosen.max_tailwind_kt,
      ils_usable: chosen.ils_usable,
      ils: chosen.ils,
      ils_system: chosen.ils_system && {
        ident: chosen.ils_system.ident,
        category: chosen.ils_system.category,
        frequency_mhz: chosen.ils_system.frequency_mhz,
        course_true_deg: chosen.ils_system.course_true_deg,
        source: chosen.ils_system.source,
      },
      ils_out_by: chosen.ils_out_by,
      lighting_usable: chosen.lighting_usable,
    },
    runway_choice: { basis: choice.basis, reason: choice.reason, reasoning: choice.reasoning, wind: choice.wind },
    approach: {
      type: approach.type,
      ils_category: approach.ils_category,
      indicative: approach.indicative,
      below_minima: approach.below_minima,
      minima: approach.minima,
      reason: approach.reason,
      reasoning: approach.reasoning,
    },
    safety_factors: safety.factors,
    slot: { hour: slot.hour, capacity: slot.capacity, capacity_source: slot.capacity_source, booked: slot.booked, remaining: slot.remaining },
    aircraft: { registration: request.registration, vehicle_type: request.vehicleType, profile_source: request.profileSource, ...profile },
    alternates: inputs.alternates,
    eta_utc: new Date(etaMs).toISOString(),
    sources: {
      airport: AIRPORT_DATA_ATTRIBUTION,
      metar: metarReport && { source: metarReport.source, freshness: metarReport.freshness, observed_at: metarReport.observed_at, received_at: metarReport.received_at },
      taf: tafReport && { source: tafReport.source, freshness: tafReport.freshness, issued_at: tafReport.observed_at, received_at: tafReport.received_at },
      notams: notamSet.feeds,
      ages_sec: ages,
    },
    disclaimer: DISCLAIMER,
  };
  return { bundle, choice };
}

