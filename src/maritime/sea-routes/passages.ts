// Named passages: canals and straits a route can be asked to avoid, and whose limits a vessel's
// dimensions must fit. A passage is the network's edges that cross one of its gates (a short line
// across the strait or canal; marnet edges carry no names) plus the lanes added for it (lanes.ts).
// A limit left null is one the passage does not impose or that no authority publishes as a figure.
import type { Position } from './geo.ts';

export interface PassageLimits {
  /** Length overall, m. */
  length_m: number | null;
  beam_m: number | null;
  /** The deepest draught allowed, m (for the Suez Canal: at the narrowest beams, see draughtForBeam). */
  draught_m: number | null;
  /** Height above the waterline, m: bridges and power lines. */
  air_draft_m: number | null;
}

export interface Passage {
  /** What `avoid` takes. */
  id: string;
  name: string;
  kind: 'canal' | 'strait';
  limits: PassageLimits;
  /** The draught allowed for a beam, where it falls with the beam. */
  draughtForBeam?: (beamM: number) => number;
  /** Where the limits come from, and what they leave out. */
  note: string;
  /** [lon, lat] ends of lines across the passage. */
  gates: readonly (readonly [Position, Position])[];
}

export type Dimension = keyof PassageLimits;
export const DIMENSIONS: readonly Dimension[] = ['length_m', 'beam_m', 'draught_m', 'air_draft_m'];
export type VesselDimensions = Partial<Record<Dimension, number>>;

const NO_LIMITS: PassageLimits = { length_m: null, beam_m: null, draught_m: null, air_draft_m: null };

// Suez Canal Authority, Rules of Navigation (2020), Art. 52 and Table 2 (loaded vessels): 66 ft
// (20.1 m) up to a beam of 50 m, falling to 40 ft (12.2 m) at the widest beam allowed, 254 ft 3 in
// (77.5 m); between, the table is read as a straight line (it keeps the wetted cross-section near
// 1,000 m²).
const SUEZ_FULL_DRAUGHT_BEAM_M = 50;
const SUEZ_MAX_BEAM_M = 77.5;
const SUEZ_MAX_DRAUGHT_M = 20.1;
const SUEZ_DRAUGHT_AT_MAX_BEAM_M = 12.2;

export const PASSAGES: readonly Passage[] = [
  {
    id: 'suez',
    name: 'Suez Canal',
    kind: 'canal',
    limits: { length_m: 400, beam_m: SUEZ_MAX_BEAM_M, draught_m: SUEZ_MAX_DRAUGHT_M, air_draft_m: 68 },
    draughtForBeam: (beam) => {
      if (beam <= SUEZ_FULL_DRAUGHT_BEAM_M) return SUEZ_MAX_DRAUGHT_M;
      const share = Math.min(1, (beam - SUEZ_FULL_DRAUGHT_BEAM_M) / (SUEZ_MAX_BEAM_M - SUEZ_FULL_DRAUGHT_BEAM_M));
      return Math.round((SUEZ_MAX_DRAUGHT_M - share * (SUEZ_MAX_DRAUGHT_M - SUEZ_DRAUGHT_AT_MAX_BEAM_M)) * 10) / 10;
    },
    note: 'Suez Canal Authority Rules of Navigation, Art. 52: length 400 m, beam 77.5 m, air draft 68 m (Suez Canal Bridge); ' +
      'draught 20.1 m (66 ft) up to 50 m beam, falling to 12.2 m (40 ft) at 77.5 m by Table 2 (read as a straight line between).',
    gates: [[[32.0, 30.6], [32.6, 30.6]]],
  },
  {
    id: 'panama',
    name: 'Panama Canal',
    kind: 'canal',
    // Neopanamax locks; the Panamax locks take 294.1 × 32.31 × 12.04 m. The air draft is the Bridge of the Americas'.
    limits: { length_m: 366, beam_m: 51.25, draught_m: 15.2, air_draft_m: 57.91 },
    note: 'Panama Canal Authority: Neopanamax locks 366 m × 51.25 m × 15.2 m tropical fresh-water draught (the Panamax locks ' +
      '294.1 m × 32.31 m × 12.04 m), air draft 57.91 m (Bridge of the Americas).',
    gates: [[[-79.9, 9.0], [-79.4, 9.0]]],
  },
  {
    id: 'kiel',
    name: 'Kiel Canal (Nord-Ostsee-Kanal)',
    kind: 'canal',
    limits: { length_m: 235, beam_m: 32.5, draught_m: 9.5, air_draft_m: 40 },
    note: 'Wasserstraßen- und Schifffahrtsverwaltung des Bundes: length 235 m, beam 32.5 m, draught 9.5 m (less for the ' +
      'longest ships), air draft 40 m under the high bridges; 98.6 km (53.3 nm) from lock to lock.',
    gates: [],
  },
  {
    id: 'chesapeake_delaware',
    name: 'Chesapeake and Delaware Canal',
    kind: 'canal',
    limits: { length_m: null, beam_m: null, draught_m: 10.7, air_draft_m: 40.5 },
    note: 'US Army Corps of Engineers, Philadelphia District: a sea-level channel 35 ft (10.7 m) deep and 450 ft wide; ' +
      'the lowest of its bridges clears 133 ft (40.5 m) at mean high water. Pilots may set a smaller draught by the tide.',
    gates: [],
  },
  {
    id: 'great_belt',
    name: 'Great Belt (Storebælt)',
    kind: 'strait',
    limits: { length_m: null, beam_m: null, draught_m: 15.4, air_draft_m: 65 },
    note: 'Route T (Danish Maritime Authority): 15.4 m draught, the deepest into the Baltic ("Baltimax"); the East Bridge clears ' +
      '65 m at mean sea level (VTS Great Belt).',
    gates: [[[10.6, 55.3], [11.3, 55.3]]],
  },
  {
    id: 'oresund',
    name: 'The Sound (Øresund)',
    kind: 'strait',
    limits: { length_m: null, beam_m: null, draught_m: 7.7, air_draft_m: null },
    note: 'The Drogden channel is dredged to 8 m, taking ships of up to about 7.7 m draught; ships too tall for the Øresund ' +
      'Bridge (57 m) pass over the tunnel through Drogden, so the Sound sets no air draft.',
    gates: [[[12.45, 55.55], [12.95, 55.55]]],
  },
  {
    id: 'bosporus',
    name: 'Bosporus (Istanbul Strait)',
    kind: 'strait',
    limits: { ...NO_LIMITS, air_draft_m: 64 },
    note: 'Turkish Straits: no length, beam or draught limit is published (the strait is over 30 m deep in the fairway); ' +
      'the bridges clear about 64 m.',
    gates: [[[28.95, 41.085], [29.12, 41.085]]],
  },
  {
    id: 'malacca',
    name: 'Strait of Malacca',
    kind: 'strait',
    limits: { ...NO_LIMITS, draught_m: 20.5 },
    note: '"Malaccamax": 20.5 m draught, set by the 25 m least depth on the way through the Malacca and Singapore Straits.',
    gates: [[[101.3, 2.0], [101.3, 3.5]]],
  },
  {
    id: 'singapore',
    name: 'Singapore Strait',
    kind: 'strait',
    limits: { ...NO_LIMITS, draught_m: 20.5 },
    note: '"Malaccamax": 20.5 m draught, set by the 25 m least depth of the Singapore Strait.',
    gates: [[[104.0, 1.0], [104.0, 1.4]]],
  },
  {
    id: 'dover',
    name: 'Strait of Dover',
    kind: 'strait',
    limits: NO_LIMITS,
    note: 'No limit for merchant ships; deep-draught vessels keep to the deep-water route of the traffic separation scheme.',
    gates: [[[1.35, 51.12], [1.62, 50.87]]],
  },
  {
    id: 'solent',
    name: 'The Solent and Spithead (Nab Channel)',
    kind: 'strait',
    limits: NO_LIMITS,
    note: 'The eastern way in and out of Southampton Water; no published limit beyond the port\'s own channel depths.',
    gates: [[[-1.15, 50.7], [-1.15, 50.8]]],
  },
  {
    id: 'gibraltar',
    name: 'Strait of Gibraltar',
    kind: 'strait',
    limits: NO_LIMITS,
    note: 'No limit for merchant ships.',
    gates: [[[-5.45, 35.8], [-5.45, 36.15]]],
  },
  {
    id: 'bab_el_mandeb',
    name: 'Bab-el-Mandeb',
    kind: 'strait',
    limits: NO_LIMITS,
    note: 'No limit for merchant ships; the way between the Red Sea and the Gulf of Aden.',
    gates: [[[43.6, 12.3], [43.6, 12.9]]],
  },
  {
    id: 'hormuz',
    name: 'Strait of Hormuz',
    kind: 'strait',
    limits: NO_LIMITS,
    note: 'No limit for merchant ships; the only way in and out of the Persian Gulf.',
    gates: [[[56.5, 25.9], [56.5, 26.8]]],
  },
];

const byId = new Map(PASSAGES.map((passage) => [passage.id, passage]));

export function passageById(id: string): Passage | undefined {
  return byId.get(id);
}

/** The limit of one dimension for this vessel (the Suez draught depends on its beam). */
export function limitFor(passage: Passage, dimension: Dimension, vessel: VesselDimensions): number | null {
  if (dimension === 'draught_m' && passage.draughtForBeam && vessel.beam_m !== undefined) return passage.draughtForBeam(vessel.beam_m);
  return passage.limits[dimension];
}

export interface LimitExceeded {
  dimension: Dimension;
  vessel: number;
  limit: number;
}

/** The passage's limits this vessel exceeds; a dimension not given is taken to fit. */
export function limitsExceeded(passage: Passage, vessel: VesselDimensions): LimitExceeded[] {
  const exceeded: LimitExceeded[] = [];
  for (const dimension of DIMENSIONS) {
    const value = vessel[dimension];
    const limit = limitFor(passage, dimension, vessel);
    if (value !== undefined && limit !== null && value > limit) exceeded.push({ dimension, vessel: value, limit });
  }
  return exceeded;
}
