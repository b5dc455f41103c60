// AIS "type of ship and cargo" (ITU-R M.1371 Table 53) folded into the categories that stream
// subscriptions and filters use. The first digit is a broad class; inside decades 3 and 5 the
// second digit is the activity, elsewhere it is the hazardous-cargo category.

export const VESSEL_CATEGORIES = [
  'TANKER',
  'CARGO',
  'PASSENGER',
  'FISHING',
  'TUG',
  'HSC',
  'PLEASURE',
  'MILITARY',
  'SAR',
  'PILOT',
  'LAW_ENFORCEMENT',
  'WIG',
  'SAILING',
  'DREDGING',
  'DIVING',
  'SPECIAL',
  'OTHER',
] as const;

export type VesselCategory = (typeof VESSEL_CATEGORIES)[number];

/** Hazardous category of the cargo, A..D; IMO has since renamed them X, Y, Z and OS. */
export type HazardCategory = 'A' | 'B' | 'C' | 'D';

// Decade 3: vessels described by what they are doing (30..39).
const DECADE_3: readonly VesselCategory[] = [
  'FISHING', // 30
  'TUG', // 31 towing
  'TUG', // 32 towing, tow longer than 200 m or wider than 25 m
  'DREDGING', // 33 dredging or underwater operations
  'DIVING', // 34
  'MILITARY', // 35
  'SAILING', // 36
  'PLEASURE', // 37
  'OTHER', // 38 reserved
  'OTHER', // 39 reserved
];

// Decade 5: special craft (50..59).
const DECADE_5: readonly VesselCategory[] = [
  'PILOT', // 50
  'SAR', // 51
  'TUG', // 52
  'SPECIAL', // 53 port tender
  'SPECIAL', // 54 anti-pollution
  'LAW_ENFORCEMENT', // 55
  'OTHER', // 56 spare, assigned locally: means nothing across administrations
  'OTHER', // 57 spare, assigned locally
  'SPECIAL', // 58 medical transport
  'SPECIAL', // 59 non-combatant ship per RR Resolution 18
];

// Decades whose second digit is a hazard category; 1..3 and 5 are handled above, 1x is reserved.
const BY_DECADE: Readonly<Record<number, VesselCategory>> = {
  2: 'WIG',
  4: 'HSC',
  6: 'PASSENGER',
  7: 'CARGO',
  8: 'TANKER',
  9: 'OTHER',
};

const CATEGORY_SET: ReadonlySet<string> = new Set(VESSEL_CATEGORIES);

function validCode(code: number | null | undefined): code is number {
  return typeof code === 'number' && Number.isInteger(code) && code >= 0 && code <= 99;
}

/**
 * Category of an AIS ship type code. 0 (not available), the reserved 1..19, the regional and
 * reserved 100..255, null and anything malformed are all OTHER.
 */
export function categoryForShipType(code: number | null | undefined): VesselCategory {
  if (!validCode(code)) return 'OTHER';
  const decade = Math.floor(code / 10);
  if (decade === 3) return DECADE_3[code - 30]!;
  if (decade === 5) return DECADE_5[code - 50]!;
  return BY_DECADE[decade] ?? 'OTHER';
}

/** The hazardous-cargo category for codes 2x, 4x, 6x..9x ending in 1..4; null otherwise. */
export function hazardCategoryForShipType(code: number | null | undefined): HazardCategory | null {
  if (!validCode(code)) return null;
  const decade = Math.floor(code / 10);
  if (decade !== 2 && decade !== 4 && decade < 6) return null;
  switch (code % 10) {
    case 1:
      return 'A';
    case 2:
      return 'B';
    case 3:
      return 'C';
    case 4:
      return 'D';
    default:
      return null;
  }
}

/** Narrows user input (e.g. a subscription filter) to a category name; exact, upper case. */
export function isVesselCategory(value: unknown): value is VesselCategory {
  return typeof value === 'string' && CATEGORY_SET.has(value);
}
