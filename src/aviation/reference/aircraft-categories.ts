// The categories an aircraft type is described by (ICAO, EUROCONTROL), shared by the type table
// and the rows it is built from.

export type VehicleCategory = 'aircraft' | 'helicopter';

/** ICAO aircraft approach category by threshold speed (Vat); helicopters are H. */
export type FixedWingApproachCategory = 'A' | 'B' | 'C' | 'D' | 'E';
export type ApproachCategory = FixedWingApproachCategory | 'H';

/** ICAO wake turbulence category: Light, Medium, Heavy, Super (J, the A380). */
export type WakeCategory = 'L' | 'M' | 'H' | 'J';

/**
 * EUROCONTROL RECAT-EU category: A super heavy, B upper heavy, C lower heavy, D upper medium,
 * E lower medium, F light.
 */
export type RecatEuCategory = 'A' | 'B' | 'C' | 'D' | 'E' | 'F';

/**
 * `published`: approach speed, landing distance and crosswind figure are all public figures.
 * `estimated`: at least one of them is a conservative estimate (see aircraft-types-data.ts).
 */
export type Confidence = 'published' | 'estimated';
