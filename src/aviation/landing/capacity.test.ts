import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { AirportIndex } from '../reference/airports.ts';
import { loadAirports } from '../reference/airports.ts';
import { CALIBRATION, TOLERANCE } from './capacity-calibration.ts';
import { deriveCapacity } from './capacity.ts';
import { CROSSING, EGLL, end, metar, notam, runway } from './fixtures.ts';
import type { LandingAirport } from './types.ts';


/** The compiled reference cache the test servers share, so it is compiled once. */
const REFERENCE_CACHE = path.join(tmpdir(), 'lamis-test-reference-cache');

/** As if every runway's surface were known to be paved, as OurAirports' runways.csv gives them for these airports. */
function surfacesKnown(airport: LandingAirport): LandingAirport {
  return { ...airport, runways: airport.runways.map((item) => ({ ...item, paved: true, surface: 'ASPHALT' })) };
}

describe('derived arrival capacity against published rates', () => {
  let airports: AirportIndex;
  before(async () => {
    airports = await loadAirports({ cacheDir: REFERENCE_CACHE });
  });

  for (const row of CALIBRATION) {
    test(`${row.icao} ${row.category}: ${row.arrivals}/h within ${TOLERANCE * 100} % (${row.source})`, () => {
      const airport = airports.get(row.icao);
      assert.ok(airport, `${row.icao} is in the reference data`);
      for (const variant of [airport, surfacesKnown(airport)]) {
        const derived = deriveCapacity(variant, [], { flightCategory: row.category }).arrivals_per_hour;
        const error = Math.abs(derived - row.arrivals) / row.arrivals;
        assert.ok(error <= TOLERANCE, `${row.icao}: derived ${derived}, published ${row.arrivals} (${Math.round(error * 100)} % off)\n${deriveCapacity(variant, [], { flightCategory: row.category }).reasoning.join('\n')}`);
      }
    });
  }

  test('small fields stay small: Brighton City, a grass strip, a heliport', () => {
    const brighton = deriveCapacity(airports.get('EGKA')!);
    assert.ok(brighton.arrivals_per_hour > 0 && brighton.arrivals_per_hour <= 20, brighton.reasoning.join('\n'));
    const strip = { type: 'small_airport', runways: [runway('1', 2000, [end('09', 90), end('27', 270)], { paved: false, surface: 'TURF' })] };
    assert.equal(deriveCapacity(strip).arrivals_per_hour, 6);
    const helipad = { type: 'heliport', runways: [runway('H1', 60, [end('H1', null)])] };
    assert.equal(deriveCapacity(helipad).arrivals_per_hour, 6);
    // Two pads of unknown position are taken as crossing: one lands while the other is used to depart.
    const heliport = { type: 'heliport', runways: [...helipad.runways, runway('H2', 60, [end('H2', null)])] };
    assert.equal(deriveCapacity(heliport).arrivals_per_hour, 8);
  });
});

describe('derived arrival capacity: layout, wind and weather', () => {
  test('Heathrow\'s parallels are 1.4 km apart: independent, one lands and one departs', () => {
    const capacity = deriveCapacity(EGLL);
    assert.equal(capacity.arrivals_per_hour, 42);
    assert.deepEqual(capacity.systems.map((system) => system.role), ['arrivals', 'departures']);
    assert.deepEqual(capacity.runways.map((r) => [r.designators.join('/'), r.arrivals_per_hour]), [['09L/27R', 42], ['09R/27L', 42]]);
  });

  test('an unknown surface at a large airport is rated by length, not as unpaved', () => {
    const unknown = { ...EGLL, runways: EGLL.runways.map((item) => ({ ...item, paved: null, surface: null })) };
    assert.equal(deriveCapacity(unknown).arrivals_per_hour, 42);
    assert.match(deriveCapacity(unknown).runways[0]!.basis, /surface unknown, rated as paved/);
  });

  test('the flight category lowers the rate', () => {
    const rates = (['VFR', 'MVFR', 'IFR', 'LIFR'] as const).map((flightCategory) => deriveCapacity(EGLL, [], { flightCategory }).arrivals_per_hour);
    assert.deepEqual(rates, [42, 39, 35, 29]);
    assert.ok(deriveCapacity(EGLL, [], { flightCategory: 'LIFR' }).reasoning.some((line) => /low-visibility/.test(line)));
  });

  test('the wind picks the landing ends; a runway whose ends are all out of limits does not count', () => {
    const westerly = deriveCapacity(EGLL, [], { wind: metar('METAR EGLL 211150Z 27015KT 9999 FEW030 18/09 Q1015').wind });
    assert.deepEqual(westerly.runways.map((r) => r.landing_ends), [['27R'], ['27L']]);
    // A 35 kt northerly is a crosswind over 20 kt on both east-west runways: no runway.
    const storm = deriveCapacity(EGLL, [], { wind: metar('METAR EGLL 211150Z 36035KT 9999 FEW030 18/09 Q1015').wind });
    assert.equal(storm.arrivals_per_hour, 0);
    assert.match(storm.runways[0]!.basis, /no end within the wind limits/);
    // A 22 kt northerly is beyond the 20 kt planning guide on both, but airliners still land in it.
    const strong = deriveCapacity(EGLL, [], { wind: metar('METAR EGLL 211150Z 36022KT 9999 FEW030 18/09 Q1015').wind });
    assert.equal(strong.arrivals_per_hour, 21);
    assert.ok(strong.reasoning.some((line) => /least crosswind 22 kt within the 33 kt/.test(line)), strong.reasoning.join('\n'));
    // Variable wind does not choose: every open runway counts.
    const variable = deriveCapacity(EGLL, [], { wind: metar('METAR EGLL 211150Z VRB08KT 9999 FEW030 18/09 Q1015').wind });
    assert.equal(variable.arrivals_per_hour, 42);
  });

  test('crossing runways are one system: one lands, a crossing one departs', () => {
    const capacity = deriveCapacity(CROSSING);
    assert.equal(capacity.systems.length, 1);
    assert.match(capacity.systems[0]!.layout, /taken as crossing/);
    // 04/22 (7,000 ft at a medium airport, 34/h) lands, a crossing runway departs between arrivals: 85 %.
    assert.equal(capacity.arrivals_per_hour, 28);
  });

  test('parallels closer than 210 m are not used together: one runway in mixed mode', () => {
    const close = { ...EGLL, runways: [EGLL.runways[0]!, { ...EGLL.runways[1]!, ends: EGLL.runways[1]!.ends.map((item) => ({ ...item, lat: item.lat! + 0.0117 })) }] };
    const capacity = deriveCapacity(close);
    assert.equal(capacity.systems.length, 1);
    assert.equal(capacity.arrivals_per_hour, Math.floor(42 * 0.65));
  });

  test('without threshold positions, parallels are taken as too close to use together', () => {
    const unplaced = { type: 'large_airport', runways: [
      runway('1', 10000, [end('09L', 90), end('27R', 270)]),
      runway('2', 10000, [end('09R', 90), end('27L', 270)]),
    ] };
    const capacity = deriveCapacity(unplaced);
    assert.equal(capacity.systems.length, 1);
    assert.match(capacity.systems[0]!.layout, /mixed mode \(the other runways cannot be used at the same time\)/);
    assert.equal(capacity.arrivals_per_hour, Math.floor(42 * 0.65));
  });

  test('closed runways count for nothing; no usable runway, no capacity', () => {
    const closure = notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD');
    const one = deriveCapacity(EGLL, [closure]);
    assert.equal(one.arrivals_per_hour, 27, 'the other runway lands and departs in mixed mode');
    assert.equal(one.runways[0]?.basis, 'closed');
    const allClosed = { type: 'small_airport', runways: [runway('1', 3000, [end('09', 90), end('27', 270)], { closed: true })] };
    const capacity = deriveCapacity(allClosed);
    assert.equal(capacity.arrivals_per_hour, 0);
    assert.equal(capacity.reasoning.at(-1), 'No usable runway: no arrival capacity.');
    const aerodrome = deriveCapacity(EGLL, [notam('A2000/25', 'QFALC', 'AD CLSD')]);
    assert.equal(aerodrome.arrivals_per_hour, 0);
    assert.equal(aerodrome.reasoning.at(-1), 'Aerodrome closed: no arrival capacity.');
  });

  test('a runway never gives more than the runways\' arrivals-only rates together, and worse weather never raises it', () => {
    const runwayArb = fc.record({
      length: fc.option(fc.integer({ min: 500, max: 14000 }), { nil: null }),
      paved: fc.option(fc.boolean(), { nil: null }),
      heading: fc.integer({ min: 1, max: 180 }),
      lat: fc.double({ min: -0.03, max: 0.03, noNaN: true }),
      lon: fc.double({ min: -0.03, max: 0.03, noNaN: true }),
    }).map(({ length, paved, heading, lat, lon }) => {
      const dLat = Math.cos((heading * Math.PI) / 180) * 0.01;
      const dLon = Math.sin((heading * Math.PI) / 180) * 0.01;
      return runway('r', length, [end('09', heading, { lat: 50 + lat, lon: lon }), end('27', heading + 180, { lat: 50 + lat + dLat, lon: lon + dLon })], { paved });
    });
    const typeArb = fc.constantFrom('large_airport', 'medium_airport', 'small_airport');
    fc.assert(
      fc.property(fc.array(runwayArb, { maxLength: 6 }), typeArb, (runways, type) => {
        const airport = { type, runways };
        const visual = deriveCapacity(airport, [], { flightCategory: 'VFR' });
        assert.ok(visual.arrivals_per_hour <= visual.runways.reduce((sum, r) => sum + r.arrivals_per_hour, 0));
        let previous = visual.arrivals_per_hour;
        for (const flightCategory of ['MVFR', 'IFR', 'LIFR'] as const) {
          const next = deriveCapacity(airport, [], { flightCategory }).arrivals_per_hour;
          assert.ok(next <= previous);
          previous = next;
        }
      }),
    );
  });
});
