import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseIcaoNotam } from './icao.ts';
import type { Notam, NotamErrorCode } from './types.ts';

const RUNWAY_CLOSURE = `A1234/24 NOTAMN
Q) EGTT/QMRLC/IV/NBO/A/000/999/5129N00028W005
A) EGLL B) 2401011200 C) 2401021200
E) RWY 09L/27R CLSD DUE WIP`;

function parsed(text: string): Notam {
  const result = parseIcaoNotam(text);
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  return result.notam;
}

function rejected(text: unknown): { code: NotamErrorCode; message: string } {
  const result = parseIcaoNotam(text);
  assert.ok(!result.ok, 'expected the NOTAM to be rejected');
  return result.error;
}

describe('ICAO header', () => {
  test('series, number, year and type of a new NOTAM', () => {
    const notam = parsed(RUNWAY_CLOSURE);
    assert.equal(notam.format, 'icao');
    assert.equal(notam.id, 'A1234/24');
    assert.equal(notam.series, 'A');
    assert.equal(notam.number, 1234);
    assert.equal(notam.year, 2024);
    assert.equal(notam.type, 'NEW');
    assert.equal(notam.replaces, null);
  });

  test('NOTAMR names the NOTAM it replaces', () => {
    const notam = parsed(RUNWAY_CLOSURE.replace('NOTAMN', 'NOTAMR A1233/24'));
    assert.equal(notam.type, 'REPLACE');
    assert.equal(notam.replaces, 'A1233/24');
  });

  test('NOTAMC names the NOTAM it cancels and needs no C)', () => {
    const notam = parsed(`A1240/24 NOTAMC A1234/24
Q) EGTT/QMRXX/IV/NBO/A/000/999/5129N00028W005
A) EGLL B) 2401011500
E) RWY 09L/27R AVBL`);
    assert.equal(notam.type, 'CANCEL');
    assert.equal(notam.replaces, 'A1234/24');
    assert.equal(notam.end_time, null);
    assert.equal(notam.permanent, false);
    assert.deepEqual(notam.effects, []);
  });

  test('US numbers without a series letter are month/sequence', () => {
    const notam = parsed(RUNWAY_CLOSURE.replace('A1234/24', '06/171'));
    assert.equal(notam.id, '06/171');
    assert.equal(notam.series, null);
    assert.equal(notam.number, 171);
    assert.equal(notam.year, null);
  });

  test('a missing header leaves id and type null', () => {
    const notam = parsed(RUNWAY_CLOSURE.slice(RUNWAY_CLOSURE.indexOf('Q)')));
    assert.equal(notam.id, null);
    assert.equal(notam.type, null);
    assert.equal(notam.number, null);
  });

  test('four-digit years and AFTN parentheses', () => {
    const notam = parsed(`(${RUNWAY_CLOSURE.replace('A1234/24', 'B0007/2024')})`);
    assert.equal(notam.id, 'B0007/2024');
    assert.equal(notam.year, 2024);
    assert.equal(notam.text, 'RWY 09L/27R CLSD DUE WIP');
  });

  test('a header that is not a NOTAM header is bad_header', () => {
    assert.equal(rejected(RUNWAY_CLOSURE.replace('A1234/24 NOTAMN', 'HELLO WORLD')).code, 'bad_header');
    assert.equal(rejected(RUNWAY_CLOSURE.replace('NOTAMN', 'NOTAMX')).code, 'bad_header');
    assert.equal(rejected(RUNWAY_CLOSURE.replace('A1234/24', 'A1234/202')).code, 'bad_header');
  });
});

describe('ICAO Q line', () => {
  test('every qualifier, decoded', () => {
    const notam = parsed(RUNWAY_CLOSURE);
    assert.equal(notam.fir, 'EGTT');
    assert.equal(notam.q_code, 'QMRLC');
    assert.deepEqual(notam.subject, { code: 'MR', meaning: 'Runway' });
    assert.deepEqual(notam.condition, { code: 'LC', meaning: 'Closed' });
    assert.equal(notam.traffic, 'IV');
    assert.deepEqual(notam.purpose, ['N', 'B', 'O']);
    assert.deepEqual(notam.scope, ['A']);
    assert.equal(notam.lower_fl, 0);
    assert.equal(notam.upper_fl, 999);
    assert.deepEqual(notam.center, { lat: 51.483333, lon: -0.466667 });
    assert.equal(notam.radius_nm, 5);
  });

  test('south and east coordinates, ILS subject, unserviceable condition', () => {
    const notam = parsed(`C0100/24 NOTAMN
Q) YMMM/QICAS/I/NBO/A/000/999/3356S15110E005
A) YSSY B) 2403010000 C) 2403020000
E) ILS RWY 16R U/S`);
    assert.deepEqual(notam.center, { lat: -33.933333, lon: 151.166667 });
    assert.deepEqual(notam.subject, { code: 'IC', meaning: 'Instrument landing system' });
    assert.deepEqual(notam.condition, { code: 'AS', meaning: 'Unserviceable' });
    assert.equal(notam.traffic, 'I');
  });

  test('blank fields stay null or empty', () => {
    const notam = parsed(RUNWAY_CLOSURE.replace('EGTT/QMRLC/IV/NBO/A/000/999/5129N00028W005', 'KZJX//IV/M//000//2825N08118W005'));
    assert.equal(notam.q_code, null);
    assert.equal(notam.subject, null);
    assert.deepEqual(notam.scope, []);
    assert.equal(notam.upper_fl, null);
    assert.deepEqual(notam.warnings, ['qcode_missing']);
  });

  test('a seven-field line with "undefined" for QCODE/TRAFFIC is read from the right', () => {
    const notam = parsed(RUNWAY_CLOSURE.replace('EGTT/QMRLC/IV/NBO/A/000/999/5129N00028W005', 'KZNY/undefined/NBO/A/000/999/4038N07346W005'));
    assert.equal(notam.fir, 'KZNY');
    assert.equal(notam.q_code, null);
    assert.equal(notam.traffic, null);
    assert.deepEqual(notam.purpose, ['N', 'B', 'O']);
    assert.deepEqual(notam.scope, ['A']);
    assert.equal(notam.upper_fl, 999);
    assert.equal(notam.radius_nm, 5);
    assert.deepEqual(notam.warnings, ['q_line_realigned', 'qcode_missing']);
  });

  test('padding spaces and a line break inside the Q line', () => {
    const notam = parsed(RUNWAY_CLOSURE.replace('QMRLC/IV/NBO/A/000/999/5129N00028W005', 'QMRLC/IV/BO /A /000/999/\n5129N00028W005'));
    assert.deepEqual(notam.purpose, ['B', 'O']);
    assert.deepEqual(notam.scope, ['A']);
    assert.equal(notam.radius_nm, 5);
  });

  test('a radius in a field of its own', () => {
    assert.equal(parsed(RUNWAY_CLOSURE.replace('5129N00028W005', '5129N00028W/005')).radius_nm, 5);
  });

  test('malformed Q codes are bad_qcode', () => {
    for (const code of ['QMR', 'QMRLCX', 'Q1RLC', 'XMRLC']) {
      assert.equal(rejected(RUNWAY_CLOSURE.replace('QMRLC', code)).code, 'bad_qcode', code);
    }
  });

  test('malformed qualifiers are bad_q_line with the field named', () => {
    const cases: Array<[string, RegExp]> = [
      ['EGTT/QMRLC/IV/NBO/A/000', /6 fields/],
      ['EGTT/QMRLC/XV/NBO/A/000/999/5129N00028W005', /traffic "XV"/],
      ['EGTT/QMRLC/IV/NBZ/A/000/999/5129N00028W005', /purpose "NBZ"/],
      ['EGTT/QMRLC/IV/NBO/Z/000/999/5129N00028W005', /scope "Z"/],
      ['EGTT/QMRLC/IV/NBO/A/0/999/5129N00028W005', /lower limit "0"/],
      ['EGTT/QMRLC/IV/NBO/A/000/999/5199N00028W005', /5199N00028W005/],
      ['EGTT/QMRLC/IV/NBO/A/000/999/9129N00028W005', /9129N/],
      ['E1/QMRLC/IV/NBO/A/000/999/5129N00028W005', /FIR "E1"/],
    ];
    for (const [line, message] of cases) {
      const error = rejected(RUNWAY_CLOSURE.replace('EGTT/QMRLC/IV/NBO/A/000/999/5129N00028W005', line));
      assert.equal(error.code, 'bad_q_line', line);
      assert.match(error.message, /^bad_q_line: /);
      assert.match(error.message, message);
    }
  });

  test('no Q line is missing_q_line', () => {
    assert.equal(rejected('A1234/24 NOTAMN A) EGLL B) 2401011200 E) RWY CLSD').code, 'missing_q_line');
  });
});

describe('ICAO items', () => {
  test('times become ISO 8601 UTC strings', () => {
    const notam = parsed(RUNWAY_CLOSURE);
    assert.equal(notam.start_time, '2024-01-01T12:00:00Z');
    assert.equal(notam.end_time, '2024-01-02T12:00:00Z');
    assert.equal(notam.end_estimated, false);
    assert.equal(notam.permanent, false);
  });

  test('C) EST keeps the end and marks it estimated', () => {
    for (const end of ['2401021200EST', '2401021200 EST']) {
      const notam = parsed(RUNWAY_CLOSURE.replace('C) 2401021200', `C) ${end}`));
      assert.equal(notam.end_time, '2024-01-02T12:00:00Z');
      assert.equal(notam.end_estimated, true);
    }
  });

  test('C) PERM is open ended', () => {
    const notam = parsed(RUNWAY_CLOSURE.replace('C) 2401021200', 'C) PERM'));
    assert.equal(notam.end_time, null);
    assert.equal(notam.permanent, true);
  });

  test('several locations in A), schedule in D), limits in F) and G)', () => {
    const notam = parsed(`H0837/23 NOTAMN
Q) EGTT/QROXX/IV/NBO/AW/000/021/5130N00006W002
A) EGLL EGKK B) 2310151200 C) 2310282130
D) 15 1200-1500 1730-2030, 16 1830-2130
E) PILOTS ARE REQUESTED NOT TO OVERFLY FILMING WI 1NM RADIUS
513029N 0000549W. FOR INFO 02079 021466.
F) SFC G) 2100FT AMSL`);
    assert.deepEqual(notam.location, ['EGLL', 'EGKK']);
    assert.equal(notam.schedule, '15 1200-1500 1730-2030, 16 1830-2130');
    assert.equal(notam.text, 'PILOTS ARE REQUESTED NOT TO OVERFLY FILMING WI 1NM RADIUS\n513029N 0000549W. FOR INFO 02079 021466.');
    assert.equal(notam.lower_limit, 'SFC');
    assert.equal(notam.upper_limit, '2100FT AMSL');
    assert.deepEqual(notam.warnings, []);
  });

  test('item-like brackets inside E) stay in the text', () => {
    const notam = parsed(RUNWAY_CLOSURE.replace('E) RWY 09L/27R CLSD DUE WIP', 'E) ILS RWY 17L (SA CAT I), AMDT 4B\nSEE ITEM F) ABOVE AND (CAT II)'));
    assert.equal(notam.text, 'ILS RWY 17L (SA CAT I), AMDT 4B\nSEE ITEM F) ABOVE AND (CAT II)');
    assert.equal(notam.lower_limit, null);
  });

  test('lower case, CRLF line breaks and extra whitespace', () => {
    const notam = parsed(
      '  a1234/24   notamr\r\n  a1233/24\r\nq)  egtt / qmrlc / iv / nbo / a / 000 / 999 / 5129n00028w005 \r\n' +
        'a) egll\r\nb) 2401011200   c) 2401021200 est\r\n\r\ne) rwy 09l/27r clsd \r\n  due wip  \r\n',
    );
    assert.equal(notam.id, 'A1234/24');
    assert.equal(notam.replaces, 'A1233/24');
    assert.equal(notam.q_code, 'QMRLC');
    assert.deepEqual(notam.location, ['EGLL']);
    assert.equal(notam.end_estimated, true);
    assert.equal(notam.text, 'rwy 09l/27r clsd \n  due wip');
    assert.deepEqual(notam.effects, [{ kind: 'runway_closed', runways: ['09L', '27R'] }]);
  });

  test('raw keeps the message as received', () => {
    const raw = `${RUNWAY_CLOSURE}\r\n`;
    assert.equal(parsed(raw).raw, raw);
  });

  test('an unreadable schedule is flagged, not rejected', () => {
    const notam = parsed(RUNWAY_CLOSURE.replace('E)', 'D) EVERY SECOND TUESDAY\nE)'));
    assert.equal(notam.schedule, 'EVERY SECOND TUESDAY');
    assert.deepEqual(notam.warnings, ['schedule_unparsed']);
  });

  test('missing items have their own error codes', () => {
    assert.equal(rejected(RUNWAY_CLOSURE.replace('A) EGLL ', '')).code, 'missing_location');
    assert.equal(rejected(RUNWAY_CLOSURE.replace('A) EGLL', 'A)  ')).code, 'missing_location');
    assert.equal(rejected(RUNWAY_CLOSURE.replace('B) 2401011200 ', '')).code, 'missing_start_time');
    assert.equal(rejected(RUNWAY_CLOSURE.replace('E) RWY 09L/27R CLSD DUE WIP', '')).code, 'missing_text');
    assert.equal(rejected(RUNWAY_CLOSURE.replace('RWY 09L/27R CLSD DUE WIP', ' ')).code, 'missing_text');
  });

  test('impossible or inverted times are bad_time', () => {
    for (const [from, to] of [
      ['B) 2401011200', 'B) 2413011200'],
      ['B) 2401011200', 'B) 2402301200'],
      ['B) 2401011200', 'B) 2401012460'],
      ['B) 2401011200', 'B) 240101120'],
      ['B) 2401011200', 'B) WIE'],
      ['C) 2401021200', 'C) 2401021200ESTIMATED'],
      ['C) 2401021200', 'C) 2312311200'],
    ] as const) {
      const error = rejected(RUNWAY_CLOSURE.replace(from, to));
      assert.equal(error.code, 'bad_time', to);
      assert.match(error.message, /^bad_time: /);
    }
  });

  test('input that is not text, empty or oversized', () => {
    assert.equal(rejected(42).code, 'not_text');
    assert.equal(rejected(null).code, 'not_text');
    assert.equal(rejected(' \n\t ').code, 'empty');
    assert.equal(rejected(`${RUNWAY_CLOSURE}${' '.repeat(20_000)}`).code, 'too_long');
  });
});
