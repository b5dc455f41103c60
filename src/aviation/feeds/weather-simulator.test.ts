import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { flightCategory, parseMetar, parseTaf, tafConditionsAt } from '../weather/index.ts';
import type { FlightCategory, Metar, SkyConditions, Taf } from '../weather/index.ts';
import { simulateMetar, simulateTaf } from './weather-simulator.ts';
import type { SimulatorAirport } from './weather-simulator.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const START = Date.parse('2026-01-03T00:00:00Z');
const SEED = 42;

const NAMED: SimulatorAirport[] = [
  { icao: 'EGLL', lat: 51.4775, lon: -0.4614, elevation_ft: 83 },
  { icao: 'KDEN', lat: 39.8617, lon: -104.6731, elevation_ft: 5434 },
  { icao: 'WSSS', lat: 1.3502, lon: 103.9944, elevation_ft: 22 },
  { icao: 'OMDB', lat: 25.2528, lon: 55.3644, elevation_ft: 62 },
  { icao: 'ENTC', lat: 69.6833, lon: 18.9189, elevation_ft: 31 },
  { icao: 'SCEL', lat: -33.393, lon: -70.7858, elevation_ft: 1555 },
  { icao: 'NZCH', lat: -43.4894, lon: 172.5322, elevation_ft: 123 },
  { icao: 'CYYZ', lat: 43.6772, lon: -79.6306, elevation_ft: 569 },
];

/** A spread over latitudes, longitudes, elevations and both unit systems (K and C: statute miles). */
function spread(count: number): SimulatorAirport[] {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return Array.from({ length: count }, (_, index) => ({
    icao: `${'KELCYZ'[index % 6]}${letters[index % 26]}${letters[(index * 7) % 26]}${letters[(index * 11 + 3) % 26]}`,
    lat: -70 + ((index * 37) % 145),
    lon: -180 + ((index * 97) % 360),
    elevation_ft: (index * 131) % 6000,
  }));
}

function metarAt(airport: SimulatorAirport, atMs: number): Metar {
  const simulated = simulateMetar(airport, atMs, SEED);
  const parsed = parseMetar(simulated.raw, { now: new Date(atMs) });
  if (!parsed.ok) assert.fail(`${simulated.raw}: ${parsed.error.message}`);
  return parsed.metar;
}

/** The TAF in force at `atMs`: the latest issued, or the one before when the latest has not started. */
function tafAt(airport: SimulatorAirport, atMs: number): Taf {
  let simulated = simulateTaf(airport, atMs, SEED);
  if (Date.parse(simulated.valid_from) > atMs) simulated = simulateTaf(airport, Date.parse(simulated.issued_at) - 1, SEED);
  const parsed = parseTaf(simulated.raw, { now: new Date(atMs) });
  if (!parsed.ok) assert.fail(`${simulated.raw}: ${parsed.error.message}`);
  return parsed.taf;
}

const RANK: Record<FlightCategory, number> = { VFR: 0, MVFR: 1, IFR: 2, LIFR: 3 };

/** A change group's category, taking what it does not forecast from the prevailing conditions. */
function changeCategory(change: SkyConditions, prevailing: SkyConditions): FlightCategory | null {
  const forecastsSky = change.clouds.length > 0 || change.sky_clear_code !== null || change.sky_obscured;
  return flightCategory({
    visibility: change.visibility ?? prevailing.visibility,
    ceiling_ft: forecastsSky ? change.ceiling_ft : prevailing.ceiling_ft,
  });
}

function turn(a: number, b: number): number {
  return Math.abs(((a - b + 540) % 360) - 180);
}

describe('simulateMetar and simulateTaf', () => {
  test('every report parses with nothing missing, skipped or left undecoded, for many airports and times', () => {
    for (const airport of [...NAMED, ...spread(40)]) {
      for (let step = 0; step < 10; step += 1) {
        const at = START + step * 31 * DAY_MS + step * 7 * HOUR_MS + 13 * 60_000;
        const simulated = simulateMetar(airport, at, SEED);
        const metar = metarAt(airport, at);
        assert.equal(metar.station, airport.icao);
        assert.equal(metar.observed_at.replace('Z', '.000Z'), simulated.observed_at);
        assert.deepEqual([metar.missing_groups, metar.unparsed_groups, metar.invalid_groups], [[], [], []], simulated.raw);
        assert.notEqual(flightCategory(metar), null, simulated.raw);

        const taf = simulateTaf(airport, at, SEED);
        const parsed = parseTaf(taf.raw, { now: new Date(at) });
        if (!parsed.ok) assert.fail(`${taf.raw}: ${parsed.error.message}`);
        assert.deepEqual(parsed.taf.unparsed_groups, [], taf.raw);
        assert.deepEqual(
          [parsed.taf.station, parsed.taf.issued_at, parsed.taf.valid_from, parsed.taf.valid_to].map((value) => value.replace('.000Z', 'Z')),
          [airport.icao, taf.issued_at, taf.valid_from, taf.valid_to].map((value) => value.replace('.000Z', 'Z')),
        );
      }
    }
  });

  test('METARs are observed at :50 past the hour, TAFs issued 40 minutes before 00, 06, 12, 18 UTC for 24 or 30 hours', () => {
    const [airport] = NAMED;
    assert.ok(airport);
    assert.equal(simulateMetar(airport, Date.parse('2026-05-20T10:49:59Z')).observed_at, '2026-05-20T09:50:00.000Z');
    assert.equal(simulateMetar(airport, Date.parse('2026-05-20T10:50:00Z')).observed_at, '2026-05-20T10:50:00.000Z');
    assert.equal(simulateMetar(airport, Date.parse('2026-05-20T00:10:00Z')).observed_at, '2026-05-19T23:50:00.000Z');

    const taf = simulateTaf(airport, Date.parse('2026-05-20T11:25:00Z'));
    assert.deepEqual([taf.issued_at, taf.valid_from], ['2026-05-20T11:20:00.000Z', '2026-05-20T12:00:00.000Z']);
    assert.equal(simulateTaf(airport, Date.parse('2026-05-20T11:19:00Z')).issued_at, '2026-05-20T05:20:00.000Z');
    for (const each of spread(30)) {
      const validity = simulateTaf(each, START);
      const hours = (Date.parse(validity.valid_to) - Date.parse(validity.valid_from)) / HOUR_MS;
      assert.ok(hours === 24 || hours === 30, `${each.icao}: ${hours} h`);
    }
  });

  test('US and Canadian stations report in statute miles and inches, the others in metres and hectopascals', () => {
    const us = simulateMetar({ icao: 'KJFK', lat: 40.64, lon: -73.78, elevation_ft: 13 }, START, SEED).raw;
    const europe = simulateMetar({ icao: 'LFPG', lat: 49.01, lon: 2.55, elevation_ft: 392 }, START, SEED).raw;
    assert.match(us, /^METAR KJFK 0223\d{2}Z .*\d+(?: \d\/\d)?SM .* A\d{4} RMK AO2 SLP\d{3} T[01]\d{3}[01]\d{3}$/);
    assert.match(europe, /^METAR LFPG 0223\d{2}Z .*(CAVOK|\d{4}) .* Q\d{4}$/);
  });

  test('the same seed, airport and time give the same text; another seed other weather', () => {
    const airports = spread(40);
    const texts = (seed: number) => airports.map((airport) => simulateMetar(airport, START, seed).raw + simulateTaf(airport, START, seed).raw);
    assert.deepEqual(texts(SEED), texts(SEED));
    const other = texts(SEED + 1);
    const differing = texts(SEED).filter((text, index) => text !== other[index]).length;
    assert.ok(differing >= 38, `only ${differing} of 40 differ`);
  });

  test('consecutive hourly METARs change gradually', () => {
    let pairs = 0;
    let sameCategory = 0;
    for (const airport of spread(40)) {
      let previous = metarAt(airport, START);
      for (let hour = 1; hour <= 48; hour += 1) {
        const current = metarAt(airport, START + hour * HOUR_MS);
        pairs += 1;
        assert.ok(Math.abs((current.temperature_c ?? 0) - (previous.temperature_c ?? 0)) <= 3, `${previous.raw} -> ${current.raw}`);
        assert.ok(Math.abs((current.altimeter?.hpa ?? 0) - (previous.altimeter?.hpa ?? 0)) <= 3, `${previous.raw} -> ${current.raw}`);
        const [before, after] = [previous.wind, current.wind];
        if (before?.direction_deg != null && after?.direction_deg != null && before.speed_kt >= 6 && after.speed_kt >= 6) {
          assert.ok(turn(before.direction_deg, after.direction_deg) <= 50, `${previous.raw} -> ${current.raw}`);
        }
        if (flightCategory(current) === flightCategory(previous)) sameCategory += 1;
        previous = current;
      }
    }
    assert.ok(sameCategory / pairs >= 0.85, `category kept in only ${sameCategory} of ${pairs} hours`);
  });

  test('across many airports and times the flight categories mix as at real stations, and every kind of weather occurs', () => {
    const counts: Record<FlightCategory, number> = { VFR: 0, MVFR: 0, IFR: 0, LIFR: 0 };
    const weather = new Set<string>();
    const airports = spread(100);
    for (const airport of airports) {
      for (let step = 0; step < 24; step += 1) {
        const metar = metarAt(airport, START + step * 12.2 * DAY_MS + ((step * 5) % 24) * HOUR_MS);
        const category = flightCategory(metar);
        if (category !== null) counts[category] += 1;
        for (const phenomenon of metar.weather) weather.add(`${phenomenon.descriptor ?? ''}${phenomenon.phenomena.join('')}`);
      }
    }
    const total = airports.length * 24;
    const share = (category: FlightCategory) => counts[category] / total;
    assert.ok(share('VFR') >= 0.65 && share('VFR') <= 0.9, JSON.stringify(counts));
    assert.ok(share('MVFR') >= 0.05 && share('MVFR') <= 0.25, JSON.stringify(counts));
    assert.ok(share('IFR') >= 0.01 && share('IFR') <= 0.12, JSON.stringify(counts));
    assert.ok(share('LIFR') >= 0.005 && share('LIFR') <= 0.08, JSON.stringify(counts));
    for (const kind of ['RA', 'DZ', 'SN', 'SHRA', 'TSRA', 'FG', 'BR', 'HZ']) assert.ok(weather.has(kind), `${kind} never occurs`);
  });

  test('temperatures follow latitude, season and elevation', () => {
    const meanTemperature = (airport: SimulatorAirport, month: number) => {
      let sum = 0;
      for (let day = 0; day < 28; day += 1) {
        sum += metarAt(airport, Date.UTC(2026, month, 1 + day, (day * 7) % 24, 55)).temperature_c ?? 0;
      }
      return sum / 28;
    };
    const tropical = { icao: 'WSAA', lat: 1.3, lon: 104, elevation_ft: 20 };
    const arctic = { icao: 'ENAA', lat: 69.7, lon: 19, elevation_ft: 30 };
    const north = { icao: 'EDAA', lat: 50, lon: 8.5, elevation_ft: 360 };
    const south = { icao: 'SAAA', lat: -34.8, lon: -58.5, elevation_ft: 60 };
    const highland = { icao: 'SLAA', lat: -16.5, lon: -68.2, elevation_ft: 13_300 };
    assert.ok(meanTemperature(tropical, 0) > meanTemperature(arctic, 0) + 20);
    assert.ok(meanTemperature(north, 6) > meanTemperature(north, 0) + 10);
    assert.ok(meanTemperature(south, 0) > meanTemperature(south, 6) + 8);
    assert.ok(meanTemperature(highland, 0) < meanTemperature({ ...highland, icao: 'SLAB', elevation_ft: 400 }, 0) - 15);
  });

  test('a TAF agrees with the METARs it covers: category within one step and wind within 60° of a group in force', () => {
    let checked = 0;
    for (const airport of [...NAMED, ...spread(60)]) {
      for (let step = 0; step < 10; step += 1) {
        const at = START + step * 29.7 * DAY_MS + ((step * 11) % 24) * HOUR_MS;
        const metar = metarAt(airport, at);
        const observed = new Date(metar.observed_at);
        const inForce = tafConditionsAt(tafAt(airport, observed.getTime()), observed);
        if (!inForce.ok) assert.fail(inForce.error.message);
        const { prevailing, changes } = inForce.conditions;
        const observedCategory = flightCategory(metar);
        assert.ok(observedCategory !== null);
        const forecast = [flightCategory(prevailing), ...changes.map((change) => changeCategory(change, prevailing))];
        assert.ok(
          forecast.some((category) => category !== null && Math.abs(RANK[category] - RANK[observedCategory]) <= 1),
          `${metar.raw} against ${forecast.join(', ')}`,
        );
        const wind = metar.wind;
        const forecastDirections = [prevailing.wind, ...changes.map((change) => change.wind)]
          .map((forecastWind) => forecastWind?.direction_deg)
          .filter((direction): direction is number => direction != null);
        if (wind?.direction_deg != null && wind.speed_kt >= 8 && forecastDirections.length > 0) {
          assert.ok(forecastDirections.some((direction) => turn(direction, wind.direction_deg ?? 0) <= 60), metar.raw);
        }
        checked += 1;
      }
    }
    assert.equal(checked, (NAMED.length + 60) * 10);
  });

  test('neighbouring airports share their weather systems', () => {
    const heathrow = NAMED[0];
    assert.ok(heathrow);
    const gatwick = { icao: 'EGKK', lat: 51.1481, lon: -0.1903, elevation_ft: 202 };
    for (let day = 0; day < 20; day += 1) {
      const at = START + day * 9 * DAY_MS;
      const [a, b] = [metarAt(heathrow, at), metarAt(gatwick, at)];
      assert.ok(Math.abs((a.altimeter?.hpa ?? 0) - (b.altimeter?.hpa ?? 0)) <= 3, `${a.raw} / ${b.raw}`);
      assert.ok(Math.abs((a.temperature_c ?? 0) - (b.temperature_c ?? 0)) <= 4, `${a.raw} / ${b.raw}`);
    }
  });
});
