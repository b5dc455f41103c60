import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { recommendApproach, TYPICAL_MINIMA } from './approach.ts';
import { A320, CROSSING, EGLL, NO_WEATHER, notam, observed } from './fixtures.ts';
import { chooseRunway } from './runway.ts';
import type { ActiveNotam, LandingAirport } from './types.ts';

function approachAt(airport: LandingAirport, raw: string, notams: ActiveNotam[] = []) {
  const weather = observed(raw);
  const choice = chooseRunway({ runways: airport.runways, weather, aircraft: A320, notams });
  return recommendApproach(choice, weather);
}

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
    const approach = approachAt(EGLL, 'EGLL 210450Z 27005KT 0800 FG OVC002 10/10 Q1020', [closed09L27R, outage]);
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
    const approach = recommendApproach(choice, NO_WEATHER);
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
});
