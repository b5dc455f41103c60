import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFaaNotam } from './faa.ts';
import type { Notam, NotamErrorCode } from './types.ts';

function parsed(text: string): Notam {
  const result = parseFaaNotam(text);
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  return result.notam;
}

function rejectedWith(text: string): NotamErrorCode {
  const result = parseFaaNotam(text);
  assert.ok(!result.ok, 'expected the NOTAM to be rejected');
  return result.error.code;
}

test('runway closure: accountability, number, location, keyword, text, times', () => {
  const notam = parsed('!JFK 01/123 JFK RWY 04L/22R CLSD 2401011200-2401021200');
  assert.equal(notam.format, 'faa');
  assert.equal(notam.id, 'JFK 01/123');
  assert.equal(notam.number, 123);
  assert.equal(notam.series, null);
  assert.equal(notam.year, null);
  assert.equal(notam.type, 'NEW');
  assert.deepEqual(notam.location, ['JFK']);
  assert.equal(notam.keyword, 'RWY');
  assert.equal(notam.text, 'RWY 04L/22R CLSD');
  assert.equal(notam.start_time, '2024-01-01T12:00:00Z');
  assert.equal(notam.end_time, '2024-01-02T12:00:00Z');
  assert.equal(notam.end_estimated, false);
  assert.equal(notam.permanent, false);
  assert.equal(notam.q_code, null);
  assert.equal(notam.center, null);
  assert.deepEqual(notam.effects, [{ kind: 'runway_closed', runways: ['04L', '22R'] }]);
});

test('FDC NOTAM with an estimated end and a ".." separated keyword', () => {
  const notam = parsed('!FDC 4/1234 ZNY NY..AIRSPACE JOHN F KENNEDY INTL TEMPORARY FLIGHT RESTRICTIONS 2401011200-2401021200EST');
  assert.equal(notam.id, 'FDC 4/1234');
  assert.equal(notam.number, 1234);
  assert.deepEqual(notam.location, ['ZNY']);
  assert.equal(notam.keyword, 'AIRSPACE');
  assert.equal(notam.end_time, '2024-01-02T12:00:00Z');
  assert.equal(notam.end_estimated, true);
  assert.deepEqual(notam.effects, [{ kind: 'other', runways: [] }]);
});

test('PERM, WEF and TIL variants', () => {
  const perm = parsed('!BOS 12/034 BOS TWY B CLSD 2312011200-PERM');
  assert.equal(perm.permanent, true);
  assert.equal(perm.end_time, null);
  assert.equal(perm.keyword, 'TWY');

  const wefRange = parsed('!BOS 12/035 BOS APRON NORTH RAMP CLSD WEF 2312011200-2312021200');
  assert.equal(wefRange.start_time, '2023-12-01T12:00:00Z');
  assert.equal(wefRange.end_time, '2023-12-02T12:00:00Z');
  assert.equal(wefRange.text, 'APRON NORTH RAMP CLSD');
  assert.equal(wefRange.keyword, 'APRON');

  const wefOnly = parsed('!BOS 12/036 BOS OBST TOWER LGT OTS WEF 2312011200');
  assert.equal(wefOnly.start_time, '2023-12-01T12:00:00Z');
  assert.equal(wefOnly.end_time, null);
  assert.equal(wefOnly.permanent, false);

  const wefTil = parsed('!BOS 12/037 BOS SVC TWR CLSD WEF 2312011200 TIL 2312021200EST');
  assert.equal(wefTil.end_time, '2023-12-02T12:00:00Z');
  assert.equal(wefTil.end_estimated, true);

  const til = parsed('!ORD 03/055 ORD NAV ILS RWY 10L OTS TIL 2403101800');
  assert.equal(til.start_time, null);
  assert.equal(til.end_time, '2024-03-10T18:00:00Z');
  assert.equal(til.keyword, 'NAV');
  assert.deepEqual(til.effects, [{ kind: 'ils_unserviceable', runways: ['10L'] }]);
});

test('keywords for aerodrome, navaid, communications and services', () => {
  const cases: Array<[string, string]> = [
    ['!ABC 02/001 ABC AD AP CLSD 2402011200-2402021200', 'AD'],
    ['!ABC 02/002 ABC NAV VOR OTS 2402011200-2402021200', 'NAV'],
    ['!ABC 02/003 ABC COM ATIS OTS 2402011200-2402021200', 'COM'],
    ['!ABC 02/004 ABC SVC FUEL UNAVBL 2402011200-2402021200', 'SVC'],
  ];
  for (const [text, keyword] of cases) assert.equal(parsed(text).keyword, keyword, text);
  assert.deepEqual(parsed(cases[0]![0]).effects, [{ kind: 'aerodrome_closed', runways: [] }]);
});

test('unknown first word leaves the keyword null', () => {
  assert.equal(parsed('!ABC 02/005 ABC SOMETHING NEW HAPPENS 2402011200-2402021200').keyword, null);
});

test('a trailing daily schedule becomes the schedule', () => {
  const notam = parsed('!JFK 01/124 JFK RWY 13R/31L CLSD DLY 0400-1000 2401010400-2401050400');
  assert.equal(notam.schedule, 'DLY 0400-1000');
  assert.equal(notam.text, 'RWY 13R/31L CLSD DLY 0400-1000');
  assert.deepEqual(notam.warnings, []);
  assert.equal(parsed('!JFK 01/125 JFK RWY 13R/31L CLSD MON-FRI 0400-1000 2401010400-2401050400').schedule, 'MON-FRI 0400-1000');
});

test('lower case and extra whitespace', () => {
  const notam = parsed('  !jfk  01/126\njfk rwy 04l/22r clsd\n 2401011200 - 2401021200 est ');
  assert.equal(notam.id, 'JFK 01/126');
  assert.equal(notam.keyword, 'RWY');
  assert.equal(notam.end_estimated, true);
  assert.deepEqual(notam.effects, [{ kind: 'runway_closed', runways: ['04L', '22R'] }]);
});

test('malformed FAA NOTAMs', () => {
  assert.equal(rejectedWith('!JFK RWY 04L/22R CLSD 2401011200-2401021200'), 'bad_faa_format');
  assert.equal(rejectedWith('!JFK 01/123 JFK RWY 04L/22R CLSD'), 'missing_start_time');
  assert.equal(rejectedWith('!JFK 01/123 JFK RWY 04L/22R CLSD 2401011200-2413021200'), 'bad_time');
  assert.equal(rejectedWith('!JFK 01/123 JFK RWY 04L/22R CLSD 2402011200-2401021200'), 'bad_time');
  assert.equal(rejectedWith('!JFK 01/123 JFK 2401011200-2401021200'), 'missing_text');
  assert.equal(rejectedWith(''), 'empty');
});
