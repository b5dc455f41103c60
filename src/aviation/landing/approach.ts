// The recommended approach to the chosen runway end, by the rules in RULES.md:
//
// - VISUAL when the ceiling at the ETA (observed or forecast, the worst case of the TAF groups in
//   force) is at least 1,000 ft (or there is none) and the visibility at least 3 SM. A ceiling of
//   unknown height (BKN///, VV///), an unknown visibility, or no weather known at the ETA cannot
//   confirm visual conditions.
// - Otherwise an instrument approach: ILS where the data lists one for the end and no NOTAM has it
//   (or its localizer or glide path) out of service; else RNAV. Instrument approaches are
//   indicative: LAMIS does not know the published procedures.
// - The observed ceiling and visibility are compared with typical minima (ILS CAT I: 200 ft DH,
//   550 m RVR or 800 m visibility; RNAV LNAV/VNAV: 300 ft DA, 1,500 m). The runway's RVR from the
//   METAR is used when reported, else the prevailing visibility.

import type { WeatherAtEta } from '../weather/index.ts';
import { designator, METRES_PER_FOOT } from './conditions.ts';
import type { RunwayChoice } from './runway.ts';

export type ApproachType = 'ILS' | 'RNAV' | 'VISUAL';

export const VISUAL_MIN_CEILING_FT = 1000;
export const VISUAL_MIN_VISIBILITY_SM = 3;

export interface TypicalMinima {
  /** Decision height (ILS) or decision altitude above the threshold (RNAV), feet. */
  decision_height_ft: number;
  /** Minimum RVR, metres, when the METAR reports one for the runway. */
  rvr_m: number;
  /** Minimum visibility, metres, when it does not. */
  visibility_m: number;
  label: string;
}

export const TYPICAL_MINIMA: Readonly<Record<'ILS' | 'RNAV', TypicalMinima>> = {
  ILS: { decision_height_ft: 200, rvr_m: 550, visibility_m: 800, label: 'ILS CAT I' },
  RNAV: { decision_height_ft: 300, rvr_m: 1500, visibility_m: 1500, label: 'RNAV (LNAV/VNAV)' },
};

/** What the landing answer's `recommended_approach` says when no runway can be recommended (the reason is in `approach`). */
export const NO_APPROACH = 'NONE';

export interface ApproachRecommendation {
  /** "ILS RWY 27L", "RNAV RWY 09R", "VISUAL RWY 04"; null without a runway. */
  approach: string | null;
  type: ApproachType | null;
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
export function recommendApproach(choice: RunwayChoice, weather: WeatherAtEta): ApproachRecommendation {
  const end = choice.runway;
  if (end === null) {
    const reason = `No approach: ${choice.reason.replace(/^No runway: /, 'no runway — ')}`;
    return { approach: null, type: null, runway: null, indicative: false, below_minima: false, minima: null, reason, reasoning: [reason] };
  }
  const reasoning: string[] = [];
  const visual = visualConditions(weather, reasoning);
  if (visual) {
    const reason = `VISUAL RWY ${end.designator}: ceiling and visibility allow a visual approach.`;
    reasoning.push(reason);
    return { approach: `VISUAL RWY ${end.designator}`, type: 'VISUAL', runway: end.designator, indicative: false, below_minima: false, minima: null, reason, reasoning };
  }

  const type = end.ils_usable ? 'ILS' : 'RNAV';
  if (type === 'ILS') reasoning.push(`The data lists an ILS for ${end.designator} and no NOTAM has it out of service.`);
  else if (end.ils_in_data === true) reasoning.push(`The ILS for ${end.designator} is out of service (NOTAM ${end.ils_out_by.join(', ')}): RNAV instead.`);
  else reasoning.push(`The data lists no ILS for ${end.designator}: RNAV.`);

  const minima = TYPICAL_MINIMA[type];
  const shortfalls = weather.basis === 'none' ? [] : belowMinima(weather, end.designator, minima);
  for (const shortfall of shortfalls) reasoning.push(shortfall);
  const below = shortfalls.length > 0;
  const approach = `${type} RWY ${end.designator}`;
  const reason = below
    ? `${approach} (indicative): conditions are below typical ${minima.label} minima.`
    : `${approach} (indicative): instrument conditions; typical ${minima.label} minima ${minima.decision_height_ft} ft, ${minima.visibility_m} m.`;
  reasoning.push(reason);
  return { approach, type, runway: end.designator, indicative: true, below_minima: below, minima, reason, reasoning };
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

/** Each way the observation falls below the minima, as a sentence. */
function belowMinima(metar: WeatherAtEta, runway: string, minima: TypicalMinima): string[] {
  const shortfalls: string[] = [];
  if (metar.ceiling_ft !== null && metar.ceiling_ft < minima.decision_height_ft) {
    shortfalls.push(`Ceiling ${metar.ceiling_ft} ft is below the typical ${minima.label} decision height of ${minima.decision_height_ft} ft.`);
  }
  const rvr = runwayVisualRangeM(metar, runway);
  if (rvr !== null) {
    if (rvr.below ? rvr.metres <= minima.rvr_m : rvr.metres < minima.rvr_m) {
      shortfalls.push(`RVR ${rvr.below ? 'below ' : ''}${rvr.metres} m on ${runway} is below the typical ${minima.label} minimum of ${minima.rvr_m} m.`);
    }
  } else if (metar.visibility !== null) {
    const { metres, upper_bound: below } = metar.visibility;
    if (below ? metres <= minima.visibility_m : metres < minima.visibility_m) {
      shortfalls.push(`Visibility ${below ? 'below ' : ''}${metres} m is below the typical ${minima.label} minimum of ${minima.visibility_m} m.`);
    }
  }
  return shortfalls;
}

/** The lowest RVR reported for the runway, in metres; `below` for an M-prefixed value. */
function runwayVisualRangeM(metar: WeatherAtEta, runway: string): { metres: number; below: boolean } | null {
  const report = metar.runway_visual_ranges.find((rvr) => rvr.min !== null && designator(rvr.runway) === runway);
  if (report === undefined || report.min === null) return null;
  const metres = report.unit === 'ft' ? Math.round(report.min * METRES_PER_FOOT) : report.min;
  return { metres, below: report.below_min };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
