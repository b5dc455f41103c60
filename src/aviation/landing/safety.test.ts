import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseTaf, weatherAtEta } from '../weather/index.ts';
import { recommendApproach } from './approach.ts';
import { A320, C172, CROSSING, EGLL, end, JUNE, metar, notam, runway } from './fixtures.ts';
import { chooseRunway } from './runway.ts';
import { daylight, safetyScore } from './safety.ts';
import type { SafetyScore } from './safety.ts';
import { airportStatus } from './status.ts';
import type { ActiveNotam, AircraftProfile, LandingAirport } from './types.ts';

interface Scenario {
  airport?: LandingAirport;
  aircraft?: AircraftProfile;
  raw?: string | null;
  taf?: string;
  notams?: ActiveNotam[];
  eta?: string;
  now?: string;
}

function score({ airport = EGLL, aircraft = A320, raw = 'EGLL 211150Z 27008KT CAVOK 22/12 Q1020', taf, notams = [], eta = '2025-06-21T12:00:00Z', now = '2025-06-21T12:00:00Z' }: Scenario): SafetyScore {
  const forecast = taf === undefined ? null : parseTaf(taf, { now: JUNE });
  if (forecast !== null && !forecast.ok) assert.fail(forecast.error.message);
  const weather = weatherAtEta({ metar: raw === null ? null : metar(raw), taf: forecast?.taf ?? null, etaMs: Date.parse(eta) });
  const choice = chooseRunway({ runways: airport.runways, weather, aircraft, notams });
  return safetyScore({
    position: airport,
    aircraft,
    weather,
    choice,
    approach: recommendApproach(choice, weather, aircraft),
    status: airportStatus({ airport, notams, choice, light: daylight(Date.parse(eta), airport).period }),
    etaMs: Date.parse(eta),
    nowMs: Date.parse(now),
  });
}

const points = (result: SafetyScore) => Object.fromEntries(result.factors.filter((f) => f.points !== 0).map((f) => [f.factor, f.points]));

describe('daylight at the ETA (suncalc)', () => {
  test('EGLL in June: night at 02:00Z, day at 12:00Z, civil twilight at 03:30Z', () => {
    const at = (iso: string) => daylight(Date.parse(iso), EGLL);
    assert.equal(at('2025-06-21T02:00:00Z').period, 'night');
    assert.ok(at('2025-06-21T02:00:00Z').sun_altitude_deg < -6);
    assert.equal(at('2025-06-21T12:00:00Z').period, 'day');
    assert.ok(at('2025-06-21T12:00:00Z').sun_altitude_deg > 60);
    assert.equal(at('2025-06-21T03:30:00Z').period, 'twilight');
  });
});

describe('safety score', () => {
  test('a clear day, fresh weather, long ILS runway: 100, every factor assessed at 0', () => {
    const result = score({});
    assert.equal(result.score, 100);
    assert.deepEqual(result.factors.map((f) => f.factor), ['weather_basis', 'weather_age', 'flight_category', 'wind_shear', 'crosswind', 'tailwind', 'runway_length', 'night']);
    assert.ok(result.factors.every((f) => f.points === 0));
  });

  test('night at EGLL 02:00Z costs 10 points; noon costs none', () => {
    const night = score({ raw: 'EGLL 210150Z 27008KT CAVOK 12/08 Q1020', eta: '2025-06-21T02:00:00Z', now: '2025-06-21T02:00:00Z' });
    assert.equal(night.score, 90);
    assert.deepEqual(points(night), { night: -10 });
    assert.match(night.factors.find((f) => f.factor === 'night')!.detail, /^Night at the ETA: sun altitude -1\d\.\d°\.$/);
    assert.equal(score({}).score, 100);
  });

  test('LIFR below the ILS minima: worse for a light VFR type than for an airliner', () => {
    const raw = 'EGLL 211150Z 27005KT 0150 R27R/0175N FG VV001 10/10 Q1020';
    const airliner = score({ raw });
    assert.deepEqual(points(airliner), { flight_category: -20, below_minima: -30 });
    assert.equal(airliner.score, 50);
    const light = score({ raw, aircraft: C172 });
    assert.deepEqual(points(light), { flight_category: -40, below_minima: -30 });
    assert.equal(light.score, 30);
  });

  test('no sky group: the ceiling is unknown, so the category costs the unknown points, or more when the visibility alone is worse', () => {
    const noSky = (visibility: string) => `EGLL 211150Z 27008KT ${visibility} 22/12 A3001 RMK AO1`;
    const clear = score({ raw: noSky('10SM') });
    assert.deepEqual(points(clear), { flight_category: -10 });
    assert.match(clear.factors.find((f) => f.factor === 'flight_category')!.detail, /^Flight category unknown: no sky condition reported, so the ceiling is unknown; VFR at best\.$/);
    assert.equal(points(score({ raw: noSky('2SM'), aircraft: C172 })).flight_category, -25);
    assert.equal(points(score({ raw: noSky('4SM') })).flight_category, -10);
  });

  test('crosswind margin: 12.1 kt of a 15 kt limit costs 10 points', () => {
    const single: LandingAirport = { ...CROSSING, runways: [runway('1', 4000, [end('09', 90), end('27', 270)])] };
    const result = score({ airport: single, aircraft: C172, raw: 'ZZZZ 211150Z 03014KT 9999 FEW040 22/12 Q1012' });
    assert.deepEqual(points(result), { crosswind: -10 });
    assert.match(result.factors.find((f) => f.factor === 'crosswind')!.detail, /12\.1 kt on 09 .* 81 % of the aircraft's 15 kt limit/);
  });

  test('a tailwind near the limit costs 5 points', () => {
    const single: LandingAirport = { ...CROSSING, runways: [runway('1', 9000, [end('27', 270)])] };
    assert.deepEqual(points(score({ airport: single, raw: 'ZZZZ 211150Z 09004KT 9999 FEW040 22/12 Q1012' })), { tailwind: -5 });
  });

  test('a runway shorter than the type needs costs 30 points', () => {
    const short: LandingAirport = { ...CROSSING, runways: [runway('1', 5500, [end('09', 90), end('27', 270)])] };
    const result = score({ airport: short, raw: 'ZZZZ 211150Z 27008KT 9999 FEW040 22/12 Q1012' });
    assert.equal(points(result).runway_length, -30);
    assert.match(result.factors.find((f) => f.factor === 'runway_length')!.detail, /27: 1676 m, 93 % of the aircraft's 1800 m minimum/);
  });

  test('wind shear reported for the chosen runway is SEVERE', () => {
    const result = score({ raw: 'EGLL 211150Z 27015G30KT 9999 FEW030 22/12 Q1020 WS R27R' });
    assert.equal(points(result).wind_shear, -40);
    assert.match(result.factors.find((f) => f.factor === 'wind_shear')!.detail, /SEVERE: reported_wind_shear_runway_in_use \(WS R27R\)/);
  });

  test('aerodrome closed: score 0', () => {
    const result = score({ notams: [notam('A1300/25', 'QFALC', 'AD CLSD')] });
    assert.equal(result.score, 0);
    assert.equal(points(result).aerodrome_closed, -100);
    assert.equal(result.factors.some((f) => f.factor === 'no_runway'), false);
  });

  test('no runway within the limits costs 60 points and a LIMITED airport 5', () => {
    const result = score({ raw: 'EGLL 211150Z VRB15G28KT 9999 TSRA FEW030CB 22/12 Q1020' });
    assert.deepEqual(points(result), { airport_limited: -5, wind_shear: -25, no_runway: -60 });
    assert.equal(result.score, 10);
  });

  test('ILS out of service: 15 points in instrument conditions, 5 in visual', () => {
    const notams = [notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD'), notam('A1235/25', 'QICAS', 'ILS RWY 27L U/S')];
    const imc = score({ raw: 'EGLL 211150Z 27008KT 4000 BR OVC008 14/12 Q1012', notams });
    assert.deepEqual(points(imc), { airport_limited: -5, flight_category: -10, ils_unserviceable: -15 });
    const vmc = score({ notams });
    assert.deepEqual(points(vmc), { airport_limited: -5, ils_unserviceable: -5 });
  });

  test('an unlit runway or runway lighting out of service at night costs 30 points', () => {
    const grass: LandingAirport = { ...CROSSING, runways: [CROSSING.runways[2]!] };
    const raw = 'ZZZZ 210150Z 18008KT 9999 FEW040 12/08 Q1012';
    const night = score({ airport: grass, aircraft: C172, raw, eta: '2025-06-21T02:00:00Z', now: '2025-06-21T02:00:00Z' });
    assert.deepEqual(points(night), { runway_lighting: -30, night: -10 });
    const lightsOut = notam('A1236/25', 'QLEAS', 'RWY 09R/27L EDGE LGT U/S');
    const closed = notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD');
    const egll = score({ raw: 'EGLL 210150Z 27008KT CAVOK 12/08 Q1020', notams: [closed, lightsOut], eta: '2025-06-21T02:00:00Z', now: '2025-06-21T02:00:00Z' });
    assert.equal(points(egll).runway_lighting, -30);
    assert.equal(points(score({ notams: [closed, lightsOut] })).runway_lighting, -5);
  });

  test('stale weather, a forecast basis and no weather at the ETA lower the score', () => {
    assert.deepEqual(points(score({ now: '2025-06-21T13:30:00Z', eta: '2025-06-21T12:40:00Z' })), { weather_age: -10 });
    assert.deepEqual(points(score({ now: '2025-06-21T15:00:00Z', eta: '2025-06-21T12:40:00Z' })), { weather_age: -20 });
    const taf = 'TAF EGLL 211100Z 2112/2218 27010KT 9999 SCT040';
    const forecast = score({ eta: '2025-06-21T15:00:00Z', taf });
    assert.deepEqual(points(forecast), { weather_basis: -5 });
    assert.match(forecast.factors.find((f) => f.factor === 'weather_basis')!.detail, /^Forecast: TAF 27010KT 9999 SCT040: the weather at the ETA is forecast, not observed\.$/);
    const beyond = score({ eta: '2025-06-23T12:00:00Z', taf });
    assert.deepEqual(points(beyond), { weather_basis: -25 });
    assert.match(beyond.factors[0]!.detail, /No forecast reaches the ETA: .*the TAF issued at 2025-06-21 11:00Z ends at 2025-06-22 18:00Z/);
    assert.deepEqual(points(score({ raw: null })), { weather_basis: -25 });
    assert.ok(beyond.score < forecast.score && forecast.score < score({}).score);
  });

  test('a helicopter is not charged for runway length; a short runway is an aeroplane\'s shortfall', () => {
    const helicopter = { ...C172, designator: 'EC35', approach_category: 'H' as const, min_runway_m: 840 };
    const grass: LandingAirport = { ...CROSSING, runways: [CROSSING.runways[2]!] };
    const raw = 'ZZZZ 211150Z 18008KT 9999 FEW040 22/12 Q1012';
    const result = score({ airport: grass, aircraft: helicopter, raw });
    assert.deepEqual(points(result), {});
    assert.match(result.factors.find((f) => f.factor === 'runway_length')!.detail, /helicopter/);
    assert.equal(points(score({ airport: grass, aircraft: { ...C172, min_runway_m: 840 }, raw })).runway_length, -30);
  });

  test('properties: an integer in 0-100 that equals 100 plus the points, clamped; no factor adds points', () => {
    const raws = [
      'EGLL 211150Z 27008KT CAVOK 22/12 Q1020',
      'EGLL 211150Z 27005KT 0150 R27R/0175N FG VV001 10/10 Q1020',
      'EGLL 211150Z 24025G45KT 9999 +TSRA BKN008CB 16/14 Q1002 WS ALL RWY',
      'EGLL 211150Z VRB15G28KT 9999 TSRA FEW030CB 22/12 Q1020',
      'EGLL 211150Z 09006KT 2000 BR OVC004 10/09 Q1015',
      null,
    ];
    const allNotams = [
      notam('A1234/25', 'QMRLC', 'RWY 09L/27R CLSD'),
      notam('A1235/25', 'QICAS', 'ILS RWY 27L U/S'),
      notam('A1236/25', 'QLEAS', 'RWY 09R/27L EDGE LGT U/S'),
      notam('A1300/25', 'QFALC', 'AD CLSD'),
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...raws),
        fc.constantFrom(A320, C172),
        fc.subarray(allNotams),
        fc.integer({ min: 0, max: 47 }),
        fc.integer({ min: 0, max: 600 }),
        (raw, aircraft, notams, etaHalfHours, ageMin) => {
          const observed = Date.parse('2025-06-21T11:50:00Z');
          const result = score({
            raw,
            aircraft,
            notams,
            eta: new Date(observed + etaHalfHours * 1_800_000).toISOString(),
            now: new Date(observed + ageMin * 60_000).toISOString(),
          });
          const sum = result.factors.reduce((total, f) => total + f.points, 0);
          assert.ok(Number.isInteger(result.score));
          assert.equal(result.score, Math.max(0, Math.min(100, 100 + sum)));
          assert.ok(result.factors.every((f) => f.points <= 0 && f.detail.length > 0));
        },
      ),
    );
  });
});
