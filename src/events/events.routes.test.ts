// The events routes in process (events alone, no socket), for two organisations' keys. The events
// are seeded through the store on the same storage, so each test controls exactly what exists.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { featureApp, type InProcess } from '../../test/support/in-process.ts';
import { organisationKey, type OrganisationKey } from '../../test/support/organisations.ts';
import { createMemoryBus } from '../platform/bus/memory.ts';
import { openDatabase, type Database } from '../platform/db/database.ts';
import { EventStore, type NewEvent } from './events.ts';

let service: InProcess;
let database: Database;
let store: EventStore;
let alpha: OrganisationKey;
let bravo: OrganisationKey;

const zoneEntered = (mmsi: number): NewEvent => ({
  kind: 'vessel.zone_entered',
  severity: 'info',
  subject: { type: 'vessel', id: String(mmsi), mmsi, zone_id: 'zone_solent' },
  summary: `Vessel ${mmsi} entered the Solent zone.`,
  data: { lat: 50.78, lon: -1.3 },
});

before(async () => {
  service = await featureApp(['events']);
  alpha = await organisationKey(service.config, 'enterprise');
  bravo = await organisationKey(service.config, 'enterprise');
  database = openDatabase(service.config);
  store = new EventStore(database, createMemoryBus(() => {}));
});
after(async () => {
  await database.close();
  await service.close();
});

test('the list pages newest first and filters by kind, state, severity, subject and time', async () => {
  const opened: string[] = [];
  for (let i = 0; i < 5; i++) opened.push((await store.open(alpha.orgId, zoneEntered(235_000_000 + i))).event.id);
  const crosswind: NewEvent = {
    kind: 'landing.crosswind_above', severity: 'warning', subject: { type: 'arrival', id: 'arr_1', icao: 'EGLL' },
    summary: 'Crosswind 24 kt is above the 20 kt limit.', data: { value: 24, threshold: 20 },
  };
  const landing = (await store.open(alpha.orgId, crosswind)).event;
  await store.clear(alpha.orgId, opened[0]!);
  await store.open(bravo.orgId, zoneEntered(235_000_000));

  const seen: string[] = [];
  let next: string | null = null;
  do {
    const page = await service.call('GET', `/v3/events?limit=4${next ? `&cursor=${next}` : ''}`, undefined, alpha.headers);
    assert.equal(page.status, 200);
    seen.push(...page.body.data.map((e: { id: string }) => e.id));
    next = page.body.next_cursor;
  } while (next);
  assert.deepEqual(new Set(seen), new Set([...opened, landing.id]), 'all of alpha\'s, none of bravo\'s');
  assert.equal(seen.length, 6);

  const ids = async (query: string) => (await service.call('GET', `/v3/events?${query}`, undefined, alpha.headers)).body.data.map((e: { id: string }) => e.id);
  assert.deepEqual(await ids('kind=landing.crosswind_above'), [landing.id]);
  assert.deepEqual(await ids('state=cleared'), [opened[0]]);
  assert.deepEqual(await ids('severity=warning&state=open'), [landing.id]);
  assert.deepEqual(await ids(`subject_type=vessel&subject_id=${235_000_002}`), [opened[2]]);
  assert.deepEqual(await ids(`since=${encodeURIComponent(landing.opened_at)}&kind=landing.crosswind_above`), [landing.id]);
  assert.deepEqual(await ids('since=2999-01-01T00:00:00Z'), []);

  const unknownKind = await service.call('GET', '/v3/events?kind=vessel.teleported', undefined, alpha.headers);
  assert.deepEqual([unknownKind.status, unknownKind.body.code, unknownKind.body.errors[0].path], [400, 'validation_failed', '/querystring/kind']);
  const badSince = await service.call('GET', '/v3/events?since=yesterday', undefined, alpha.headers);
  assert.deepEqual([badSince.status, badSince.body.errors[0].path], [400, '/querystring/since']);
  const badCursor = await service.call('GET', '/v3/events?cursor=nonsense', undefined, alpha.headers);
  assert.deepEqual([badCursor.status, badCursor.body.code], [400, 'invalid_cursor']);
});

test('an event is read and acknowledged once; another organisation\'s answers 404 like a missing one', async () => {
  const { event } = await store.open(bravo.orgId, zoneEntered(235_100_000));
  const read = await service.call('GET', `/v3/events/${event.id}`, undefined, bravo.headers);
  assert.deepEqual([read.status, read.body], [200, event]);

  const acknowledged = await service.call('POST', `/v3/events/${event.id}/acknowledge`, undefined, bravo.headers);
  assert.equal(acknowledged.status, 200);
  assert.equal(typeof acknowledged.body.acknowledged_at, 'string');
  const again = await service.call('POST', `/v3/events/${event.id}/acknowledge`, undefined, bravo.headers);
  assert.deepEqual([again.status, again.body.acknowledged_at], [200, acknowledged.body.acknowledged_at], 'the first acknowledgement stays');

  for (const [method, path] of [['GET', `/v3/events/${event.id}`], ['POST', `/v3/events/${event.id}/acknowledge`], ['GET', '/v3/events/evt_doesnotexist0000']] as const) {
    const foreign = await service.call(method, path, undefined, path.includes('doesnotexist') ? bravo.headers : alpha.headers);
    assert.deepEqual([foreign.status, foreign.body.code], [404, 'event_not_found'], `${method} ${path}`);
  }
  assert.equal((await store.get(bravo.orgId, event.id))!.acknowledged_at, acknowledged.body.acknowledged_at, 'alpha\'s attempt changed nothing');

  // The operator key outside any organisation has events of its own, and none of theirs.
  assert.deepEqual((await service.call('GET', '/v3/events')).body.data, []);
  assert.equal((await service.call('GET', `/v3/events/${event.id}`)).status, 404);
});
