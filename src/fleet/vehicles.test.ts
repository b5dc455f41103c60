// The fleet store on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL): vehicles per owner,
// validation per vehicle type, registrations sealed and found through the blind index, and
// notification settings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../test/support/backends.ts';
import { testConfig } from '../../test/support/server.ts';
import { Envelope, EnvelopeError, masterKey } from '../platform/crypto/index.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { imoFromPrefix } from '../maritime/vessels/reference/index.ts';
import { fleetMigration } from './migrations/0007_fleet.ts';
import { FleetValidationError } from './validation.ts';
import { FleetStore, normaliseRegistration, registrationIndex, type CreateResult, type FleetVehicle, type VehicleInput } from './vehicles.ts';

const A320 = { vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320' } as const;
const SHIP = { vehicle_type: 'vessel', mmsi: 235012345 } as const;

function storeFor(database: StorageHandle['database'], dataDir: string): FleetStore {
  const { key } = masterKey({ dataDir });
  return new FleetStore(database, new Envelope(key), registrationIndex(key));
}

function created(result: CreateResult, message?: string): FleetVehicle {
  assert.equal(result.status, 'created', message);
  return result.status === 'created' ? result.vehicle : assert.fail();
}

/** The fields each invalid input is refused for. */
function refused(fields: string[]): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof FleetValidationError, String(error));
    assert.deepEqual(error.issues.map((issue) => issue.field).sort(), [...fields].sort());
    return true;
  };
}

test('registrations normalise to upper case without spaces or hyphens', () => {
  assert.equal(normaliseRegistration(' g-eu pt '), 'GEUPT');
  assert.equal(normaliseRegistration('N12345'), 'N12345');
  const index = registrationIndex(Buffer.alloc(32, 7));
  assert.equal(index('G-EUPT'), index('geupt'));
  assert.notEqual(index('G-EUPT'), index('G-EUPU'));
});

for (const backend of STORAGE_BACKENDS) {
  describe(`fleet store on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let fleet: FleetStore;
    let owner = 0;
    /** Each test gets owners of its own, so lists hold only what it made. */
    const newOwner = () => `org_test${++owner}`;

    before(async () => {
      handle = await backend.open([fleetMigration]);
      assert.deepEqual(handle.migrated, ['0007_fleet']);
      fleet = storeFor(handle.database, handle.dataDir);
    });
    after(() => handle.cleanup());

    test('creates each vehicle type with its fields normalised, and reads it back', async () => {
      const org = newOwner();
      const plane = created(await fleet.create(org, {
        vehicle_type: 'aircraft', registration: ' g-eupt ', icao_type: 'a320 ', home_base_icao: 'egll',
        operational_regions: ['egtt', 'EG', 'E', 'EGTT'], crosswind_limit_kt: 25.5,
      }));
      assert.match(plane.id, /^veh_[0-9A-Za-z]{16}$/);
      assert.deepEqual({ ...plane, id: 'x', created_at: 'x', updated_at: 'x' }, {
        id: 'x', vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320', home_base_icao: 'EGLL',
        operational_regions: ['EGTT', 'EG', 'E'], mmsi: null, imo: null, crosswind_limit_kt: 25.5, min_runway_m: null,
        created_at: 'x', updated_at: 'x',
      });
      assert.equal(plane.created_at, plane.updated_at);
      assert.deepEqual(await fleet.get(org, plane.id), plane);

      const helicopter = created(await fleet.create(org, { vehicle_type: 'helicopter', registration: 'G-HEMS', icao_type: 'EC35' }));
      assert.equal(helicopter.icao_type, 'EC35');
      const ship = created(await fleet.create(org, { vehicle_type: 'vessel', mmsi: 235012345, imo: 9074729, registration: null }));
      assert.deepEqual([ship.mmsi, ship.imo, ship.registration, ship.icao_type], [235012345, 9074729, null, null]);
      const tender = created(await fleet.create(org, { vehicle_type: 'vessel', mmsi: 982351234, registration: 'MXAB3' }));
      assert.equal(tender.registration, 'MXAB3');
      assert.equal(await fleet.get(newOwner(), plane.id), null, 'another owner does not see it');
    });

    test('lists in creation order, a page at a time, filtered by type, each owner its own', async () => {
      const [org, other] = [newOwner(), newOwner()];
      const made: FleetVehicle[] = [];
      for (let i = 0; i < 5; i++) made.push(created(await fleet.create(org, { ...A320, registration: `G-TST${i}` })));
      made.push(created(await fleet.create(org, SHIP)));
      created(await fleet.create(other, A320));

      const seen: FleetVehicle[] = [];
      let after: readonly [string, string] | undefined;
      let pages = 0;
      do {
        const page = await fleet.list(org, { limit: 2, after });
        assert.ok(page.data.length <= 2);
        seen.push(...page.data);
        after = page.next ?? undefined;
        pages++;
      } while (after !== undefined);
      assert.equal(pages, 3);
      // Ties within a millisecond go by id, in the database's text order.
      assert.deepEqual(seen.map((v) => v.id), (await fleet.list(org, { limit: 10 })).data.map((v) => v.id));
      assert.deepEqual(seen.map((v) => v.id).sort(), made.map((v) => v.id).sort());
      assert.deepEqual(seen.map((v) => v.created_at), made.map((v) => v.created_at));

      const vessels = await fleet.list(org, { vehicle_type: 'vessel', limit: 10 });
      assert.deepEqual(vessels.data.map((v) => v.id), [made[5]!.id]);
      assert.equal(vessels.next, null);
      assert.equal((await fleet.list(other, { limit: 10 })).data.length, 1);
    });

    test('a page after a deleted item goes on where it stopped', async () => {
      const org = newOwner();
      for (let i = 0; i < 4; i++) created(await fleet.create(org, { ...A320, registration: `G-PAG${i}` }));
      const all = (await fleet.list(org, { limit: 4 })).data.map((v) => v.id);
      const first = await fleet.list(org, { limit: 2 });
      assert.deepEqual(first.data.map((v) => v.id), all.slice(0, 2));
      assert.ok(await fleet.delete(org, all[1]!));
      const second = await fleet.list(org, { limit: 2, after: first.next! });
      assert.deepEqual(second.data.map((v) => v.id), all.slice(2, 4));
      assert.equal(second.next, null);
    });

    test('a registration is unique per owner, however it is written', async () => {
      const [org, other] = [newOwner(), newOwner()];
      created(await fleet.create(org, A320));
      for (const writing of ['G-EUPT', 'geupt', ' g eu-pt ']) {
        assert.deepEqual(await fleet.create(org, { ...A320, registration: writing }), { status: 'duplicate_registration' }, writing);
      }
      created(await fleet.create(other, A320));
      created(await fleet.create(org, SHIP));
      created(await fleet.create(org, SHIP), 'vessels without a registration do not collide');
    });

    test('concurrent creations of one registration or under one key make one vehicle', async () => {
      const org = newOwner();
      const statuses = async (results: Promise<CreateResult>[]) => (await Promise.all(results)).map((r) => r.status).sort();
      const writings = ['G-RACE', 'GRACE', 'g-race', 'G RACE', 'g race'];
      assert.deepEqual(await statuses(writings.map((registration) => fleet.create(org, { ...A320, registration }))),
        ['created', 'duplicate_registration', 'duplicate_registration', 'duplicate_registration', 'duplicate_registration']);
      const retries = Array.from({ length: 5 }, () => fleet.create(org, { ...A320, registration: 'G-KEYS' }, 'same-key'));
      assert.deepEqual(await statuses(retries), ['created', 'existing', 'existing', 'existing', 'existing']);
      assert.equal((await fleet.list(org, { limit: 10 })).data.length, 2);

      const others = [created(await fleet.create(org, SHIP)), created(await fleet.create(org, SHIP))];
      const renames = others.map((vessel) => fleet.update(org, vessel.id, { registration: 'G-RACE' }));
      assert.deepEqual((await Promise.all(renames)).map((r) => r.status), ['duplicate_registration', 'duplicate_registration']);
      const free = others.map((vessel) => fleet.update(org, vessel.id, { registration: 'MFREE' }));
      assert.deepEqual((await Promise.all(free)).map((r) => r.status).sort(), ['duplicate_registration', 'updated']);
    });

    test('finds a vehicle by its registration in any spelling, only in its owner\'s fleet', async () => {
      const [org, other] = [newOwner(), newOwner()];
      const plane = created(await fleet.create(org, { ...A320, registration: 'D-AIZB' }));
      for (const writing of ['D-AIZB', 'daizb', ' d aizb', 'D-AI-ZB']) {
        assert.equal((await fleet.findByRegistration(org, writing))?.id, plane.id, writing);
      }
      assert.equal(await fleet.findByRegistration(org, 'D-AIZC'), null);
      assert.equal(await fleet.findByRegistration(other, 'D-AIZB'), null);
      assert.equal(await fleet.findByRegistration(org, ' - '), null);
    });

    test('a registration looked up is held for its owner until its vehicles change: at once on this instance, once told on another', async () => {
      const [org, other] = [newOwner(), newOwner()];
      assert.equal(await fleet.findByRegistration(org, 'G-HELD'), null);
      const plane = created(await fleet.create(org, { ...A320, registration: 'G-HELD' }));
      assert.equal((await fleet.findByRegistration(org, 'gheld'))?.id, plane.id, 'created: found at once');
      assert.equal(await fleet.findByRegistration(other, 'G-HELD'), null, 'not in another owner\'s fleet');
      assert.equal((await fleet.update(org, plane.id, { registration: 'G-MOVE', crosswind_limit_kt: 12 })).status, 'updated');
      assert.equal(await fleet.findByRegistration(org, 'G-HELD'), null, 'renamed: the old registration is gone at once');
      assert.equal((await fleet.findByRegistration(org, 'G-MOVE'))?.crosswind_limit_kt, 12);
      assert.equal(await fleet.delete(org, plane.id), true);
      assert.equal(await fleet.findByRegistration(org, 'G-MOVE'), null, 'deleted: gone at once');

      // Another instance on the same storage holds what it found until it is told of the change.
      const elsewhere = storeFor(handle.database, handle.dataDir);
      assert.equal(await elsewhere.findByRegistration(org, 'G-LATE'), null);
      const late = created(await fleet.create(org, { ...A320, registration: 'G-LATE' }));
      assert.equal(await elsewhere.findByRegistration(org, 'G-LATE'), null, 'held until told');
      elsewhere.forgetOwner(other);
      assert.equal(await elsewhere.findByRegistration(org, 'G-LATE'), null, 'another owner\'s change leaves it');
      elsewhere.forgetOwner(org);
      assert.equal((await elsewhere.findByRegistration(org, 'G-LATE'))?.id, late.id);
      assert.equal(await elsewhere.findByRegistration(other, 'G-LATE'), null);
    });

    test('updates only the fields given, clears with null, and checks the whole vehicle again', async () => {
      const org = newOwner();
      const plane = created(await fleet.create(org, { ...A320, home_base_icao: 'EGLL', min_runway_m: 1800 }));
      created(await fleet.create(org, { ...A320, registration: 'G-EUPU' }));

      const changed = await fleet.update(org, plane.id, { crosswind_limit_kt: 20, home_base_icao: null, registration: 'g-eupt' });
      assert.equal(changed.status, 'updated');
      const vehicle = changed.status === 'updated' ? changed.vehicle : assert.fail();
      assert.deepEqual([vehicle.crosswind_limit_kt, vehicle.home_base_icao, vehicle.min_runway_m, vehicle.registration], [20, null, 1800, 'G-EUPT']);
      assert.ok(vehicle.updated_at >= plane.updated_at);
      assert.equal(vehicle.created_at, plane.created_at);
      assert.deepEqual(await fleet.get(org, plane.id), vehicle);

      assert.deepEqual(await fleet.update(org, plane.id, { registration: 'GEUPU' }), { status: 'duplicate_registration' });
      await assert.rejects(fleet.update(org, plane.id, { vehicle_type: 'vessel' }), refused(['icao_type', 'crosswind_limit_kt', 'min_runway_m', 'mmsi']));
      await assert.rejects(fleet.update(org, plane.id, { registration: null }), refused(['registration']));
      assert.deepEqual(await fleet.update(newOwner(), plane.id, { crosswind_limit_kt: 10 }), { status: 'not_found' });
      assert.deepEqual(await fleet.update(org, 'veh_missing', { crosswind_limit_kt: 10 }), { status: 'not_found' });

      const moved = await fleet.update(org, plane.id, { registration: 'G-NEWR' });
      assert.equal(moved.status, 'updated');
      assert.equal(await fleet.findByRegistration(org, 'G-EUPT'), null, 'the old registration no longer finds it');
      assert.equal((await fleet.findByRegistration(org, 'GNEWR'))?.id, plane.id);
    });

    test('deletes only the owner\'s vehicle', async () => {
      const [org, other] = [newOwner(), newOwner()];
      const plane = created(await fleet.create(org, A320));
      assert.equal(await fleet.delete(other, plane.id), false);
      assert.ok(await fleet.get(org, plane.id));
      assert.equal(await fleet.delete(org, plane.id), true);
      assert.equal(await fleet.get(org, plane.id), null);
      assert.equal(await fleet.delete(org, plane.id), false);
      created(await fleet.create(org, A320), 'the registration is free again');
    });

    test('an Idempotency-Key returns its vehicle on retry and refuses other fields', async () => {
      const [org, other] = [newOwner(), newOwner()];
      const first = created(await fleet.create(org, A320, 'add-1'));
      assert.deepEqual(await fleet.create(org, { ...A320, registration: 'g eupt' }, 'add-1'), { status: 'existing', vehicle: first });
      const reused = await fleet.create(org, { ...A320, registration: 'G-EUPV' }, 'add-1');
      assert.equal(reused.status, 'key_reused');
      assert.equal(reused.status === 'key_reused' && reused.vehicle.id, first.id);
      assert.equal((await fleet.create(org, { ...A320, icao_type: 'A321' }, 'add-1')).status, 'key_reused');
      created(await fleet.create(other, A320, 'add-1'));
      assert.equal((await fleet.list(org, { limit: 10 })).data.length, 1);
    });

    test('each invalid field is named', async () => {
      const org = newOwner();
      const cases: [VehicleInput, string[]][] = [
        [{ vehicle_type: 'aircraft' }, ['registration', 'icao_type']],
        [{ vehicle_type: 'helicopter', registration: 'G-HEMS' }, ['icao_type']],
        [{ ...A320, registration: 'G EUPT!' }, ['registration']],
        [{ ...A320, registration: '-GEUPT' }, ['registration']],
        [{ ...A320, registration: 'A'.repeat(17) }, ['registration']],
        [{ ...A320, icao_type: '320' }, ['icao_type']],
        [{ ...A320, icao_type: 'A32000' }, ['icao_type']],
        [{ ...A320, icao_type: 'EC35' }, ['icao_type']],
        [{ vehicle_type: 'helicopter', registration: 'G-HEMS', icao_type: 'A320' }, ['icao_type']],
        [{ ...A320, icao_type: 'ZZ99' }, ['icao_type']],
        [{ ...A320, icao_type: 'ZZ99', crosswind_limit_kt: 20 }, ['icao_type']],
        [{ ...A320, home_base_icao: 'EG' }, ['home_base_icao']],
        [{ ...A320, home_base_icao: 'EG-LL' }, ['home_base_icao']],
        [{ ...A320, crosswind_limit_kt: 0 }, ['crosswind_limit_kt']],
        [{ ...A320, crosswind_limit_kt: 61 }, ['crosswind_limit_kt']],
        [{ ...A320, min_runway_m: 1200.5 }, ['min_runway_m']],
        [{ ...A320, min_runway_m: 6001 }, ['min_runway_m']],
        [{ ...A320, mmsi: 235012345, imo: 9074729 }, ['mmsi', 'imo']],
        [{ ...A320, operational_regions: ['EGT', 'E1', 'EGTT', 'EGTTX'] }, ['operational_regions/0', 'operational_regions/1', 'operational_regions/3']],
        [{ ...A320, operational_regions: Array.from({ length: 51 }, (_, i) => `E${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}A`) }, ['operational_regions']],
        [{ vehicle_type: 'vessel' }, ['mmsi']],
        [{ ...SHIP, mmsi: 12345 }, ['mmsi']],
        [{ ...SHIP, mmsi: 2320001 }, ['mmsi']],
        [{ ...SHIP, mmsi: 992351234 }, ['mmsi']],
        [{ ...SHIP, mmsi: 1_000_000_000 }, ['mmsi']],
        [{ ...SHIP, imo: 9074728 }, ['imo']],
        [{ ...SHIP, imo: 907472 }, ['imo']],
        [{ ...SHIP, icao_type: 'A320', home_base_icao: 'EGLL', crosswind_limit_kt: 20, min_runway_m: 100 }, ['icao_type', 'home_base_icao', 'crosswind_limit_kt', 'min_runway_m']],
        [{ vehicle_type: 'submarine' as 'vessel' }, ['vehicle_type']],
      ];
      for (const [input, fields] of cases) await assert.rejects(fleet.create(org, input), refused(fields), JSON.stringify(input));
      assert.equal((await fleet.list(org, { limit: 10 })).data.length, 0);

      // The same figures make an unknown type acceptable, and a valid IMO a vessel.
      created(await fleet.create(org, { ...A320, icao_type: 'ZZ99', crosswind_limit_kt: 20, min_runway_m: 900 }));
      created(await fleet.create(org, { ...SHIP, imo: imoFromPrefix(931946) }));
    });

    test('messages about a registration do not repeat it', async () => {
      await assert.rejects(fleet.create(newOwner(), { ...A320, registration: 'SECRET*REG' }), (error: Error) => !error.message.includes('SECRET'));
    });

    test('the registration is sealed for its vehicle: a token moved to another row does not open', async () => {
      const org = newOwner();
      const [a, b] = [created(await fleet.create(org, A320)), created(await fleet.create(org, { ...A320, registration: 'G-EUPX' }))];
      const { db } = handle.database;
      const row = await db.selectFrom('fleet_vehicles').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
      assert.ok(row.registration_sealed?.startsWith('v1.'));
      assert.ok(!row.registration_sealed!.includes('EUPT'));
      assert.ok(!row.registration_index!.includes('EUPT'));
      await db.updateTable('fleet_vehicles').set({ registration_sealed: row.registration_sealed }).where('id', '=', b.id).execute();
      await assert.rejects(fleet.get(org, b.id), (error) => error instanceof EnvelopeError && error.reason === 'authentication');
      assert.equal((await fleet.get(org, a.id))?.registration, 'G-EUPT');
    });

    test('notification settings: organisation-wide, per vehicle, and what applies', async () => {
      const [org, other] = [newOwner(), newOwner()];
      const plane = created(await fleet.create(org, A320));
      assert.deepEqual(await fleet.notificationSettings(org, null), { vehicle_id: null, thresholds: {}, effective: {}, updated_at: null });
      assert.deepEqual(await fleet.notificationSettings(org, plane.id), { vehicle_id: plane.id, thresholds: {}, effective: {}, updated_at: null });

      const orgWide = await fleet.setNotificationSettings(org, null, { safety_score_below: 60, wind_shear_at_least: 'MODERATE' });
      assert.deepEqual(orgWide && { ...orgWide, updated_at: typeof orgWide.updated_at }, {
        vehicle_id: null, thresholds: { safety_score_below: 60, wind_shear_at_least: 'MODERATE' },
        effective: { safety_score_below: 60, wind_shear_at_least: 'MODERATE' }, updated_at: 'string',
      });
      const own = await fleet.setNotificationSettings(org, plane.id, { safety_score_below: 75, crosswind_kt_above: 18 });
      assert.deepEqual(own?.thresholds, { safety_score_below: 75, crosswind_kt_above: 18 });
      assert.deepEqual(own?.effective, { safety_score_below: 75, crosswind_kt_above: 18, wind_shear_at_least: 'MODERATE' });

      // PUT semantics: the new set replaces the old one; the other scope is untouched.
      await fleet.setNotificationSettings(org, null, { weather_hold: true });
      assert.deepEqual((await fleet.notificationSettings(org, null))?.thresholds, { weather_hold: true });
      assert.deepEqual((await fleet.notificationSettings(org, plane.id))?.effective, { weather_hold: true, safety_score_below: 75, crosswind_kt_above: 18 });
      assert.deepEqual((await fleet.notificationSettings(other, null))?.thresholds, {});

      assert.equal(await fleet.notificationSettings(other, plane.id), null);
      assert.equal(await fleet.setNotificationSettings(other, plane.id, { weather_hold: true }), null);
      assert.deepEqual((await fleet.notificationSettings(org, plane.id))?.thresholds, { safety_score_below: 75, crosswind_kt_above: 18 });

      await assert.rejects(fleet.setNotificationSettings(org, null, { safety_score_below: 101, colour: 'red' }),
        refused(['thresholds/safety_score_below', 'thresholds/colour']));

      // Read in a batch, as the intelligence engine does: each vehicle with what applies to it; another owner's is left out.
      const ship = created(await fleet.create(org, SHIP));
      const contexts = await fleet.landingContexts([{ owner: org, vehicleId: plane.id }, { owner: org, vehicleId: ship.id }, { owner: other, vehicleId: plane.id }]);
      assert.deepEqual([...contexts.keys()].sort(), [plane.id, ship.id].sort());
      assert.deepEqual(contexts.get(plane.id), {
        vehicle: await fleet.get(org, plane.id),
        settings: { thresholds: { safety_score_below: 75, crosswind_kt_above: 18 }, effective: { weather_hold: true, safety_score_below: 75, crosswind_kt_above: 18 } },
      });
      assert.deepEqual(contexts.get(ship.id)?.settings, { thresholds: {}, effective: { weather_hold: true } });
      assert.equal((await fleet.landingContexts([{ owner: other, vehicleId: plane.id }])).size, 0);

      assert.ok(await fleet.delete(org, plane.id));
      const left = await handle.database.db.selectFrom('notification_settings').select('vehicle_id').where('org_id', '=', org).execute();
      assert.deepEqual(left.map((row) => row.vehicle_id), [null], 'the vehicle\'s settings went with it');
    });
  });
}

describe('registrations at rest in the SQLite file', () => {
  const REGISTRATION = 'ZK-QXJW';
  const config = testConfig();
  after(() => config.cleanup());

  test('neither the database file nor its write-ahead log holds the registration', async () => {
    const database = openDatabase(config);
    await migrate(database.db, database.dialect, [fleetMigration]);
    const fleet = storeFor(database, config.dataDir);
    // The home base is stored in clear: finding it shows the scan sees the written data.
    created(await fleet.create('org_rest', { ...A320, registration: REGISTRATION, home_base_icao: 'QX9Z' }));
    const file = path.resolve(config.dataDir, 'lamis.sqlite');
    const scan = () => [file, `${file}-wal`].map((name) => {
      try {
        return readFileSync(name).toString('latin1');
      } catch {
        return '';
      }
    }).join('');

    const whileOpen = scan();
    assert.ok(whileOpen.includes('QX9Z'), 'the clear field is in the files');
    for (const writing of [REGISTRATION, normaliseRegistration(REGISTRATION)]) assert.ok(!whileOpen.includes(writing), writing);
    await database.close();
    const closed = scan();
    assert.ok(closed.includes('QX9Z'));
    for (const writing of [REGISTRATION, normaliseRegistration(REGISTRATION)]) assert.ok(!closed.includes(writing), writing);
  });
});
