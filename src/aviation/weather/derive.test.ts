import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  conditions,
  deriveWeather,
  flightCategory,
  flightCategoryAtBest,
  forecastWindShearRisk,
  visibilityNm,
  WIND_SHEAR_RULES,
  windComponents,
  windShearRisk,
} from './derive.ts';
import { parseMetar } from './metar.ts';
import { parseTaf, tafConditionsAt } from './taf.ts';
import type { Metar, Taf, Visibility, Wind } from './types.ts';

const NOW = new Date('2025-01-27T23:00:00Z');

function metar(raw: string): Metar {
  const result = parseMetar(raw, { now: NOW });
  if (!result.ok) assert.fail(`${raw}: ${result.error.message}`);
  return result.metar;
}

function taf(raw: string): Taf {
  const result = parseTaf(raw, { now: NOW });
  if (!result.ok) assert.fail(`${raw}: ${result.error.message}`);
  return result.taf;
}

function miles(statuteMi: number): Visibility {
  return {
    statute_mi: statuteMi,
    metres: Math.round(statuteMi * 1609.344),
    nm: statuteMi * 0.868976,
    lower_bound: false,
    upper_bound: false,
    unit: 'SM',
    reported: `${statuteMi}SM`,
    no_directional_variation: false,
  };
}

function wind(direction: number | null, speed: number, gust: number | null = null, range: [number, number] | null = null): Wind {
  return {
    direction_deg: direction,
    variable: direction === null,
    speed_kt: speed,
    gust_kt: gust,
    variable_from_deg: range?.[0] ?? null,
    variable_to_deg: range?.[1] ?? null,
    calm: speed === 0,
    reported: { unit: 'KT', speed, gust, group: '' },
  };
}

describe('flightCategory (FAA thresholds)', () => {
  const category = (visibility: number | null, ceiling: number | null) =>
    flightCategory({ visibility: visibility === null ? null : miles(visibility), ceiling_ft: ceiling });

  test('ceiling thresholds: < 500 LIFR, < 1000 IFR, <= 3000 MVFR', () => {
    assert.deepEqual(
      [499, 500, 999, 1000, 3000, 3100].map((ceiling) => category(10, ceiling)),
      ['LIFR', 'IFR', 'IFR', 'MVFR', 'MVFR', 'VFR'],
    );
  });

  test('visibility thresholds: < 1 LIFR, < 3 IFR, <= 5 MVFR', () => {
    assert.deepEqual([0.75, 1, 2.5, 3, 5, 6].map((visibility) => category(visibility, null)), ['LIFR', 'IFR', 'IFR', 'MVFR', 'MVFR', 'VFR']);
  });

  test('the worse of ceiling and visibility decides', () => {
    assert.equal(category(10, 400), 'LIFR');
    assert.equal(category(0.5, 5000), 'LIFR');
    assert.equal(category(4, 800), 'IFR');
  });

  test('no visibility, no category (as AWC)', () => {
    assert.equal(category(null, 200), null);
  });

  test('from decoded reports: VV is a ceiling, 9999 and CAVOK are VFR, 4800 m is IFR', () => {
    assert.equal(flightCategory(metar('KLAX 161253Z 08003KT 1/16SM FG VV001 12/12 A3007')), 'LIFR');
    assert.equal(flightCategory(metar('EDDK 061950Z AUTO 28008KT CAVOK 18/10 Q1015')), 'VFR');
    assert.equal(flightCategory(metar('EGLL 271220Z 24010KT 4800 BR FEW020 10/05 Q1020')), 'IFR');
    assert.equal(flightCategory(metar('EGLL 271220Z 24010KT 9999 SCT010 BKN035 10/05 Q1020')), 'VFR');
  });
});

describe('flightCategory without a sky group: the ceiling is unknown', () => {
  test('VFR, MVFR and IFR need the ceiling: unknown; the visibility alone settles only LIFR', () => {
    const noSky = (visibility: string) => metar(`KXYZ 271215Z AUTO 05005KT ${visibility} 12/08 A3021 RMK AO1`);
    assert.deepEqual(['10SM', '4SM', '2SM', '3/4SM'].map((v) => flightCategory(noSky(v))), [null, null, null, 'LIFR']);
    assert.deepEqual(['10SM', '4SM', '2SM', '3/4SM'].map((v) => flightCategoryAtBest(noSky(v))), ['VFR', 'MVFR', 'IFR', 'LIFR']);
    assert.equal(flightCategory(metar('KXYZ 271215Z AUTO 05005KT 10SM CLR 12/08 A3021 RMK AO1')), 'VFR');
  });

  test('deriveWeather gives both; with a sky group they agree', () => {
    const unknown = deriveWeather(metar('KXYZ 271215Z AUTO 05005KT 10SM 12/08 A3021 RMK AO1'));
    assert.deepEqual([unknown.flight_category, unknown.flight_category_at_best], [null, 'VFR']);
    const known = deriveWeather(metar('EGLL 271220Z 24010KT 4800 BR FEW020 10/05 Q1020'));
    assert.deepEqual([known.flight_category, known.flight_category_at_best], ['IFR', 'IFR']);
  });
});

test('visibilityNm keeps the bounds', () => {
  assert.deepEqual(visibilityNm(metar('EGLL 271220Z 24010KT 9999 FEW020 10/05 Q1020').visibility), { nm: 5.399, lower_bound: true, upper_bound: false });
  assert.deepEqual(visibilityNm(miles(1)), { nm: 0.868976, lower_bound: false, upper_bound: false });
  assert.equal(visibilityNm(null), null);
});

describe('conditions', () => {
  const of = (raw: string) => conditions(metar(raw));

  test('precedence: thunderstorm first, then precipitation, obscuration, sky', () => {
    assert.deepEqual(of('KJFK 271651Z 27015KT 2SM +TSRA BR BKN010CB 23/09 A2992'), ['THUNDERSTORM', 'RAIN', 'LOW_VISIBILITY', 'MIST_HAZE', 'CLOUDY']);
    assert.deepEqual(of('EGLL 271220Z 24010KT 0200 FZFG VV001 M01/M01 Q1020'), ['FOG', 'LOW_VISIBILITY', 'OVERCAST']);
    assert.deepEqual(of('EGLL 271220Z 24010KT 6000 -FZRA OVC005 M01/M02 Q1020'), ['FREEZING', 'OVERCAST']);
    assert.deepEqual(of('EGLL 271220Z 24010KT 9999 -SHSNGS FEW020 M01/M02 Q1020'), ['HAIL', 'SNOW', 'PARTLY_CLOUDY']);
  });

  test('fog outranks the rain or snow falling with it; light rain ranks after the mist and low visibility', () => {
    assert.deepEqual(of('EGLL 271220Z 24005KT 0300 -RA FG VV002 10/10 Q1020'), ['FOG', 'LOW_VISIBILITY', 'RAIN', 'OVERCAST']);
    assert.deepEqual(of('EGLL 271220Z 24005KT 0400 -SN FG VV002 M01/M01 Q1020'), ['FOG', 'SNOW', 'LOW_VISIBILITY', 'OVERCAST']);
    assert.deepEqual(of('EGLL 271220Z 24010KT 4000 -RA BR BKN008 10/09 Q1020'), ['LOW_VISIBILITY', 'MIST_HAZE', 'RAIN', 'CLOUDY']);
    assert.deepEqual(of('EGLL 271220Z 24010KT 7000 -DZ BR OVC006 10/09 Q1020'), ['MIST_HAZE', 'RAIN', 'OVERCAST']);
    // Moderate or heavy rain is the condition itself: it is what brings the visibility down.
    assert.deepEqual(of('EGLL 271220Z 24010KT 2500 RA BR BKN008 10/09 Q1020'), ['RAIN', 'LOW_VISIBILITY', 'MIST_HAZE', 'CLOUDY']);
    assert.deepEqual(of('EGLL 271220Z 24010KT 9999 -RA BKN020 10/09 Q1020'), ['RAIN', 'CLOUDY']);
  });

  test('clear sky, shallow fog and weather in the vicinity', () => {
    assert.deepEqual(of('EDDK 061950Z AUTO 28008KT CAVOK 18/10 Q1015'), ['CLEAR']);
    assert.deepEqual(of('EGHI 131950Z 06001KT 9999 MIFG NSC 09/08 Q1010'), ['MIST_HAZE', 'CLEAR']);
    assert.deepEqual(of('EGHI 081650Z 23010KT 9999 VCSH FEW018 15/11 Q1006'), ['PARTLY_CLOUDY']);
    assert.deepEqual(of('EGHI 081650Z 23010KT 9999 VCTS FEW018 15/11 Q1006'), ['THUNDERSTORM', 'PARTLY_CLOUDY']);
  });

  test('nothing known', () => {
    assert.deepEqual(of('EGPC 241950Z AUTO /////KT //// ///////// ///// Q////'), ['UNKNOWN']);
  });

  test('no sky group is not a clear sky', () => {
    assert.deepEqual(of('KXYZ 271215Z AUTO 05005KT 10SM 12/08 A3021 RMK AO1'), ['UNKNOWN']);
    assert.deepEqual(of('KXYZ 271215Z AUTO 05005KT 2SM BR 12/08 A3021 RMK AO1'), ['LOW_VISIBILITY', 'MIST_HAZE']);
  });
});

describe('windShearRisk', () => {
  const risk = (raw: string, options = {}) => windShearRisk(metar(raw), options);
  const rules = (raw: string, options = {}) => risk(raw, options).reasons.map((reason) => reason.rule);

  test('calm weather is LOW with no reasons', () => {
    assert.deepEqual(risk('EGLL 271220Z 24010KT 9999 FEW020 10/05 Q1020'), { level: 'LOW', reasons: [], unknown_inputs: [] });
  });

  test('unknown wind or a TAF not in force is reported, not read as calm', () => {
    assert.deepEqual(risk('EGLL 271220Z /////KT 9999 FEW020 10/05 Q1020').unknown_inputs, ['wind']);
    const expired = taf('TAF EGLL 261130Z 2612/2712 27015KT 9999 SCT050');
    assert.deepEqual(risk('EGLL 271220Z 24010KT 9999 FEW020 10/05 Q1020', { taf: expired }).unknown_inputs, ['taf']);
  });

  test('reported wind shear: HIGH for a runway, SEVERE for the runway in use or all runways', () => {
    const raw = 'RJAA 070900Z 03010KT 9999 FEW010 16/14 Q1004 WS R34L NOSIG';
    assert.equal(risk(raw).level, 'HIGH');
    assert.equal(risk(raw, { runway: '34L' }).level, 'SEVERE');
    assert.equal(risk(raw, { runway: 'RWY34L' }).level, 'SEVERE');
    assert.equal(risk(raw, { runway: '16R' }).level, 'HIGH');
    assert.equal(risk('RJAA 070900Z 03010KT 9999 FEW010 16/14 Q1004 WS ALL RWY').level, 'SEVERE');
  });

  test('convection: CB/TCU and VCTS MODERATE, TS HIGH, +TS and hail SEVERE', () => {
    assert.equal(risk('EGGD 071320Z 19009KT 9999 FEW015TCU 17/15 Q1011').level, 'MODERATE');
    assert.equal(risk('EGGD 071320Z 19009KT 9999 VCTS FEW040 17/15 Q1011').level, 'MODERATE');
    assert.equal(risk('KMHT 021853Z 05006KT 10SM TS SCT075 33/13 A2981').level, 'HIGH');
    assert.equal(risk('KMHT 021853Z 05006KT 3SM +TSRA BKN030CB 33/13 A2981').level, 'SEVERE');
    assert.equal(risk('KMHT 021853Z 05006KT 3SM SHGR BKN030 33/13 A2981').level, 'SEVERE');
  });

  test('gust spread: 15 kt MODERATE, 25 kt HIGH', () => {
    assert.equal(risk('EGLL 271220Z 24010G24KT 9999 FEW020 10/05 Q1020').level, 'LOW');
    assert.equal(risk('EGLL 271220Z 24010G25KT 9999 FEW020 10/05 Q1020').level, 'MODERATE');
    assert.equal(risk('EGLL 271220Z 24010G35KT 9999 FEW020 10/05 Q1020').level, 'HIGH');
  });

  test('remarks: PK WND, WSHFT, LLWS', () => {
    assert.deepEqual(rules('KJFK 271651Z 27010KT 10SM FEW020 10/05 A2992 RMK AO2 PK WND 28036/1615'), ['peak_wind']);
    assert.equal(risk('KJFK 271651Z 27010KT 10SM FEW020 10/05 A2992 RMK AO2 PK WND 28036/1615').level, 'HIGH');
    assert.equal(risk('KJFK 271651Z 27010KT 10SM FEW020 10/05 A2992 RMK AO2 WSHFT 1620').level, 'MODERATE');
    assert.equal(risk('KJFK 271651Z 27010KT 10SM FEW020 10/05 A2992 RMK LLWS RWY 27').level, 'HIGH');
  });

  test('TAF: WS in the prevailing forecast HIGH, in a TEMPO MODERATE, LLWS remark HIGH', () => {
    const raw = 'KJFK 271651Z 27010KT 10SM FEW020 10/05 A2992';
    const prevailing = taf('TAF KJFK 271130Z 2712/2818 27015KT P6SM SCT050 WS020/27045KT');
    assert.deepEqual(rules(raw, { taf: prevailing }), ['taf_wind_shear']);
    assert.equal(risk(raw, { taf: prevailing }).level, 'HIGH');
    const tempo = taf('TAF KJFK 271130Z 2712/2818 27015KT P6SM SCT050 TEMPO 2716/2720 WS015/30040KT');
    assert.equal(risk(raw, { taf: tempo }).level, 'MODERATE');
    const llws = taf('TAF KJFK 271130Z 2712/2818 27015KT P6SM SCT050 RMK LLWS');
    assert.equal(risk(raw, { taf: llws }).level, 'HIGH');
    const expired = taf('TAF KJFK 261130Z 2612/2712 27015KT P6SM SCT050 WS020/27045KT');
    assert.equal(risk(raw, { taf: expired }).level, 'LOW');
  });

  test('a forecast: each group in force read on its own, the TAF\'s WS groups at that time, no METAR-only rule', () => {
    const forecast = taf('TAF KJFK 271130Z 2712/2818 27015KT P6SM SCT050 TEMPO 2716/2720 30025G45KT TSRA BKN030CB WS015/30040KT');
    const at = (iso: string) => {
      const inForce = tafConditionsAt(forecast, new Date(iso));
      assert.ok(inForce.ok);
      return forecastWindShearRisk([inForce.conditions.prevailing, ...inForce.conditions.changes], forecast, iso);
    };
    const storm = at('2025-01-27T17:00:00Z');
    assert.equal(storm.level, 'HIGH');
    assert.deepEqual(storm.reasons.map((reason) => reason.rule).sort(), ['convection_nearby', 'gust_spread', 'taf_wind_shear_possible', 'thunderstorm']);
    assert.equal(storm.reasons.find((reason) => reason.rule === 'gust_spread')!.detail, 'gusts 20 kt above the mean');
    assert.deepEqual(at('2025-01-27T21:00:00Z'), { level: 'LOW', reasons: [], unknown_inputs: [] });
    assert.deepEqual(forecastWindShearRisk([], forecast, '2025-01-29T12:00:00Z').unknown_inputs, ['wind', 'taf']);
  });

  test('every rule is documented', () => {
    for (const description of Object.values(WIND_SHEAR_RULES)) assert.match(description, /^(LOW|MODERATE|HIGH|SEVERE)/);
  });
});

describe('windComponents', () => {
  test('straight down the runway is all headwind', () => {
    assert.deepEqual(windComponents(wind(270, 20), 270), {
      headwind_kt: 20,
      crosswind_kt: 0,
      crosswind_from: null,
      worst_headwind_kt: 20,
      worst_crosswind_kt: 0,
    });
  });

  test('from behind is a negative headwind (tailwind)', () => {
    assert.equal(windComponents(wind(90, 10), 270)?.headwind_kt, -10);
  });

  test('crosswind sign: positive from the right, negative from the left', () => {
    const right = windComponents(wind(300, 20), 270);
    assert.deepEqual([right?.headwind_kt, right?.crosswind_kt, right?.crosswind_from], [17.3, 10, 'right']);
    const left = windComponents(wind(240, 20), 270);
    assert.deepEqual([left?.crosswind_kt, left?.crosswind_from], [-10, 'left']);
  });

  test('the worst case uses the gust', () => {
    const gusty = windComponents(wind(360, 15, 30), 270);
    assert.deepEqual([gusty?.crosswind_kt, gusty?.worst_crosswind_kt, gusty?.worst_headwind_kt], [15, 30, 0]);
  });

  test('a direction range includes full crosswind and tailwind when they fall inside it', () => {
    const ranged = windComponents(wind(240, 10, null, [200, 280]), 270);
    assert.equal(ranged?.worst_crosswind_kt, 9.4);
    const crossing = windComponents(wind(330, 10, null, [300, 20]), 270);
    assert.equal(crossing?.worst_crosswind_kt, 10);
    const behind = windComponents(wind(60, 10, null, [30, 120]), 270);
    assert.equal(behind?.worst_headwind_kt, -10);
  });

  test('VRB wind: no mean components, worst case from any direction', () => {
    assert.deepEqual(windComponents(wind(null, 5), 90), {
      headwind_kt: null,
      crosswind_kt: null,
      crosswind_from: null,
      worst_headwind_kt: -5,
      worst_crosswind_kt: 5,
    });
  });

  test('calm, unknown wind and a bad heading', () => {
    assert.equal(windComponents(wind(0, 0), 90)?.worst_crosswind_kt, 0);
    assert.equal(windComponents(null, 90), null);
    assert.equal(windComponents(wind(90, 5), Number.NaN), null);
  });
});

test('deriveWeather gathers every derived value', () => {
  const derived = deriveWeather(metar('RJAA 070900Z 03010G30KT 350V050 9999 -SHRA FEW010 BKN017 16/14 Q1004 WS R34L NOSIG'), {
    runway: { designator: '34L', true_heading_deg: 337 },
  });
  assert.equal(derived.flight_category, 'MVFR');
  assert.equal(derived.visibility_nm?.lower_bound, true);
  assert.deepEqual(derived.conditions, ['RAIN', 'CLOUDY']);
  assert.equal(derived.wind_shear_risk.level, 'SEVERE');
  assert.equal(derived.wind_components?.crosswind_from, 'right');
  assert.equal(deriveWeather(metar('EGLL 271220Z 24010KT 9999 FEW020 10/05 Q1020')).wind_components, null);
});
