// What the weather of a briefing rests on, in words: the observation (with its trend groups), the
// TAF groups in force at the ETA, or nothing (past the TAF). Pure, so it is tested without a browser.
import type { Tone } from '../../app/ui/basics.tsx';
import type { LandingBundle } from './types.ts';

type Weather = LandingBundle['weather'];
export type WeatherBasis = Weather['basis'];
type Period = Weather['periods'][number];

export const BASES: Record<WeatherBasis, { tone: Tone; words: string }> = {
  observation: { tone: 'ok', words: 'observed' },
  forecast: { tone: 'info', words: 'forecast' },
  none: { tone: 'warn', words: 'unknown' },
};

const KINDS: Record<Period['kind'], string> = {
  BASE: 'Base forecast',
  FM: 'FM (from)',
  BECMG: 'BECMG (becoming)',
  TEMPO: 'TEMPO (temporarily)',
  INTER: 'INTER (intermittently)',
  PROB: 'PROB (probably)',
};

/** "15:00–18:00 UTC" (the day too when it is not the ETA's). */
function span(from: string, to: string, etaIso: string): string {
  const clock = (iso: string) => `${iso.slice(11, 16)}`;
  const day = (iso: string) => (iso.slice(0, 10) === etaIso.slice(0, 10) ? '' : `${iso.slice(8, 10)}/${iso.slice(5, 7)} `);
  return `${day(from)}${clock(from)}–${day(to)}${clock(to)} UTC`;
}

/** One group the weather rests on (a TAF's, or the METAR's trend): "TEMPO (temporarily), 30 %, 14:00–18:00 UTC, taken at its worst". */
export function periodWords(period: Period, etaIso: string): string {
  const probability = period.probability === null ? '' : `, ${period.probability} %`;
  const role = period.role === 'possible' ? ', taken at its worst' : ', in force';
  return `${KINDS[period.kind]}${probability}, ${span(period.from, period.to, etaIso)}${role}`;
}

/** The line under the basis: until when an observation holds, or why nothing is known. */
export function basisNote(weather: Weather): string {
  switch (weather.basis) {
    case 'observation':
      return weather.basis_valid_until === null ? 'The METAR describes the ETA.' : `The METAR describes the weather until ${weather.basis_valid_until.slice(11, 16)} UTC.`;
    case 'forecast':
      return 'The ETA is past the METAR\'s hour: the TAF groups in force at the ETA, each change at its worst.';
    default:
      return 'Wind, visibility and ceiling at the ETA are unknown: the runway is chosen by its equipment, and the score is lower for it.';
  }
}
