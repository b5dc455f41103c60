// The vessel rules over real storage (SQLite, and PostgreSQL when configured) and a real vessel store fed decoded AIS: zone entries
// and exits with the cap on other vessels, silences, voyage changes, port calls, encounters, fleet
// and zone changes, and a restart that raises nothing again.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../test/support/backends.ts';
import { EventStore, type LamisEvent } from '../events/index.ts';
import { FleetStore, registrationIndex } from '../fleet/vehicles.ts';
import type { MaritimeWatch } from '../maritime/index.ts';
import { vesselsAndPortsWatch } from '../maritime/watch.fixtures.ts';
import { rotterdamPorts } from '../maritime/ports/fixtures.ts';
import type { PortCall } from '../maritime/index.ts';
import { decoded, positionReport, staticVoyage } from '../maritime/vessels/fixtures.ts';
import { VesselStore } from '../maritime/vessels/store.ts';
import { MIGRATIONS } from '../migrations.ts';
import type { Bus } from '../platform/bus/index.ts';
import { createMemoryBus } from '../platform/bus/memory.ts';
import { Envelope, masterKey } from '../platform/crypto/index.ts';
import { ZoneStore, type ZoneGeometry } from '../zones/index.ts';
import { OTHER_EVENTS_CAP } from './zone-watch.ts';
import { VesselRules } from './vessel-rules.ts';

const OWNER = 'org_vessels';
const T0 = Date.UTC(2026, 4, 4, 6, 0, 0);
const MINUTE = 60_000;
/** A box in the North Sea, well outside Rotterdam's approach area. */
const BOX: ZoneGeometry = { type: 'Polygon', coordinates: [[[3.0, 52.3], [3.4, 52.3], [3.4, 52.5], [3.0, 52.5], [3.0, 52.3]]] };
const OUTSIDE = { lat: 52.2, lon: 3.2 };
const INSIDE = { lat: 52.4, lon: 3.2 };
const FLEET_SHIP = 244_660_001;

for (const backend of STORAGE_BACKENDS) describe(`vessel rules on ${backend.name}`, { skip: backend.skip }, () => {
  let storage: StorageHandle;
  let events: EventStore;
  let bus: Bus;
  let fleet: FleetStore;
  let zones: ZoneStore;
  let store: VesselStore;
  let watch: MaritimeWatch;
  let rules: VesselRules;

  const startRules = async (nowMs = T0) => {
    rules = new VesselRules({ database: storage.database, bus, fleet, zones, watch, onError: (error) => assert.fail(String(error)) });
    await rules.start(nowMs);
    await rules.settled();
  };
  const report = (mmsi: number, at: { lat: number; lon: number }, sog: number, atMs: number, status = 0) => {
    const change = store.apply(decoded(positionReport(mmsi, at.lat, at.lon, { speed: Math.round(sog * 10), status })), atMs, 'live')!;
    rules.observe(structuredClone(change));
  };
  const voyage = (mmsi: number, destination: string, draught: number, atMs: number) => {
    const change = store.apply(decoded(staticVoyage(mmsi, { destination, draught: Math.round(draught * 10) })), atMs, 'live')!;
    rules.observe(structuredClone(change));
  };
  const list = async (kind?: LamisEvent['kind'], owner = OWNER) => {
    await rules.settled();
    return (await events.page(owner, { kind, limit: 1000 })).reverse();
  };
  const states = async (kind: LamisEvent['kind'], owner = OWNER) => (await list(kind, owner)).map((event) => `${event.subject.id} ${event.state}`);

  before(async () => {
    storage = await backend.open(MIGRATIONS);
  });
  after(() => storage.cleanup());
  beforeEach(async () => {
    for (const table of ['events', 'zones', 'fleet_vehicles'] as const) await storage.database.db.deleteFrom(table).execute();
    bus = createMemoryBus((error) => assert.fail(String(error)));
    const { key } = masterKey({ dataDir: storage.dataDir });
    events = new EventStore(storage.database, bus);
    fleet = new FleetStore(storage.database, new Envelope(key), registrationIndex(key));
    zones = new ZoneStore(storage.database);
    store = new VesselStore();
    watch = vesselsAndPortsWatch(store, rotterdamPorts());
    await fleet.create(OWNER, { vehicle_type: 'vessel', mmsi: FLEET_SHIP });
  });

  test('a fleet vessel entering and leaving a zone: entered, then exited, which clears on re-entry; a restart raises nothing again', async () => {
    const zone = (await zones.create(OWNER, { name: 'North Sea box', geometry: BOX }))!;
    await startRules();
    report(FLEET_SHIP, OUTSIDE, 12, T0);
    report(FLEET_SHIP, INSIDE, 12, T0 + MINUTE);
    report(FLEET_SHIP, INSIDE, 12, T0 + 2 * MINUTE);
    // Another vessel the zone does not watch (no categories or flags) raises nothing.
    report(235_000_001, OUTSIDE, 10, T0);
    report(235_000_001, INSIDE, 10, T0 + MINUTE);
    const visit = `${zone.id}/${FLEET_SHIP}`;
    assert.deepEqual(await states('vessel.zone_entered'), [`${visit} open`]);
    const [entered] = await list('vessel.zone_entered');
    assert.deepEqual(entered!.subject, { type: 'zone_vessel', id: visit, mmsi: FLEET_SHIP, zone_id: zone.id, vehicle_id: entered!.subject.vehicle_id });
    assert.match(entered!.summary, /entered the zone North Sea box/);

    // A restart finds the vessel inside with its open event, and the exit still clears it.
    await startRules(T0 + 3 * MINUTE);
    report(FLEET_SHIP, INSIDE, 12, T0 + 3 * MINUTE);
    assert.deepEqual(await states('vessel.zone_entered'), [`${visit} open`]);
    report(FLEET_SHIP, OUTSIDE, 12, T0 + 4 * MINUTE);
    assert.deepEqual(await states('vessel.zone_entered'), [`${visit} cleared`]);
    assert.deepEqual(await states('vessel.zone_exited'), [`${visit} open`]);
    report(FLEET_SHIP, INSIDE, 12, T0 + 5 * MINUTE);
    assert.deepEqual(await states('vessel.zone_exited'), [`${visit} cleared`]);
    assert.deepEqual(await states('vessel.zone_entered'), [`${visit} cleared`, `${visit} open`]);
  });

  test('a second instance that comes late to an entry and exit the first has written raises neither again', async () => {
    const zone = (await zones.create(OWNER, { name: 'North Sea box', geometry: BOX }))!;
    await startRules();
    const first = rules;
    const late = new VesselRules({ database: storage.database, bus, fleet, zones, watch, onError: (error) => assert.fail(String(error)) });
    await late.start(T0);
    // The same reports, as the bus brings both instances each of them.
    const changes = [OUTSIDE, INSIDE, OUTSIDE].map((at, i) => structuredClone(store.apply(decoded(positionReport(FLEET_SHIP, at.lat, at.lon, { speed: 120 })), T0 + i * MINUTE, 'live')!));
    for (const change of changes) first.observe(structuredClone(change));
    await first.settled();
    for (const change of changes) late.observe(structuredClone(change));
    await late.settled();
    const visit = `${zone.id}/${FLEET_SHIP}`;
    assert.deepEqual(await states('vessel.zone_entered'), [`${visit} cleared`]);
    assert.deepEqual(await states('vessel.zone_exited'), [`${visit} open`]);
    // Back inside, later than anything either has seen: a new entry, once.
    const back = store.apply(decoded(positionReport(FLEET_SHIP, INSIDE.lat, INSIDE.lon, { speed: 120 })), T0 + 3 * MINUTE, 'live')!;
    for (const instance of [first, late]) instance.observe(structuredClone(back));
    await late.settled();
    assert.deepEqual(await states('vessel.zone_entered'), [`${visit} cleared`, `${visit} open`]);
  });

  test('a zone drawn round a vessel takes it as inside without an event; a zone removed clears its events', async () => {
    await startRules();
    report(FLEET_SHIP, INSIDE, 12, T0);
    const zone = (await zones.create(OWNER, { name: 'Drawn round it', geometry: BOX }))!;
    await rules.zoneChanged({ owner: OWNER, zone_id: zone.id });
    assert.deepEqual(rules.zonesOf(FLEET_SHIP), [zone.id]);
    report(FLEET_SHIP, OUTSIDE, 12, T0 + MINUTE);
    assert.deepEqual(await states('vessel.zone_entered'), []);
    assert.deepEqual(await states('vessel.zone_exited'), [`${zone.id}/${FLEET_SHIP} open`]);
    await zones.delete(OWNER, zone.id);
    await rules.zoneChanged({ owner: OWNER, zone_id: zone.id });
    assert.deepEqual(await states('vessel.zone_exited'), [`${zone.id}/${FLEET_SHIP} cleared`]);
  });

  test(`other vessels a zone watches by category raise at most ${OTHER_EVENTS_CAP} open events, then one capped event`, async () => {
    const zone = (await zones.create(OWNER, { name: 'Busy', geometry: BOX, applies_to: { fleet: true, categories: ['CARGO'] } }))!;
    await startRules();
    const others = Array.from({ length: OTHER_EVENTS_CAP + 2 }, (_, i) => 235_100_000 + i);
    for (const mmsi of others) store.apply(decoded(staticVoyage(mmsi, { shiptype: 70 })), T0, 'live');
    for (const mmsi of others) report(mmsi, OUTSIDE, 10, T0);
    for (const mmsi of others) report(mmsi, INSIDE, 10, T0 + MINUTE);
    // A tanker is not watched.
    store.apply(decoded(staticVoyage(235_200_000, { shiptype: 80 })), T0, 'live');
    report(235_200_000, OUTSIDE, 10, T0);
    report(235_200_000, INSIDE, 10, T0 + MINUTE);
    const entered = await list('vessel.zone_entered');
    assert.equal(entered.filter((event) => event.subject.type === 'zone_vessel').length, OTHER_EVENTS_CAP);
    const capped = entered.filter((event) => event.subject.type === 'zone');
    assert.deepEqual(capped.map((event) => [event.subject.id, event.state, event.data.capped]), [[zone.id, 'open', true]]);
    // The fleet's own vessel is never capped.
    report(FLEET_SHIP, OUTSIDE, 10, T0);
    report(FLEET_SHIP, INSIDE, 10, T0 + MINUTE);
    assert.equal((await states('vessel.zone_entered')).filter((state) => state === `${zone.id}/${FLEET_SHIP} open`).length, 1);
    // Exits replace entered events one for one; once they expire a day later the zone is below the cap.
    for (const mmsi of others.slice(0, 3)) report(mmsi, OUTSIDE, 10, T0 + 2 * MINUTE);
    assert.equal((await list('vessel.zone_entered')).find((event) => event.subject.type === 'zone')!.state, 'open');
    rules.sweep(T0 + 2 * MINUTE + 24 * 60 * MINUTE);
    assert.equal((await list('vessel.zone_entered')).find((event) => event.subject.type === 'zone')!.state, 'cleared');
    assert.equal((await list('vessel.zone_exited')).filter((event) => event.state === 'open').length, 0);
  });

  test('a ship whose static data first name a watched category where it lies is inside without an entry', async () => {
    const zone = (await zones.create(OWNER, { name: 'Cargo box', geometry: BOX, applies_to: { fleet: true, categories: ['CARGO'] } }))!;
    await startRules();
    const ship = 235_500_000;
    report(ship, INSIDE, 10, T0);
    assert.deepEqual(rules.zonesOf(ship), []);
    rules.observe(structuredClone(store.apply(decoded(staticVoyage(ship, { shiptype: 70 })), T0 + MINUTE, 'live')!));
    assert.deepEqual(rules.zonesOf(ship), [zone.id]);
    report(ship, INSIDE, 10, T0 + 2 * MINUTE);
    report(ship, OUTSIDE, 10, T0 + 3 * MINUTE);
    assert.deepEqual(await states('vessel.zone_entered'), []);
    const [exited] = await list('vessel.zone_exited');
    assert.deepEqual([exited!.subject.id, exited!.state, exited!.data.fleet, exited!.subject.vehicle_id], [`${zone.id}/${ship}`, 'open', false, undefined]);
  });

  test('a fleet vessel under way silent for over 15 minutes: a gap, cleared with its length when it reports again', async () => {
    await startRules();
    report(FLEET_SHIP, OUTSIDE, 12, T0);
    rules.sweep(T0 + 15 * MINUTE);
    assert.deepEqual(await states('vessel.ais_gap'), []);
    rules.sweep(T0 + 16 * MINUTE);
    const [gap] = await list('vessel.ais_gap');
    assert.deepEqual([gap!.state, gap!.severity, gap!.data.silent_minutes, gap!.data.last_heard_at], ['open', 'warning', 16, new Date(T0).toISOString()]);
    // A restart holds the open gap rather than raising another.
    await startRules(T0 + 17 * MINUTE);
    rules.sweep(T0 + 18 * MINUTE);
    report(FLEET_SHIP, OUTSIDE, 12, T0 + 20 * MINUTE);
    const [cleared, ...rest] = await list('vessel.ais_gap');
    assert.deepEqual([cleared!.state, cleared!.data.silent_minutes, rest.length], ['cleared', 20, 0]);
    // A moored vessel may be silent.
    report(FLEET_SHIP, OUTSIDE, 0, T0 + 21 * MINUTE, 5);
    rules.sweep(T0 + 60 * MINUTE);
    assert.equal((await list('vessel.ais_gap')).length, 1);
  });

  test('a new destination or draught opens voyage_changed, later changes update it, it clears after a day', async () => {
    await startRules();
    voyage(FLEET_SHIP, 'NLRTM', 11.8, T0);
    voyage(FLEET_SHIP, 'NLRTM', 11.8, T0 + MINUTE);
    assert.deepEqual(await states('vessel.voyage_changed'), []);
    voyage(FLEET_SHIP, 'DEHAM', 11.8, T0 + 2 * MINUTE);
    voyage(FLEET_SHIP, 'DEHAM', 9.5, T0 + 3 * MINUTE);
    const [changed] = await list('vessel.voyage_changed');
    assert.deepEqual(changed!.data.destination, { old: 'NLRTM', new: 'DEHAM' });
    assert.deepEqual(changed!.data.draught_m, { old: 11.8, new: 9.5 });
    assert.match(changed!.summary, /destination from NLRTM to DEHAM and its draught from 11.8 m to 9.5 m/);
    rules.sweep(T0 + 2 * MINUTE + 24 * 60 * MINUTE);
    assert.deepEqual(await states('vessel.voyage_changed'), [`${FLEET_SHIP} cleared`]);
  });

  test('port calls: the arrival is open while in port, the departure until the next arrival', async () => {
    await startRules();
    const call = (id: string, portId: string, departed: string | null, arrivedMs = T0): PortCall => ({
      id, mmsi: FLEET_SHIP, port_id: portId, vessel_name: 'NORDIC SPIRIT', imo: null, ship_type: 70, arrived_at: new Date(arrivedMs).toISOString(),
      arrival_observed: true, arrival_status: 'moored', arrival_lat: 51.9, arrival_lon: 4.48, berthed_at: null, berth_lat: null, berth_lon: null,
      departed_at: departed, departure_observed: departed === null ? null : true, draught_arrival_m: 11.8, draught_departure_m: null, source: 'live',
    });
    rules.portCall({ kind: 'arrival', call: call('call_a', 'NLRTM', null) });
    rules.portCall({ kind: 'arrival', call: call('call_a', 'NLRTM', null) });
    rules.portCall({ kind: 'arrival', call: call('call_x', 'NLRTM', null) });
    const [arrival] = await list('vessel.port_arrival');
    assert.deepEqual([arrival!.subject.port_id, arrival!.data.port_name, arrival!.summary], ['NLRTM', 'Rotterdam', 'NORDIC SPIRIT arrived at Rotterdam.']);
    rules.portCall({ kind: 'departure', call: call('call_a', 'NLRTM', new Date(T0 + 60 * MINUTE).toISOString()) });
    assert.deepEqual(await states('vessel.port_arrival'), [`${FLEET_SHIP} cleared`]);
    assert.deepEqual(await states('vessel.port_departure'), [`${FLEET_SHIP} open`]);
    rules.portCall({ kind: 'arrival', call: call('call_b', 'DEHAM', null, T0 + 30 * 60 * MINUTE) });
    assert.deepEqual(await states('vessel.port_departure'), [`${FLEET_SHIP} cleared`]);
    assert.deepEqual(await states('vessel.port_arrival'), [`${FLEET_SHIP} cleared`, `${FLEET_SHIP} open`]);
    // Another organisation's events are its own: it has no such vessel.
    assert.deepEqual(await states('vessel.port_arrival', 'org_other'), []);
  });

  test('an encounter: close and slow for over 30 minutes outside port opens it; parting clears it; in port nothing', async () => {
    await startRules();
    const other = 235_300_000;
    const near = { lat: OUTSIDE.lat + 0.002, lon: OUTSIDE.lon };
    for (let minute = 0; minute <= 30; minute += 5) {
      report(FLEET_SHIP, OUTSIDE, 0.5, T0 + minute * MINUTE);
      report(other, near, 0.8, T0 + minute * MINUTE);
    }
    assert.deepEqual(await states('vessel.encounter'), []);
    report(other, near, 0.8, T0 + 31 * MINUTE);
    const [encounter] = await list('vessel.encounter');
    assert.deepEqual([encounter!.subject.id, encounter!.state, encounter!.severity, encounter!.subject.mmsi], [`${other}-${FLEET_SHIP}`, 'open', 'warning', FLEET_SHIP]);
    assert.equal(encounter!.data.distance_m, 222);
    report(other, { lat: OUTSIDE.lat + 0.007, lon: OUTSIDE.lon }, 1, T0 + 32 * MINUTE);
    assert.deepEqual(await states('vessel.encounter'), [`${other}-${FLEET_SHIP} open`]);
    report(other, { lat: OUTSIDE.lat + 0.02, lon: OUTSIDE.lon }, 6, T0 + 35 * MINUTE);
    assert.deepEqual(await states('vessel.encounter'), [`${other}-${FLEET_SHIP} cleared`]);

    // Side by side in Rotterdam's approach area is no encounter.
    const port = { lat: 51.9, lon: 4.48 };
    for (let minute = 40; minute <= 90; minute += 5) {
      report(FLEET_SHIP, port, 0, T0 + minute * MINUTE, 5);
      report(other, { lat: port.lat + 0.001, lon: port.lon }, 0, T0 + minute * MINUTE, 5);
    }
    assert.equal((await list('vessel.encounter')).length, 1);
  });

  test('a vessel added to the fleet is watched from then on; removed, its open events clear', async () => {
    const zone = (await zones.create(OWNER, { name: 'Box', geometry: BOX }))!;
    await startRules();
    const added = 235_400_000;
    report(added, OUTSIDE, 12, T0);
    const { vehicle } = (await fleet.create(OWNER, { vehicle_type: 'vessel', mmsi: added })) as { vehicle: { id: string } };
    await rules.fleetChanged({ org_id: OWNER, vehicle_id: vehicle.id, change: 'created' });
    report(added, INSIDE, 12, T0 + MINUTE);
    assert.deepEqual(await states('vessel.zone_entered'), [`${zone.id}/${added} open`]);
    await fleet.delete(OWNER, vehicle.id);
    await rules.fleetChanged({ org_id: OWNER, vehicle_id: vehicle.id, change: 'deleted' });
    assert.deepEqual(await states('vessel.zone_entered'), [`${zone.id}/${added} cleared`]);
    report(added, OUTSIDE, 12, T0 + 2 * MINUTE);
    assert.deepEqual(await states('vessel.zone_exited'), []);
  });
});
