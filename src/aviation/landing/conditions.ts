// The state of each runway end once the reference data and the NOTAMs in force are put together:
// closed or not, ILS and lighting usable or not, and the aerodrome-wide restrictions. Every other
// rule in this folder reads this, so a NOTAM is interpreted in one place.
//
// - A runway closed in the data, or closed by a NOTAM naming either of its ends, is closed in both
//   directions (a closed strip is closed both ways).
// - A runway closure that names no runway closes the runway of a one-runway airport; elsewhere it
//   cannot be placed and is kept in `unplaced_closures`.
// - ILS, localizer or glide path out of service takes the ILS out for the ends named; approach
//   lighting is per end; runway lighting serves both directions of the runway named. An equipment
//   outage that names no runway is applied to every runway end (the cautious reading).
// - Q code FA (aerodrome) with AH, AD, AM, AP, LB, LI, LN, LP, LT or LV, and MR (runway) with LH,
//   LL or LT are restrictions: hours, users, length or weight limited.

import { expandRunways } from '../notams/index.ts';
import type { NotamEffect } from '../notams/index.ts';
import type { ActiveNotam, EndLocalizer, Runway, RunwayEnd } from './types.ts';

export const METRES_PER_FOOT = 0.3048;

export interface EndConditions {
  runway: Runway;
  end: RunwayEnd;
  /** Two-digit designator ("04R"); helipad idents ("H1") as written, upper case. */
  designator: string;
  /** Length minus the displaced threshold, metres; null when the length is unknown. */
  landing_length_m: number | null;
  closed_in_data: boolean;
  /** NOTAM numbers that close this runway. */
  closed_by: string[];
  ils_out_by: string[];
  runway_lighting_out_by: string[];
  approach_lighting_out_by: string[];
}

export interface AirportConditions {
  ends: EndConditions[];
  aerodrome_closed_by: string[];
  /** Runway closures that name no runway, at an airport with several runways. */
  unplaced_closures: string[];
  restrictions: Array<{ notam: string; q_code: string }>;
}

const AERODROME_RESTRICTIONS = new Set(['AH', 'AD', 'AM', 'AP', 'LB', 'LI', 'LN', 'LP', 'LT', 'LV']);
const RUNWAY_RESTRICTIONS = new Set(['LH', 'LL', 'LT']);

/** "4R" → "04R", "27" → "27"; helipads and other idents stay as written. */
export function designator(ident: string): string {
  return expandRunways(ident.trim())[0] ?? ident.trim().toUpperCase();
}

/** How a NOTAM is named in reasoning: its number, or a placeholder when it has none. */
function notamLabel(notam: ActiveNotam): string {
  return notam.id ?? 'NOTAM without number';
}

const NO_NOTAMS: readonly ActiveNotam[] = [];
/**
 * By runway list and NOTAM list (the airport's, and a set in force as the NOTAM store holds it), so
 * the rules that all read one airport's conditions, and the answers sharing an ETA, put them
 * together once. Neither list is changed once made, nor are the conditions by their readers.
 */
const memo = new WeakMap<readonly Runway[], WeakMap<readonly ActiveNotam[], AirportConditions>>();

export function airportConditions(runways: readonly Runway[], notams: readonly ActiveNotam[] = NO_NOTAMS): AirportConditions {
  let byNotams = memo.get(runways);
  if (byNotams === undefined) memo.set(runways, (byNotams = new WeakMap()));
  let conditions = byNotams.get(notams);
  if (conditions === undefined) byNotams.set(notams, (conditions = putTogether(runways, notams)));
  return conditions;
}

function putTogether(runways: readonly Runway[], notams: readonly ActiveNotam[]): AirportConditions {
  const ends: EndConditions[] = runways.flatMap((runway) =>
    runway.ends.map((end) => ({
      runway,
      end,
      designator: designator(end.ident),
      landing_length_m: landingLengthM(runway, end),
      closed_in_data: runway.closed,
      closed_by: [],
      ils_out_by: [],
      runway_lighting_out_by: [],
      approach_lighting_out_by: [],
    })),
  );
  const result: AirportConditions = { ends, aerodrome_closed_by: [], unplaced_closures: [], restrictions: [] };

  for (const notam of notams) {
    const label = notamLabel(notam);
    const restriction = restrictionCode(notam.q_code);
    if (restriction !== null) result.restrictions.push({ notam: label, q_code: restriction });
    for (const effect of notam.effects) applyEffect(result, runways, effect, label);
  }
  return result;
}

function applyEffect(result: AirportConditions, runways: readonly Runway[], effect: NotamEffect, label: string): void {
  const named = new Set(effect.runways);
  const namesEnd = (item: EndConditions): boolean => named.has(item.designator);
  const namesRunway = (item: EndConditions): boolean =>
    result.ends.some((other) => other.runway === item.runway && namesEnd(other));
  const all = (): boolean => true;
  const mark = (key: 'closed_by' | 'ils_out_by' | 'runway_lighting_out_by' | 'approach_lighting_out_by', applies: (item: EndConditions) => boolean) => {
    for (const item of result.ends) if (applies(item) && !item[key].includes(label)) item[key].push(label);
  };
  switch (effect.kind) {
    case 'aerodrome_closed':
      result.aerodrome_closed_by.push(label);
      return;
    case 'runway_closed':
      if (named.size > 0) mark('closed_by', namesRunway);
      else if (runways.length === 1) mark('closed_by', all);
      else result.unplaced_closures.push(label);
      return;
    case 'ils_unserviceable':
    case 'localizer_unserviceable':
    case 'glide_path_unserviceable':
      mark('ils_out_by', named.size > 0 ? namesEnd : all);
      return;
    case 'runway_lighting_unserviceable':
      mark('runway_lighting_out_by', named.size > 0 ? namesRunway : all);
      return;
    case 'approach_lighting_unserviceable':
      mark('approach_lighting_out_by', named.size > 0 ? namesEnd : all);
      return;
    case 'other':
      return;
  }
}

/** The Q code when it is an aerodrome or runway restriction (hours, users, length, weight); else null. */
export function restrictionCode(qCode: string | null): string | null {
  if (qCode === null || qCode.length !== 5) return null;
  const subject = qCode.slice(1, 3);
  const condition = qCode.slice(3, 5);
  if (subject === 'FA' && AERODROME_RESTRICTIONS.has(condition)) return qCode;
  if (subject === 'MR' && RUNWAY_RESTRICTIONS.has(condition)) return qCode;
  return null;
}

function landingLengthM(runway: Runway, end: RunwayEnd): number | null {
  if (runway.length_ft === null || !Number.isFinite(runway.length_ft)) return null;
  const displaced = end.displaced_threshold_ft ?? 0;
  return Math.round(Math.max(0, runway.length_ft - displaced) * METRES_PER_FOOT);
}

export function isClosed(item: EndConditions): boolean {
  return item.closed_in_data || item.closed_by.length > 0;
}

/** The data lists an ILS for the end and no NOTAM has it out of service. */
export function ilsUsable(item: EndConditions): boolean {
  return item.end.ils === true && item.ils_out_by.length === 0;
}

/**
 * What is known of the end's ILS: `usable`, `out_of_service` (by NOTAM), `none` (navigation data
 * covers the airport and lists none for this end), `unknown` (no navigation data covers it).
 */
export type IlsState = 'usable' | 'out_of_service' | 'none' | 'unknown';

export function ilsState(item: EndConditions): IlsState {
  if (item.end.ils === null) return 'unknown';
  if (!item.end.ils) return 'none';
  return item.ils_out_by.length === 0 ? 'usable' : 'out_of_service';
}

/** CAT III above II above I; an ILS of unknown category counts as CAT I. */
export function ilsCategoryRank(ils: Pick<EndLocalizer, 'category'>): number {
  return { I: 1, II: 2, III: 3 }[ils.category ?? 'I'];
}

/** The end's ILS of the highest category; null when the data lists none (or no localizers at all). */
export function bestIls(item: EndConditions): EndLocalizer | null {
  const ils = (item.end.localizers ?? []).filter((localizer) => localizer.kind === 'ILS');
  return ils.sort((a, b) => ilsCategoryRank(b) - ilsCategoryRank(a))[0] ?? null;
}

export function lightingUsable(item: EndConditions): boolean {
  return item.runway.lighted === true && item.runway_lighting_out_by.length === 0;
}
