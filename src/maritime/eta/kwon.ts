// Kwon's method for the involuntary speed loss of a ship in wind and waves: the percentage loss is
// the product of a direction coefficient (weather from ahead, the bow, the beam or astern, and the
// Beaufort number), a speed coefficient (block coefficient and Froude number, loaded or in
// ballast) and a ship form coefficient (Beaufort number and displaced volume). The formulae, their
// source and LAMIS's choices where the method is silent are in KWON.md beside this file.

export type LoadingCondition = 'loaded' | 'ballast';
/** Kwon gives container ships their own form coefficient. */
export type HullForm = 'container' | 'other';
export type WeatherSector = 'head' | 'bow' | 'beam' | 'following';

export const GRAVITY_MS2 = 9.81;
export const MS_PER_KN = 1852 / 3600;
/** Losses beyond this are held at it: the method was fitted to far smaller ones, and a ship would heave to. */
export const MAX_LOSS_PERCENT = 50;

/** Upper bounds of Beaufort forces 0–11 in knots (WMO), halfway between the whole knots of adjacent forces. */
const BEAUFORT_WIND_KN = [1, 3.5, 6.5, 10.5, 16.5, 21.5, 27.5, 33.5, 40.5, 47.5, 55.5, 63.5];
/**
 * Upper bounds of forces 0–11 by significant wave height: halfway between the WMO probable wave
 * heights of adjacent forces (0, 0.1, 0.2, 0.6, 1, 2, 3, 4, 5.5, 7, 9, 11.5 and 14 m).
 */
const BEAUFORT_WAVE_M = [0.05, 0.15, 0.4, 0.8, 1.5, 2.5, 3.5, 4.75, 6.25, 8, 10.25, 12.75];

/** Speed coefficient C_U = a + b·Fn + c·Fn² by block coefficient (Kwon 2008, table 3). */
const SPEED_COEFFICIENTS: Readonly<Record<LoadingCondition, readonly (readonly [cb: number, a: number, b: number, c: number])[]>> = {
  loaded: [
    [0.55, 1.7, -1.4, -7.4],
    [0.6, 2.2, -2.5, -9.7],
    [0.65, 2.6, -3.7, -11.6],
    [0.7, 3.1, -5.3, -12.4],
    [0.75, 2.4, -10.6, -9.5],
    [0.8, 2.6, -13.1, -15.1],
    [0.85, 3.1, -18.7, 28.0],
  ],
  ballast: [
    [0.75, 2.6, -12.5, -13.5],
    [0.8, 3.0, -16.3, -21.6],
    [0.85, 3.4, -20.9, 31.8],
  ],
};

export function beaufortFromWind(windKn: number): number {
  return forceBelow(BEAUFORT_WIND_KN, windKn);
}

export function beaufortFromWaveHeight(waveHeightM: number): number {
  return forceBelow(BEAUFORT_WAVE_M, waveHeightM);
}

function forceBelow(bounds: readonly number[], value: number): number {
  let force = 0;
  while (force < bounds.length && value >= bounds[force]!) force++;
  return force;
}

/** Angle between the ship's heading and where the weather comes from: 0 when it comes from dead ahead, 180 from astern. */
export function relativeWeatherAngle(courseDeg: number, weatherFromDeg: number): number {
  const difference = (((weatherFromDeg - courseDeg) % 360) + 360) % 360;
  return difference > 180 ? 360 - difference : difference;
}

/** Kwon's sectors: head 0–30°, bow 30–60°, beam 60–150°, following 150–180°. */
export function sectorOf(relativeDeg: number): WeatherSector {
  if (relativeDeg <= 30) return 'head';
  if (relativeDeg <= 60) return 'bow';
  if (relativeDeg <= 150) return 'beam';
  return 'following';
}

/** C_β; never below 0 (the method's quadratic turns negative in light weather abeam or astern, where it claims no gain). */
export function directionCoefficient(sector: WeatherSector, beaufort: number): number {
  const twice = {
    head: 2,
    bow: 1.7 - 0.03 * (beaufort - 4) ** 2,
    beam: 0.9 - 0.06 * (beaufort - 6) ** 2,
    following: 0.4 - 0.03 * (beaufort - 8) ** 2,
  }[sector];
  return Math.max(0, twice / 2);
}

/**
 * C_U, linearly interpolated between the table's block coefficients (clamped to 0.55–0.85; the
 * ballast rows start at 0.75, finer forms use the loaded rows); never below 0.
 */
export function speedCoefficient(blockCoefficient: number, froude: number, loading: LoadingCondition): number {
  const rows = loading === 'ballast' && blockCoefficient >= 0.75 ? SPEED_COEFFICIENTS.ballast : SPEED_COEFFICIENTS.loaded;
  const cb = Math.min(rows[rows.length - 1]![0], Math.max(rows[0]![0], blockCoefficient));
  const at = ([, a, b, c]: readonly number[]) => a! + b! * froude + c! * froude ** 2;
  let i = 0;
  while (i < rows.length - 2 && rows[i + 1]![0] < cb) i++;
  const lower = rows[i]!;
  const upper = rows[i + 1] ?? lower;
  const f = upper[0] === lower[0] ? 0 : (cb - lower[0]) / (upper[0] - lower[0]);
  return Math.max(0, at(lower) + (at(upper) - at(lower)) * f);
}

/** C_Form from the Beaufort number and the displaced volume ∇ in m³. */
export function formCoefficient(beaufort: number, displacementM3: number, form: HullForm, loading: LoadingCondition): number {
  const volume = displacementM3 ** (2 / 3);
  if (form === 'container') return 0.7 * beaufort + beaufort ** 6.5 / (22 * volume);
  return (loading === 'ballast' ? 0.7 : 0.5) * beaufort + beaufort ** 6.5 / (2.7 * volume);
}

/** Fn = V / √(g·L), V in m/s, L the length between perpendiculars in metres. */
export function froudeNumber(speedKn: number, lengthM: number): number {
  return (speedKn * MS_PER_KN) / Math.sqrt(GRAVITY_MS2 * lengthM);
}

export interface SpeedLossInput {
  beaufort: number;
  /** From relativeWeatherAngle: 0 for weather from dead ahead. */
  relative_deg: number;
  block_coefficient: number;
  froude: number;
  loading: LoadingCondition;
  form: HullForm;
  displacement_m3: number;
}

export interface SpeedLoss {
  /** ΔV/V in per cent, at most MAX_LOSS_PERCENT. */
  percent: number;
  sector: WeatherSector;
  c_beta: number;
  c_u: number;
  c_form: number;
}

/** ΔV/V (%) = C_β · C_U · C_Form. */
export function speedLoss(input: SpeedLossInput): SpeedLoss {
  const sector = sectorOf(input.relative_deg);
  const cBeta = directionCoefficient(sector, input.beaufort);
  const cU = speedCoefficient(input.block_coefficient, input.froude, input.loading);
  const cForm = formCoefficient(input.beaufort, input.displacement_m3, input.form, input.loading);
  return { percent: Math.min(MAX_LOSS_PERCENT, cBeta * cU * cForm), sector, c_beta: cBeta, c_u: cU, c_form: cForm };
}
