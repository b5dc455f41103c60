// Typical approach minima and the check of observed conditions against them, on plain numbers so
// any source of weather (an observation, a forecast for the ETA) can be put through them.
//
// ILS operations by category, ICAO Annex 6 Part I, 1 (definitions) and EASA Air OPS
// (AMC1 CAT.OP.MPA.110, CS-AWO, SPA.LVO):
//   CAT I    decision height at least 200 ft; RVR at least 550 m, or visibility at least 800 m;
//   CAT II   DH below 200 ft and at least 100 ft; RVR at least 300 m;
//   CAT IIIA DH below 100 ft or none; RVR at least 175 m;
//   CAT IIIB DH below 50 ft or none; RVR below 175 m and at least 50 m.
// nav.dat names an ILS facility "cat-III" without saying A or B, so a CAT III ILS is checked
// against CAT IIIA (50 ft, a common CAT IIIA DH, and 175 m): never lower than the installation may
// allow. CAT II and III have no visibility alternative; without a reported RVR the prevailing
// visibility stands in for it (in fog the RVR is usually the higher of the two).
//
// CAT II and III need an aircraft, crew and operator approved for low-visibility operations, which
// LAMIS cannot see. It assumes approach categories B to E (transport and business aircraft) may
// hold that approval and A (light aircraft) and H (helicopters) do not: they get CAT I at most, as
// does an aircraft of unknown type (the conservative default profile).

import type { IlsCategory } from '../navdata/navdat.ts';
import type { ApproachCategory } from './types.ts';

export interface TypicalMinima {
  /** Decision height (ILS) or decision altitude above the threshold (RNAV), feet. */
  decision_height_ft: number;
  /** Minimum RVR, metres, when the METAR reports one for the runway. */
  rvr_m: number;
  /** Minimum visibility, metres, when it does not. */
  visibility_m: number;
  label: string;
}

/** The ILS operation flown: CAT III facilities are flown to CAT IIIA minima (see above). */
export type IlsOperation = 'I' | 'II' | 'IIIA';

export const ILS_MINIMA: Readonly<Record<IlsOperation, TypicalMinima>> = {
  I: { decision_height_ft: 200, rvr_m: 550, visibility_m: 800, label: 'ILS CAT I' },
  II: { decision_height_ft: 100, rvr_m: 300, visibility_m: 300, label: 'ILS CAT II' },
  IIIA: { decision_height_ft: 50, rvr_m: 175, visibility_m: 175, label: 'ILS CAT IIIA' },
};

/** RNAV (GNSS) with LNAV/VNAV: 250–350 ft DA and 1,200–1,500 m are typical; the higher ends are taken. */
export const RNAV_MINIMA: TypicalMinima = { decision_height_ft: 300, rvr_m: 1500, visibility_m: 1500, label: 'RNAV (LNAV/VNAV)' };

const OPERATION_OF: Readonly<Record<IlsCategory, IlsOperation>> = { I: 'I', II: 'II', III: 'IIIA' };
const LOW_VISIBILITY_CATEGORIES: ReadonlySet<ApproachCategory> = new Set(['B', 'C', 'D', 'E']);

/** What the ILS operation depends on: the approach category, and whether the type is known at all. */
export interface ApproachAircraft {
  approach_category: ApproachCategory;
  /** false for the conservative default profile of an aircraft of unknown type; true when absent. */
  type_known?: boolean;
}

/**
 * The ILS operation an aircraft is taken to fly on a facility of `category` (null: the data says
 * there is an ILS but not its category, taken as CAT I).
 */
export function ilsOperation(category: IlsCategory | null, aircraft: ApproachAircraft): { operation: IlsOperation; limited_by_aircraft: boolean } {
  const facility = OPERATION_OF[category ?? 'I'];
  if (facility === 'I' || (aircraft.type_known !== false && LOW_VISIBILITY_CATEGORIES.has(aircraft.approach_category))) {
    return { operation: facility, limited_by_aircraft: false };
  }
  return { operation: 'I', limited_by_aircraft: true };
}

/** What was observed (or forecast), in feet and metres; `*_below` for an M-prefixed value ("less than"). */
export interface ObservedMinimaInputs {
  /** Lowest BKN/OVC layer or vertical visibility; null when there is none. */
  ceiling_ft: number | null;
  visibility_m: number | null;
  visibility_below?: boolean;
  /** The runway's RVR; null when none is reported for it. */
  rvr_m: number | null;
  rvr_below?: boolean;
}

/** Each way the conditions fall below `minima`, as a sentence; empty when they do not. */
export function minimaShortfalls(minima: TypicalMinima, observed: ObservedMinimaInputs, runway: string): string[] {
  const shortfalls: string[] = [];
  const under = (value: number, below: boolean | undefined, minimum: number) => (below ? value <= minimum : value < minimum);
  if (observed.ceiling_ft !== null && observed.ceiling_ft < minima.decision_height_ft) {
    shortfalls.push(`Ceiling ${observed.ceiling_ft} ft is below the typical ${minima.label} decision height of ${minima.decision_height_ft} ft.`);
  }
  if (observed.rvr_m !== null) {
    if (under(observed.rvr_m, observed.rvr_below, minima.rvr_m)) {
      shortfalls.push(`RVR ${observed.rvr_below ? 'below ' : ''}${observed.rvr_m} m on ${runway} is below the typical ${minima.label} minimum of ${minima.rvr_m} m.`);
    }
  } else if (observed.visibility_m !== null && under(observed.visibility_m, observed.visibility_below, minima.visibility_m)) {
    shortfalls.push(`Visibility ${observed.visibility_below ? 'below ' : ''}${observed.visibility_m} m is below the typical ${minima.label} minimum of ${minima.visibility_m} m.`);
  }
  return shortfalls;
}
