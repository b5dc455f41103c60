// Runway surfaces reduced to a small fixed set. OurAirports records surfaces as free text: FAA
// codes with a condition suffix ("ASPH-G", "ASPH-CONC", "TURF-F"), ICAO-style abbreviations ("ASP",
// "CON", "GRS", "GRE", "PEM", "BIT"), or plain words ("grass", "Water"). The first word naming a
// material decides, as in FAA usage where a mixed surface lists its main material first. Condition
// words (G/F/P) and treatments ("TRTD") carry no material and are skipped.

export type RunwaySurface =
  | 'ASPHALT'
  | 'CONCRETE'
  | 'GRASS'
  | 'GRAVEL'
  | 'DIRT'
  | 'WATER'
  | 'SNOW'
  | 'OTHER'
  | 'UNKNOWN';

export const RUNWAY_SURFACES: readonly RunwaySurface[] = [
  'ASPHALT', 'CONCRETE', 'GRASS', 'GRAVEL', 'DIRT', 'WATER', 'SNOW', 'OTHER', 'UNKNOWN',
];

export type NormalisedSurface = {
  readonly surface: RunwaySurface;
  /** Asphalt or concrete; null when the surface is unknown. */
  readonly paved: boolean | null;
};

const MATERIAL_WORDS: ReadonlyMap<string, RunwaySurface> = new Map([
  // PEM: "partially concrete, asphalt or bitumen-bound macadam"; all are sealed, paved surfaces.
  ...['ASP', 'ASPH', 'ASPHALT', 'BIT', 'BITUMEN', 'BITUMINOUS', 'TAR', 'TARMAC', 'MAC', 'MACADAM', 'PEM', 'SEALED']
    .map((word) => [word, 'ASPHALT'] as const),
  ...['CON', 'CONC', 'CONCRETE', 'CEMENT'].map((word) => [word, 'CONCRETE'] as const),
  ...['GRS', 'GRASS', 'TURF', 'SOD', 'GRAS'].map((word) => [word, 'GRASS'] as const),
  ...['GRE', 'GRV', 'GRVL', 'GVL', 'GRAVEL', 'GRAVL'].map((word) => [word, 'GRAVEL'] as const),
  ...['DIRT', 'DRT', 'SOIL', 'EARTH', 'CLAY', 'SAND', 'SAN', 'SILT', 'LOAM', 'LATERITE'].map((word) => [word, 'DIRT'] as const),
  ...['WATER', 'WAT'].map((word) => [word, 'WATER'] as const),
  ...['SNOW', 'ICE'].map((word) => [word, 'SNOW'] as const),
  ...['METAL', 'MET', 'STEEL', 'ALUMINUM', 'ALUMINIUM', 'PSP', 'MATS', 'MAT', 'WOOD', 'CORAL', 'ROOF', 'ROOFTOP', 'DECK', 'BRICK', 'STONE']
    .map((word) => [word, 'OTHER'] as const),
]);

/** The surface class of an OurAirports surface text; empty or unrecognised text is UNKNOWN. */
export function normaliseSurface(text: string | null | undefined): NormalisedSurface {
  const words = (text ?? '').toUpperCase().split(/[^A-Z]+/);
  for (const word of words) {
    const surface = MATERIAL_WORDS.get(word);
    if (surface !== undefined) return { surface, paved: isPaved(surface) };
  }
  return { surface: 'UNKNOWN', paved: null };
}

/** Whether a surface class counts as paved: asphalt or concrete; null for UNKNOWN. */
export function isPaved(surface: RunwaySurface): boolean | null {
  if (surface === 'UNKNOWN') return null;
  return surface === 'ASPHALT' || surface === 'CONCRETE';
}
