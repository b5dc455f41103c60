// The hull Kwon's method needs, estimated from what AIS says about a vessel: length, beam and draught
// when it reports them, the block coefficient, hull form and loading condition from its ship type,
// size and speed. Every estimate is named in `estimated`, and the rules are in KWON.md.
import type { VesselCategory } from '../vessels/reference/index.ts';
import type { Vessel } from '../vessels/store.ts';
import type { HullForm, LoadingCondition } from './kwon.ts';

export interface HullModel {
  length_m: number;
  beam_m: number;
  draught_m: number;
  /** Length between perpendiculars, taken as 97 % of the length overall AIS gives. */
  lpp_m: number;
  block_coefficient: number;
  form: HullForm;
  loading: LoadingCondition;
  /** ∇ = C_B · Lpp · B · T. */
  displacement_m3: number;
  /** What was not reported and how it was filled in. */
  estimated: string[];
}

/** Typical length, beam and draught (m) by category, for vessels that do not report them. */
const TYPICAL_SIZE: Readonly<Partial<Record<VesselCategory, readonly [length: number, beam: number, draught: number]>>> = {
  TANKER: [230, 40, 12],
  CARGO: [190, 30, 10],
  PASSENGER: [200, 30, 7],
  HSC: [60, 15, 2.5],
  FISHING: [40, 9, 4],
  TUG: [32, 11, 4.5],
  PLEASURE: [15, 4.5, 2],
  SAILING: [15, 4.5, 2],
};
const OTHER_SIZE = [100, 18, 6] as const;

/** A cargo ship faster than this in calm water is taken for a container ship. */
export const CONTAINER_SHIP_MIN_KN = 17;
/** A full-form ship (C_B ≥ 0.75) drawing less than this share of about its design draught (L/16) is in ballast. */
const BALLAST_DRAUGHT_SHARE = 0.65;

/** The hull of the vessel, for a calm-water speed in knots (the speed tells container ships from bulk carriers). */
export function hullModel(vessel: Pick<Vessel, 'category' | 'dimensions' | 'draught'>, calmSpeedKn: number): HullModel {
  const estimated: string[] = [];
  const typical = TYPICAL_SIZE[vessel.category] ?? OTHER_SIZE;
  const [typicalLength, typicalBeam, typicalDraught] = typical;
  const reportedLength = positive(vessel.dimensions?.length);
  const length = reportedLength ?? typicalLength;
  if (reportedLength === null) estimated.push(`length ${length} m: typical for ${vessel.category.toLowerCase()} vessels (not reported)`);
  const scale = length / typicalLength;
  const reportedBeam = positive(vessel.dimensions?.beam);
  const beam = reportedBeam ?? round(typicalBeam * scale, 1);
  if (reportedBeam === null) estimated.push(`beam ${beam} m: scaled from a typical ${vessel.category.toLowerCase()} vessel (not reported)`);
  const reportedDraught = positive(vessel.draught);
  const draught = reportedDraught ?? round(typicalDraught * scale, 1);
  if (reportedDraught === null) estimated.push(`draught ${draught} m: scaled from a typical ${vessel.category.toLowerCase()} vessel (not reported)`);

  const { block, form, basis } = blockCoefficient(vessel.category, length, calmSpeedKn);
  estimated.push(`block coefficient ${block}: ${basis}`);
  const ballast = block >= 0.75 && draught < BALLAST_DRAUGHT_SHARE * (length / 16);
  if (ballast) estimated.push(`in ballast: draught ${draught} m is under ${BALLAST_DRAUGHT_SHARE * 100} % of L/16 (${round(length / 16, 1)} m)`);
  const lpp = round(0.97 * length, 1);
  return {
    length_m: length,
    beam_m: beam,
    draught_m: draught,
    lpp_m: lpp,
    block_coefficient: block,
    form,
    loading: ballast ? 'ballast' : 'loaded',
    displacement_m3: Math.round(block * lpp * beam * draught),
    estimated,
  };
}

function blockCoefficient(category: VesselCategory, length: number, calmSpeedKn: number): { block: number; form: HullForm; basis: string } {
  switch (category) {
    case 'TANKER':
      return length >= 250
        ? { block: 0.83, form: 'other', basis: 'a large tanker (250 m or longer)' }
        : { block: 0.8, form: 'other', basis: 'a tanker' };
    case 'CARGO':
      if (calmSpeedKn > CONTAINER_SHIP_MIN_KN) return { block: 0.62, form: 'container', basis: `a cargo ship faster than ${CONTAINER_SHIP_MIN_KN} kn: taken for a container ship` };
      return length >= 150
        ? { block: 0.82, form: 'other', basis: `a cargo ship of ${CONTAINER_SHIP_MIN_KN} kn or less and 150 m or longer: taken for a bulk carrier` }
        : { block: 0.72, form: 'other', basis: 'a cargo ship under 150 m: taken for a general cargo ship' };
    case 'PASSENGER':
      return { block: 0.62, form: 'other', basis: 'a passenger ship' };
    case 'HSC':
    case 'PLEASURE':
    case 'SAILING':
      return { block: 0.55, form: 'other', basis: `${category.toLowerCase()} craft, at the method's finest form (it was not fitted to such craft)` };
    case 'FISHING':
    case 'TUG':
      return { block: 0.6, form: 'other', basis: `a ${category.toLowerCase()} vessel` };
    default:
      return { block: 0.7, form: 'other', basis: 'a vessel of unknown or other type' };
  }
}

function positive(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
