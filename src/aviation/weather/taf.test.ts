import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseTaf, tafConditionsAt } from './taf.ts';
import type { TafConditions } from './taf.ts';
import type { Taf, TafResult } from './types.ts';

const NOW = new Date('2025-01-27T18:00:00Z');

const KJFK =
  'TAF AMD KJFK 271730Z 2718/2824 27015G25KT P6SM SCT050 WS020/27045KT ' +
  'FM272200 30010KT 6SM -SHRA BKN030 ' +
  'PROB30 TEMPO 2800/2804 2SM TSRA BKN020CB ' +
  'PROB40 2806/2810 1/2SM FG VV002 ' +
  'BECMG 2812/2814 VRB03KT 9999 NSW SKC ' +
  'INTER 2816/2818 4000 RA RMK LLWS NXT FCST BY 00Z';

function taf(raw: string): Taf {
  const result = parseTaf(raw, { now: NOW });
  if (!result.ok) assert.fail(`${raw}: ${result.error.message}`);
  return result.taf;
}

function at(parsed: Taf, iso: string): TafConditions {
  const result = tafConditionsAt(parsed, new Date(iso));
  if (!result.ok) assert.fail(`${iso}: ${result.error.message}`);
  return result.conditions;
}

describe('parseTaf', () => {
  test('validity, issue time and flags', () => {
    const parsed = taf(KJFK);
    assert.deepEqual(
      [parsed.station, parsed.issued_at, parsed.valid_from, parsed.valid_to, parsed.amended, parsed.corrected],
      ['KJFK', '2025-01-27T17:30:00Z', '2025-01-27T18:00:00Z', '2025-01-29T00:00:00Z', true, false],
    );
    assert.equal(parsed.low_level_wind_shear, 'LLWS');
  });

  test('change groups with their periods and probabilities', () => {
    const summary = taf(KJFK).forecasts.map((forecast) => [forecast.change, forecast.probability, forecast.from, forecast.to]);
    assert.deepEqual(summary, [
      ['BASE', null, '2025-01-27T18:00:00Z', '2025-01-27T22:00:00Z'],
      ['FM', null, '2025-01-27T22:00:00Z', '2025-01-29T00:00:00Z'],
      ['TEMPO', 30, '2025-01-28T00:00:00Z', '2025-01-28T04:00:00Z'],
      ['PROB', 40, '2025-01-28T06:00:00Z', '2025-01-28T10:00:00Z'],
      ['BECMG', null, '2025-01-28T12:00:00Z', '2025-01-28T14:00:00Z'],
      ['INTER', null, '2025-01-28T16:00:00Z', '2025-01-28T18:00:00Z'],
    ]);
  });

  test('each group decoded like a METAR body', () => {
    const [base, from, tempo, prob, becoming] = taf(KJFK).forecasts;
    assert.deepEqual([base?.wind?.gust_kt, base?.visibility?.lower_bound, base?.wind_shear[0]?.height_ft], [25, true, 2000]);
    assert.equal(from?.ceiling_ft, 3000);
    assert.equal(tempo?.clouds[0]?.type, 'CB');
    assert.deepEqual([prob?.visibility?.statute_mi, prob?.ceiling_ft], [0.5, 200]);
    assert.deepEqual([becoming?.wind?.variable, becoming?.no_significant_weather, becoming?.sky_clear_code], [true, true, 'SKC']);
  });

  test('TX/TN, QNH, icing and turbulence groups are kept unparsed', () => {
    const parsed = taf('TAF EGLL 271700Z 2718/2824 27015KT 9999 BKN030 TX12/2814Z TN03/2806Z QNH2992INS 620304 510203');
    assert.deepEqual(parsed.unparsed_groups, ['TX12/2814Z', 'TN03/2806Z', 'QNH2992INS', '620304', '510203']);
  });

  const rejections: Array<[unknown, string]> = [
    [null, 'not_text'],
    ['', 'empty'],
    ['TAF', 'missing_station'],
    ['TAF EGLL 2718/2824 27015KT 9999 BKN030', 'missing_time'],
    ['TAF EGLL 271700Z NIL', 'nil_report'],
    ['TAF EGLL 271700Z 2718/2824 CNL', 'cancelled'],
    ['TAF EGLL 271700Z 27015KT 9999', 'bad_validity'],
    ['TAF EGLL 271700Z 2718/2718 27015KT 9999', 'bad_validity'],
    ['TAF EGLL 271700Z 2718/2824 3015KT 9999 BKN030', 'bad_wind'],
    ['TAF EGLL 271700Z 2718/2824 27015KT 9999 BKN030 TEMPO 2718/2720 3000 BKN0100', 'bad_cloud'],
    ['TAF EGLL 271700Z 2718/2824 27015KT 9999 BKN030 TEMPO 2902/2904 3000', 'bad_validity'],
  ];
  for (const [raw, code] of rejections) {
    test(`${String(raw)} -> ${code}`, () => {
      const result = parseTaf(raw, { now: NOW });
      assert.equal(result.ok ? 'accepted' : result.error.code, code);
    });
  }
});

describe('tafConditionsAt', () => {
  const parsed = taf(KJFK);

  test('the base forecast with its wind shear', () => {
    const conditions = at(parsed, '2025-01-27T19:00:00Z');
    assert.equal(conditions.prevailing.wind?.speed_kt, 15);
    assert.deepEqual(conditions.wind_shear.map((shear) => shear.raw), ['WS020/27045KT']);
    assert.deepEqual(conditions.changes, []);
  });

  test('an FM group replaces everything; an active TEMPO is listed beside it', () => {
    const conditions = at(parsed, '2025-01-28T01:00:00Z');
    assert.deepEqual([conditions.prevailing.wind?.direction_deg, conditions.prevailing.ceiling_ft], [300, 3000]);
    assert.deepEqual(conditions.prevailing.wind_shear, []);
    assert.deepEqual(conditions.changes.map((change) => change.change), ['TEMPO']);
  });

  test('a BECMG in transition is a change; once complete it replaces only what it forecasts', () => {
    const during = at(parsed, '2025-01-28T13:00:00Z');
    assert.equal(during.prevailing.wind?.direction_deg, 300);
    assert.deepEqual(during.changes.map((change) => change.change), ['BECMG']);
    const after = at(parsed, '2025-01-28T15:00:00Z');
    assert.equal(after.prevailing.wind?.variable, true);
    assert.equal(after.prevailing.visibility?.reported, '9999');
    assert.deepEqual(after.prevailing.weather, []);
    assert.equal(after.prevailing.ceiling_ft, null);
    assert.equal(after.prevailing.sources.length, 2);
  });

  test('a BECMG that forecasts only the wind keeps the clouds', () => {
    const partial = taf('TAF EGLL 271700Z 2718/2824 27015KT 9999 BKN012 BECMG 2720/2722 33020KT');
    const conditions = at(partial, '2025-01-27T23:00:00Z');
    assert.deepEqual([conditions.prevailing.wind?.direction_deg, conditions.prevailing.ceiling_ft], [330, 1200]);
  });

  test('outside the validity and invalid times are errors', () => {
    const outside = tafConditionsAt(parsed, new Date('2025-01-29T00:00:00Z'));
    assert.equal(outside.ok ? '' : outside.error.code, 'outside_validity');
    const invalid = tafConditionsAt(parsed, new Date('garbage'));
    assert.equal(invalid.ok ? '' : invalid.error.code, 'bad_time_argument');
  });
});

function assertSane(result: TafResult): void {
  if (!result.ok) {
    assert.match(result.error.message, new RegExp(`^${result.error.code}`));
    return;
  }
  const { taf: parsed } = result;
  assert.ok(Date.parse(parsed.valid_from) < Date.parse(parsed.valid_to));
  assert.equal(parsed.forecasts[0]?.change, 'BASE');
  for (const forecast of parsed.forecasts) {
    assert.ok(Date.parse(forecast.from) >= Date.parse(parsed.valid_from));
    assert.ok(Date.parse(forecast.to) <= Date.parse(parsed.valid_to));
  }
  const middle = new Date((Date.parse(parsed.valid_from) + Date.parse(parsed.valid_to)) / 2);
  assert.equal(tafConditionsAt(parsed, middle).ok, true);
}

const VOCABULARY = [
  'TAF', 'AMD', 'COR', 'KJFK', '271730Z', '2718/2824', '2800/2804', '2902/2904', 'FM272200', 'FM280300', 'BECMG',
  'TEMPO', 'INTER', 'PROB30', 'PROB40', '27015G25KT', 'VRB03KT', '3015KT', 'P6SM', '1/2SM', '9999', 'CAVOK', 'NSW',
  'SKC', 'BKN020CB', 'VV002', 'WS020/27045KT', 'TSRA', '-SHRA', 'TX12/2814Z', '620304', 'RMK', 'LLWS', 'NIL', 'CNL', '',
];

describe('fuzz: nothing throws', () => {
  test('arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (raw) => assertSane(parseTaf(raw, { now: NOW }))),
      { numRuns: 2000 },
    );
  });

  test('token soup from the TAF vocabulary, with and without a valid header', () => {
    const header = fc.constantFrom('', 'TAF KJFK 271730Z 2718/2824 ');
    fc.assert(
      fc.property(header, fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 30 }), (start, tokens) =>
        assertSane(parseTaf(start + tokens.join(' '), { now: NOW })),
      ),
      { numRuns: 3000 },
    );
  });

  test('tafConditionsAt at any time', () => {
    const parsed = taf(KJFK);
    fc.assert(
      fc.property(fc.date({ noInvalidDate: false }), (time) => {
        const result = tafConditionsAt(parsed, time);
        assert.equal(typeof result.ok, 'boolean');
      }),
      { numRuns: 1000 },
    );
  });
});
