// The recommended approach to the chosen runway end, by the rules in RULES.md:
//
// - VISUAL when the ceiling at the ETA (observed or forecast, the worst case of the TAF groups in
//   force) is at least 1,000 ft (or there is none) and the visibility at least 3 SM. A ceiling of
//   unknown height (BKN///, VV///), an unknown visibility, or no weather known at the ETA cannot
//   confirm visual conditions.
// - Otherwise an instrument approach: ILS where navigation data lists one for the end and no
//   NOTAM has it (or its localizer or glide path) out of service, flown to the minima of its
//   category as far as the aircraft's approach category allows (minima.ts); else RNAV. RNAV is an
//   assumption, said as such: LAMIS does not know the published procedures, and without
//   navigation data it does not know whether the end has an ILS either ("ILS unknown"), so it
//   never says "no ILS" then. Instrument approaches are indicative.
// - The ceiling and visibility at the ETA are compared with the typical minima (minima.ts). The
//   runway's RVR from the METAR is used when reported, else the prevailing visibility. In
//   instrument conditions the runway choice puts the ends whose approach minima are met first
//   (`approachMinimaMet`).

import type { WeatherAtEta } from '../weather/index.ts';
import { designator, METRES_PER_FOOT } from './conditions.ts';
import { ILS_MINIMA, ilsOperation, minimaShortfalls, RNAV_MINIMA, type ApproachAircraft, type IlsOperation, type ObservedMinimaInputs, type TypicalMinima } from './minima.ts';
import type { RunwayChoice, RunwayEndAssessment } from './runway.ts';

export type { TypicalMinima } from './minima.ts';

export type ApproachType = 'ILS' | 'RNAV' | 'VISUAL';

export const VISUAL_MIN_CEILING_FT = 1000;
export const VISUAL_MIN_VISIBILITY_SM = 3;

export const TYPICAL_MINIMA: Readonly<Record<'ILS' | 'RNAV', TypicalMinima>> = { ILS: ILS_MINIMA.I, RNAV: RNAV_MINIMA };

/** What the landing answer's `recommended_approach` says when no runway can be recommended (the reason is in `approach`). */
export const NO_APPROACH = 'NONE';

export interface ApproachRecommendation {
  /** "ILS RWY 27L", "RNAV RWY 09R", "VISUAL RWY 04"; null without a runway. */
  approach: string | null;
  type: ApproachType | null;
  /** The ILS operation for an ILS approach (CAT I, II or IIIA); null otherwise. */
  ils_category: IlsOperation | null;
  runway: string | null;
  /** True for instrument approaches: a typical procedure, not the published one. */
  indicative: boolean;
  /** The observed ceiling or visibility is below the typical minima for this approach. */
  below_minima: boolean;
  minima: TypicalMinima | null;
  reason: string;
  reasoning: string[];
}

/** With basis `none` (no weather known at the ETA) visual conditions cannot be confirmed. */
export function recommendApproach(choice: RunwayChoice, weather: WeatherAtEta, aircraft: ApproachAircraft): ApproachRecommendation {
  const end = choice.runway;
  if (end === null) {
    const reason = `No approach: ${choice.reason.replace(/^No runway: /, 'no runway — ')}`;
    return { approach: null, type: null, ils_category: null, runway: null, indicative: false, below_minima: false, minima: null, reason, reasoning: [reason] };
  }
  const reasoning: string[] = [];
  const visual = visualConditions(weather, reasoning);
  if (visual) {
    const reason = `VISUAL RWY ${end.designator}: ceiling and visibility allow a visual approach.`;
    reasoning.push(reason);
    return { approach: `VISUAL RWY ${end.designator}`, type: 'VISUAL', ils_category: null, runway: end.designator, indicative: false, below_minima: false, minima: null, reason, reasoning };
  }

  const instrument = instrumentApproach(end, aircraft, reasoning);
  const { minima } = instrument;
  const shortfalls = weather.basis === 'none' ? [] : minimaShortfalls(minima, observedFor(weather, end.designator), end.designator);
  for (const shortfall of shortfalls) reasoning.push(shortfall);
  const below = shortfalls.length > 0;
  const approach = `${instrument.type} RWY ${end.designator}`;
  const label = `${approach}${instrument.assumption} (indicative)`;
  const reason = below
    ? `${label}: conditions are below typical ${minima.label} minima.`
    : `${label}: instrument conditions; typical ${minima.label} minima ${minima.decision_height_ft} ft, ${minima.visibility_m} m.`;
  reasoning.push(reason);
  return { approach, type: instrument.type, ils_category: instrument.ils_category, runway: end.designator, indicative: true, below_minima: below, minima, reason, reasoning };
}

/**
 * For the runway choice in instrument conditions: whether the best approach to an end has its
 * typical minima met. Undefined when the conditions may be visual or no weather is known at the
 * ETA: then the minima do not rank the ends.
 */
export function approachMinimaMet(weather: WeatherAtEta, aircraft: ApproachAircraft): ((end: RunwayEndAssessment) => boolean) | undefined {
  if (weather.basis === 'none' || visualConditions(weather, [])) return undefined;
  return (end) => minimaShortfalls(instrumentApproach(end, aircraft, []).minima, observedFor(weather, end.designator), end.designator).length === 0;
}

/** The best instrument approach the data supports for the end, with the sentence that says why. */
function instrumentApproach(end: RunwayEndAssessment, aircraft: ApproachAircraft, reasoning: string[]):
  { type: 'ILS' | 'RNAV'; ils_category: IlsOperation | null; minima: TypicalMinima; assumption: string } {
  const rnav = (why: string, assumption: string) => {
    reasoning.push(`${why} RNAV is assumed: LAMIS does not know the published procedures; check the approach charts.`);
    return { type: 'RNAV' as const, ils_category: null, minima: RNAV_MINIMA, assumption };
  };
  switch (end.ils) {
    case 'unknown':
      return rnav(`ILS unknown (no navigation data) for ${end.designator}.`, ' (assumed; ILS unknown)');
    case 'none':
      return rnav(`The navigation data lists no ILS for ${end.designator}.`, ' (assumed)');
    case 'out_of_service':
      return rnav(`The ILS for ${end.designator} is out of service (NOTAM ${end.ils_out_by.join(', ')}).`, ' (assumed; ILS out of service)');
    case 'usable': {
      const system = end.ils_system;
      const facility = system?.category ?? null;
      const { operation, limited_by_aircraft: limited } = ilsOperation(facility, aircraft);
      const named = system === null ? 'an ILS' : `ILS ${system.ident}${facility === null ? '' : ` CAT ${facility}`} (${system.frequency_mhz.toFixed(2)} MHz, course ${Math.round(system.course_true_deg)}° true)`;
      reasoning.push(`The navigation data lists ${named} for ${end.designator} and no NOTAM has it out of service.`);
      if (facility === null) reasoning.push('Its category is not given: CAT I minima apply.');
      if (limited) {
        const who = aircraft.type_known === false ? 'An aircraft of unknown type is' : `Approach category ${aircraft.approach_category} aircraft are`;
        reasoning.push(`${who} taken to fly CAT I only: CAT II and III need an aircraft, crew and operator approved for low-visibility operations.`);
      }
      return { type: 'ILS', ils_category: operation, minima: ILS_MINIMA[operation], assumption: '' };
    }
  }
}

/** The ceiling, visibility and the runway's lowest RVR at the ETA, as plain figures for the minima check. */
function observedFor(weather: WeatherAtEta, runway: string): ObservedMinimaInputs {
  const rvr = runwayVisualRangeM(weather, runway);
  return {
    ceiling_ft: weather.ceiling_ft,
    visibility_m: weather.visibility?.metres ?? null,
    visibility_below: weather.visibility?.upper_bound ?? false,
    rvr_m: rvr?.metres ?? null,
    rvr_below: rvr?.below ?? false,
  };
}

function visualConditions(weather: WeatherAtEta, reasoning: string[]): boolean {
  if (weather.basis === 'none') {
    reasoning.push(`${weather.summary}: visual conditions cannot be confirmed.`);
    return false;
  }
  reasoning.push(`Weather at the ETA: ${weather.summary}.`);
  const { ceiling_ft: ceiling, ceiling_uncertain: uncertain, visibility } = weather;
  let visual = true;
  if (visibility === null) {
    reasoning.push('Visibility not reported: visual conditions cannot be confirmed.');
    visual = false;
  } else if (visibility.statute_mi < VISUAL_MIN_VISIBILITY_SM) {
    reasoning.push(`Visibility ${visibility.metres} m (${round2(visibility.statute_mi)} SM) is under ${VISUAL_MIN_VISIBILITY_SM} SM.`);
    visual = false;
  }
  if (!weather.sky_reported) {
    reasoning.push('No sky condition reported: the ceiling is unknown, so visual conditions cannot be confirmed.');
    visual = false;
  } else if (ceiling !== null && ceiling < VISUAL_MIN_CEILING_FT) {
    reasoning.push(`Ceiling ${ceiling} ft is under ${VISUAL_MIN_CEILING_FT} ft.`);
    visual = false;
  } else if (uncertain) {
    reasoning.push('A cloud layer or vertical visibility of unknown height was reported: the ceiling may be under 1,000 ft.');
    visual = false;
  }
  if (visual) {
    reasoning.push(
      `Ceiling ${ceiling === null ? 'none' : `${ceiling} ft`} and visibility ${round2(visibility!.statute_mi)} SM meet ` +
        `${VISUAL_MIN_CEILING_FT} ft and ${VISUAL_MIN_VISIBILITY_SM} SM.`,
    );
  }
  return visual;
}

/** The lowest RVR reported for the runway, in metres; `below` for an M-prefixed value. */
function runwayVisualRangeM(weather: WeatherAtEta, runway: string): { metres: number; below: boolean } | null {
  const report = weather.runway_visual_ranges.find((rvr) => rvr.min !== null && designator(rvr.runway) === runway);
  if (report === undefined || report.min === null) return null;
  const metres = report.unit === 'ft' ? Math.round(report.min * METRES_PER_FOOT) : report.min;
  return { metres, below: report.below_min };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
