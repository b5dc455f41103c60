// What the aviation routes share: the tag, the airport path parameter and its lookup, ISO 8601 times.
import { Type } from 'typebox';
import { ProblemError } from '../platform/http/problems.ts';
import { invalidField as invalid } from '../platform/http/schema.ts';
// One declaration of the code for the whole feature: the landing routes raise it too.
import { airportNotFound } from './landing/api.ts';
import type { Airport } from './reference/airports.ts';
import type { AviationServices } from './services.ts';

export const TAG = 'Aviation';
export const MS_PER_HOUR = 3_600_000;

export const IcaoParams = Type.Object({
  icao: Type.String({ description: 'ICAO location indicator ("EGLL") or OurAirports ident ("00A"): 3 or 4 letters or digits, any case' }),
});

/** The airport named in the path: 400 for a malformed code, 404 for an unknown one. */
export function airportFor(services: AviationServices, code: string): Airport {
  if (!/^[A-Za-z0-9]{3,4}$/.test(code)) throw invalid('/params/icao', `must be 3 or 4 letters or digits (got "${code}")`);
  const airport = services.airports.get(code);
  if (airport === null) throw new ProblemError(airportNotFound, `No airport ${code.toUpperCase()} in the airport data.`);
  return airport;
}
