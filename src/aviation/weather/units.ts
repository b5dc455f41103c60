// Unit conversions shared by the decoders and the derived values.

export const METRES_PER_STATUTE_MILE = 1609.344;
export const METRES_PER_NAUTICAL_MILE = 1852;
export const NM_PER_STATUTE_MILE = 0.868976;
export const KT_PER_MPS = 3600 / 1852;
export const KT_PER_KMH = 1000 / 1852;
export const HPA_PER_INHG = 33.8639;

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
