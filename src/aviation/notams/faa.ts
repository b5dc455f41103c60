// FAA domestic NOTAM format:
//
//   !JFK 01/123 JFK RWY 04L/22R CLSD 2401011200-2401021200
//   !FDC 4/1234 ZNY NY..AIRSPACE ... 2401011200-2401021200EST
//   !BOS 12/034 BOS TWY B CLSD WEF 0912011200-PERM
//   !ORD 03/055 ORD NAV ILS RWY 10L OTS TIL 2403101800
//
// accountability, number (month/sequence, or year digit/sequence for FDC), affected location,
// keyword and condition text, then the effective times at the end.

import { checkInput, completeNotam, fail } from './common.ts';
import { parseDateTimeGroup, toIsoUtc } from './time.ts';
import type { NotamResult } from './types.ts';

const FAA_HEAD = /^!\s*([A-Z0-9]{3,4})\s+(\d{1,2})\s*\/\s*(\d{1,4})\s+([A-Z0-9]{2,5})\s+([\s\S]*)$/i;

const END = String.raw`(\d{10}(?:\s*EST)?|PERM)`;
/** Effective-time tails, tried in order: "start-end", "WEF start[-end | TIL end]", "TIL end". */
const TIME_TAILS: Array<{ pattern: RegExp; start: number | null; end: number | null }> = [
  { pattern: new RegExp(String.raw`(?:^|\s)(?:WEF\s+)?(\d{10})\s*-\s*${END}\s*$`, 'i'), start: 1, end: 2 },
  { pattern: new RegExp(String.raw`(?:^|\s)WEF\s+(\d{10})(?:\s+TIL\s+${END})?\s*$`, 'i'), start: 1, end: 2 },
  { pattern: new RegExp(String.raw`(?:^|\s)TIL\s+${END}\s*$`, 'i'), start: null, end: 1 },
];

export const FAA_KEYWORDS: ReadonlySet<string> = new Set([
  'RWY', 'TWY', 'APRON', 'RAMP', 'AD', 'AIRSPACE', 'NAV', 'COM', 'SVC', 'OBST', 'ODP', 'SID', 'STAR',
  'CHART', 'DATA', 'IAP', 'VFP', 'ROUTE', 'SPECIAL', 'SECURITY', 'FI/T', 'FI/P',
]);

const DAY = '(?:MON|TUE|WED|THU|FRI|SAT|SUN)';
/** A schedule closing the condition text: "DLY 0400-1000", "MON-FRI 1200-2000". */
const TRAILING_SCHEDULE = new RegExp(
  // Separators are "\s*,\s*" or "\s+", never "\s*,?\s*": two adjacent \s* would let a run of
  // spaces split many ways and backtrack exponentially on a near-miss.
  String.raw`(?:^|\s)((?:DLY|DAILY|${DAY}(?:-${DAY})?(?:\s+${DAY}(?:-${DAY})?)*)\s+\d{4}-\d{4}(?:(?:\s*,\s*|\s+)\d{4}-\d{4})*)$`,
  'i',
);

/** Parses one FAA domestic NOTAM (starting with "!"). Never throws. */
export function parseFaaNotam(input: unknown): NotamResult {
  const checked = checkInput(input);
  if (!checked.ok) return checked.result;
  const head = FAA_HEAD.exec(checked.text.trim());
  if (!head) return fail('bad_faa_format', 'expected "!ACCOUNT NN/NNN LOCATION KEYWORD text times"');
  const [, accountability, prefix, sequence, location, rest] = head;

  const times = readTimes(rest.trim());
  if (!times.ok) return times.result;
  const text = times.text;
  if (text === '') return fail('missing_text', 'no condition text before the effective times');

  const keyword =
    text
      .toUpperCase()
      .split(/\s+|\.\./)
      .slice(0, 3)
      .find((token) => FAA_KEYWORDS.has(token)) ?? null;

  return completeNotam({
    format: 'faa',
    id: `${accountability.toUpperCase()} ${prefix}/${sequence}`,
    series: null,
    number: Number(sequence),
    year: null,
    type: 'NEW',
    replaces: null,
    location: [location.toUpperCase()],
    fir: null,
    q_code: null,
    subject: null,
    condition: null,
    traffic: null,
    purpose: [],
    scope: [],
    lower_fl: null,
    upper_fl: null,
    center: null,
    radius_nm: null,
    start_time: times.start,
    end_time: times.end,
    end_estimated: times.estimated,
    permanent: times.permanent,
    schedule: TRAILING_SCHEDULE.exec(text)?.[1] ?? null,
    text,
    lower_limit: null,
    upper_limit: null,
    keyword,
    warnings: [],
    raw: input as string,
  });
}

type Times =
  | { ok: true; text: string; start: string | null; end: string | null; estimated: boolean; permanent: boolean }
  | { ok: false; result: NotamResult };

/** Splits the trailing effective times off the condition text. */
function readTimes(body: string): Times {
  for (const tail of TIME_TAILS) {
    const match = tail.pattern.exec(body);
    if (!match) continue;
    const startGroup = tail.start === null ? undefined : match[tail.start];
    const endGroup = tail.end === null ? undefined : match[tail.end]?.replace(/\s+/g, '').toUpperCase();
    const startMs = startGroup === undefined ? null : parseDateTimeGroup(startGroup);
    if (startGroup !== undefined && startMs === null) return { ok: false, result: fail('bad_time', `"${startGroup}" is not a valid YYMMDDHHMM start`) };
    const permanent = endGroup === 'PERM';
    const estimated = endGroup?.endsWith('EST') ?? false;
    let endMs: number | null = null;
    if (endGroup !== undefined && !permanent) {
      endMs = parseDateTimeGroup(endGroup.slice(0, 10));
      if (endMs === null) return { ok: false, result: fail('bad_time', `"${endGroup}" is not a valid YYMMDDHHMM end`) };
      if (startMs !== null && endMs < startMs) return { ok: false, result: fail('bad_time', `end ${endGroup} is before start ${startGroup}`) };
    }
    return {
      ok: true,
      text: body.slice(0, match.index).trim(),
      start: startMs === null ? null : toIsoUtc(startMs),
      end: endMs === null ? null : toIsoUtc(endMs),
      estimated,
      permanent,
    };
  }
  return { ok: false, result: fail('missing_start_time', 'no effective times (YYMMDDHHMM-YYMMDDHHMM, WEF or TIL) at the end') };
}
