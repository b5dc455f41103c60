// The headline parts of a landing bundle in words and tones: destination status, safety score
// and its factors, slot, the chosen runway's ILS. Pure, so it is tested without a browser.
import type { Tone } from '../../app/ui/basics.tsx';
import type { LandingBundle, RecommendedRunway, SafetyFactor } from './types.ts';

export const STATUS: Record<LandingBundle['destination']['status'], { tone: Tone; words: string }> = {
  OPERATIONAL: { tone: 'ok', words: 'Operational' },
  LIMITED: { tone: 'warn', words: 'Limited' },
  CLOSED: { tone: 'bad', words: 'Closed' },
  UNKNOWN: { tone: 'neutral', words: 'Unknown (no runway data)' },
};

// The factors of src/aviation/landing/RULES.md ("Safety score").
const FACTORS: Record<string, string> = {
  aerodrome_closed: 'Aerodrome closed',
  airport_limited: 'Airport limited',
  weather_basis: 'Weather at the ETA',
  weather_age: 'Weather age',
  flight_category: 'Flight category',
  wind_unknown: 'Wind unknown',
  wind_shear: 'Wind shear',
  no_runway: 'No runway within limits',
  crosswind: 'Crosswind',
  tailwind: 'Tailwind',
  runway_length: 'Runway length',
  below_minima: 'Below minima',
  ils_unserviceable: 'ILS out of service',
  runway_lighting: 'Runway lighting',
  approach_lighting: 'Approach lighting',
  night: 'Night',
};

export function factorName(factor: string): string {
  return FACTORS[factor] ?? factor.charAt(0).toUpperCase() + factor.slice(1).replaceAll('_', ' ');
}

/** The score's colour band: a reading aid, not a rule of the score. */
export function scoreTone(score: number): Tone {
  return score >= 80 ? 'ok' : score >= 60 ? 'warn' : 'bad';
}

/** The factors that cost points first (largest first), then those at 0, each in the API's order otherwise. */
export function orderedFactors(factors: readonly SafetyFactor[]): SafetyFactor[] {
  return factors
    .map((factor, index) => ({ factor, index }))
    .sort((a, b) => a.factor.points - b.factor.points || a.index - b.index)
    .map(({ factor }) => factor);
}

/** "12 of 15 arrival slots left in the hour from 22:00 UTC (derived from the runways)". */
export function slotWords(slot: LandingBundle['slot']): string {
  const hour = new Date(slot.hour);
  const from = Number.isNaN(hour.getTime()) ? slot.hour : `${String(hour.getUTCHours()).padStart(2, '0')}:00 UTC`;
  const basis = slot.capacity_source === 'derived' ? 'derived from the runways' : slot.capacity_source === 'override' ? 'set by the operator' : slot.capacity_source;
  return `${slot.remaining} of ${slot.capacity} arrival slots left in the hour from ${from} (${slot.booked} booked; capacity ${basis})`;
}

/**
 * The chosen end's ILS in words: its category and frequency, out by NOTAM, none in the navigation
 * data, or unknown (no navigation data covers the airport), which is never shown as "no ILS".
 */
export function ilsWords(runway: Pick<RecommendedRunway, 'ils' | 'ils_system' | 'ils_out_by'>): { tone: Tone; words: string } {
  const system = runway.ils_system;
  const named = system ? `ILS${system.category ? ` CAT ${system.category}` : ''} ${system.ident} ${system.frequency_mhz.toFixed(2)} MHz` : 'ILS';
  switch (runway.ils) {
    case 'usable': return { tone: 'ok', words: named };
    case 'out_of_service': return { tone: 'bad', words: `${named} out of service (NOTAM ${runway.ils_out_by.join(', ')})` };
    case 'none': return { tone: 'neutral', words: 'No ILS in the navigation data' };
    case 'unknown': return { tone: 'neutral', words: 'ILS unknown (no navigation data)' };
  }
}

/** The ILS operation an ILS approach was checked for: "ILS CAT IIIA"; null for other approaches. */
export function ilsCategoryWords(approach: LandingBundle['approach']): string | null {
  return approach.ils_category === null ? null : `ILS CAT ${approach.ils_category}`;
}
