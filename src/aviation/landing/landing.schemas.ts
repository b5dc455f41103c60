// The landing request and answer as the API takes and serves them. The answer's parts are each
// defined once: the weather, NOTAM, slot and aircraft type shapes the other aviation routes serve,
// and the landing rules' own results (runway.ts, approach.ts, safety.ts).
import { Type, type Static } from 'typebox';
import { nullable, Shared } from '../../platform/http/schema.ts';
import { VEHICLE_TYPES } from '../../../common/vehicle-types.ts';
import { FeedStatusSchema, NotamSummarySchema } from '../notams/notams.schemas.ts';
import { aircraftTypeFields } from '../reference/aircraft-types.schemas.ts';
import { CONDITION_ORDER } from '../weather/derive.ts';
import { ConditionsSchema, storedFields, WindSchema, WindShearReasonSchema } from '../weather/weather.schemas.ts';
import { AIRPORT_CODE_DESCRIPTION, AIRPORT_CODE_PATTERN } from '../reference/airports.routes.ts';
import { ALTERNATE_DELAY_MS, ALTERNATE_RADII_NM, ALTERNATES_ASSESSED, MAX_ALTERNATES } from './alternates.ts';
import { NO_APPROACH } from './approach.ts';
import { SAFETY_FACTORS } from './safety.ts';
import { slotFields } from './slots.schemas.ts';

export const LandingFields = Type.Object({
  destination_icao: Type.String({ pattern: AIRPORT_CODE_PATTERN, description: `The destination: ${AIRPORT_CODE_DESCRIPTION}` }),
  vehicle_type: Type.Enum([...VEHICLE_TYPES], { description: 'aircraft and helicopter land at airports; vessel answers 422' }),
  eta_utc: Type.String({ description: 'Estimated time of arrival, ISO 8601 in UTC, e.g. 2026-11-21T14:20:00Z' }),
  registration: Type.String({ minLength: 1, maxLength: 16, pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$', description: 'Aircraft registration, e.g. G-EUPT' }),
  aircraft_type: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{2,4}$', description: 'ICAO type designator (e.g. A320); used when the registration is not in the caller\'s fleet' })),
}, { additionalProperties: false });
export type LandingFields = Static<typeof LandingFields>;
export const LandingRequestSchema = Shared('LandingRequest', LandingFields);

const RecommendedRunwaySchema = Shared('RecommendedRunway', Type.Object({
  designator: Type.String({ description: 'The runway end to land on: "27L", "09", "H1"' }),
  true_heading_deg: nullable(Type.Number({ description: 'Degrees true; null when the data has none' })),
  landing_length_m: nullable(Type.Number({ description: 'Length past any displaced threshold; null when the length is unknown' })),
  headwind_kt: nullable(Type.Number({ description: 'Mean wind along the runway; negative is a tailwind; null for VRB wind or an unknown heading' })),
  crosswind_kt: nullable(Type.Number({ description: 'Mean crosswind, positive from the right' })),
  max_crosswind_kt: nullable(Type.Number({ description: 'Gusts and the whole reported direction range included; null when the wind is unknown' })),
  max_tailwind_kt: nullable(Type.Number({ description: 'Gusts and the whole reported direction range included; null when the wind is unknown' })),
  ils_usable: Type.Boolean({ description: 'Navigation data lists an ILS and no NOTAM has it out of service' }),
  ils: Type.Enum(['usable', 'out_of_service', 'none', 'unknown'], {
    description: 'usable: navigation data lists an ILS and no NOTAM has it out; out_of_service: a NOTAM has the ILS, localizer or glide path out; none: the imported navigation data covers the airport and lists no ILS for this end; unknown: no navigation data covers the airport (see `lamis import navdata`)',
  }),
  ils_system: nullable(Type.Object({
    ident: Type.String({ description: 'Localizer ident, e.g. "IJFK"' }),
    category: nullable(Type.Enum(['I', 'II', 'III'], { description: 'Facility category as the navigation data gives it (CAT III is not split into A/B there)' })),
    frequency_mhz: Type.Number(),
    course_true_deg: Type.Number({ description: 'Localizer course, degrees true' }),
    source: Type.String({ description: 'The imported navigation data: file, format, data cycle, import date' }),
  }, { description: 'The end\'s ILS of the highest category, even when out of service; null when the data lists none or is unknown' })),
  ils_out_by: Type.Array(Type.String(), { description: 'NOTAMs that have the ILS, localizer or glide path of this end out of service' }),
  lighting_usable: Type.Boolean({ description: 'The data says lighted and no NOTAM has the runway lighting out of service' }),
}));

const RunwayChoiceSchema = Shared('RunwayChoice', Type.Object({
  basis: nullable(Type.Enum(['headwind', 'equipment'], { description: 'What decided among the ends within limits; null when no runway is recommended' })),
  reason: Type.String({ description: 'One sentence: the choice, or why there is none' }),
  reasoning: Type.Array(Type.String()),
  wind: Type.Enum(['calm', 'light', 'variable', 'steady', 'unknown'], {
    description: 'calm: 00000KT; light: under 5 kt without gusts; variable: VRB at 5 kt or more, or gusting; steady: from one direction at 5 kt or more, or gusting; unknown: no wind known at the ETA',
  }),
}));

const ApproachSchema = Shared('ApproachRecommendation', Type.Object({
  type: nullable(Type.Enum(['ILS', 'RNAV', 'VISUAL'], {
    description: 'null when no runway can be recommended. RNAV is an assumption (LAMIS does not know the published procedures): `reason` says "assumed", and "ILS unknown" when no navigation data covers the airport',
  })),
  ils_category: nullable(Type.Enum(['I', 'II', 'IIIA'], {
    description: 'The ILS operation checked for an ILS approach: the facility\'s category (CAT III flown to CAT IIIA minima) as far as the aircraft allows (approach categories A and H, and unknown types: CAT I); null otherwise',
  })),
  indicative: Type.Boolean({ description: 'true for instrument approaches: a typical procedure, not the published one' }),
  below_minima: Type.Boolean({ description: 'The ceiling or visibility at the ETA (observed or forecast) is below the typical minima of this approach' }),
  minima: nullable(Type.Object({
    decision_height_ft: Type.Number({ description: 'Decision height (ILS) or decision altitude above the threshold (RNAV)' }),
    rvr_m: Type.Number({ description: 'Minimum RVR, when the METAR reports one for the runway' }),
    visibility_m: Type.Number({ description: 'Minimum visibility, when it does not' }),
    label: Type.String({ description: '"ILS CAT I", "ILS CAT II", "ILS CAT IIIA", "RNAV (LNAV/VNAV)"' }),
  }, { description: 'The typical minima the approach was checked against; null for a visual approach or none' })),
  reason: Type.String(),
  reasoning: Type.Array(Type.String()),
}));

const SafetyFactorSchema = Shared('SafetyFactor', Type.Object({
  factor: Type.Enum([...SAFETY_FACTORS]),
  points: Type.Integer({ description: '0 or negative' }),
  detail: Type.String(),
}));

// The figures the rules read are always there; the rest of the type's entry when they come from
// the type table (and the designator from a fleet vehicle too).
const AircraftTypeObject = Type.Object(aircraftTypeFields);
const FIGURES = ['vehicle_category', 'approach_category', 'wake_category', 'crosswind_limit_kt', 'landing_distance_m', 'min_runway_m', 'confidence'] as const;
const AircraftProfileSchema = Shared('AircraftProfile', Type.Object({
  registration: Type.String(),
  vehicle_type: Type.Enum(['aircraft', 'helicopter']),
  profile_source: Type.Enum(['fleet', 'aircraft_type', 'default'], {
    description: '`fleet`: the vehicle in your fleet, with its own limits; `aircraft_type`: the type\'s figures; `default`: conservative figures for the category',
  }),
  ...Type.Partial(AircraftTypeObject).properties,
  ...Type.Pick(AircraftTypeObject, FIGURES).properties,
}, { description: 'The aircraft as the bundle took it: the figures used, and where they came from' }));

const AlternatesSchema = Shared('Alternates', Type.Object({
  radius_nm: Type.Number({ description: `The radius the alternates were found within: ${ALTERNATE_RADII_NM[0]} nm, widened to ${ALTERNATE_RADII_NM.slice(1).join(', then ')} nm when fewer than ${MAX_ALTERNATES} usable ones were found` }),
  assessed_for: Type.String({ format: 'date-time', description: `The time the alternates are assessed for: the ETA + ${ALTERNATE_DELAY_MS / 60_000} min` }),
  airports: Type.Array(Type.Object({
    icao: Type.String(),
    name: Type.String(),
    type: Type.String({ description: 'OurAirports type: large_airport, medium_airport, small_airport, heliport' }),
    distance_nm: Type.Number({ description: 'Great-circle distance from the destination' }),
    bearing_deg: Type.Integer({ description: 'Initial great-circle bearing from the destination, degrees true' }),
    suitability: Type.Enum(['suitable', 'limited', 'marginal'], {
      description: '`suitable`: a runway long enough within the wind limits, weather known, approach not below minima, status OPERATIONAL; `limited`: usable, with something unknown or the status LIMITED; `marginal`: no runway within the wind limits, the wind-chosen runway too short, or below minima',
    }),
    status: Type.Enum(['OPERATIONAL', 'LIMITED', 'CLOSED', 'UNKNOWN'], { description: 'By the NOTAMs in force at the ETA + 30 min (never CLOSED: closed airports are left out)' }),
    flight_category: nullable(Type.Enum(['VFR', 'MVFR', 'IFR', 'LIFR'], { description: 'From the METAR held; null without one' })),
    runway: nullable(Type.String({ description: 'The runway end the aircraft would land on; null when none is within limits' })),
    recommended_approach: nullable(Type.String({ description: 'e.g. "ILS RWY 26L"; null without a runway' })),
    reasons: Type.Array(Type.String(), { description: 'Why it was chosen (how it fits the aircraft, runway and approach) and what limits it' }),
  }), { maxItems: MAX_ALTERNATES, description: 'Ordered by suitability, then the number of limits, then distance' }),
  reasoning: Type.Array(Type.String(), { description: `How the search went: airports fitting the aircraft per radius, how many were read (nearest first, three at a time until three are suitable, at most ${ALTERNATES_ASSESSED} per radius), any closed` }),
}, { description: 'Up to three alternate aerodromes that fit the aircraft and are open at the ETA + 30 min, assessed by the same rules as the destination (see RULES.md, "Alternates")' }));

export const LandingResponse = Shared('LandingIntelligence', Type.Object({
  request_id: Type.String({ description: 'The id of this request, as in the `Request-Id` header (a caller\'s own `X-Request-Id` when it sent a sane one)' }),
  destination: Type.Object({
    icao: Type.String({ description: 'ICAO (or, where there is none, GPS) code of the destination' }),
    iata: nullable(Type.String({ description: 'Its IATA code; null when it has none' })),
    requested_code: Type.String({ description: 'The `destination_icao` as asked, upper case: "LHR" when asked by IATA code' }),
    name: Type.String(),
    status: Type.Enum(['OPERATIONAL', 'LIMITED', 'CLOSED', 'UNKNOWN']),
    status_reasons: Type.Array(Type.String()),
  }),
  weather: Type.Object({
    metar: nullable(Type.String({ description: 'The latest raw METAR held, whatever the basis; null only when no report exists' })),
    conditions: Type.Enum([...CONDITION_ORDER], { description: 'The most significant condition at the ETA; UNKNOWN when no weather is known at the ETA' }),
    wind_shear_risk: nullable(Type.Enum(['LOW', 'MODERATE', 'HIGH', 'SEVERE'], { description: 'At the ETA, for the recommended runway; null when no weather is known at the ETA' })),
    visibility_nm: nullable(Type.Number({ description: 'Visibility at the ETA (the lowest forecast, for a forecast)' })),
    basis: Type.Enum(['observation', 'forecast', 'none'], {
      description: 'What the weather at the ETA rests on. `observation`: the METAR, while the ETA is at most 60 min after it was observed (120 min with a trend forecast LAMIS could read: NOSIG, or BECMG/TEMPO/INTER groups, which are applied as a TAF\'s, `periods`); ' +
        '`forecast`: the TAF groups in force at the ETA (`periods`), TEMPO/INTER/PROB groups taken at their worst; `none`: no forecast reaches the ETA (past the TAF, or no TAF), so wind, visibility and ceiling are unknown',
    }),
    basis_summary: Type.String({ description: 'One line for people: "Observed 14:20Z", "Observed 14:20Z, trend TEMPO FM1430 3000 SHRA", "Forecast: TAF TEMPO 1412/1416 TSRA", "No forecast reaches the ETA"' }),
    basis_reasoning: Type.Array(Type.String(), { description: 'Why this basis, sentence by sentence' }),
    basis_valid_until: nullable(Type.String({ format: 'date-time', description: 'Until when the basis describes the weather: the end of the observation\'s validity, or the TAF\'s end; null for `none`' })),
    periods: Type.Array(Type.Object({
      kind: Type.Enum(['BASE', 'FM', 'BECMG', 'TEMPO', 'INTER', 'PROB'], { description: 'The TAF group: the base forecast, FM, BECMG, TEMPO, INTER, or PROB30/40 (with or without TEMPO); or the METAR\'s trend group: BECMG, TEMPO, INTER' }),
      probability: nullable(Type.Integer({ description: '30 or 40 for PROB groups' })),
      from: Type.String({ format: 'date-time' }),
      to: Type.String({ format: 'date-time' }),
      role: Type.Enum(['prevailing', 'possible'], { description: '`prevailing`: the state in force (BASE/FM, then each completed BECMG); `possible`: TEMPO, INTER, PROB or a BECMG in transition, taken at its worst' }),
      raw: Type.String({ description: 'The group as written, e.g. "TEMPO 1412/1416 4000 TSRA BKN012CB", "TEMPO FM1430 3000 SHRA"' }),
    }), { description: 'The TAF groups the forecast at the ETA is made of (basis `forecast`), or the METAR\'s trend groups in force or complete at the ETA (basis `observation`); empty otherwise' }),
    flight_category: nullable(Type.Enum(['VFR', 'MVFR', 'IFR', 'LIFR'], {
      description: 'FAA flight category at the ETA; null when unknown: no weather known at the ETA, no visibility, or no sky group (ceiling unknown) with a visibility of 1 SM or more',
    })),
    visibility_is_lower_bound: Type.Boolean({ description: 'true for P6SM, 9999, CAVOK: the visibility is at least this' }),
    all_conditions: ConditionsSchema,
    wind_shear_reasons: Type.Array(WindShearReasonSchema, { description: 'The rules that set the wind shear risk (METAR and TAF)' }),
    wind: Type.Union([WindSchema, Type.Null()], {
      description: 'The wind at the ETA, degrees true; null when unknown. For a forecast: the prevailing mean direction and speed, as gust the highest gust or mean speed of any group in force, ' +
        'as range (`variable_from_deg`-`variable_to_deg`) every direction forecast; `reported.group` lists the groups',
    }),
    ceiling_ft: nullable(Type.Number({ description: 'Lowest broken or overcast layer or vertical visibility at the ETA (the lowest forecast, for a forecast); null when there is none or it is unknown' })),
    observed_at: nullable(Type.String({ format: 'date-time', description: 'When the METAR in `metar` was observed' })),
    taf: nullable(Type.String({ description: 'The raw TAF; null when none is held' })),
  }),
  safety_score: Type.Integer({ minimum: 0, maximum: 100 }),
  slot_available: Type.Boolean(),
  recommended_approach: Type.String({ description: `e.g. "ILS RWY 27L", "RNAV RWY 09R", "VISUAL RWY 04"; "${NO_APPROACH}" when no runway can be recommended` }),
  notams: Type.Array(NotamSummarySchema, { description: 'The NOTAMs in force at the ETA' }),
  intelligence_freshness_sec: Type.Number({ description: 'Age of the oldest input the bundle relies on (METAR observation, TAF check, NOTAM fetch)' }),
  runway: nullable(RecommendedRunwaySchema),
  runway_choice: RunwayChoiceSchema,
  approach: ApproachSchema,
  safety_factors: Type.Array(SafetyFactorSchema, { description: 'The score is 100 plus their points, clamped to 0-100' }),
  slot: Type.Omit(Type.Object(slotFields), ['available'], { description: 'The arrival slots of the ETA\'s UTC hour' }),
  aircraft: AircraftProfileSchema,
  alternates: AlternatesSchema,
  eta_utc: Type.String({ format: 'date-time' }),
  sources: Type.Object({
    airport: Type.String({ description: 'Where the airport and runway data come from, and its licence' }),
    metar: nullable(Type.Pick(Type.Object(storedFields), ['source', 'freshness', 'observed_at', 'received_at'])),
    taf: nullable(Type.Object({ source: storedFields.source, freshness: storedFields.freshness, issued_at: storedFields.observed_at, received_at: storedFields.received_at })),
    notams: Type.Array(FeedStatusSchema, { description: 'Each NOTAM feed for the airport; empty when only operators\' NOTAMs are held' }),
    ages_sec: Type.Object({
      metar_observation: nullable(Type.Integer({ description: 'Since the METAR was observed' })),
      taf_check: nullable(Type.Integer({ description: 'Since the TAF was last confirmed with its source' })),
      notams: nullable(Type.Integer({ description: 'Since the least recent NOTAM feed fetch' })),
    }),
  }),
  disclaimer: Type.String(),
}));
export type LandingIntelligence = Static<typeof LandingResponse>;
