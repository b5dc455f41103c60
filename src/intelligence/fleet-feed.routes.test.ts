// The fleet feed in process, on real storage, the simulated marine weather and a World Port Index
// import that gives Rotterdam a channel depth: an aircraft's entry follows an operator's METAR for
// the airport of its next arrival, a vessel's entry follows an NMEA upload, what is missing says
// why, pages follow the fleet list, and an organisation sees only its own fleet.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatTagBlock } from '../maritime/ais/index.ts';
import { wpiEntry } from '../maritime/ports/fixtures.ts';
import { saveImport } from '../maritime/ports/store.ts';
import { positionReport, sentences, staticVoyage } from '../maritime/vessels/fixtures.ts';
import { featureApp, type InProcess } from '../../test/support/in-process.ts';
import { egllMetar } from '../../test/support/metar.ts';
import { organisationKey } from '../../test/support/organisations.ts';

const VESSEL_MMSI = 244_110_001;
/** Bound for Hamburg, which the port data gives no channel depth. */
const HAMBURG_BOUND = 244_110_002;
const ROTTERDAM_CHANNEL_M = 12;

let service: InProcess;
let dataDir: string;

const ok = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers?: Record<string, string>) => {
  const response = await service.call(method, url, payload, headers);
  assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
};
const feed = async (query = '', headers?: Record<string, string>) => ok('GET', `/v3/fleet/feed${query}`, undefined, headers);
const entryOf = async (vehicleId: string) => (await feed()).data.find((entry: any) => entry.vehicle.id === vehicleId);

async function poll<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const until = Date.now() + 5_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`no ${what} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

before(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-fleet-feed-'));
  await saveImport(dataDir, 'wpi', 'test rows', [
    wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', lat: 51.9, lon: 4.4833, harbour_size: 'large', channel_depth_m: ROTTERDAM_CHANNEL_M }),
  ]);
  service = await featureApp(['aviation', 'maritime', 'fleet', 'events', 'intelligence'], { dataDir });
});
after(async () => {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the fleet feed', () => {
  let aircraftId: string;
  let arrivalId: string;
  let vesselId: string;
  let hamburgId: string;

  test('an aircraft: its next watched arrival, then the landing answer at its ETA once a METAR is pushed', async () => {
    aircraftId = (await ok('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320', crosswind_limit_kt: 20 })).id;
    const noArrival = await entryOf(aircraftId);
    assert.equal(noArrival.arrival, null);
    assert.deepEqual(noArrival.missing.map((m: any) => [m.field, m.reason]), [['arrival', 'no_watched_arrival']]);

    // Within the hour the METAR pushed below describes.
    const eta = new Date(Date.now() + 1_800_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const later = new Date(Date.now() + 7_200_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await ok('POST', `/v3/fleet/vehicles/${aircraftId}/arrivals`, { destination_icao: 'LFPG', eta_utc: later });
    arrivalId = (await ok('POST', `/v3/fleet/vehicles/${aircraftId}/arrivals`, { destination_icao: 'EGLL', eta_utc: eta })).id;
    const planned = await entryOf(aircraftId);
    assert.equal(planned.arrival.id, arrivalId, 'the earliest watched arrival is the next one');
    assert.equal(planned.landing.destination.icao, 'EGLL');
    assert.equal(planned.landing.wind, null);
    assert.ok(planned.missing.some((m: any) => m.field === 'landing.wind' && m.reason === 'no_metar'));

    const metar = egllMetar('27015G25KT', 5);
    await ok('POST', '/v3/aviation/airports/EGLL/metar', metar, { 'content-type': 'text/plain' });
    const entry = await entryOf(aircraftId);
    assert.equal(entry.landing.metar, metar);
    assert.match(entry.landing.runway, /^27[LR]$/);
    assert.match(entry.landing.recommended_approach, new RegExp(`^(ILS|RNAV|VISUAL) RWY ${entry.landing.runway}$`));
    assert.equal(entry.landing.destination.status, 'OPERATIONAL');
    assert.ok(entry.landing.safety_score >= 0 && entry.landing.safety_score <= 100);
    const wind = entry.landing.wind;
    assert.equal(wind.runway, entry.landing.runway);
    assert.equal(wind.speed_kt, 15);
    assert.equal(wind.gust_kt, 25);
    assert.ok(wind.headwind_kt > 14 && wind.headwind_kt <= 15, `headwind ${wind.headwind_kt}`);
    assert.ok(wind.max_crosswind_kt >= 0 && wind.max_crosswind_kt < 5);
    assert.equal(wind.crosswind_limit_kt, 20, "the operator's own limit");
    assert.equal(wind.crosswind_margin_kt, Math.round((20 - wind.max_crosswind_kt) * 10) / 10);
    assert.equal(wind.within_limits, true);
    assert.equal(entry.landing.slot.available, true);
    assert.equal(entry.landing.slot.hour, `${eta.slice(0, 13)}:00:00.000Z`);
    assert.deepEqual(entry.missing, []);
    assert.ok(Date.parse(entry.updated_at) > Date.parse(planned.updated_at), 'the entry changed');
    assert.deepEqual(entry.open_events, []);
    assert.equal(entry.voyage, null);

    const again = await entryOf(aircraftId);
    assert.equal(again.updated_at, entry.updated_at, 'nothing changed, so neither does updated_at');
  });

  test('a vessel: its position and age, its destination port, ETA, the next tidal window and the weather hold there', async () => {
    vesselId = (await ok('POST', '/v3/fleet/vehicles', { vehicle_type: 'vessel', mmsi: VESSEL_MMSI })).id;
    hamburgId = (await ok('POST', '/v3/fleet/vehicles', { vehicle_type: 'vessel', mmsi: HAMBURG_BOUND })).id;
    const unheard = await entryOf(vesselId);
    assert.equal(unheard.voyage.vessel, null);
    assert.deepEqual(unheard.missing.map((m: any) => [m.field, m.reason]), [['voyage.vessel', 'not_heard']]);

    const now = Date.now();
    const lines = [...sentences(staticVoyage(VESSEL_MMSI, {
      shipname: 'CHANNEL TRADER', shiptype: 70, to_bow: 150, to_stern: 30, to_port: 15, to_starboard: 17, draught: 118, destination: 'NLRTM',
    }), 1)];
    // Five reports a minute apart, sailing east up the Channel at about 14 kn.
    [140, 136, 142, 139, 141].forEach((speed, i) => {
      const at = Math.round((now - (4 - i) * 60_000) / 1000);
      lines.push(...sentences(positionReport(VESSEL_MMSI, 50.3, -0.7 + i * 0.0061, { speed, course: 800, heading: 80, status: 0 })).map((line) => formatTagBlock([`c:${at}`]) + line));
    });
    lines.push(...sentences(staticVoyage(HAMBURG_BOUND, { shipname: 'ELBE RUNNER', draught: 90, destination: 'DEHAM' }), 2));
    lines.push(...sentences(positionReport(HAMBURG_BOUND, 54.0, 7.5, { speed: 0, status: 1 })));
    const uploaded = await ok('POST', '/v3/maritime/ais/nmea', lines.join('\r\n'), { 'content-type': 'text/plain' });
    assert.equal(uploaded.rejected.checksum, 0);

    const entry = await entryOf(vesselId);
    const { voyage } = entry;
    assert.equal(voyage.vessel.name, 'CHANNEL TRADER');
    assert.equal(voyage.vessel.draught_m, 11.8);
    assert.equal(voyage.position.lat, 50.3);
    assert.ok(Math.abs(voyage.position.lon - (-0.7 + 4 * 0.0061)) < 1e-4);
    assert.ok(voyage.position.age_sec >= 0 && voyage.position.age_sec < 120, `age ${voyage.position.age_sec}`);
    assert.deepEqual([voyage.destination.reported, voyage.destination.port.id, voyage.destination.matched_by], ['NLRTM', 'NLRTM', 'unlocode']);
    assert.ok(Date.parse(voyage.eta.predicted) > now, 'an ETA ahead');
    assert.ok(voyage.eta.distance_nm > 100);
    assert.equal(voyage.eta.speed_source, 'ais_track');
    assert.equal(voyage.weather_hold.source, 'simulated');
    assert.equal(typeof voyage.weather_hold.active, 'boolean');
    const tide = voyage.tidal_window;
    assert.equal(tide.from, voyage.eta.predicted, 'the windows start at the ETA');
    assert.equal(Date.parse(tide.to) - Date.parse(tide.from), 24 * 3_600_000);
    assert.deepEqual([tide.draught_m, tide.charted_depth_m, tide.required_depth_m], [11.8, ROTTERDAM_CHANNEL_M, 12.98]);
    assert.ok(tide.station.distance_nm <= 50);
    assert.equal(tide.navigable, 'partly', 'a 12 m channel gives the 12.98 m needed only on the higher part of the tide');
    assert.ok(tide.next.start >= tide.from && tide.next.end > tide.next.start && tide.next.end <= tide.to);
    assert.deepEqual(entry.missing, []);
    assert.equal(entry.arrival, null);
    assert.equal(entry.landing, null);

    // At anchor off the Elbe: no speed to predict with, and Hamburg has no channel depth in the port data.
    const hamburg = await entryOf(hamburgId);
    assert.equal(hamburg.voyage.destination.port.id, 'DEHAM');
    assert.deepEqual(hamburg.missing.map((m: any) => [m.field, m.reason]), [['voyage.eta', 'no_speed'], ['voyage.tidal_window', 'charted_depth_unknown']]);
    assert.equal(hamburg.voyage.weather_hold.at_eta, null, 'no ETA to hold');
  });

  test('pages follow the fleet list; vehicle_type narrows it; a bad cursor is a 400', async () => {
    const first = await feed('?limit=1');
    assert.deepEqual(first.data.map((entry: any) => entry.vehicle.id), [aircraftId]);
    const second = await feed(`?limit=2&cursor=${first.next_cursor}`);
    assert.deepEqual(second.data.map((entry: any) => entry.vehicle.id), [vesselId, hamburgId]);
    assert.equal(second.next_cursor, null);
    assert.deepEqual((await feed('?vehicle_type=aircraft')).data.map((entry: any) => entry.vehicle.id), [aircraftId]);
    const bad = await service.call('GET', '/v3/fleet/feed?cursor=nonsense');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'invalid_cursor');
  });

  test('a vehicle removed leaves the feed; its open events are part of its entry', async () => {
    const removable = (await ok('POST', '/v3/fleet/vehicles', { vehicle_type: 'helicopter', registration: 'G-HELI', icao_type: 'EC35' })).id;
    assert.ok(await entryOf(removable));
    await ok('DELETE', `/v3/fleet/vehicles/${removable}`);
    assert.equal(await entryOf(removable), undefined);

    // A crosswind past a lowered threshold opens an event about the arrival, which names the vehicle.
    await ok('PUT', `/v3/fleet/vehicles/${aircraftId}/notification-settings`, { thresholds: { crosswind_kt_above: 5 } });
    await ok('POST', '/v3/aviation/airports/EGLL/metar', egllMetar('36020KT', 2), { 'content-type': 'text/plain' });
    const entry = await poll(async () => {
      const found = await entryOf(aircraftId);
      return found.open_events.some((event: any) => event.kind === 'landing.crosswind_above') ? found : undefined;
    }, 'the crosswind event in the entry');
    // The north wind may change the runway too (`landing.runway_changed`): every open event is the arrival's.
    assert.ok(entry.open_events.every((event: any) => event.subject.arrival_id === arrivalId), JSON.stringify(entry.open_events));
  });

  test("an organisation sees its own fleet only, and none of another owner's", async () => {
    const other = await organisationKey(service.config, 'pro');
    const theirs = (await ok('POST', '/v3/fleet/vehicles', { vehicle_type: 'vessel', mmsi: VESSEL_MMSI }, other.headers)).id;
    const their = await feed('', other.headers);
    assert.deepEqual(their.data.map((entry: any) => entry.vehicle.id), [theirs]);
    assert.equal(their.data[0].voyage.vessel.name, 'CHANNEL TRADER', 'the same vessel picture');
    assert.deepEqual(their.data[0].open_events, []);
    const ours = await feed();
    assert.ok(!ours.data.some((entry: any) => entry.vehicle.id === theirs));
    // Their cursor names our vehicle's key: it pages their list, never ours.
    const cursor = Buffer.from(JSON.stringify(['0000', 'veh_0'])).toString('base64url');
    assert.deepEqual((await feed(`?cursor=${cursor}`, other.headers)).data.map((entry: any) => entry.vehicle.id), [theirs]);
  });
});
