// Hourly arrival capacity derived from an airport's runways, by the rules in RULES.md. An admin
// override (SlotBook.setCapacity) replaces it.
//
// Each usable runway (not closed in the data or by a NOTAM given) gets a rate:
//   helipad (ident starting with H, or any runway of a heliport)        6/h
//   paved, length >= 8,000 ft                                            30/h
//   paved, 5,000-7,999 ft                                                20/h
//   paved, 3,000-4,999 ft                                                12/h
//   paved, shorter or unknown length                                      8/h
//   unpaved (or paving unknown), >= 3,000 ft                             10/h
//   unpaved, shorter or unknown length                                    6/h
// Runways share airspace, approach paths and often intersect, so they are not independent: the
// best rate counts in full, the second at 50 %, every further one at 25 %. The sum is rounded down.

import { airportConditions, isClosed } from './conditions.ts';
import type { ActiveNotam, LandingAirport, Runway } from './types.ts';

export const RUNWAY_DEPENDENCY_FACTORS: readonly number[] = [1, 0.5, 0.25];

export interface RunwayRate {
  runway_id: string;
  designators: string[];
  arrivals_per_hour: number;
  /** Which class the runway fell in, or why it was not counted. */
  basis: string;
}

export interface DerivedCapacity {
  arrivals_per_hour: number;
  runways: RunwayRate[];
  reasoning: string[];
}

export function deriveCapacity(airport: Pick<LandingAirport, 'type' | 'runways'>, notams: readonly ActiveNotam[] = []): DerivedCapacity {
  const conditions = airportConditions(airport.runways, notams);
  const heliport = airport.type === 'heliport';
  const runways: RunwayRate[] = airport.runways.map((runway) => {
    const ends = conditions.ends.filter((item) => item.runway === runway);
    const designators = ends.map((item) => item.designator);
    const base = { runway_id: String(runway.id), designators };
    if (ends.some(isClosed)) return { ...base, arrivals_per_hour: 0, basis: 'closed' };
    return { ...base, ...runwayRate(runway, heliport) };
  });

  const rates = runways.map((runway) => runway.arrivals_per_hour).filter((rate) => rate > 0).sort((a, b) => b - a);
  const total = Math.floor(
    rates.reduce((sum, rate, index) => sum + rate * RUNWAY_DEPENDENCY_FACTORS[Math.min(index, RUNWAY_DEPENDENCY_FACTORS.length - 1)]!, 0),
  );
  const reasoning = runways.map((runway) => `${runway.designators.join('/') || runway.runway_id}: ${runway.basis}, ${runway.arrivals_per_hour}/h.`);
  reasoning.push(
    rates.length === 0
      ? 'No usable runway: no arrival capacity.'
      : `${total} arrivals/h: the best runway in full, the second at 50 %, others at 25 % (runways are not independent).`,
  );
  return { arrivals_per_hour: total, runways, reasoning };
}

const FEET = { long: 8000, medium: 5000, short: 3000 };

function runwayRate(runway: Runway, heliport: boolean): { arrivals_per_hour: number; basis: string } {
  if (heliport || runway.ends.some((end) => /^H/i.test(end.ident.trim()))) return { arrivals_per_hour: 6, basis: 'helipad' };
  const length = runway.length_ft;
  if (runway.paved === true) {
    if (length === null) return { arrivals_per_hour: 8, basis: 'paved, length unknown' };
    if (length >= FEET.long) return { arrivals_per_hour: 30, basis: 'paved, 8,000 ft or more' };
    if (length >= FEET.medium) return { arrivals_per_hour: 20, basis: 'paved, 5,000-7,999 ft' };
    if (length >= FEET.short) return { arrivals_per_hour: 12, basis: 'paved, 3,000-4,999 ft' };
    return { arrivals_per_hour: 8, basis: 'paved, under 3,000 ft' };
  }
  const surface = runway.paved === false ? 'unpaved' : 'paving unknown';
  if (length !== null && length >= FEET.short) return { arrivals_per_hour: 10, basis: `${surface}, 3,000 ft or more` };
  return { arrivals_per_hour: 6, basis: `${surface}, under 3,000 ft or length unknown` };
}
