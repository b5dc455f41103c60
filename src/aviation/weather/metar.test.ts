import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseMetar } from './metar.ts';
import type { Metar, MetarResult } from './types.ts';

const NOW = new Date('2025-01-27T23:00:00Z');

function decode(raw: string, lenient = false): Metar {
  const result = parseMetar(raw, { now: NOW, lenient });
  if (!result.ok) assert.fail(`${raw}: ${result.error.message}`);
  return result.metar;
}

function rejection(raw: unknown): { code: string; message: string } {
  const result = parseMetar(raw, { now: NOW });
  assert.equal(result.ok, false, `accepted: ${String(raw)}`);
  return result.ok ? { code: '', message: '' } : result.error;
}

describe('parseMetar', () => {
  test('a US report with remarks of interest', () => {
    const metar = decode(
      'SPECI KJFK 271651Z 27015G35KT 240V300 1 1/2SM +TSRA BKN010CB OVC020 23/09 A2992 RMK AO2 PK WND 28045/1615 WSHFT 1620 FROPA LLWS RWY 27',
    );
    assert.equal(metar.type, 'SPECI');
    assert.equal(metar.station, 'KJFK');
    assert.equal(metar.observed_at, '2025-01-27T16:51:00Z');
    assert.deepEqual(
      [metar.wind?.direction_deg, metar.wind?.speed_kt, metar.wind?.gust_kt, metar.wind?.variable_from_deg, metar.wind?.variable_to_deg],
      [270, 15, 35, 240, 300],
    );
    assert.equal(metar.visibility?.statute_mi, 1.5);
    assert.equal(metar.weather[0]?.raw, '+TSRA');
    assert.equal(metar.ceiling_ft, 1000);
    assert.deepEqual([metar.temperature_c, metar.dewpoint_c], [23, 9]);
    assert.deepEqual(metar.altimeter, { hpa: 1013.2, inhg: 29.92, reported_unit: 'inHg' });
    assert.deepEqual(metar.remarks.peak_wind, { direction_deg: 280, speed_kt: 45, time: '16:15', raw: 'PK WND 28045/1615' });
    assert.deepEqual(metar.remarks.wind_shift, { time: '16:20', frontal_passage: true, raw: 'WSHFT 1620 FROPA' });
    assert.equal(metar.remarks.low_level_wind_shear, 'LLWS RWY 27');
    assert.ok(metar.remarks.decoded.some((text) => text.includes('peak wind')));
  });

  test('an ICAO report with MPS wind, CAVOK, wind shear, runway state and trend', () => {
    const metar = decode('UUDD 151230Z 26007MPS CAVOK 23/09 Q1008 WS R32L R32L/CLRD60 NOSIG');
    assert.deepEqual([metar.wind?.speed_kt, metar.wind?.reported.unit, metar.wind?.reported.speed], [14, 'MPS', 7]);
    assert.equal(metar.sky_clear_code, 'CAVOK');
    assert.equal(metar.visibility?.lower_bound, true);
    assert.equal(metar.ceiling_ft, null);
    assert.deepEqual(metar.wind_shear.map((shear) => shear.runway), ['32L']);
    assert.deepEqual([metar.runway_states[0]?.runway, metar.runway_states[0]?.cleared], ['32L', true]);
    assert.deepEqual(metar.trends, [{ type: 'NOSIG', raw: 'NOSIG', forecast: null }]);
  });

  test('the groups metar-taf-parser drops are kept', () => {
    const metar = decode('KLAX 161253Z 0000KT 1/16SM FG VV/// 12/12 A3007 WS ALL RWY 88290195');
    assert.equal(metar.wind?.calm, true);
    assert.equal(metar.visibility?.statute_mi, 0.0625);
    assert.equal(metar.sky_obscured, true);
    assert.equal(metar.vertical_visibility_ft, null);
    assert.equal(metar.ceiling_uncertain, true);
    assert.equal(metar.wind_shear[0]?.all_runways, true);
    assert.equal(metar.runway_states[0]?.runway, 'ALL');
  });

  test('WS RWY25L, M1/4SM, VRB and the clear-sky codes', () => {
    const metar = decode('KXYZ 271253Z VRB03KT M1/4SM FG SKC 01/01 A3001 WS RWY25L');
    assert.equal(metar.wind?.variable, true);
    assert.equal(metar.visibility?.upper_bound, true);
    assert.equal(metar.wind_shear[0]?.runway, '25L');
    for (const code of ['NCD', 'NSC', 'CLR'] as const) {
      assert.equal(decode(`EGLL 271220Z 24010KT 9999 ${code} 10/05 Q1020`).sky_clear_code, code);
    }
  });

  test('all-slash groups are recorded as missing and read as unknown', () => {
    const metar = decode('EGPC 241950Z AUTO /////KT //// ///////// ///// Q////');
    assert.equal(metar.auto, true);
    assert.deepEqual([metar.wind, metar.visibility, metar.temperature_c, metar.altimeter], [null, null, null, null]);
    assert.deepEqual(metar.missing_groups, ['/////KT', '////', '/////////', '/////', 'Q////']);
  });

  test('trend groups are not read as the observation', () => {
    const metar = decode('LFSB 120000Z AUTO 35007KT 7000 FEW005 OVC023 02/02 Q1029 TEMPO 0300 FG VV///');
    assert.equal(metar.visibility?.metres, 7000);
    assert.equal(metar.sky_obscured, false);
    assert.deepEqual(metar.trends.map(({ type, raw }) => ({ type, raw })), [{ type: 'TEMPO', raw: 'TEMPO 0300 FG VV///' }]);
  });

  test('a BECMG, TEMPO or INTER trend is decoded as a forecast group over the two hours after the observation', () => {
    const metar = decode('LFSB 120000Z AUTO 35007KT 7000 FEW005 OVC023 02/02 Q1029 TEMPO 0300 FG VV///');
    const fog = metar.trends[0]!.forecast!;
    assert.deepEqual([fog.change, fog.probability, fog.from, fog.to, fog.raw], ['TEMPO', null, '2025-01-12T00:00:00Z', '2025-01-12T02:00:00Z', 'TEMPO 0300 FG VV///']);
    assert.equal(fog.visibility?.metres, 300);
    assert.deepEqual(fog.weather.map((phenomenon) => phenomenon.raw), ['FG']);
    assert.equal(fog.sky_obscured, true);
    assert.equal(fog.ceiling_uncertain, true);
    // FM, TL and AT narrow the period, each the first such time after the observation (past midnight here).
    const times = decode('EGLL 272320Z 24010KT 9999 FEW030 12/08 Q1016 BECMG FM2330 TL0030 27020G35KT TEMPO FM0015 3000 SHRA BKN008 BECMG AT0100 NSW SCT020').trends;
    assert.deepEqual(times.map(({ forecast }) => [forecast?.change, forecast?.from, forecast?.to]), [
      ['BECMG', '2025-01-27T23:30:00Z', '2025-01-28T00:30:00Z'],
      ['TEMPO', '2025-01-28T00:15:00Z', '2025-01-28T01:20:00Z'],
      ['BECMG', '2025-01-28T01:00:00Z', '2025-01-28T01:00:00Z'],
    ]);
    assert.deepEqual([times[0]!.forecast!.wind?.direction_deg, times[0]!.forecast!.wind?.gust_kt], [270, 35]);
    assert.equal(times[1]!.forecast!.ceiling_ft, 800);
    assert.equal(times[2]!.forecast!.no_significant_weather, true);
  });

  test('a trend until a time within an hour past the two hours ends with them; one further on is not read', () => {
    const dayEnd = decode('EGLL 272150Z 24010KT 9999 FEW030 12/08 Q1016 BECMG TL2400 27020G35KT').trends[0]!.forecast!;
    assert.deepEqual([dayEnd.from, dayEnd.to], ['2025-01-27T21:50:00Z', '2025-01-27T23:50:00Z']);
    assert.equal(dayEnd.wind?.gust_kt, 35);
    const closing = decode('EGLL 272150Z 24010KT 9999 FEW030 12/08 Q1016 TEMPO FM2300 TL0050 3000 SHRA').trends[0]!.forecast!;
    assert.deepEqual([closing.from, closing.to], ['2025-01-27T23:00:00Z', '2025-01-27T23:50:00Z']);
    // 23 h 40 min on: most likely a time before the observation, wrapped around the day.
    assert.equal(decode('EGLL 272150Z 24010KT 9999 FEW030 12/08 Q1016 BECMG TL2130 27020G35KT').trends[0]!.forecast, null);
    assert.equal(decode('EGLL 272150Z 24010KT 9999 FEW030 12/08 Q1016 BECMG TL0051 27020G35KT').trends[0]!.forecast, null);
  });

  test('a trend whose time or groups cannot be read keeps its text and is not decoded', () => {
    for (const trend of [
      'TEMPO FM1500 3000 BR', // past the two hours
      'TEMPO AT1230 3000 BR', // AT is for BECMG
      'BECMG FM1300 TL1230 3000 BR', // ends before it starts
      'BECMG FM1260 3000 BR', // not a time
      'TEMPO 3000 BR 12/08', // a group a forecast does not take
      'BECMG FM1230', // no group
    ]) {
      const metar = decode(`EGLL 271150Z 24010KT 9999 FEW030 12/08 Q1016 ${trend}`);
      assert.deepEqual(metar.trends.map(({ raw, forecast }) => ({ raw, forecast })), [{ raw: trend, forecast: null }], trend);
    }
  });

  test('groups after NOSIG belong to no trend: they are kept in unparsed_groups, not dropped', () => {
    const metar = decode('EGLL 271150Z 24010KT 9999 FEW030 12/08 Q1016 NOSIG 0500 FG VV001');
    assert.deepEqual(metar.trends, [{ type: 'NOSIG', raw: 'NOSIG', forecast: null }]);
    assert.deepEqual(metar.unparsed_groups, ['0500', 'FG', 'VV001']);
    assert.equal(metar.visibility?.metres, 9999);
  });

  test('each trend keyword starts a trend that runs to the next keyword or RMK', () => {
    const metar = decode('EGLL 271150Z 24010KT 9999 FEW030 12/08 Q1016 BLU BECMG 0500 FG VV001 TEMPO FM1200 3000 BR NOSIG XYZ RMK AO2');
    assert.deepEqual(metar.trends.map(({ type, raw }) => ({ type, raw })), [
      { type: 'BECMG', raw: 'BECMG 0500 FG VV001' },
      { type: 'TEMPO', raw: 'TEMPO FM1200 3000 BR' },
      { type: 'NOSIG', raw: 'NOSIG' },
    ]);
    assert.deepEqual(metar.unparsed_groups, ['BLU', 'XYZ']);
    assert.equal(metar.remarks.raw, 'AO2');
  });

  test('a report with no sky group says its sky was not reported', () => {
    assert.equal(decode('KXYZ 271215Z AUTO 05005KT 10SM 12/08 A3021 RMK AO1').sky_reported, false);
    assert.equal(decode('YBCS 272218Z AUTO 17006KT 6000 +RA ////// 25/24 Q1008').sky_reported, false);
    for (const sky of ['CLR', 'NSC', 'CAVOK', 'FEW030', 'VV///']) {
      assert.equal(decode(`KXYZ 271215Z AUTO 05005KT ${sky === 'CAVOK' ? '' : '10SM '}${sky} 12/08 A3021`).sky_reported, true, sky);
    }
  });

  test('supplementary groups after the temperature are kept unparsed', () => {
    const metar = decode('ETHB 112350Z 27004KT 3500 -DZ BR OVC007 02/01 Q1031 BLU W15/S2');
    assert.deepEqual(metar.unparsed_groups, ['BLU', 'W15/S2']);
  });

  test('repairs that are unambiguous: glued time and wind, HHMMZ time, Q and A together', () => {
    assert.equal(decode('MGTU 272200Z32004KT CAVOK 33/23').wind?.direction_deg, 320);
    assert.equal(decode('RKSW 2210Z 30007KT 2400 -SN BR BKN030 M04/M04 A2997').observed_at, '2025-01-27T22:10:00Z');
    assert.equal(decode('OIII 272200Z 28008KT 9000 FEW035 02/M00 Q1020 A3012').altimeter?.hpa, 1020);
  });

  test('the observation month and year come from now', () => {
    const result = parseMetar('EGLL 312350Z 24010KT 9999 FEW020 10/05 Q1020', { now: new Date('2025-02-01T00:05:00Z') });
    assert.equal(result.ok && result.metar.observed_at, '2025-01-31T23:50:00Z');
  });

  test('trailing = and extra white space are ignored; lower case is read as upper case', () => {
    assert.equal(decode('  egll 271220z 24010kt 9999 few020 10/05 q1020=\n').station, 'EGLL');
  });
});

describe('rejections', () => {
  const cases: Array<[unknown, string, string?]> = [
    [42, 'not_text'],
    ['', 'empty'],
    ['   =  ', 'empty'],
    ['x'.repeat(5000), 'too_long'],
    ['hello world', 'bad_station', '"HELLO"'],
    ['271220Z 24010KT 9999', 'missing_station'],
    ['EGLL 24010KT 9999 10/05 Q1020', 'missing_time', '"24010KT"'],
    ['EGLL 322220Z 24010KT', 'bad_time', '"322220Z"'],
    ['EGLL 272520Z 24010KT', 'bad_time'],
    ['EGLL 271220Z', 'no_observation'],
    ['SVVL 272203Z AUTO NIL', 'nil_report'],
    ['EGHI 282120Z 19015KT 6000 RA 16/14 1006', 'bad_pressure', '"1006"'],
    ['EGHI 282120Z 19015KT 6000 RA 16/14 Q10', 'bad_pressure', '"Q10"'],
    ['EGPC 211650Z 33026G37KT 9999 FEW021 12/7 Q1026', 'bad_temperature', '"12/7"'],
    ['EGPC 211650Z 3026KT 9999 FEW021 12/07 Q1026', 'bad_wind', '"3026KT"'],
    ['EGPC 211650Z 33026KT 1 FEW021 12/07 Q1026', 'bad_visibility', '"1"'],
    ['EGPC 211650Z 33026KT 9999 BKN0100 12/07 Q1026', 'bad_cloud', '"BKN0100"'],
    ['EGPC 211650Z 33026KT 9999 FOO BKN010 12/07 Q1026', 'unrecognised_group', '"FOO"'],
    ['EGPC 211650Z 33026KT 27010KT 9999 BKN010 12/07 Q1026', 'duplicate_group', '"27010KT"'],
    ['EGPC 211650Z 33026KT 9999 12/07 BKN010 Q1026', 'bad_cloud', '"BKN010"'],
    ['EGPC 211650Z 33026KT 9999 BKN010 12/07 Q1026 WS R', 'bad_wind_shear'],
  ];
  for (const [raw, code, quoted] of cases) {
    test(`${String(raw).slice(0, 60)} -> ${code}`, () => {
      const error = rejection(raw);
      assert.equal(error.code, code, error.message);
      assert.ok(error.message.startsWith(code), error.message);
      if (quoted !== undefined) assert.ok(error.message.includes(quoted), error.message);
    });
  }

  test('options.now must be a valid date', () => {
    const result = parseMetar('EGLL 271220Z 24010KT 9999 FEW020 10/05 Q1020', { now: new Date('garbage') });
    assert.equal(result.ok ? '' : result.error.code, 'bad_time_argument');
  });
});

describe('lenient mode', () => {
  test('skips a malformed wind or temperature, keeps the sky, and says what it skipped', () => {
    const metar = decode('DNKA 272200Z 36004KTT CAVOK 22/2 Q1018 NOSIG', true);
    assert.equal(metar.wind, null);
    assert.equal(metar.temperature_c, null);
    assert.equal(metar.sky_clear_code, 'CAVOK');
    assert.deepEqual(metar.invalid_groups.map((error) => error.code), ['bad_wind', 'bad_temperature']);
  });

  test('still rejects a malformed visibility or cloud group', () => {
    for (const raw of ['EGPC 211650Z 33026KT 1 FEW021 12/07 Q1026', 'EGPC 211650Z 33026KT 9999 BKN0100 12/07 Q1026']) {
      assert.equal(parseMetar(raw, { now: NOW, lenient: true }).ok, false, raw);
    }
  });

  test('strict mode has no invalid groups', () => {
    assert.deepEqual(decode('EGLL 271220Z 24010KT 9999 FEW020 10/05 Q1020').invalid_groups, []);
  });
});

/** Invariants every accepted METAR must satisfy, whatever the input. */
function assertSane(result: MetarResult): void {
  assert.equal(typeof result.ok, 'boolean');
  if (!result.ok) {
    assert.match(result.error.message, new RegExp(`^${result.error.code}`));
    return;
  }
  const { metar } = result;
  assert.match(metar.station, /^[A-Z][A-Z0-9]{3}$/);
  assert.ok(Number.isFinite(Date.parse(metar.observed_at)));
  if (metar.wind !== null) {
    assert.ok(metar.wind.speed_kt >= 0 && metar.wind.speed_kt <= 150);
    assert.ok(metar.wind.gust_kt === null || metar.wind.gust_kt > metar.wind.speed_kt);
  }
  if (metar.visibility !== null) assert.ok(metar.visibility.metres >= 0 && metar.visibility.statute_mi >= 0);
  if (metar.ceiling_ft !== null) assert.ok(metar.ceiling_ft >= 0);
  assert.doesNotThrow(() => JSON.stringify(metar));
}

const VOCABULARY = [
  'METAR', 'SPECI', 'EGLL', 'KJFK', 'K2R2', '271220Z', '3112Z', '2210Z', 'AUTO', 'COR', 'NIL', '24010KT', '0000KT',
  'VRB03KT', '22004MPS', '27015G35KT', '/////KT', '140V220', '9999', '0800', '9999NDV', '4500NW', '1', '1/2SM',
  '10SM', 'P6SM', 'M1/4SM', '100SM', 'CAVOK', 'R24/1000U', 'R24/290050', '88290195', 'R88/CLRD60', '+TSRA', 'VCSH',
  'FG', 'BR', 'RERA', 'FEW020', 'BKN010CB', 'OVC///', '//////CB', 'SKC', 'NCD', 'VV002', 'VV///', '10/05', 'M04/M06',
  '12/7', '03/10', '/////', 'Q1020', 'A2992', 'Q////', '1006', 'Q10', 'WS', 'R25L', 'RWY25L', 'ALL', 'RWY', '////',
  'NOSIG', 'TEMPO', 'BECMG', 'RMK', 'AO2', 'PK', 'WND', '28045/1615', 'WSHFT', '1620', 'FROPA', 'LLWS', '=', '',
];

describe('fuzz: nothing throws and nothing absurd is accepted', () => {
  test('arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (raw) => {
        assertSane(parseMetar(raw, { now: NOW }));
        assertSane(parseMetar(raw, { now: NOW, lenient: true }));
      }),
      { numRuns: 2000 },
    );
  });

  test('token soup from the METAR vocabulary, with and without a valid header', () => {
    const header = fc.constantFrom('', 'EGLL 271220Z ');
    fc.assert(
      fc.property(header, fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 25 }), (start, tokens) => {
        assertSane(parseMetar(start + tokens.join(' '), { now: NOW }));
        assertSane(parseMetar(start + tokens.join(' '), { now: NOW, lenient: true }));
      }),
      { numRuns: 3000 },
    );
  });

  test('every group after the body lands in a trend, in unparsed_groups or in the remarks', () => {
    const body = 'EGLL 271220Z 24010KT 9999 FEW020 10/05 Q1020';
    const trendGroup = fc.constantFrom('NOSIG', 'BECMG', 'TEMPO', 'INTER', 'FM1200', 'TL1300', 'AT1230', '0500', 'FG', 'VV001',
      '-SHRA', 'BKN012CB', 'NSW', '25015G30KT', 'CAVOK', 'XYZ', '1/2SM', '/////', 'WS', 'R27R');
    const keyword = fc.constantFrom('NOSIG', 'BECMG', 'TEMPO', 'INTER');
    const remarks = fc.option(fc.array(fc.constantFrom('AO2', 'SLP123', 'NOSIG', 'TEMPO', 'FG', 'T01070046'), { maxLength: 5 }), { nil: undefined });
    fc.assert(
      fc.property(keyword, fc.array(trendGroup, { maxLength: 12 }), remarks, (first, rest, rmk) => {
        const trend = [first, ...rest];
        const raw = [body, ...trend, ...(rmk === undefined ? [] : ['RMK', ...rmk])].join(' ');
        const metar = decode(raw);
        const kept = [...metar.trends.flatMap((t) => t.raw.split(' ')), ...metar.unparsed_groups];
        assert.deepEqual([...kept].sort(), [...trend].sort(), raw);
        assert.deepEqual(metar.trends.map((t) => t.type), trend.filter((token) => ['NOSIG', 'BECMG', 'TEMPO', 'INTER'].includes(token)), raw);
        assert.equal(metar.remarks.raw, rmk === undefined || rmk.length === 0 ? null : rmk.join(' '), raw);
      }),
      { numRuns: 1000 },
    );
  });

  test('a valid report with one character changed', () => {
    const valid = 'KJFK 271651Z 27015G35KT 1 1/2SM +TSRA BKN010CB OVC020 23/09 A2992 RMK AO2 PK WND 28045/1615';
    fc.assert(
      fc.property(fc.nat(valid.length - 1), fc.string({ unit: 'grapheme-ascii', minLength: 0, maxLength: 3 }), (position, insert) => {
        assertSane(parseMetar(valid.slice(0, position) + insert + valid.slice(position + 1), { now: NOW }));
      }),
      { numRuns: 3000 },
    );
  });

  test('without a DDHHMMZ or HHMMZ group nothing is accepted', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ /'.split('')), maxLength: 80 }), (raw) => {
        assert.equal(parseMetar(raw, { now: NOW }).ok, false);
      }),
      { numRuns: 1000 },
    );
  });

  test('non-string input', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = parseMetar(value, { now: NOW });
        if (typeof value !== 'string') assert.equal(result.ok ? '' : result.error.code, 'not_text');
      }),
      { numRuns: 500 },
    );
  });
});
