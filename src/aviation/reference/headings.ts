// True headings of runway ends, and where each one came from.
//
// A runway number is the magnetic heading rounded to tens of degrees (a "T" suffix marks numbers
// given from true north, as in polar regions). It is coarse, but it is the one thing a data error
// rarely gets wrong, so it is used to check the finer sources, in this order:
//
// 1. `data`: the true heading recorded for the end, kept when it lies within IDENT_TOLERANCE_DEG
//    of what the number says, or agrees within SOURCES_AGREE_DEG with the bearing between the
//    thresholds (two independent figures agreeing outweigh a number not yet renamed for the
//    drifting variation).
// 2. `thresholds`: the great-circle initial bearing from this threshold to the opposite one.
// 3. `ident`: the runway number × 10 plus the magnetic variation (WMM2025) at the airport.
//
// An end the data does not describe at all gets `reciprocal`: its opposite end's heading + 180°.
// Runways named by compass points ("N", "SE") and other idents without a number have nothing to
// check against; their recorded heading is taken as it is.

import { angleBetweenDeg, initialBearingDeg, normaliseHeadingDeg } from './geo.ts';
import type { LatLon } from './geo.ts';

export type HeadingSource = 'data' | 'thresholds' | 'reciprocal' | 'ident';

export const HEADING_SOURCES: readonly HeadingSource[] = ['data', 'thresholds', 'reciprocal', 'ident'];

/** Rounding to tens (±5°) plus room for variation drift since the runway was numbered. */
export const IDENT_TOLERANCE_DEG = 15;
/** How closely the recorded heading and the threshold bearing must agree to confirm each other. */
export const SOURCES_AGREE_DEG = 5;

export type RunwayNumber = {
  /** 1..36 */
  readonly number: number;
  /** Letters after the number: L/R/C for parallels, T for true north, W water, H helicopter... */
  readonly suffix: string;
  /** Whether the number was written with two digits ("09" rather than "9"). */
  readonly twoDigits: boolean;
};

/** The number and suffix of a runway ident such as "09L", "27", "20T"; null for "N", "H1", "341". */
export function parseRunwayNumber(ident: string): RunwayNumber | null {
  const match = /^(\d{1,2})([A-Z]{0,2})$/.exec(ident.trim().toUpperCase());
  if (match === null) return null;
  const number = Number(match[1]);
  if (number < 1 || number > 36) return null;
  return { number, suffix: match[2]!, twoDigits: match[1]!.length === 2 };
}

const OPPOSITE_COMPASS_POINTS: ReadonlyMap<string, string> = new Map([
  ['N', 'S'], ['S', 'N'], ['E', 'W'], ['W', 'E'], ['NE', 'SW'], ['SW', 'NE'], ['NW', 'SE'], ['SE', 'NW'],
]);

const OPPOSITE_PARALLEL: Readonly<Record<string, string>> = { L: 'R', R: 'L' };

/** The ident of the other end of the same runway: 09L → 27R, 36 → 18, 4 → 22, N → S; null if unknown. */
export function reciprocalIdent(ident: string): string | null {
  const compass = OPPOSITE_COMPASS_POINTS.get(ident.trim().toUpperCase());
  if (compass !== undefined) return compass;
  const parsed = parseRunwayNumber(ident);
  if (parsed === null) return null;
  const number = ((parsed.number + 17) % 36) + 1;
  const side = parsed.suffix.charAt(0);
  const suffix = (OPPOSITE_PARALLEL[side] ?? side) + parsed.suffix.slice(1);
  return `${parsed.twoDigits ? String(number).padStart(2, '0') : number}${suffix}`;
}

/** The true heading a runway number stands for: magnetic unless suffixed T. */
export function headingFromIdent(runway: RunwayNumber, magneticVariationDeg: number): number {
  const variation = runway.suffix.includes('T') ? 0 : magneticVariationDeg;
  return normaliseHeadingDeg(runway.number * 10 + variation);
}

export type ResolvedHeading = { readonly heading: number; readonly source: HeadingSource };

export type HeadingEvidence = {
  readonly ident: string;
  /** The true heading recorded for this end, if any. */
  readonly recorded: number | null;
  /** This end's threshold, if known. */
  readonly threshold: LatLon | null;
  /** The opposite end's threshold, if known. */
  readonly oppositeThreshold: LatLon | null;
  /**
   * Magnetic variation at the airport, degrees east positive; called only when the ident has a
   * number, since the model is comparatively slow.
   */
  readonly magneticVariation: () => number;
};

/**
 * The true heading of a runway end from the evidence, following the order above; null when there
 * is none at all (no recorded heading, no usable thresholds, no runway number).
 */
export function resolveTrueHeading(evidence: HeadingEvidence): ResolvedHeading | null {
  const runway = parseRunwayNumber(evidence.ident);
  const expected = runway === null ? null : headingFromIdent(runway, evidence.magneticVariation());
  const plausible = (heading: number) => expected === null || angleBetweenDeg(heading, expected) <= IDENT_TOLERANCE_DEG;
  const bearing = thresholdBearing(evidence.threshold, evidence.oppositeThreshold);

  if (evidence.recorded !== null && Number.isFinite(evidence.recorded)) {
    const recorded = normaliseHeadingDeg(evidence.recorded);
    const confirmed = bearing !== null && angleBetweenDeg(recorded, bearing) <= SOURCES_AGREE_DEG;
    if (plausible(recorded) || confirmed) return { heading: recorded, source: 'data' };
  }
  if (bearing !== null && plausible(bearing)) return { heading: roundHeading(bearing), source: 'thresholds' };
  if (expected !== null) return { heading: roundHeading(expected), source: 'ident' };
  return null;
}

/** The opposite direction of a resolved heading, for an end the data does not describe. */
export function reciprocalHeading(heading: number): ResolvedHeading {
  return { heading: roundHeading(heading + 180), source: 'reciprocal' };
}

function thresholdBearing(from: LatLon | null, to: LatLon | null): number | null {
  if (from === null || to === null) return null;
  if (from.lat === to.lat && from.lon === to.lon) return null;
  return normaliseHeadingDeg(initialBearingDeg(from, to));
}

/** Derived headings carry two decimals: a hundredth of a degree is 0.3 m across a 2 km runway. */
function roundHeading(degrees: number): number {
  return normaliseHeadingDeg(Math.round(normaliseHeadingDeg(degrees) * 100) / 100);
}
