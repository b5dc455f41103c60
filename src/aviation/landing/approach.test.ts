import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { approachMinimaMet, recommendApproach, TYPICAL_MINIMA } from './approach.ts';
import { A320, C172, CROSSING, EGLL, end, NO_WEATHER, notam, observed, runway } from './fixtures.ts';
import { ILS_MINIMA, minimaShortfalls } from './minima.ts';
import { chooseRunway } from './runway.ts';
import type { ActiveNotam, EndLocalizer, LandingAirport } from './types.ts';

function approachAt(airport: LandingAirport, raw: string, notams: ActiveNotam[] = [], aircraft = A320) {
  const weather = observed(raw);
  const choice = chooseRunway({ runways: airport.runways, weather, aircraft, notams, approachMinimaMet: approachMinimaMet(weather, aircraft) });
  return recommendApproach(choice, weather, aircraft);
}

const ils = (ident: string, category: EndLocalizer['category'], course: number): EndLocalizer =>
  ({ ident, kind: 'ILS', category, frequency_mhz: 109.5, course_true_deg: course, source: 'nav.dat (test)' });

/** Two runways with navigation data: 04R/22L, its 04R end with a CAT III ILS; the longer 13L/31R with a CAT I ILS on 31R. */
const WITH_NAVDATA: LandingAirport = {
  icao: 'ZZZZ',
  type: 'large_airport',
  lat: 40.6,
  lon: -73.8,
  runways: [
    runway('04R/22L', 8400, [end('04R', 31, { ils: true, localizers: [ils('IAAA', 'III', 31)] }), end('22L', 211, { ils: false, localizers: [] })]),
    runway('13L/31R', 10000, [end('13L', 121, { ils: false, localizers: [] }), end('31R', 301, { ils: true, localizers: [ils('IBBB', 'I', 301)] })]),
  ],
};

/** The same runways at an airport no navigation data covers. */
const WITHOUT_NAVDATA: LandingAirport = {
  ...WITH_NAVDATA,
  runways: WITH_NAVDATA.runways.map((r) => ({ ...r, ends: r.ends.map(({ localizers: _localizers, ...e }) => ({ ...e, ils: null })) })),
};

const FOG = 'ZZZZ 211150Z 00000KT 0200 R04R/0300N R31R/0300N FG VV001 08/08 Q1020';

const closed09L27R = notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD');

describe('approach', () => {
  test('visual when the ceiling is at least 1,000 ft and the visibility at least 3 SM', () => {
    const approach = approachAt(EGLL, 'EGLL 211150Z 27015KT 9999 BKN010 18/12 Q1020');
    assert.equal(approach.approach, 'VISUAL RWY 27R');
    assert.equal(approach.type, 'VISUAL');
    assert.equal(approach.indicative, false);
    assert.equal(approach.minima, null);
  });

  test('ILS where the end has one, in IFR, above the minima', () => {
    const approach = approachAt(EGLL, 'EGLL 211150Z 27015KT 4000 BR OVC008 14/12 Q1012', [closed09L27R]);
    assert.equal(approach.approach, 'ILS RWY 27L');
    assert.equal(approach.indicative, true);
    assert.equal(approach.below_minima, false);
    assert.deepEqual(approach.minima, TYPICAL_MINIMA.ILS);
    assert.ok(approach.reasoning.some((line) => /Ceiling 800 ft is under 1000 ft/.test(line)));
  });

  test('visibility alone under 3 SM calls for an instrument approach', () => {
    const approach = approachAt(EGLL, 'EGLL 211150Z 27015KT 2SM HZ FEW040 18/12 A3001');
    assert.equal(approach.approach, 'ILS RWY 27R');
  });

  test('ILS out of service by NOTAM forces RNAV', () => {
    const outage = notam('A1235/25', 'QICAS', 'ILS RWY 27L U/S');
    const approach = approachAt(EGLL, 'EGLL 211150Z 27015KT 4000 BR OVC008 14/12 Q1012', [closed09L27R, outage]);
    assert.equal(approach.approach, 'RNAV RWY 27L');
    assert.equal(approach.indicative, true);
    assert.ok(approach.reasoning.some((line) => /ILS for 27L is out of service \(NOTAM A1235\/25\)/.test(line)));
  });

  test('a glide path out of service takes the ILS out too', () => {
    const outage = notam('A1236/25', 'QIGAS', 'ILS RWY 27L GP U/S');
    assert.equal(approachAt(EGLL, 'EGLL 211150Z 27015KT 4000 BR OVC008 14/12 Q1012', [closed09L27R, outage]).type, 'RNAV');
  });

  test('an end without ILS in the data gets RNAV', () => {
    const approach = approachAt(CROSSING, 'ZZZZ 211150Z 04015KT 3000 BR OVC006 14/12 Q1012');
    assert.equal(approach.approach, 'RNAV RWY 04');
    assert.equal(approach.below_minima, false);
  });

  test('LIFR: instrument approach, below the typical ILS minima, with each shortfall', () => {
    const approach = approachAt(EGLL, 'EGLL 210450Z 27005KT 0150 R27L/0175N R27R/0200N FG VV001 10/10 Q1020');
    assert.equal(approach.approach, 'ILS RWY 27R');
    assert.equal(approach.below_minima, true);
    assert.ok(approach.reasoning.includes('Ceiling 100 ft is below the typical ILS CAT I decision height of 200 ft.'));
    assert.ok(approach.reasoning.includes('RVR 200 m on 27R is below the typical ILS CAT I minimum of 550 m.'));
    assert.match(approach.reason, /below typical ILS CAT I minima/);
  });

  test('without RVR the visibility is compared: 600 m is under 800 m for ILS', () => {
    const approach = approachAt(EGLL, 'EGLL 210450Z 27005KT 0600 FG OVC003 10/10 Q1020');
    assert.equal(approach.below_minima, true);
    assert.ok(approach.reasoning.includes('Visibility 600 m is below the typical ILS CAT I minimum of 800 m.'));
  });

  test('RVR in feet is converted; an RVR above the minimum keeps the approach above minima', () => {
    const approach = approachAt(EGLL, 'EGLL 210450Z 27005KT 1/2SM R27R/2400FT FG OVC003 10/10 A3001');
    // 2,400 ft = 732 m: over the 550 m RVR minimum, so the 805 m visibility is not used.
    assert.equal(approach.below_minima, false);
  });

  test('RNAV minima are higher: 800 m and 250 ft are above ILS but below RNAV minima', () => {
    const outage = notam('A1235/25', 'QICAS', 'ILS RWY 27L U/S');
    // 10 kt from the west puts 09R's ILS out of the tailwind limit: 27L is the only end left.
    const approach = approachAt(EGLL, 'EGLL 210450Z 27010KT 0800 FG OVC002 10/10 Q1020', [closed09L27R, outage]);
    assert.equal(approach.approach, 'RNAV RWY 27L');
    assert.equal(approach.below_minima, true);
    assert.ok(approach.reasoning.includes('Ceiling 200 ft is below the typical RNAV (LNAV/VNAV) decision height of 300 ft.'));
  });

  test('a ceiling of unknown height cannot confirm visual conditions', () => {
    const approach = approachAt(EGLL, 'EGLL 211150Z 27015KT 9999 BKN/// 18/12 Q1020');
    assert.equal(approach.type, 'ILS');
    assert.ok(approach.reasoning.some((line) => /unknown height/.test(line)));
  });

  test('no sky group: the ceiling is unknown and cannot confirm visual conditions', () => {
    const approach = approachAt(EGLL, 'EGLL 211150Z 27015KT 10SM 18/12 A3001 RMK AO1');
    assert.equal(approach.type, 'ILS');
    assert.ok(approach.reasoning.some((line) => /No sky condition reported: the ceiling is unknown/.test(line)));
    assert.equal(approach.reasoning.some((line) => /Ceiling none/.test(line)), false);
  });

  test('no weather at the ETA: instrument approach, minima not assessed', () => {
    const choice = chooseRunway({ runways: EGLL.runways, weather: NO_WEATHER, aircraft: A320 });
    const approach = recommendApproach(choice, NO_WEATHER, A320);
    assert.equal(approach.approach, 'ILS RWY 27R');
    assert.equal(approach.below_minima, false);
    assert.ok(approach.reasoning.includes('No forecast reaches the ETA: visual conditions cannot be confirmed.'));
  });

  test('no runway, no approach', () => {
    const approach = approachAt(EGLL, 'EGLL 211150Z VRB15G28KT 9999 TSRA FEW030CB 22/12 Q1020');
    assert.equal(approach.approach, null);
    assert.equal(approach.type, null);
    assert.match(approach.reason, /^No approach: no runway — no open runway end is within the limits/);
  });

  test('fog at the CAT III runway: ILS CAT IIIA within the minima; calm wind picks the highest ILS category over length', () => {
    const approach = approachAt(WITH_NAVDATA, FOG);
    assert.equal(approach.approach, 'ILS RWY 04R');
    assert.equal(approach.ils_category, 'IIIA');
    assert.deepEqual(approach.minima, ILS_MINIMA.IIIA);
    assert.equal(approach.below_minima, false);
    assert.ok(approach.reasoning.includes('The navigation data lists ILS IAAA CAT III (109.50 MHz, course 31° true) for 04R and no NOTAM has it out of service.'));
  });

  test('a light aircraft (approach category A) is taken to CAT I only: below the minima in the same fog', () => {
    const approach = approachAt(WITH_NAVDATA, FOG, [], C172);
    assert.equal(approach.ils_category, 'I');
    assert.equal(approach.below_minima, true);
    assert.ok(approach.reasoning.some((line) => /Approach category A aircraft are taken to fly CAT I only/.test(line)));
    assert.ok(approach.reasoning.includes('RVR 300 m on 04R is below the typical ILS CAT I minimum of 550 m.'));
  });

  test('an aircraft of unknown type (the conservative defaults) is taken to CAT I only', () => {
    const report = observed(FOG);
    const unknown = { approach_category: 'D' as const, type_known: false };
    const choice = chooseRunway({ runways: WITH_NAVDATA.runways, weather: report, aircraft: A320 });
    const approach = recommendApproach(choice, report, unknown);
    assert.deepEqual([approach.approach, approach.ils_category, approach.below_minima], ['ILS RWY 04R', 'I', true]);
    assert.ok(approach.reasoning.some((line) => line.startsWith('An aircraft of unknown type is taken to fly CAT I only')));
  });

  test('the CAT III ILS out by NOTAM: the CAT I runway instead', () => {
    const outage = notam('A1237/25', 'QICAS', 'ILS RWY 04R U/S', 'ZZZZ');
    const approach = approachAt(WITH_NAVDATA, FOG, [outage]);
    assert.equal(approach.approach, 'ILS RWY 31R');
    assert.equal(approach.ils_category, 'I');
    assert.equal(approach.below_minima, true);
  });

  test('no navigation data: RNAV assumed, the ILS unknown, never "no ILS"', () => {
    const approach = approachAt(WITHOUT_NAVDATA, FOG);
    assert.equal(approach.type, 'RNAV');
    assert.equal(approach.ils_category, null);
    assert.match(approach.reason, /^RNAV RWY \w+ \(assumed; ILS unknown\) \(indicative\)/);
    assert.ok(approach.reasoning.some((line) => line.startsWith('ILS unknown (no navigation data) for ')));
    assert.equal(JSON.stringify(approach).toLowerCase().includes('no ils'), false);
  });

  test('minima on plain figures: CAT II holds at exactly 100 ft and 300 m; an M value at the minimum is below', () => {
    assert.deepEqual(minimaShortfalls(ILS_MINIMA.II, { ceiling_ft: 100, visibility_m: 200, rvr_m: 300 }, '04R'), []);
    assert.deepEqual(minimaShortfalls(ILS_MINIMA.II, { ceiling_ft: 100, visibility_m: 200, rvr_m: 300, rvr_below: true }, '04R'), [
      'RVR below 300 m on 04R is below the typical ILS CAT II minimum of 300 m.',
    ]);
    assert.deepEqual(minimaShortfalls(ILS_MINIMA.I, { ceiling_ft: null, visibility_m: 700, rvr_m: null }, '04R'), [
      'Visibility 700 m is below the typical ILS CAT I minimum of 800 m.',
    ]);
  });

  test('in instrument conditions the end whose approach minima hold comes before the one with most headwind', () => {
    // 12010KT: 13L has the most headwind but no ILS (RNAV, far below its minima); 04R has 10 kt of
    // crosswind, within the A320's 33 kt, and its CAT III ILS holds in this fog.
    const report = observed(FOG.replace('00000KT', '12010KT'));
    const plain = chooseRunway({ runways: WITH_NAVDATA.runways, weather: report, aircraft: A320 });
    assert.equal(plain.runway?.designator, '13L');
    const choice = chooseRunway({ runways: WITH_NAVDATA.runways, weather: report, aircraft: A320, approachMinimaMet: approachMinimaMet(report, A320) });
    assert.equal(choice.runway?.designator, '04R');
    assert.ok(choice.reasoning.includes('Instrument conditions: the typical minima of the best approach are met on 04R and not on 22L, 13L, so those come first.'));
    assert.match(choice.reason, /^Runway 04R: most headwind \(0\.2 kt\) among the ends whose approach minima are met, chosen from 3 ends within limits; ILS CAT III,/);
    const approach = recommendApproach(choice, report, A320);
    assert.deepEqual([approach.approach, approach.ils_category, approach.below_minima], ['ILS RWY 04R', 'IIIA', false]);
  });

  test('in visual conditions, or without weather at the ETA, the minima do not rank the ends', () => {
    assert.equal(approachMinimaMet(observed('ZZZZ 211150Z 12010KT 9999 FEW030 18/12 Q1020'), A320), undefined);
    assert.equal(approachMinimaMet(NO_WEATHER, A320), undefined);
  });
});
