import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { deriveEffects } from './effects.ts';
import { parseNotam } from './parse.ts';
import { CONDITIONS, SUBJECTS } from './qcodes.ts';
import { activeInWindow, isActiveAt, parseSchedule } from './schedule.ts';
import type { NotamResult } from './types.ts';

describe('parseNotam dispatch', () => {
  test('"!" selects the FAA domestic format, anything else ICAO', () => {
    const faa = parseNotam('  !JFK 01/123 JFK RWY 04L/22R CLSD 2401011200-2401021200');
    assert.ok(faa.ok);
    assert.equal(faa.notam.format, 'faa');
    const icao = parseNotam('Q) EGTT/QMRLC/IV/NBO/A/000/999/5129N00028W005 A) EGLL B) 2401011200 E) RWY 09L/27R CLSD');
    assert.ok(icao.ok);
    assert.equal(icao.notam.format, 'icao');
  });

  test('rejections carry a code and a message starting with it', () => {
    for (const [input, code] of [
      [undefined, 'not_text'],
      ['', 'empty'],
      ['RWY 09L/27R CLSD', 'missing_q_line'],
      ['!', 'bad_faa_format'],
    ] as const) {
      const result = parseNotam(input);
      assert.ok(!result.ok);
      assert.equal(result.error.code, code);
      assert.ok(result.error.message.startsWith(`${code}: `), result.error.message);
    }
  });
});

/** Pieces of NOTAM syntax, so random strings reach deep into the parsers rather than failing at once. */
const FRAGMENTS = [
  'A1234/24', '06/171', ' NOTAMN', ' NOTAMR ', ' NOTAMC ', 'Q)', ' Q) ', 'A)', ' A) ', 'B)', ' B) ', 'C)', ' C) ', 'D)', ' D) ', 'E)',
  ' E) ', 'F)', ' F) ', 'G)', ' G) ', '/', '//', 'EGTT', 'KZNY', 'QMRLC', 'QICAS', 'QXXXX', 'undefined', 'IV', 'NBO', 'AE',
  '000', '999', '5129N00028W005', '9999S99999E999', '2401011200', '2413011200', '2401021200EST', 'EST', 'PERM', 'UFN', ' ',
  '  ', '\n', '\r\n', '\t', '(', ')', '!', '!JFK', '!FDC', '01/123', '4/1234', 'JFK', 'RWY', '09L/27R', '4R', 'CLSD', 'U/S',
  'OTS', 'ILS', 'GP', 'LOC', 'ALS', 'HIRL', 'AD', 'AP', 'TWY', 'WEF', 'TIL', '-', ',', 'DAILY', 'DLY', 'MON-FRI', 'SR-SS',
  'SR', 'SS', 'MINUS', 'PLUS', '30', 'H24', 'HJ', 'HN', 'EXC', 'JAN', 'DEC', '02', '31', '0600-1800', '2230-0430', 'SFC',
  'UNL', 'FL100', '2100FT AMSL', 'é', '\u0000', '🛬',
];
const notamLike = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((parts) => parts.join(''));

function assertWellFormed(result: NotamResult): void {
  if (result.ok) {
    assert.equal(typeof JSON.stringify(result.notam), 'string');
    assert.ok(result.notam.effects.every((effect) => Array.isArray(effect.runways)));
  } else {
    assert.notEqual(result.error.code, 'parser_error', result.error.message);
    assert.ok(result.error.message.startsWith(`${result.error.code}: `));
  }
}

describe('fuzz: nothing throws', () => {
  test('arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii', maxLength: 400 })), (text) => {
        assertWellFormed(parseNotam(text));
      }),
      { numRuns: 2000 },
    );
  });

  test('arbitrary values of any type', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        assertWellFormed(parseNotam(value));
      }),
      { numRuns: 500 },
    );
  });

  test('NOTAM-like fragments in random order, then the activity checks on what parses', () => {
    fc.assert(
      fc.property(notamLike, fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 }), (text, time) => {
        const result = parseNotam(text);
        assertWellFormed(result);
        if (result.ok) {
          assert.equal(typeof isActiveAt(result.notam, time), 'boolean');
          assert.equal(typeof activeInWindow(result.notam, time, time + 86_400_000), 'boolean');
        }
      }),
      { numRuns: 3000 },
    );
  });

  test('schedules and effects on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), notamLike), (text) => {
        assert.equal(typeof parseSchedule(text, new Date('2024-01-01T00:00:00Z')).ok, 'boolean');
        const effects = deriveEffects({ type: 'NEW', subject: null, condition: null, text, keyword: null });
        assert.ok(effects.length > 0);
        const schedule = { type: 'NEW' as const, start_time: '2024-01-01T00:00:00Z', end_time: null, schedule: text, center: null };
        assert.equal(typeof isActiveAt(schedule, '2024-06-01T12:00:00Z'), 'boolean');
      }),
      { numRuns: 2000 },
    );
  });

  test('long inputs stay fast (no catastrophic backtracking)', () => {
    const adversarial = [
      `!JFK 01/123 JFK RWY 04L CLSD DLY ${'0000-0000  '.repeat(40)}x 2401011200-2401021200`,
      `A${' \t'.repeat(9000)}x Q) X`,
      `Q) ${'A) '.repeat(6000)}`,
      `Q) EGTT/QXXXX/IV/NBO/A/000/999/5129N00028W005 A) EGLL B) 2401011200 E) ${'RWY 1 '.repeat(3000)} U/S ${'F) 1'.repeat(500)}`,
      `Q) EGTT/QXXXX/IV/NBO/A/000/999/5129N00028W005 A) EGLL B) 2401011200 D) ${'01-02 '.repeat(3000)}0000-0100 E) X`,
    ];
    for (const text of adversarial) {
      const started = performance.now();
      assertWellFormed(parseNotam(text));
      assert.ok(performance.now() - started < 500, `${text.slice(0, 40)}… took ${performance.now() - started} ms`);
    }
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 500, maxLength: 3000 }), (parts) => {
        const started = performance.now();
        assertWellFormed(parseNotam(parts.join('')));
        assert.ok(performance.now() - started < 500);
      }),
      { numRuns: 100 },
    );
  });
});

describe('property: generated ICAO NOTAMs round-trip', () => {
  const subjects = Object.keys(SUBJECTS).filter((code) => code !== 'XX');
  const conditions = Object.keys(CONDITIONS).filter((code) => code !== 'XX');
  const two = (n: number) => String(n).padStart(2, '0');
  const three = (n: number) => String(n).padStart(3, '0');

  const generated = fc.record({
    series: fc.constantFrom('A', 'B', 'C', 'H', 'W'),
    number: fc.integer({ min: 1, max: 9999 }),
    subject: fc.constantFrom(...subjects),
    condition: fc.constantFrom(...conditions),
    traffic: fc.constantFrom('I', 'V', 'IV', 'K'),
    purpose: fc.constantFrom('NBO', 'BO', 'M', 'K', 'B'),
    scope: fc.constantFrom('A', 'E', 'W', 'AE', 'AW', 'K'),
    lower: fc.integer({ min: 0, max: 998 }),
    latDeg: fc.integer({ min: 0, max: 89 }),
    latMin: fc.integer({ min: 0, max: 59 }),
    south: fc.boolean(),
    lonDeg: fc.integer({ min: 0, max: 179 }),
    lonMin: fc.integer({ min: 0, max: 59 }),
    west: fc.boolean(),
    radius: fc.integer({ min: 1, max: 999 }),
    start: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }).map((ms) => Math.floor(ms / 60_000) * 60_000),
    durationMin: fc.integer({ min: 0, max: 200_000 }),
    ending: fc.constantFrom('', 'EST', 'PERM'),
    lowerCase: fc.boolean(),
    separator: fc.constantFrom(' ', '\n', '\r\n', '  \n '),
  });

  function dtg(ms: number): string {
    const d = new Date(ms);
    return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
  }

  test('every field comes back as written', () => {
    fc.assert(
      fc.property(generated, (g) => {
        const end = g.start + g.durationMin * 60_000;
        const coordinates = `${two(g.latDeg)}${two(g.latMin)}${g.south ? 'S' : 'N'}${three(g.lonDeg)}${two(g.lonMin)}${g.west ? 'W' : 'E'}${three(g.radius)}`;
        const cItem = g.ending === 'PERM' ? 'PERM' : `${dtg(end)}${g.ending}`;
        const s = g.separator;
        let text = `${g.series}${String(g.number).padStart(4, '0')}/${two(new Date(g.start).getUTCFullYear() % 100)} NOTAMN${s}` +
          `Q) EGTT/Q${g.subject}${g.condition}/${g.traffic}/${g.purpose}/${g.scope}/${three(g.lower)}/999/${coordinates}${s}` +
          `A) EGLL${s}B) ${dtg(g.start)}${s}C) ${cItem}${s}E) SOMETHING HAPPENS`;
        if (g.lowerCase) text = text.toLowerCase();

        const result = parseNotam(text);
        assert.ok(result.ok, result.ok ? '' : `${result.error.message}\n${text}`);
        const n = result.notam;
        assert.equal(n.number, g.number);
        assert.equal(n.q_code, `Q${g.subject}${g.condition}`);
        assert.deepEqual(n.subject, { code: g.subject, meaning: SUBJECTS[g.subject] });
        assert.deepEqual(n.condition, { code: g.condition, meaning: CONDITIONS[g.condition] });
        assert.equal(n.traffic, g.traffic);
        assert.deepEqual(n.purpose, [...g.purpose]);
        assert.deepEqual(n.scope, [...g.scope]);
        assert.equal(n.lower_fl, g.lower);
        assert.equal(n.radius_nm, g.radius);
        const lat = (g.latDeg + g.latMin / 60) * (g.south ? -1 : 1);
        const lon = (g.lonDeg + g.lonMin / 60) * (g.west ? -1 : 1);
        assert.ok(Math.abs(n.center!.lat - lat) < 1e-6 && Math.abs(n.center!.lon - lon) < 1e-6);
        assert.equal(n.start_time, new Date(g.start).toISOString().replace('.000Z', 'Z'));
        assert.equal(n.permanent, g.ending === 'PERM');
        assert.equal(n.end_estimated, g.ending === 'EST');
        assert.equal(n.end_time, g.ending === 'PERM' ? null : new Date(end).toISOString().replace('.000Z', 'Z'));
        assert.equal(n.text.toUpperCase(), 'SOMETHING HAPPENS');
      }),
      { numRuns: 1000 },
    );
  });
});
