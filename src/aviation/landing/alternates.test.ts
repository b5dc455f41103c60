import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { aircraftType, CONSERVATIVE_DEFAULTS } from '../reference/aircraft-types.ts';
import type { Airport, AirportIndex } from '../reference/airports.ts';
import { loadAirports } from '../reference/airports.ts';
import { assessAlternate, findAlternates, fitsAircraft } from './alternates.ts';
import { metar, notam } from './fixtures.ts';

/** The compiled reference cache the test servers share, so it is compiled once. */
const REFERENCE_CACHE = path.join(tmpdir(), 'lamis-test-reference-cache');
const A320 = aircraftType('A320')!;
const C172 = aircraftType('C172')!;

describe('alternates', () => {
  let airports: AirportIndex;
  let heathrow: Airport;
  before(async () => {
    airports = await loadAirports({ cacheDir: REFERENCE_CACHE });
    heathrow = airports.get('EGLL')!;
  });
  const forA320 = (code: string) => fitsAircraft(airports.get(code)!, { airport: heathrow, vehicleType: 'aircraft', profile: A320 });

  test('fit by the reference data: type, runway length and surface, not military, not the destination', () => {
    assert.ok(forA320('EGKK').fits);
    assert.match(forA320('EGKK').reason, new RegExp(`≥ the ${A320.min_runway_m} m needed`));
    assert.deepEqual(forA320('EGLL'), { fits: false, reason: 'the destination' });
    assert.deepEqual(forA320('EGWU'), { fits: false, reason: 'a military field' });
    assert.equal(forA320('EGKA').reason, `no open paved runway of ${A320.min_runway_m} m or more`);
    // A light aeroplane fits Brighton's grass; an airliner does not fit a small field at all.
    assert.ok(fitsAircraft(airports.get('EGKA')!, { airport: heathrow, vehicleType: 'aircraft', profile: C172 }).fits);
    assert.equal(forA320('EGTB').reason, 'airliners need a large or medium airport');
    // Helicopters land at heliports; aeroplanes do not.
    const heliport = airports.airports().find((airport) => airport.type === 'heliport' && airport.country === 'GB' && airport.runways.length > 0)!;
    assert.ok(fitsAircraft(heliport, { airport: heathrow, vehicleType: 'helicopter', profile: CONSERVATIVE_DEFAULTS.helicopter }).fits);
    assert.equal(fitsAircraft(heliport, { airport: heathrow, vehicleType: 'aircraft', profile: C172 }).fits, false);
  });

  test('assessed at the ETA + 30 min by the destination\'s rules: suitable, limited, marginal, or closed and left out', () => {
    const gatwick = airports.get('EGKK')!;
    const request = { airport: heathrow, profile: A320, profileSource: 'aircraft_type' as const };
    // 30 min after the reports' observation at 11:50 on 21 June: the METARs describe it.
    const ETA_30 = Date.parse('2025-06-21T12:20:00Z');
    const clear = metar('METAR EGKK 211150Z 26010KT 9999 FEW030 18/09 Q1015');
    const suitable = assessAlternate(gatwick, request, 'fits', { weather: { metar: clear }, notams: [], atMs: ETA_30 })!;
    assert.equal(suitable.suitability, 'suitable');
    assert.equal(suitable.runway, '26L');
    assert.equal(suitable.recommended_approach, 'VISUAL RWY 26L');
    assert.equal(suitable.flight_category, 'VFR');
    assert.equal(suitable.distance_nm, 21.9);
    assert.equal(suitable.bearing_deg, 152);

    const unknown = assessAlternate(gatwick, request, 'fits', { weather: { metar: null }, notams: [], atMs: ETA_30 })!;
    assert.equal(unknown.suitability, 'limited');
    assert.ok(unknown.reasons.some((reason) => reason.startsWith('Limited: weather at the ETA + 30 min unknown')), unknown.reasons.join(' '));

    const fog = metar('METAR EGKK 211150Z 26004KT 0100 FG VV001 12/12 Q1015');
    const belowMinima = assessAlternate(gatwick, request, 'fits', { weather: { metar: fog }, notams: [], atMs: ETA_30 })!;
    assert.equal(belowMinima.suitability, 'marginal');
    assert.equal(belowMinima.flight_category, 'LIFR');

    const closed = notam('A0001/26', 'QFALC', 'AD CLSD', 'EGKK');
    assert.equal(assessAlternate(gatwick, request, 'fits', { weather: { metar: clear }, notams: [closed], atMs: ETA_30 }), null);

    const medium = assessAlternate(airports.get('EGLF')!, request, 'fits', { weather: { metar: clear }, notams: [], atMs: ETA_30 })!;
    assert.equal(medium.suitability, 'limited', 'an airliner at a medium airport: fire cover unknown');
  });

  test('without weather, Heathrow\'s are the nearest large airports; a remote island widens the search, and the ocean finds none', async () => {
    const noWeather = { weather: async () => ({ metar: null }), notams: async () => [] };
    const search = (code: string) => findAlternates(airports, { airport: airports.get(code)!, etaMs: Date.parse('2026-06-21T12:00:00Z'), vehicleType: 'aircraft', profile: A320, profileSource: 'aircraft_type' }, noWeather);
    const london = await search('EGLL');
    assert.equal(london.radius_nm, 150);
    assert.equal(london.assessed_for, '2026-06-21T12:30:00.000Z');
    assert.deepEqual(london.airports.map((alternate) => alternate.icao), ['EGKK', 'EGGW', 'EGSS']);
    assert.ok(london.airports.every((alternate) => alternate.suitability === 'limited'));
    // Santa Maria, Azores: two within 150 nm, so the search widens to 250 nm.
    const azores = await search('LPAZ');
    assert.equal(azores.radius_nm, 250);
    assert.equal(azores.airports.length, 3);
    assert.ok(azores.reasoning.some((line) => line.includes('the search widens')));
    const ascension = await search('FHAW');
    assert.deepEqual([ascension.radius_nm, ascension.airports], [400, []]);
    assert.equal(ascension.reasoning.at(-1), 'No alternate within 400 nm fits the aircraft and is open at the ETA + 30 min.');
  });
});
