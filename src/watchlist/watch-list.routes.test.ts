// The watch list routes in process (aviation and maritime for the reference data, no socket): an
// entry's life, refusals naming the field, another owner's entries unseen, and the cap.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openDatabase } from '../platform/db/database.ts';
import { featureApp, type InProcess } from '../../test/support/in-process.ts';
import { TEST_API_KEY } from '../../test/support/server.ts';
import { MAX_WATCH_ENTRIES } from './watch-list.ts';

const OTHER_KEY = 'operator_other_key_0123456789';
const OTHER = { authorization: `Bearer ${OTHER_KEY}` };

let service: InProcess;
before(async () => {
  service = await featureApp(['aviation', 'maritime', 'watchlist'], { apiKeys: [TEST_API_KEY, OTHER_KEY] });
});
after(() => service.close());

test('an airport and a port are watched, listed, read, noted and removed; adding one again answers the entry there', async () => {
  const airport = await service.call('POST', '/v3/watch-list', { type: 'airport', icao: 'egll', note: 'Heathrow ops' });
  assert.equal(airport.status, 201, JSON.stringify(airport.body));
  assert.deepEqual({ ...airport.body, id: undefined, created_at: undefined, updated_at: undefined },
    { id: undefined, type: 'airport', icao: 'EGLL', note: 'Heathrow ops', created_at: undefined, updated_at: undefined });
  assert.equal(airport.headers.location, `/v3/watch-list/${airport.body.id}`);
  const port = await service.call('POST', '/v3/watch-list', { type: 'port', port_id: 'gbsou' });
  assert.deepEqual([port.status, port.body.port_id, port.body.note], [201, 'GBSOU', null]);

  const again = await service.call('POST', '/v3/watch-list', { type: 'airport', icao: 'EGLL', note: 'another note' });
  assert.deepEqual([again.status, again.body.id, again.body.note], [200, airport.body.id, 'Heathrow ops']);

  const first = await service.call('GET', '/v3/watch-list?limit=1');
  assert.deepEqual(first.body.data.map((e: { id: string }) => e.id), [airport.body.id]);
  const second = await service.call('GET', `/v3/watch-list?limit=1&cursor=${first.body.next_cursor}`);
  assert.deepEqual([second.body.data.map((e: { id: string }) => e.id), second.body.next_cursor], [[port.body.id], null]);
  assert.deepEqual((await service.call('GET', '/v3/watch-list?type=port')).body.data.map((e: { id: string }) => e.id), [port.body.id]);

  const path = `/v3/watch-list/${port.body.id}`;
  assert.equal((await service.call('GET', path)).body.port_id, 'GBSOU');
  const noted = await service.call('PATCH', path, { note: 'Tankers' });
  assert.deepEqual([noted.status, noted.body.note], [200, 'Tankers']);
  assert.equal((await service.call('DELETE', path)).status, 204);
  const gone = await service.call('GET', path);
  assert.deepEqual([gone.status, gone.body.code], [404, 'watch_entry_not_found']);
  assert.equal((await service.call('DELETE', path)).body.code, 'watch_entry_not_found');
  assert.equal((await service.call('DELETE', `/v3/watch-list/${airport.body.id}`)).status, 204);
});

test('a missing, misplaced, malformed or unknown field is named', async () => {
  const refused = async (body: unknown) => {
    const answer = await service.call('POST', '/v3/watch-list', body);
    return [answer.status, answer.body.code, answer.body.errors?.map((e: { path: string }) => e.path)];
  };
  assert.deepEqual(await refused({ type: 'airport' }), [400, 'validation_failed', ['/body/icao']]);
  assert.deepEqual(await refused({ type: 'port', icao: 'EGLL', port_id: 'GBSOU' }), [400, 'validation_failed', ['/body/icao']]);
  assert.deepEqual(await refused({ type: 'airport', icao: 'EG-L' }), [400, 'validation_failed', ['/body/icao']]);
  assert.deepEqual(await refused({ type: 'runway', icao: 'EGLL' }), [400, 'validation_failed', ['/body/type']]);
  assert.deepEqual(await refused({ type: 'airport', icao: 'ZZZZ' }), [422, 'watch_target_unknown', ['/body/icao']]);
  assert.deepEqual(await refused({ type: 'port', port_id: 'XXZZZ' }), [422, 'watch_target_unknown', ['/body/port_id']]);
  const patch = await service.call('PATCH', '/v3/watch-list/wat_0000000000000000', { note: 'x'.repeat(501) });
  assert.deepEqual([patch.status, patch.body.errors?.[0]?.path], [400, '/body/note']);
});

test('another owner\'s entries are not seen, changed or removed: 404 as for none', async () => {
  const mine = await service.call('POST', '/v3/watch-list', { type: 'airport', icao: 'KJFK' });
  const path = `/v3/watch-list/${mine.body.id}`;
  assert.deepEqual((await service.call('GET', '/v3/watch-list', undefined, OTHER)).body.data, []);
  for (const [method, body] of [['GET', undefined], ['PATCH', { note: 'mine now' }], ['DELETE', undefined]] as const) {
    const answer = await service.call(method, path, body, OTHER);
    assert.deepEqual([method, answer.status, answer.body.code], [method, 404, 'watch_entry_not_found']);
  }
  // The other owner watches the same airport on its own list.
  assert.equal((await service.call('POST', '/v3/watch-list', { type: 'airport', icao: 'KJFK' }, OTHER)).status, 201);
  assert.equal((await service.call('GET', path)).body.note, null);
});

test(`an owner watches at most ${MAX_WATCH_ENTRIES} airports and ports: one more is 409`, async () => {
  const database = openDatabase(service.config);
  try {
    const owner = (await service.call('GET', '/v3/watch-list?limit=1')).body.data[0];
    assert.ok(owner, 'an entry of the operator key from the test before');
    const row = await database.db.selectFrom('watch_list').select('org_id').where('id', '=', owner.id).executeTakeFirstOrThrow();
    const count = Number((await database.db.selectFrom('watch_list').select((eb) => eb.fn.countAll().as('n')).where('org_id', '=', row.org_id).executeTakeFirstOrThrow()).n);
    const now = new Date().toISOString();
    await database.db.insertInto('watch_list').values(Array.from({ length: MAX_WATCH_ENTRIES - count }, (_, i) => ({
      id: `wat_seed${String(i).padStart(12, '0')}`, org_id: row.org_id, type: 'airport', target: `S${String(i).padStart(3, '0')}`, note: null, created_at: now, updated_at: now,
    }))).execute();
  } finally {
    await database.close();
  }
  const full = await service.call('POST', '/v3/watch-list', { type: 'port', port_id: 'NLRTM' });
  assert.deepEqual([full.status, full.body.code], [409, 'watch_list_full']);
  assert.equal((await service.call('POST', '/v3/watch-list', { type: 'port', port_id: 'NLRTM' }, OTHER)).status, 201, 'another owner is not held by it');
});
