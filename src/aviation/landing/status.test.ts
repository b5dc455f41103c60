import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { A320, C172, CROSSING, EGLL, end, notam, observed, runway } from './fixtures.ts';
import { chooseRunway } from './runway.ts';
import { airportStatus } from './status.ts';
import type { LandingAirport } from './types.ts';

describe('airport status', () => {
  test('OPERATIONAL with nothing in force', () => {
    assert.deepEqual(airportStatus({ airport: EGLL }), {
      status: 'OPERATIONAL',
      reasons: ['Open, with no runway closure, equipment outage or restriction in force.'],
    });
  });

  test('CLOSED by an aerodrome closure NOTAM', () => {
    const result = airportStatus({ airport: EGLL, notams: [notam('A1300/25', 'QFALC', 'AD CLSD')] });
    assert.equal(result.status, 'CLOSED');
    assert.deepEqual(result.reasons, ['Aerodrome closed by NOTAM A1300/25.']);
  });

  test('CLOSED when the data lists the airport as closed, or every runway is closed', () => {
    assert.equal(airportStatus({ airport: { ...EGLL, type: 'closed' } }).status, 'CLOSED');
    const closures = [notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD'), notam('A1235/25', 'QMRLC', 'RWY 09R/27L CLSD')];
    assert.deepEqual(airportStatus({ airport: EGLL, notams: closures }), { status: 'CLOSED', reasons: ['Every runway is closed.'] });
    const allClosedInData = { type: 'small_airport', runways: [runway('1', 3000, [end('09', 90), end('27', 270)], { closed: true })] };
    assert.equal(airportStatus({ airport: allClosedInData }).status, 'CLOSED');
  });

  test('UNKNOWN without the airport or without runway data', () => {
    assert.equal(airportStatus({ airport: null }).status, 'UNKNOWN');
    assert.deepEqual(airportStatus({ airport: { type: 'small_airport', runways: [] } }), {
      status: 'UNKNOWN',
      reasons: ['The reference data lists no runway for this airport.'],
    });
  });

  test('LIMITED: one runway closed by NOTAM', () => {
    const result = airportStatus({ airport: EGLL, notams: [notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD')] });
    assert.deepEqual(result, { status: 'LIMITED', reasons: ['Runway closed: 09L, 27R (NOTAM A1234/25).'] });
  });

  test('LIMITED: ILS, lighting and approach lighting out of service', () => {
    const notams = [
      notam('A1235/25', 'QICAS', 'ILS RWY 27L U/S'),
      notam('A1236/25', 'QLEAS', 'RWY 09R/27L EDGE LGT U/S'),
      notam('A1237/25', 'QLAAS', 'RWY 27R APPROACH LIGHTING U/S'),
    ];
    assert.deepEqual(airportStatus({ airport: EGLL, notams }).reasons, [
      'ILS out of service: 27L (NOTAM A1235/25).',
      'Runway lighting out of service: 09R, 27L (NOTAM A1236/25).',
      'Approach lighting out of service: 27R (NOTAM A1237/25).',
    ]);
  });

  test('LIMITED: reduced hours and a closure that names no runway', () => {
    const notams = [notam('A1500/25', 'QFAAH', 'AD HR OF SER 0600-2200'), notam('A1501/25', 'QMRLC', 'RUNWAY CLOSED DUE WIP')];
    assert.deepEqual(airportStatus({ airport: EGLL, notams }), {
      status: 'LIMITED',
      reasons: ['A runway is closed; NOTAM A1501/25 does not say which.', 'Restriction QFAAH (NOTAM A1500/25).'],
    });
  });

  test('a runway closed only in the data is the airport\'s normal state', () => {
    const airport = { ...EGLL, runways: [...EGLL.runways, runway('old', 5000, [end('05', 50), end('23', 230)], { closed: true })] };
    assert.equal(airportStatus({ airport }).status, 'OPERATIONAL');
  });

  test('LIMITED when the wind leaves the aircraft no runway', () => {
    const weather = observed('ZZZZ 211150Z 09030G45KT 9999 FEW030 22/12 Q1012');
    const choice = chooseRunway({ runways: CROSSING.runways, weather, aircraft: C172 });
    const result = airportStatus({ airport: CROSSING, choice });
    assert.equal(result.status, 'LIMITED');
    assert.match(result.reasons[0]!, /^No runway: no open runway end is within the limits/);
  });

  test('LIMITED when the chosen runway lacks the ILS another open runway has, or is too short', () => {
    // 340/12 leaves 31 the most headwind among the ends long enough; 22, with the ILS, has a tailwind.
    const weather = observed('ZZZZ 211150Z 34012KT 9999 FEW030 22/12 Q1012');
    const choice = chooseRunway({ runways: CROSSING.runways, weather, aircraft: { ...C172, min_runway_m: 800 } });
    assert.equal(choice.runway?.designator, '31');
    assert.deepEqual(airportStatus({ airport: CROSSING, choice }), {
      status: 'LIMITED',
      reasons: ['The chosen runway 31 has no usable ILS; another runway has one.'],
    });
    const tooShort = chooseRunway({ runways: EGLL.runways, weather, aircraft: { ...A320, min_runway_m: 4000 } });
    assert.deepEqual(airportStatus({ airport: EGLL, choice: tooShort }).reasons, [
      "The chosen runway 27R is shorter than the aircraft's minimum runway length.",
    ]);
    const fits = chooseRunway({ runways: EGLL.runways, weather, aircraft: A320 });
    assert.equal(airportStatus({ airport: EGLL, choice: fits }).status, 'OPERATIONAL');
  });
});

describe('lighting by the light at the ETA', () => {
  // Two runways without ILS: 09/27 lighted, the grass 18/36 unlit. A southerly leaves 18 the most headwind.
  const airport: LandingAirport = {
    ...CROSSING,
    runways: [runway('09/27', 3000, [end('09', 90), end('27', 270)]), runway('18/36', 2500, [end('18', 180), end('36', 0)], { surface: 'GRS', paved: false, lighted: false })],
  };
  const choice = chooseRunway({ runways: airport.runways, weather: observed('ZZZZ 211150Z 18012KT 9999 FEW030 22/12 Q1012'), aircraft: C172 });

  test('an unlit chosen runway limits nothing by day, and does in the dark or when the light is unknown', () => {
    assert.equal(choice.runway?.designator, '18');
    assert.equal(airportStatus({ airport, choice, light: 'day' }).status, 'OPERATIONAL');
    for (const light of ['twilight', 'night', undefined] as const) {
      assert.deepEqual(airportStatus({ airport, choice, light }), {
        status: 'LIMITED',
        reasons: ['The chosen runway 18 has no usable lighting; another runway has.'],
      });
    }
  });

  test('a runway lighting outage by day is told, not limiting', () => {
    const outage = notam('A1236/25', 'QLEAS', 'RWY 09/27 EDGE LGT U/S', 'ZZZZ');
    assert.deepEqual(airportStatus({ airport, notams: [outage], light: 'day' }), {
      status: 'OPERATIONAL',
      reasons: ['Open, with no runway closure or restriction in force.', 'Runway lighting out of service: 09, 27 (NOTAM A1236/25), not needed by day at the ETA.'],
    });
    assert.equal(airportStatus({ airport, notams: [outage], light: 'night' }).status, 'LIMITED');
  });
});
