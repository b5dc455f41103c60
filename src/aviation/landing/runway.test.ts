import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Wind } from '../weather/index.ts';
import { A320, C172, CROSSING, EGLL, end, NO_WEATHER, notam, observed, runway } from './fixtures.ts';
import { chooseRunway, landingAreas, TAILWIND_LIMIT_KT } from './runway.ts';
import type { RunwayChoiceInput } from './runway.ts';
import type { LandingAirport } from './types.ts';

const at = (airport: typeof EGLL, raw: string, aircraft = A320, notams: RunwayChoiceInput['notams'] = []) =>
  chooseRunway({ runways: airport.runways, weather: observed(raw), aircraft, notams });

const excluded = (choice: ReturnType<typeof chooseRunway>) =>
  Object.fromEntries(choice.candidates.filter((c) => c.excluded !== null).map((c) => [c.designator, c.excluded]));

describe('runway choice by wind', () => {
  test('a strong crosswind excludes the runway across it; the most headwind wins among the rest', () => {
    const choice = at(CROSSING, 'ZZZZ 211150Z 13020G28KT 9999 FEW030 22/12 Q1012', C172);
    assert.equal(choice.runway?.designator, '13');
    assert.equal(choice.basis, 'headwind');
    assert.equal(choice.runway?.headwind_kt, 20);
    const out = excluded(choice);
    // 04/22 sits square to the wind: the 28 kt gust is all crosswind, over the C172's 15 kt.
    assert.match(out['04']!, /crosswind up to 28 kt \(gusts included\) over the aircraft's 15 kt limit/);
    assert.match(out['22']!, /crosswind up to 28 kt/);
    assert.match(out['31']!, /tailwind up to 28 kt/);
    assert.match(choice.reason, /^Runway 13: most headwind \(20 kt\)/);
  });

  test('ends long enough for the aircraft come before headwind', () => {
    const choice = at(CROSSING, 'ZZZZ 211150Z 13020G28KT 9999 FEW030 22/12 Q1012');
    // Within an A320's 33 kt limit, 04/22 qualifies; 13/31 (1,676 m) is shorter than its 1,800 m.
    assert.equal(excluded(choice)['04'], undefined);
    assert.equal(choice.candidates.find((c) => c.designator === '13')?.long_enough, false);
    // 04 and 22 both have no headwind: the ILS on 22 breaks the tie.
    assert.equal(choice.runway?.designator, '22');
    assert.equal(choice.runway?.headwind_kt, 0);
  });

  test('calm wind: the longest ILS runway, by landing length after displaced thresholds', () => {
    const choice = at(EGLL, 'EGLL 211150Z 00000KT CAVOK 22/12 Q1020');
    assert.equal(choice.wind, 'calm');
    assert.equal(choice.basis, 'equipment');
    assert.equal(choice.runway?.designator, '27R');
    assert.equal(choice.runway?.landing_length_m, 3902);
    assert.equal(choice.candidates.find((c) => c.designator === '09L')?.landing_length_m, 3595);
  });

  test('light wind ranks equipment first: the ILS runway, not the one into wind', () => {
    const choice = at(CROSSING, 'ZZZZ 211150Z 13004KT 9999 FEW030 22/12 Q1012', C172);
    assert.equal(choice.wind, 'light');
    assert.equal(choice.runway?.designator, '22');
  });

  test('tailwind limit: 4 kt light wind allows the tailwind end, 6 kt excludes it', () => {
    assert.equal(at(EGLL, 'EGLL 211150Z 09004KT CAVOK 22/12 Q1020').runway?.designator, '27R');
    const stronger = at(EGLL, 'EGLL 211150Z 09006KT CAVOK 22/12 Q1020');
    assert.equal(stronger.runway?.designator, '09L');
    assert.match(excluded(stronger)['27R']!, new RegExp(`tailwind up to 6 kt \\(gusts included\\) over the ${TAILWIND_LIMIT_KT} kt limit`));
  });

  test('gusts count for the tailwind: 4 kt gusting 14 kt is not light wind', () => {
    const choice = at(EGLL, 'EGLL 211150Z 09004G14KT CAVOK 22/12 Q1020');
    assert.equal(choice.wind, 'steady');
    assert.equal(choice.runway?.designator, '09L');
    assert.match(excluded(choice)['27L']!, /tailwind up to 14 kt/);
  });

  test('a direction range counts its worst direction', () => {
    // The mean 170° puts 9.2 kt across 22; 120V220 swings through 130°, full crosswind, and
    // through 220°, a full tailwind on 04.
    const choice = at(CROSSING, 'ZZZZ 211150Z 17012KT 120V220 9999 FEW030 22/12 Q1012', C172);
    const r22 = choice.candidates.find((c) => c.designator === '22')!;
    assert.deepEqual([r22.crosswind_kt, r22.max_crosswind_kt], [-9.2, 12]);
    assert.match(excluded(choice)['04']!, /tailwind up to 12 kt/);
    assert.equal(choice.runway?.designator, '18');
    assert.equal(choice.runway?.headwind_kt, 11.8);
  });

  test('variable wind with gusts: no runway, and it says why', () => {
    const choice = at(EGLL, 'EGLL 211150Z VRB15G28KT 9999 TSRA FEW030CB 22/12 Q1020');
    assert.equal(choice.wind, 'variable');
    assert.equal(choice.runway, null);
    assert.match(choice.reason, /no open runway end is within the limits .* variable wind up to 28 kt could blow from any direction/);
    assert.ok(choice.candidates.every((c) => c.max_tailwind_kt === 28 && c.max_crosswind_kt === 28));
  });

  test('light variable wind: equipment decides', () => {
    const choice = at(EGLL, 'EGLL 211150Z VRB03KT CAVOK 22/12 Q1020');
    assert.equal(choice.wind, 'light');
    assert.equal(choice.runway?.designator, '27R');
  });

  test('unknown wind: chosen by equipment, saying the limits were not checked', () => {
    const choice = chooseRunway({ runways: EGLL.runways, weather: NO_WEATHER, aircraft: A320 });
    assert.equal(choice.wind, 'unknown');
    assert.equal(choice.runway?.designator, '27R');
    assert.ok(choice.reasoning.some((line) => /limits could not be checked/.test(line)));
  });

  test('an end without a heading takes the whole gust as tailwind and crosswind', () => {
    const runways = [runway('1', 6000, [end('09', null), end('27', null)])];
    const weather = observed('ZZZZ 211150Z 27012KT 9999 FEW030 22/12 Q1012');
    const choice = chooseRunway({ runways, weather, aircraft: A320 });
    assert.equal(choice.runway, null);
    assert.equal(choice.candidates[0]?.max_tailwind_kt, 12);
  });
});

describe('runway choice and closures', () => {
  test('a runway closed by NOTAM is not chosen, in either direction', () => {
    const closure = notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD');
    const choice = at(EGLL, 'EGLL 211150Z 27015KT CAVOK 22/12 Q1020', A320, [closure]);
    assert.equal(choice.runway?.designator, '27L');
    assert.equal(excluded(choice)['27R'], 'runway closed by NOTAM A1234/25');
    assert.equal(excluded(choice)['09L'], 'runway closed by NOTAM A1234/25');
  });

  test('a NOTAM naming one end closes the whole runway', () => {
    const closure = notam('A1240/25', 'QMRLC', 'RWY 27R CLSD');
    const choice = at(EGLL, 'EGLL 211150Z 00000KT CAVOK 22/12 Q1020', A320, [closure]);
    assert.equal(choice.runway?.designator, '27L');
    assert.equal(excluded(choice)['09L'], 'runway closed by NOTAM A1240/25');
  });

  test('a runway closed in the data is not chosen', () => {
    const runways = [{ ...EGLL.runways[0]!, closed: true }, EGLL.runways[1]!];
    const choice = chooseRunway({ runways, weather: observed('EGLL 211150Z 00000KT CAVOK 22/12 Q1020'), aircraft: A320 });
    assert.equal(choice.runway?.designator, '27L');
    assert.equal(excluded(choice)['27R'], 'runway closed in the reference data');
  });

  test('every runway closed: no runway', () => {
    const closures = [notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD'), notam('A1235/25', 'QMRLC', 'RWY 09R/27L CLSD')];
    const choice = at(EGLL, 'EGLL 211150Z 27015KT CAVOK 22/12 Q1020', A320, closures);
    assert.equal(choice.runway, null);
    assert.equal(choice.reason, 'No runway: every runway is closed.');
  });

  test('aerodrome closed: no runway', () => {
    const choice = at(EGLL, 'EGLL 211150Z 27015KT CAVOK 22/12 Q1020', A320, [notam('A1300/25', 'QFALC', 'AD CLSD')]);
    assert.equal(choice.runway, null);
    assert.match(choice.reason, /aerodrome is closed by NOTAM A1300\/25/);
  });

  test('a closure naming no runway closes a one-runway airport, not one runway of several', () => {
    const single = [runway('1', 6000, [end('09', 90), end('27', 270)])];
    const unnamed = notam('A1400/25', 'QMRLC', 'RUNWAY CLOSED DUE WIP', 'ZZZZ');
    const calm = observed('ZZZZ 211150Z 00000KT CAVOK 22/12 Q1012');
    assert.equal(chooseRunway({ runways: single, weather: calm, aircraft: C172, notams: [unnamed] }).runway, null);
    assert.equal(chooseRunway({ runways: CROSSING.runways, weather: calm, aircraft: C172, notams: [unnamed] }).runway?.designator, '22');
  });

  test('an ILS out of service moves the calm-wind choice to an end whose ILS works', () => {
    const outage = notam('A1235/25', 'QICAS', 'ILS RWY 27R U/S');
    const choice = at(EGLL, 'EGLL 211150Z 00000KT CAVOK 22/12 Q1020', A320, [outage]);
    assert.equal(choice.runway?.designator, '27L');
    const r27 = choice.candidates.find((c) => c.designator === '27R')!;
    assert.equal(r27.ils_usable, false);
    assert.deepEqual(r27.ils_out_by, ['A1235/25']);
  });

  test('an airport without runways in the data has no runway', () => {
    const choice = chooseRunway({ runways: [], weather: NO_WEATHER, aircraft: A320 });
    assert.equal(choice.runway, null);
    assert.match(choice.reason, /lists no runway/);
  });
});

describe('runway choice properties', () => {
  const windArb = fc
    .record({
      direction: fc.option(fc.integer({ min: 1, max: 36 }).map((d) => d * 10), { nil: null }),
      speed: fc.integer({ min: 0, max: 40 }),
      gustExtra: fc.option(fc.integer({ min: 10, max: 25 }), { nil: null }),
    })
    .map(({ direction, speed, gustExtra }): Wind => {
      const gust = gustExtra === null || speed === 0 ? null : speed + gustExtra;
      return {
        direction_deg: speed === 0 ? 0 : direction,
        variable: speed !== 0 && direction === null,
        speed_kt: speed,
        gust_kt: gust,
        variable_from_deg: null,
        variable_to_deg: null,
        calm: speed === 0,
        reported: { unit: 'KT', speed, gust, group: '' },
      };
    });
  const runwaysArb = fc.array(
    fc.record({ heading: fc.integer({ min: 0, max: 179 }), length: fc.integer({ min: 1500, max: 13000 }), ils: fc.boolean() }),
    { minLength: 1, maxLength: 4 },
  ).map((list) =>
    list.map(({ heading, length, ils }, index) =>
      runway(String(index), length, [end(`R${index}A`, heading, { ils }), end(`R${index}B`, heading + 180, { ils: !ils })]),
    ),
  );

  test('the chosen end is never beyond the tailwind or crosswind limit, and an end is chosen whenever one qualifies', () => {
    fc.assert(
      fc.property(windArb, runwaysArb, fc.integer({ min: 10, max: 40 }), (wind, runways, limit) => {
        const choice = chooseRunway({ runways, weather: { basis: 'observation', wind, summary: 'Observed' }, aircraft: { approach_category: 'C', crosswind_limit_kt: limit, min_runway_m: 1200 } });
        const qualifying = choice.candidates.filter((c) => c.excluded === null);
        assert.equal(choice.runway === null, qualifying.length === 0);
        for (const candidate of qualifying) {
          assert.ok(candidate.max_tailwind_kt! <= TAILWIND_LIMIT_KT);
          assert.ok(candidate.max_crosswind_kt! <= limit);
        }
        if (choice.runway !== null && choice.basis === 'headwind') {
          const best = Math.max(...qualifying.filter((c) => c.long_enough === choice.runway!.long_enough).map((c) => c.headwind_kt!));
          assert.equal(choice.runway.headwind_kt, best);
        }
      }),
    );
  });
});

describe('helicopters', () => {
  const EC35 = { ...C172, designator: 'EC35', approach_category: 'H' as const, crosswind_limit_kt: 17, min_runway_m: 840 };
  const heliport: LandingAirport = {
    icao: 'EGLW', type: 'heliport', lat: 51.47, lon: -0.18,
    runways: [runway('H1', 60, [end('H1', null)], { width_ft: 60, lighted: true })],
  };

  test('at a heliport a helicopter lands on the pad into the wind, whatever its direction', () => {
    const choice = chooseRunway({ runways: heliport.runways, weather: observed('EGLW 211150Z 27015G25KT 9999 FEW030 22/12 Q1012'), aircraft: EC35 });
    assert.equal(choice.runway?.designator, 'H1');
    assert.deepEqual([choice.runway?.headwind_kt, choice.runway?.max_crosswind_kt, choice.runway?.max_tailwind_kt], [15, 0, 0]);
    assert.equal(choice.runway?.long_enough, null);
    assert.ok(choice.reasoning.some((line) => /judged on its landing area, not runway length/.test(line)));
  });

  test('a heliport\'s pads without ends in the data are landing areas H1, H2 for a helicopter only', () => {
    const pads = [runway('1', 114, []), runway('2', 60, [])];
    const areas = landingAreas(pads, { heliport: true, helicopter: true });
    assert.deepEqual(areas.map((area) => area.ends.map((each) => [each.ident, each.true_heading_deg])), [[['H1', null]], [['H2', null]]]);
    assert.equal(landingAreas(pads, { heliport: true, helicopter: false }), pads);
    assert.equal(landingAreas(pads, { heliport: false, helicopter: true }), pads);
    const choice = chooseRunway({ runways: areas, weather: observed('EGLW 211150Z 02412KT 9999 FEW030 22/12 Q1012'), aircraft: EC35 });
    assert.equal(choice.runway?.designator, 'H1');
    assert.equal(choice.runway?.headwind_kt, 12);
  });

  test('a helipad is no runway for an aeroplane', () => {
    const choice = chooseRunway({ runways: heliport.runways, weather: observed('EGLW 211150Z 27010KT 9999 FEW030 22/12 Q1012'), aircraft: C172 });
    assert.equal(choice.runway, null);
    assert.equal(choice.reason, 'No runway: the airport has helipads only, for helicopters.');
  });

  test('on runways a helicopter is not ranked by length: the wind decides', () => {
    // 18/36 is 2,500 ft (762 m), short of the 840 m the helicopter figures allow; into the wind it is still chosen.
    const choice = chooseRunway({ runways: CROSSING.runways, weather: observed('ZZZZ 211150Z 18012KT 9999 FEW030 22/12 Q1012'), aircraft: EC35 });
    assert.equal(choice.runway?.designator, '18');
    assert.ok(choice.candidates.every((candidate) => candidate.long_enough === null));
    assert.equal(chooseRunway({ runways: CROSSING.runways, weather: observed('ZZZZ 211150Z 18012KT 9999 FEW030 22/12 Q1012'), aircraft: { ...C172, min_runway_m: 840 } }).runway?.designator, '22');
  });
});

