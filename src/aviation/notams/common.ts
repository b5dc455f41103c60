// Steps every NOTAM format shares: input checks, error results, and the derived fields (effects,
// schedule warning) computed once the format-specific fields are read.

import { deriveEffects } from './effects.ts';
import { parseSchedule, scheduleReference } from './schedule.ts';
import type { Notam, NotamErrorCode, NotamResult } from './types.ts';

/** Longer input is refused before any pattern runs: real NOTAMs stay far below this. */
export const MAX_NOTAM_LENGTH = 20_000;

export type NotamDraft = Omit<Notam, 'effects'>;

export function fail(code: NotamErrorCode, detail: string): NotamResult {
  return { ok: false, error: { code, message: `${code}: ${detail}` } };
}

/** The input as text with line endings normalised to \n, or the error that rejects it. */
export function checkInput(input: unknown): { ok: true; text: string } | { ok: false; result: NotamResult } {
  if (typeof input !== 'string') return { ok: false, result: fail('not_text', `expected a string, got ${input === null ? 'null' : typeof input}`) };
  if (input.length > MAX_NOTAM_LENGTH) {
    return { ok: false, result: fail('too_long', `${input.length} characters, at most ${MAX_NOTAM_LENGTH} accepted`) };
  }
  const text = input.replace(/\r\n?/g, '\n');
  if (text.trim() === '') return { ok: false, result: fail('empty', 'no NOTAM text') };
  return { ok: true, text };
}

export function completeNotam(draft: NotamDraft): NotamResult {
  const warnings = [...draft.warnings];
  if (draft.schedule !== null && !parseSchedule(draft.schedule, scheduleReference(draft)).ok) {
    warnings.push('schedule_unparsed');
  }
  // raw last, after the derived fields, so the response reads from decoded to verbatim.
  const { raw, ...fields } = draft;
  const notam: Notam = { ...fields, warnings, effects: [], raw };
  notam.effects = deriveEffects(notam);
  return { ok: true, notam };
}
