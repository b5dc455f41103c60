// The planned-arrival store on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL): arrivals
// per owner and vehicle, the watched/archived state from the clock, paging by ETA, and removal
// with the vehicle.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../test/support/backends.ts';
import { Envelope, masterKey } from '../platform/crypto/index.ts';
import { fleetMigrations } from './migrations/index.ts';
import { ArrivalStore, WATCH_AFTER_ETA_MS, type ArrivalCreateResult, type PlannedArrival } from './arrivals.ts';
import { FleetStore, registrationIndex } from './vehicles.ts';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const HOUR = 3_600_000;

function created(result: ArrivalCreateResult): PlannedArrival {
  return result.status === 'created' ? result.arrival : assert.fail(JSON.stringify(result));
}

for (const backend of STORAGE_BACKENDS) {
  describe(`planned arrivals on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let fleet: FleetStore;
    let arrivals: ArrivalStore;
    let owner = 0;
    const newOwner = () => `org_arrivals${++owner}`;
    const vehicle = async (org: string, registration: string) => {
      const result = await fleet.create(org, { vehicle_type: 'aircraft', registration, icao_type: 'A320' });
      return result.status === 'created' ? result.vehicle.id : assert.fail(result.status);
    };

    before(async () => {
      handle = await backend.open(fleetMigrations);
      assert.deepEqual(handle.migrated, ['0007_fleet', '0016_planned_arrivals']);
      const { key } = masterKey({ dataDir: handle.dataDir });
      fleet = new FleetStore(handle.database, new Envelope(key), registrationIndex(key));
      arrivals = new ArrivalStore(handle.database);
    });
    after(() => handle.cleanup());

    test('an arrival is watched until an hour after its ETA, then archived', async () => {
      const org = newOwner();
      const id = await vehicle(org, 'G-EUPT');
      const arrival = created(await arrivals.create(org, id, 'egll', NOW + HOUR, NOW));
      assert.match(arrival.id, /^arr_[0-9A-Za-z]{16}$/);
      assert.deepEqual([arrival.destination_icao, arrival.eta_utc, arrival.state, arrival.watched_until],
        ['EGLL', '2026-11-21T13:00:00.000Z', 'watched', '2026-11-21T14:00:00.000Z']);
      const at = (nowMs: number) => arrivals.get(org, id, arrival.id, nowMs).then((a) => a?.state);
      assert.equal(await at(NOW + 2 * HOUR - 1), 'watched');
      assert.equal(await at(NOW + 2 * HOUR), 'archived');
      const listed = async (state: 'watched' | 'archived', nowMs: number) =>
        (await arrivals.list(org, id, { state, limit: 10, nowMs }))!.data.map((a) => a.id);
      assert.deepEqual([await listed('watched', NOW + 2 * HOUR - 1), await listed('archived', NOW + 2 * HOUR - 1)], [[arrival.id], []]);
      assert.deepEqual([await listed('watched', NOW + 2 * HOUR), await listed('archived', NOW + 2 * HOUR)], [[], [arrival.id]]);
      assert.equal(WATCH_AFTER_ETA_MS, HOUR);
    });

    test('lists by ETA, a page at a time', async () => {
      const org = newOwner();
      const id = await vehicle(org, 'G-EUPU');
      const etas = [5, 1, 3, 2, 4].map((h) => NOW + h * HOUR);
      for (const eta of etas) created(await arrivals.create(org, id, 'EGKK', eta, NOW));
      const seen: string[] = [];
      let after: readonly [string, string] | undefined;
      do {
        const page = (await arrivals.list(org, id, { state: 'watched', limit: 2, after, nowMs: NOW }))!;
        seen.push(...page.data.map((a) => a.eta_utc));
        after = page.next ?? undefined;
      } while (after);
      assert.deepEqual(seen, [...etas].sort((a, b) => a - b).map((ms) => new Date(ms).toISOString()));
    });

    test('another owner, another vehicle or a vessel: nothing found, nothing changed', async () => {
      const org = newOwner();
      const other = newOwner();
      const id = await vehicle(org, 'G-EUPV');
      const second = await vehicle(org, 'G-EUPW');
      const ship = await fleet.create(org, { vehicle_type: 'vessel', mmsi: 235012345 });
      assert.equal(ship.status, 'created');
      if (ship.status !== 'created') return;
      assert.deepEqual(await arrivals.create(org, ship.vehicle.id, 'EGLL', NOW, NOW), { status: 'cannot_land', vehicle_type: 'vessel' });
      assert.deepEqual(await arrivals.create(other, id, 'EGLL', NOW, NOW), { status: 'vehicle_not_found' });
      const arrival = created(await arrivals.create(org, id, 'EGLL', NOW + HOUR, NOW));
      assert.equal(await arrivals.list(other, id, { state: 'watched', limit: 10, nowMs: NOW }), null);
      for (const [who, vehicleId] of [[other, id], [org, second]] as const) {
        assert.equal(await arrivals.get(who, vehicleId, arrival.id, NOW), null);
        assert.equal(await arrivals.reschedule(who, vehicleId, arrival.id, NOW, NOW), null);
        assert.equal(await arrivals.delete(who, vehicleId, arrival.id), false);
      }
      assert.equal((await arrivals.get(org, id, arrival.id, NOW))?.eta_utc, arrival.eta_utc);
    });

    test('the ETA moves, and arrivals go with their vehicle', async () => {
      const org = newOwner();
      const id = await vehicle(org, 'G-EUPX');
      const arrival = created(await arrivals.create(org, id, 'EGLL', NOW + HOUR, NOW));
      const moved = await arrivals.reschedule(org, id, arrival.id, NOW + 3 * HOUR, NOW + 1000);
      assert.deepEqual([moved?.eta_utc, moved?.updated_at], ['2026-11-21T15:00:00.000Z', '2026-11-21T12:00:01.000Z']);
      assert.equal(await fleet.delete(org, id), true);
      assert.equal(await arrivals.get(org, id, arrival.id, NOW), null);
      assert.equal(await arrivals.delete(org, id, arrival.id), false);
    });
  });
}
