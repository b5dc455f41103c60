// ICAO NOTAM format (Annex 15 / Doc 8126):
//
//   A1234/24 NOTAMR A1233/24
//   Q) EGTT/QMRLC/IV/NBO/A/000/999/5129N00028W005
//   A) EGLL B) 2401011200 C) 2401021200EST
//   D) DAILY 0600-1800
//   E) RWY 09L/27R CLSD
//   F) SFC G) UNL
//
// Line breaks may fall anywhere, letters may be lower case, and the header may be missing (US
// feeds often start at Q). Items are found by their `X)` markers: A)–D) only before E), and F)/G)
// only where they introduce a height, so "(CAT I)" or "SEE F)" inside the text are left alone.

import { checkInput, completeNotam, fail } from './common.ts';
import { decodeCondition, decodeSubject } from './qcodes.ts';
import { parseDateTimeGroup, toIsoUtc } from './time.ts';
import type { LatLon, NotamResult, NotamType, NotamWarning, PurposeCode, ScopeCode, TrafficCode } from './types.ts';

const HEADER = /^([A-Z])?(\d{1,5})\/(\d{1,4}) ?NOTAM([NRC])(?: ?([A-Z]?\d{1,5}\/\d{1,4}))?$/;
const NOTAM_TYPES: Record<string, NotamType> = { N: 'NEW', R: 'REPLACE', C: 'CANCEL' };

const Q_CODE = /^Q[A-Z]{4}$/;
/** Feeds serialise a lost Q code as these words; the code is then treated as absent. */
const Q_CODE_PLACEHOLDERS = new Set(['', 'UNDEFINED', 'NULL', 'NONE', 'NIL']);
const TRAFFIC_CODES = new Set<string>(['I', 'V', 'IV', 'K']);
const COORDINATE = /^(\d{2})(\d{2})([NS])(\d{3})(\d{2})([EW])(\d{3})?$/;

const HEIGHT = String.raw`(?:SFC|GND|UNL|FL ?\d{1,3}|\d+ ?(?:FT|M)\b)`;
const ITEM_F = new RegExp(String.raw`(?:^|\s)F\)\s*(?=${HEIGHT})`, 'i');
const ITEM_G = new RegExp(String.raw`(?:^|\s)G\)\s*(?=${HEIGHT})`, 'i');

/** Parses one ICAO-format NOTAM. Never throws. */
export function parseIcaoNotam(input: unknown): NotamResult {
  const checked = checkInput(input);
  if (!checked.ok) return checked.result;
  const raw = input as string;
  const text = stripAftnBrackets(checked.text);
  const warnings: NotamWarning[] = [];

  const qMarker = /(?:^|\s)Q\)/i.exec(text);
  if (!qMarker) return fail('missing_q_line', 'no Q) item');
  const afterQ = qMarker.index + qMarker[0].length;

  const header = readHeader(text.slice(0, qMarker.index));
  if (!header.ok) return header.result;

  const eMarker = /(?:^|\s)E\)/i.exec(text.slice(afterQ));
  if (!eMarker) return fail('missing_text', 'no E) item');
  const items = splitItems(text.slice(afterQ, afterQ + eMarker.index));
  const eRegion = splitHeights(text.slice(afterQ + eMarker.index + eMarker[0].length));

  const qLine = readQLine(items.q, warnings);
  if (!qLine.ok) return qLine.result;

  const location = (items.A ?? '').toUpperCase().split(/[\s,]+/).filter((token) => token !== '');
  if (location.length === 0) return fail('missing_location', 'no location in item A)');

  if (items.B === undefined || compact(items.B) === '') return fail('missing_start_time', 'no item B)');
  const startMs = parseDateTimeGroup(compact(items.B));
  if (startMs === null) return fail('bad_time', `"${compact(items.B)}" in item B) is not a valid YYMMDDHHMM time`);

  const end = readEnd(items.C);
  if (!end.ok) return end.result;
  if (end.ms !== null && end.ms < startMs) {
    return fail('bad_time', `item C) ${compact(items.C ?? '')} is before item B) ${compact(items.B)}`);
  }

  const body = eRegion.text.trim();
  if (body === '') return fail('missing_text', 'item E) is empty');

  return completeNotam({
    format: 'icao',
    ...header.fields,
    location,
    ...qLine.fields,
    start_time: toIsoUtc(startMs),
    end_time: end.ms === null ? null : toIsoUtc(end.ms),
    end_estimated: end.estimated,
    permanent: end.permanent,
    schedule: blankToNull(items.D),
    text: body,
    lower_limit: blankToNull(eRegion.lower),
    upper_limit: blankToNull(eRegion.upper),
    keyword: null,
    warnings,
    raw,
  });
}

/** AFTN copies wrap the message in parentheses: "(A1234/24 NOTAMN ... )". */
function stripAftnBrackets(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith('(') && trimmed.endsWith(')') ? trimmed.slice(1, -1) : trimmed;
}

function compact(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

function blankToNull(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

interface HeaderFields {
  id: string | null;
  series: string | null;
  number: number | null;
  year: number | null;
  type: NotamType | null;
  replaces: string | null;
}

function readHeader(headerText: string): { ok: true; fields: HeaderFields } | { ok: false; result: NotamResult } {
  const normalised = headerText.toUpperCase().replace(/\s+/g, ' ').replace(/ ?\/ ?/g, '/').trim();
  if (normalised === '') {
    return { ok: true, fields: { id: null, series: null, number: null, year: null, type: null, replaces: null } };
  }
  const match = HEADER.exec(normalised);
  if (!match) return { ok: false, result: fail('bad_header', `"${normalised}" is not a "A1234/24 NOTAMN" header`) };
  const [, series, first, second, typeLetter, replaced] = match;
  // ICAO numbers carry a series letter and a year (A1234/24); US numbers without a letter are
  // month/sequence (06/171), so the sequence is the second part and there is no year.
  let number: number;
  let year: number | null;
  if (series === undefined) {
    number = Number(second);
    year = null;
  } else {
    if (second.length !== 2 && second.length !== 4) {
      return { ok: false, result: fail('bad_header', `"${normalised}": the year after "/" must have 2 or 4 digits`) };
    }
    number = Number(first);
    year = second.length === 2 ? 2000 + Number(second) : Number(second);
  }
  return {
    ok: true,
    fields: {
      id: `${series ?? ''}${first}/${second}`,
      series: series ?? null,
      number,
      year,
      type: NOTAM_TYPES[typeLetter]!,
      replaces: replaced ?? null,
    },
  };
}

interface Items {
  q: string;
  A?: string;
  B?: string;
  C?: string;
  D?: string;
}

/** Splits the text between Q) and E) at its A)–D) markers. */
function splitItems(region: string): Items {
  const markers = [...region.matchAll(/(?:^|\s)([A-D])\)/gi)];
  const items: Items = { q: region.slice(0, markers[0]?.index ?? region.length) };
  markers.forEach((marker, i) => {
    const letter = marker[1]!.toUpperCase() as 'A' | 'B' | 'C' | 'D';
    const contentStart = marker.index + marker[0].length;
    const contentEnd = markers[i + 1]?.index ?? region.length;
    // A repeated letter is kept from its first appearance; later ones are extra text.
    items[letter] ??= region.slice(contentStart, contentEnd);
  });
  return items;
}

/** Separates item E) from trailing F) and G) height items. */
function splitHeights(region: string): { text: string; lower: string | undefined; upper: string | undefined } {
  const f = ITEM_F.exec(region);
  const gSearchFrom = f ? f.index + f[0].length : 0;
  const gRelative = ITEM_G.exec(region.slice(gSearchFrom));
  const gIndex = gRelative ? gSearchFrom + gRelative.index : -1;
  const textEnd = f ? f.index : gIndex >= 0 ? gIndex : region.length;
  return {
    text: region.slice(0, textEnd),
    lower: f ? region.slice(f.index + f[0].length, gIndex >= 0 ? gIndex : region.length) : undefined,
    upper: gRelative ? region.slice(gIndex + gRelative[0].length) : undefined,
  };
}

interface QLineFields {
  fir: string | null;
  q_code: string | null;
  subject: ReturnType<typeof decodeSubject> | null;
  condition: ReturnType<typeof decodeCondition> | null;
  traffic: TrafficCode | null;
  purpose: PurposeCode[];
  scope: ScopeCode[];
  lower_fl: number | null;
  upper_fl: number | null;
  center: LatLon | null;
  radius_nm: number | null;
}

function readQLine(content: string, warnings: NotamWarning[]): { ok: true; fields: QLineFields } | { ok: false; result: NotamResult } {
  const bad = (detail: string) => ({ ok: false as const, result: fail('bad_q_line', detail) });
  const line = compact(content);
  let fields = line.split('/');
  // Some feeds put the radius in a field of its own: .../5129N00028W/005
  if (fields.length === 9 && /^\d{3}$/.test(fields[8]) && COORDINATE.test(fields[7])) {
    fields = [...fields.slice(0, 7), fields[7] + fields[8]];
  }
  // One field short: seen when a feed writes "undefined" for QCODE/TRAFFIC. The numeric tail is
  // intact, so read it from the right and leave traffic empty.
  if (fields.length === 7) {
    fields = [fields[0]!, fields[1]!, '', ...fields.slice(2)];
    warnings.push('q_line_realigned');
  }
  if (fields.length !== 8) return bad(`"${line}" has ${fields.length} fields, expected FIR/QCODE/TRAFFIC/PURPOSE/SCOPE/LOWER/UPPER/COORDINATES`);
  const [fir, qCode, traffic, purpose, scope, lower, upper, coordinates] = fields as [string, string, string, string, string, string, string, string];

  if (fir !== '' && !/^[A-Z][A-Z0-9]{2,3}$/.test(fir)) return bad(`FIR "${fir}" is not a 3 or 4 character location indicator`);

  let code: string | null = null;
  if (Q_CODE_PLACEHOLDERS.has(qCode)) {
    warnings.push('qcode_missing');
  } else if (Q_CODE.test(qCode)) {
    code = qCode;
  } else {
    return { ok: false, result: fail('bad_qcode', `"${qCode}" is not Q followed by four letters`) };
  }

  if (traffic !== '' && !TRAFFIC_CODES.has(traffic)) return bad(`traffic "${traffic}" is not I, V, IV or K`);
  if (!/^[NBOMK]*$/.test(purpose)) return bad(`purpose "${purpose}" may only use the letters N, B, O, M, K`);
  if (!/^[AEWK]*$/.test(scope)) return bad(`scope "${scope}" may only use the letters A, E, W, K`);
  for (const [name, value] of [['lower', lower], ['upper', upper]] as const) {
    if (value !== '' && !/^\d{3}$/.test(value)) return bad(`${name} limit "${value}" is not a three-digit flight level`);
  }
  const position = readCoordinates(coordinates);
  if (position === null) return bad(`"${coordinates}" is not DDMM[N|S]DDDMM[E|W] with an optional three-digit radius`);

  return {
    ok: true,
    fields: {
      fir: fir === '' ? null : fir,
      q_code: code,
      subject: code === null ? null : decodeSubject(code),
      condition: code === null ? null : decodeCondition(code),
      traffic: traffic === '' ? null : (traffic as TrafficCode),
      purpose: [...new Set(purpose)] as PurposeCode[],
      scope: [...new Set(scope)] as ScopeCode[],
      lower_fl: lower === '' ? null : Number(lower),
      upper_fl: upper === '' ? null : Number(upper),
      center: position.center,
      radius_nm: position.radius_nm,
    },
  };
}

/** "5129N00028W005" → centre in decimal degrees and radius; both null for a blank field, null for a malformed one. */
function readCoordinates(field: string): { center: LatLon | null; radius_nm: number | null } | null {
  if (field === '') return { center: null, radius_nm: null };
  const match = COORDINATE.exec(field);
  if (!match) return null;
  const [, latDeg, latMin, ns, lonDeg, lonMin, ew, radius] = match;
  const lat = Number(latDeg) + Number(latMin) / 60;
  const lon = Number(lonDeg) + Number(lonMin) / 60;
  if (Number(latMin) >= 60 || Number(lonMin) >= 60 || lat > 90 || lon > 180) return null;
  return {
    center: { lat: round6(ns === 'S' ? -lat : lat), lon: round6(ew === 'W' ? -lon : lon) },
    radius_nm: radius === undefined ? null : Number(radius),
  };
}

function round6(value: number): number {
  // + 0 turns -0 (a western 00000W) into 0.
  return Math.round(value * 1e6) / 1e6 + 0;
}

type EndOfValidity =
  | { ok: true; ms: number | null; estimated: boolean; permanent: boolean }
  | { ok: false; result: NotamResult };

/** Item C): a time, a time followed by EST, or PERM. Absent (NOTAMC) means no end. */
function readEnd(item: string | undefined): EndOfValidity {
  const value = compact(item ?? '');
  if (value === '') return { ok: true, ms: null, estimated: false, permanent: false };
  if (value === 'PERM') return { ok: true, ms: null, estimated: false, permanent: true };
  const match = /^(\d{10})(EST)?$/.exec(value);
  const ms = match ? parseDateTimeGroup(match[1]) : null;
  if (ms === null) return { ok: false, result: fail('bad_time', `"${value}" in item C) is not YYMMDDHHMM, YYMMDDHHMM EST or PERM`) };
  return { ok: true, ms, estimated: match![2] !== undefined, permanent: false };
}
