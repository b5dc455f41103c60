// Entry point: picks the format from the first character and never throws.

import { checkInput, fail } from './common.ts';
import { parseFaaNotam } from './faa.ts';
import { parseIcaoNotam } from './icao.ts';
import type { NotamResult } from './types.ts';

/**
 * Parses one NOTAM: FAA domestic when it starts with "!", ICAO format otherwise. Malformed input
 * gives `{ ok: false, error }`; an unexpected internal failure gives the `parser_error` code
 * rather than an exception.
 */
export function parseNotam(input: unknown): NotamResult {
  const checked = checkInput(input);
  if (!checked.ok) return checked.result;
  try {
    return checked.text.trimStart().startsWith('!') ? parseFaaNotam(input) : parseIcaoNotam(input);
  } catch (error) {
    return fail('parser_error', error instanceof Error ? error.message : String(error));
  }
}
