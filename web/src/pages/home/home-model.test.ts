import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countWords, feedCard, fleetGlance, focusOf, mergeFeed, shortcutsFor, type FeedEntry, type GlanceVehicle } from './home-model.ts';

const vehicle = (id: string, vehicle_type: GlanceVehicle['vehicle_type'], home_base_icao: string | null = null): GlanceVehicle =>
  ({ id, vehicle_type, home_base_icao, created_at: '2026-11-21T20:00:00Z' });

describe('focus', () => {
  it('puts landing first for aircraft and helicopters, the map and ports for vessels', () => {
    assert.equal(focusOf('aircraft'), 'aviation');
    assert.equal(focusOf('helicopter'), 'aviation');
    assert.equal(focusOf('vessel'), 'maritime');
    assert.equal(focusOf(null), 'both');
    assert.deepEqual(shortcutsFor('aviation').map((s) => s.href), ['/landing', '/map', '/ports']);
    assert.deepEqual(shortcutsFor('maritime').map((s) => s.href), ['/map', '/ports', '/landing']);
  });
});

describe('fleet at a glance', () => {
  it('counts by type and ranks the aircraft home bases', () => {
    const glance = fleetGlance([
      vehicle('a', 'aircraft', 'EGLL'), vehicle('b', 'aircraft', 'EGKK'), vehicle('c', 'helicopter', 'EGKK'),
      vehicle('d', 'vessel'), vehicle('e', 'vessel'), vehicle('f', 'aircraft'),
    ], false);
    assert.deepEqual(glance.counts, { aircraft: 3, helicopter: 1, vessel: 2 });
    assert.equal(glance.total, 6);
    assert.deepEqual(glance.bases, ['EGKK', 'EGLL']);
    assert.equal(countWords(glance), '3 aircraft, 1 helicopter and 2 vessels');
  });

  it('says when the fleet is empty or larger than the page read', () => {
    assert.equal(countWords(fleetGlance([], false)), 'no vehicles');
    assert.equal(countWords(fleetGlance([vehicle('a', 'vessel')], true)), '1 vessel, and more');
  });
});

describe('fleet feed cards', () => {
  const base = { arrival: null, landing: null, voyage: null, open_events: [], missing: [], updated_at: '2026-11-21T13:52:10.123Z' };

  it('an aircraft: next arrival, score, approach and the wind against its limits, opening the briefing', () => {
    const entry = {
      ...base,
      vehicle: { id: 'veh_a', vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320', mmsi: null },
      arrival: { id: 'arr_1', destination_icao: 'EGLL', eta_utc: '2026-11-21T14:20:00.000Z', watched_until: '2026-11-21T15:20:00.000Z' },
      landing: {
        destination: { icao: 'EGLL', name: 'London Heathrow Airport', status: 'OPERATIONAL', status_reasons: [] },
        safety_score: 55, conditions: 'WINDY', flight_category: 'VFR', visibility_nm: 5.4, metar: null, metar_observed_at: null,
        runway: '27R', approach: 'ILS', recommended_approach: 'ILS RWY 27R', below_minima: false,
        wind: { runway: '27R', speed_kt: 25, gust_kt: 35, headwind_kt: 0, crosswind_kt: 25, max_crosswind_kt: 35, max_tailwind_kt: 0,
          crosswind_limit_kt: 29, tailwind_limit_kt: 5, crosswind_margin_kt: -6, within_limits: false },
        slot: { hour: '2026-11-21T14:00:00.000Z', capacity: 15, booked: 0, remaining: 15, available: true },
      },
      open_events: [{ id: 'evt_1', severity: 'warning', summary: 'Crosswind 35 kt on runway 27R is above the 29 kt limit of G-EUPT.' }],
    } as unknown as FeedEntry;
    const card = feedCard(entry);
    assert.equal(card.title, 'G-EUPT');
    assert.deepEqual(card.facts.map((fact) => [fact.label, fact.value, fact.tone]), [
      ['Next arrival', 'EGLL (London Heathrow Airport), ETA 21 Nov 2026 14:20 UTC', 'neutral'],
      ['Safety score', '55 of 100', 'bad'],
      ['Approach', 'ILS RWY 27R, VFR', 'neutral'],
      ['Wind, runway 27R', '25G35 kt: crosswind 35 kt of 29 kt limit (outside limits)', 'bad'],
    ]);
    assert.equal(card.links[0]!.href, '/landing?icao=EGLL&vehicle=veh_a&eta=2026-11-21T14%3A20%3A00.000Z');
    assert.deepEqual(card.events.map((event) => event.id), ['evt_1']);
  });

  it('a vessel: position, ETA, tidal window and hold, and what is missing in the feed\'s words', () => {
    const entry = {
      ...base,
      vehicle: { id: 'veh_v', vehicle_type: 'vessel', registration: null, icao_type: null, mmsi: 235012345 },
      voyage: {
        vessel: { mmsi: 235012345, name: 'SOLENT TRADER', callsign: null, imo: null, category: 'CARGO', draught_m: 9.5 },
        position: { lat: 50.5, lon: -1.25, sog_kn: 12.1, cog_deg: 10, heading_deg: 10, nav_status: 0, timestamp: '2026-11-21T13:50:00Z', age_sec: 120 },
        destination: { reported: 'GBSOU', port: { id: 'GBSOU', name: 'Southampton', unlocode: 'GBSOU', country: 'GB', lat: 50.9, lon: -1.4 }, matched_by: 'unlocode', ambiguous: false },
        eta: { predicted: '2026-11-21T16:00:00Z', calm_water: '2026-11-21T15:50:00Z', distance_nm: 24.5, weather_delay_hours: 0.2, speed_kn: 12, speed_source: 'ais_sog', weather_status: 'used', reported: '2026-11-21T15:30:00Z' },
        tidal_window: null,
        weather_hold: null,
      },
      missing: [{ field: 'voyage.tidal_window', reason: 'no_tide_station', message: 'No tide station near Southampton.' }],
    } as unknown as FeedEntry;
    const card = feedCard(entry);
    assert.equal(card.title, 'SOLENT TRADER');
    assert.deepEqual(card.facts.map((fact) => [fact.label, fact.value, fact.tone]), [
      ['Position', '50.500° N, 1.250° W, 12.1 kn, 2 min ago', 'neutral'],
      ['Destination', 'Southampton (GBSOU)', 'neutral'],
      ['ETA', '21 Nov 2026 16:00 UTC, 24.5 nm to go; reported 21 Nov 2026 15:30 UTC', 'warn'],
    ]);
    assert.deepEqual(card.notes, ['No tide station near Southampton.']);
    assert.deepEqual(card.links.map((link) => link.href), ['/map?vessel=235012345', '/ports/GBSOU', '/fleet/veh_v']);
    const moved = mergeFeed([entry], { ...entry, updated_at: '2026-11-21T14:00:00Z' });
    assert.deepEqual(moved.map((item) => item.updated_at), ['2026-11-21T14:00:00Z']);
  });
});
