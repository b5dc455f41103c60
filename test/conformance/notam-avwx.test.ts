// Conformance against avwx-engine's NOTAM test data (../shared/conformance/notam/avwx-*.json):
// every NOTAM's raw text is parsed and compared, field by field, with avwx's expected parse.
//
// Mapping avwx's representations to ours:
// - Decoded names (subject, condition, traffic, purpose, scope) are compared after lower-casing and
//   dropping punctuation. avwx writes "Unknown" for codes it has no name for (XX, TT); for those
//   only the code is compared, and the count is reported.
// - coord: avwx's lat/lon are the DDMM digits read as a decimal (5129N → 51.29), so they are
//   converted to degrees + minutes/60 before comparing with our decimal degrees.
// - lower/upper/radius: avwx's `value` numbers against our lower_fl/upper_fl/radius_nm.
// - Times: avwx reads the ICAO "EST" (estimated) suffix as US Eastern Standard Time and gives both
//   B) and C) a -05:00 offset. The digits are UTC in both readings, so the wall-clock part of its
//   `dt` is compared with our UTC time, and EST with our end_estimated flag. PERM ↔ permanent.
// - body ↔ text, type (New/Replace/Cancel) ↔ NEW/REPLACE/CANCEL, replaces ↔ replaces, plus the
//   NOTAM number ↔ id, schedule ↔ schedule and the F)/G) items ↔ lower_limit/upper_limit.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { sharedFile } from '../support/shared.ts';
import { parseNotam, PURPOSE_MEANINGS, SCOPE_MEANINGS, TRAFFIC_MEANINGS } from '../../src/aviation/notams/index.ts';
import type { Notam } from '../../src/aviation/notams/index.ts';

interface AvwxCode {
  repr: string;
  value: string;
}
interface AvwxNumber {
  repr: string;
  value: number;
}
interface AvwxTime {
  repr: string;
  dt?: string;
  value?: string;
}
interface AvwxNotam {
  raw: string;
  number: string | null;
  body: string;
  type: AvwxCode | null;
  replaces: string | null;
  start_time: AvwxTime;
  end_time: AvwxTime | null;
  schedule: string | null;
  lower: AvwxNumber | null;
  upper: AvwxNumber | null;
  qualifiers: {
    fir: string;
    subject: AvwxCode | null;
    condition: AvwxCode | null;
    traffic: AvwxCode | null;
    purpose: AvwxCode[];
    scope: AvwxCode[];
    lower: AvwxNumber | null;
    upper: AvwxNumber | null;
    coord: { lat: number; lon: number; repr: string } | null;
    radius: AvwxNumber | null;
  };
}

const FIELDS = [
  'parse', 'fir', 'subject', 'condition', 'traffic', 'purpose', 'scope', 'lower', 'upper', 'coord', 'radius',
  'start_time', 'end_time', 'body', 'type', 'replaces', 'number', 'schedule', 'item_f', 'item_g',
] as const;
type Field = (typeof FIELDS)[number];

interface Tally {
  notams: number;
  matched: Record<Field, number>;
  /** Subject/condition codes avwx leaves undecoded ("Unknown"): code compared, name not. */
  undecodedByAvwx: Map<string, number>;
  /** Times avwx shifted to -05:00 because of the EST suffix. */
  estAsTimezone: number;
  mismatches: string[];
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/** avwx's 51.29 for 5129N → 51 + 29/60. */
function fromDegreesMinutes(value: number): number {
  const magnitude = Math.abs(value);
  const degrees = Math.trunc(magnitude + 1e-9);
  const minutes = Math.round((magnitude - degrees) * 100);
  return Math.sign(value) * (degrees + minutes / 60);
}

/** "2023-06-28T12:16:00+00:00" or "...-05:00" → our "2023-06-28T12:16:00Z". */
function wallClockUtc(dt: string): string {
  return `${dt.slice(0, 19)}Z`;
}

function sameCode(ours: { code: string; meaning: string | null } | null, theirs: AvwxCode | null, tally: Tally): string | null {
  if (theirs === null) return ours === null ? null : `expected none, got ${ours.code}`;
  if (ours === null) return `expected ${theirs.repr}, got none`;
  if (ours.code !== theirs.repr) return `code ${ours.code} ≠ ${theirs.repr}`;
  if (theirs.value === 'Unknown') {
    tally.undecodedByAvwx.set(theirs.repr, (tally.undecodedByAvwx.get(theirs.repr) ?? 0) + 1);
    return null;
  }
  if (ours.meaning === null || normaliseName(ours.meaning) !== normaliseName(theirs.value)) {
    return `${theirs.repr}: "${ours.meaning}" ≠ "${theirs.value}"`;
  }
  return null;
}

function sameLetters(ours: string[], theirs: AvwxCode[], meanings: Readonly<Record<string, string>>): string | null {
  const ourCodes = ours.join('');
  const theirCodes = theirs.map((item) => item.repr).join('');
  if (ourCodes !== theirCodes) return `${ourCodes} ≠ ${theirCodes}`;
  for (const item of theirs) {
    if (normaliseName(meanings[item.repr] ?? '') !== normaliseName(item.value)) return `${item.repr}: "${meanings[item.repr]}" ≠ "${item.value}"`;
  }
  return null;
}

function sameNumber(ours: number | null, theirs: AvwxNumber | null): string | null {
  const expected = theirs === null ? null : theirs.value;
  return ours === expected ? null : `${ours} ≠ ${expected}`;
}

function compareNotam(notam: Notam, expected: AvwxNotam, tally: Tally): Map<Field, string | null> {
  const q = expected.qualifiers;
  const results = new Map<Field, string | null>();
  results.set('fir', notam.fir === q.fir ? null : `${notam.fir} ≠ ${q.fir}`);
  results.set('subject', sameCode(notam.subject, q.subject, tally));
  results.set('condition', sameCode(notam.condition, q.condition, tally));
  if (q.traffic === null) results.set('traffic', notam.traffic === null ? null : `expected none, got ${notam.traffic}`);
  else if (notam.traffic !== q.traffic.repr) results.set('traffic', `${notam.traffic} ≠ ${q.traffic.repr}`);
  else {
    const name = TRAFFIC_MEANINGS[notam.traffic];
    results.set('traffic', normaliseName(name) === normaliseName(q.traffic.value) ? null : `"${name}" ≠ "${q.traffic.value}"`);
  }
  results.set('purpose', sameLetters(notam.purpose, q.purpose, PURPOSE_MEANINGS));
  results.set('scope', sameLetters(notam.scope, q.scope, SCOPE_MEANINGS));
  results.set('lower', sameNumber(notam.lower_fl, q.lower));
  results.set('upper', sameNumber(notam.upper_fl, q.upper));
  results.set('radius', sameNumber(notam.radius_nm, q.radius));
  if (q.coord === null) results.set('coord', notam.center === null ? null : 'expected none');
  else {
    const lat = fromDegreesMinutes(q.coord.lat);
    const lon = fromDegreesMinutes(q.coord.lon);
    const close = notam.center !== null && Math.abs(notam.center.lat - lat) < 1e-5 && Math.abs(notam.center.lon - lon) < 1e-5;
    results.set('coord', close ? null : `${JSON.stringify(notam.center)} ≠ ${q.coord.repr} (${lat}, ${lon})`);
  }

  const start = expected.start_time;
  if (start.dt !== undefined && !start.dt.endsWith('+00:00')) tally.estAsTimezone++;
  results.set('start_time', start.dt !== undefined && notam.start_time === wallClockUtc(start.dt) ? null : `${notam.start_time} ≠ ${start.repr}`);

  const end = expected.end_time;
  if (end === null) {
    results.set('end_time', notam.end_time === null && !notam.permanent ? null : `expected none, got ${notam.end_time}`);
  } else if (end.repr === 'PERM') {
    results.set('end_time', notam.permanent && notam.end_time === null ? null : `expected PERM, got ${notam.end_time}`);
  } else {
    const estimated = end.repr.endsWith('EST');
    const same = end.dt !== undefined && notam.end_time === wallClockUtc(end.dt) && notam.end_estimated === estimated && !notam.permanent;
    results.set('end_time', same ? null : `${notam.end_time} (estimated ${notam.end_estimated}) ≠ ${end.repr}`);
  }

  results.set('body', notam.text === expected.body ? null : `${JSON.stringify(notam.text)} ≠ ${JSON.stringify(expected.body)}`);
  const expectedType = expected.type === null ? null : ({ New: 'NEW', Replace: 'REPLACE', Cancel: 'CANCEL' } as const)[expected.type.value as 'New'];
  results.set('type', notam.type === (expectedType ?? null) ? null : `${notam.type} ≠ ${expected.type?.repr}`);
  results.set('replaces', notam.replaces === expected.replaces ? null : `${notam.replaces} ≠ ${expected.replaces}`);
  results.set('number', notam.id === expected.number ? null : `${notam.id} ≠ ${expected.number}`);
  results.set('schedule', notam.schedule === expected.schedule ? null : `${JSON.stringify(notam.schedule)} ≠ ${JSON.stringify(expected.schedule)}`);
  results.set('item_f', notam.lower_limit === (expected.lower?.repr ?? null) ? null : `${notam.lower_limit} ≠ ${expected.lower?.repr}`);
  results.set('item_g', notam.upper_limit === (expected.upper?.repr ?? null) ? null : `${notam.upper_limit} ≠ ${expected.upper?.repr}`);
  return results;
}

function newTally(): Tally {
  return {
    notams: 0,
    matched: Object.fromEntries(FIELDS.map((field) => [field, 0])) as Record<Field, number>,
    undecodedByAvwx: new Map(),
    estAsTimezone: 0,
    mismatches: [],
  };
}

function runFile(path: string, label: string, tally: Tally): void {
  const reports = (JSON.parse(readFileSync(path, 'utf8')) as { reports: Array<{ data: AvwxNotam }> }).reports;
  for (const [index, { data }] of reports.entries()) {
    tally.notams++;
    const where = `${label} #${index} ${data.number ?? data.raw.slice(0, 40).replace(/\s+/g, ' ')}`;
    const result = parseNotam(data.raw);
    if (!result.ok) {
      tally.mismatches.push(`${where}: parse failed: ${result.error.message}`);
      continue;
    }
    tally.matched.parse++;
    for (const [field, problem] of compareNotam(result.notam, data, tally)) {
      if (problem === null) tally.matched[field]++;
      else tally.mismatches.push(`${where}: ${field}: ${problem}`);
    }
  }
}

function report(t: test.TestContext, heading: string, tally: Tally): void {
  const allFields = FIELDS.every((field) => tally.matched[field] === tally.notams);
  t.diagnostic(
    `${heading}: ${allFields ? tally.notams : 'NOT all'} of ${tally.notams} match on qualifiers, times, body, type/replaces, number, schedule and F/G`,
  );
  t.diagnostic(FIELDS.map((field) => `${field} ${tally.matched[field]}/${tally.notams}`).join(', '));
  if (tally.undecodedByAvwx.size > 0) {
    const codes = [...tally.undecodedByAvwx].map(([code, count]) => `${code}×${count}`).join(', ');
    t.diagnostic(`names avwx leaves as "Unknown" (code compared only): ${codes}`);
  }
  if (tally.estAsTimezone > 0) t.diagnostic(`NOTAMs whose B) and C) avwx offset to -05:00 because of an EST suffix (wall clock compared): ${tally.estAsTimezone}`);
}

const FILES = ['EGLL', 'KJFK', 'KMCO'] as const;
const overall = newTally();
let filesRun = 0;

for (const station of FILES) {
  const source = sharedFile(`conformance/notam/avwx-${station}.json`);
  test(`avwx NOTAM conformance: ${station}`, { skip: source.skip }, (t) => {
    const tally = newTally();
    runFile(source.path!, station, tally);
    report(t, `avwx ${station}`, tally);
    overall.notams += tally.notams;
    for (const field of FIELDS) overall.matched[field] += tally.matched[field];
    for (const [code, count] of tally.undecodedByAvwx) overall.undecodedByAvwx.set(code, (overall.undecodedByAvwx.get(code) ?? 0) + count);
    overall.estAsTimezone += tally.estAsTimezone;
    overall.mismatches.push(...tally.mismatches);
    filesRun++;
    assert.equal(tally.notams > 0, true, `${station}: no reports in the file`);
    assert.deepEqual(tally.mismatches.slice(0, 10), [], `${tally.mismatches.length} mismatches in ${station}`);
  });
}

test('avwx NOTAM conformance: all stations', (t) => {
  if (filesRun < FILES.length) {
    t.skip(`only ${filesRun} of ${FILES.length} avwx files were available`);
    return;
  }
  report(t, 'avwx NOTAM conformance', overall);
  assert.deepEqual(overall.mismatches.slice(0, 10), [], `${overall.mismatches.length} mismatches`);
});
