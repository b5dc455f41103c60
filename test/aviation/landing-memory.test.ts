// Landing answers are assembled from inputs held in memory, so a change must reach them without
// delay: a METAR, TAF or NOTAM pushed, a slot booked, cancelled or its capacity set, or a fleet
// vehicle registered, changed or removed, shows in the very next answer of the instance that took
// it; and in the answers of another instance on the same storage once the change is announced over
// Redis, on SQLite (one file) and PostgreSQL alike. Answers reused between requests never carry
// one organisation's fleet figures to another.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { freshPostgresSchema, postgresUrl, redisUrl, skipPostgres, skipRedis } from '../support/backends.ts';
import { callOk } from '../support/http.ts';
import { egllMetar } from '../support/metar.ts';
import { organisationKey } from '../support/organisations.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

const HOUR = 3_600_000;
const two = (n: number) => String(n).padStart(2, '0');
const utc = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
/** NOTAM item B)/C) time: YYMMDDHHMM. */
const notamTime = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
};
const dayTime = (ms: number) => `${two(new Date(ms).getUTCDate())}${two(new Date(ms).getUTCHours())}${two(new Date(ms).getUTCMinutes())}Z`;
const dayHour = (ms: number) => `${two(new Date(ms).getUTCDate())}${two(new Date(ms).getUTCHours())}`;

/** A TAF for EGLL issued `minutesAgo` before now, valid for the next 24 hours, with this wind. */
function egllTaf(wind: string, minutesAgo: number): string {
  const issued = Date.now() - minutesAgo * 60_000;
  const from = Math.floor(issued / HOUR) * HOUR;
  return `TAF EGLL ${dayTime(issued)} ${dayHour(from)}/${dayHour(from + 24 * HOUR)} ${wind} 9999 SCT030`;
}

/** A NOTAM closing EGLL's 09L/27R from an hour ago for a day. */
function closure(number: number): string {
  return `A${String(number).padStart(4, '0')}/26 NOTAMN
Q) EGTT/QMRLC/IV/NBO/A/000/999/5129N00028W005
A) EGLL B) ${notamTime(Date.now() - HOUR)} C) ${notamTime(Date.now() + 24 * HOUR)}
E) RWY 09L/27R CLSD DUE TO MAINT`;
}

// Within the hour the METARs pushed describe, so the answers rest on them.
const eta = utc(Date.now() + HOUR / 3);

function landing(server: TestServer, fields: { registration?: string; destination_icao?: string } = {}): Promise<any> {
  return callOk(server.url, 'POST', '/v3/intelligence/landing', {
    destination_icao: 'EGLL', vehicle_type: 'aircraft', eta_utc: eta, registration: 'G-EUPT', aircraft_type: 'A320', ...fields,
  }, AUTH);
}

/** The crosswind limit and where the aircraft's figures came from, as asked with `headers` (the type's figures unless the caller's fleet has the registration). */
async function figures(server: TestServer, headers: Record<string, string>, registration: string): Promise<[string, number]> {
  const answer = await callOk(server.url, 'POST', '/v3/intelligence/landing', {
    destination_icao: 'EGLL', vehicle_type: 'aircraft', eta_utc: eta, registration, aircraft_type: 'A320',
  }, headers);
  assert.equal(answer.aircraft.registration, registration);
  return [answer.aircraft.profile_source, answer.aircraft.crosswind_limit_kt];
}

async function register(server: TestServer, headers: Record<string, string>, registration: string, crosswind: number): Promise<string> {
  return (await callOk(server.url, 'POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration, icao_type: 'A320', crosswind_limit_kt: crosswind }, headers)).id;
}

const slots = (server: TestServer) => `${server.url}/v3/aviation/airports/EGLL/slots`;

async function book(server: TestServer, key: string): Promise<string> {
  const booking = await callOk(slots(server), 'POST', '/bookings', { eta_utc: eta, registration: 'G-EUPT' }, { ...AUTH, 'idempotency-key': key });
  return booking.id;
}

describe('one instance: a change shows in the next landing answer', { timeout: 60_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  test('a METAR, then a newer one, then a TAF', async () => {
    const first = egllMetar('27010KT', 20);
    await callOk(server.url, 'POST', '/v3/aviation/airports/EGLL/metar', first, AUTH);
    const before = await landing(server);
    assert.equal(before.weather.metar, first);
    assert.equal(before.weather.taf, null);

    const second = egllMetar('36025KT', 5);
    await callOk(server.url, 'POST', '/v3/aviation/airports/EGLL/metar', second, AUTH);
    const after = await landing(server);
    assert.equal(after.weather.metar, second);
    assert.equal(after.weather.wind.direction_deg, 360);
    assert.equal(after.sources.metar.observed_at, after.weather.observed_at);
    // Ages are the answer's own: five minutes since the observation, not the time it was first read.
    assert.ok(Math.abs(after.sources.ages_sec.metar_observation - 300) <= 60, String(after.sources.ages_sec.metar_observation));

    const taf = egllTaf('36020KT', 10);
    await callOk(server.url, 'POST', '/v3/aviation/airports/EGLL/taf', taf, AUTH);
    const withTaf = await landing(server);
    assert.equal(withTaf.weather.taf, taf);
    assert.equal(withTaf.sources.taf.source, 'operator');
  });

  test('answers built a moment ago for the same airport, ETA and aircraft still carry each request\'s own id, registration and code', async () => {
    const [first, second] = await Promise.all([landing(server), landing(server, { registration: 'G-EUPU', destination_icao: 'LHR' })]);
    assert.deepEqual([first.aircraft.registration, first.destination.requested_code], ['G-EUPT', 'EGLL']);
    assert.deepEqual([second.aircraft.registration, second.destination.requested_code], ['G-EUPU', 'LHR']);
    assert.notEqual(first.request_id, second.request_id);
    assert.deepEqual({ ...first, request_id: null, aircraft: null, destination: null, intelligence_freshness_sec: null, sources: null },
      { ...second, request_id: null, aircraft: null, destination: null, intelligence_freshness_sec: null, sources: null });
  });

  test('a fleet vehicle registered, changed and removed; its figures only ever in its own organisation\'s answers', async () => {
    const [mine, theirs] = [await organisationKey(server.config, 'pro'), await organisationKey(server.config, 'pro')];
    const typeFigures = await figures(server, AUTH, 'G-TNNT');
    assert.equal(typeFigures[0], 'aircraft_type');
    assert.deepEqual(await figures(server, mine.headers, 'G-TNNT'), typeFigures);

    const id = await register(server, mine.headers, 'G-TNNT', 11);
    const asked = () => Promise.all([figures(server, mine.headers, 'G-TNNT'), figures(server, theirs.headers, 'G-TNNT'), figures(server, AUTH, 'G-TNNT')]);
    assert.deepEqual(await asked(), [['fleet', 11], typeFigures, typeFigures]);
    await register(server, theirs.headers, 'g-tnnt', 25);
    assert.deepEqual(await asked(), [['fleet', 11], ['fleet', 25], typeFigures]);
    await callOk(server.url, 'PATCH', `/v3/fleet/vehicles/${id}`, { crosswind_limit_kt: 14 }, mine.headers);
    assert.deepEqual(await asked(), [['fleet', 14], ['fleet', 25], typeFigures]);
    await callOk(server.url, 'DELETE', `/v3/fleet/vehicles/${id}`, undefined, mine.headers);
    assert.deepEqual(await asked(), [typeFigures, ['fleet', 25], typeFigures]);
  });

  test('a NOTAM closing a runway', async () => {
    const before = await landing(server);
    assert.ok(!before.notams.some((notam: any) => notam.id === 'A0601/26'));
    await callOk(server.url, 'POST', '/v3/aviation/notams', closure(601), AUTH);
    const after = await landing(server);
    assert.ok(after.notams.some((notam: any) => notam.id === 'A0601/26'), JSON.stringify(after.notams));
    assert.ok(!['09L', '27R'].includes(after.runway?.designator), after.runway?.designator);
    assert.equal(after.destination.status, 'LIMITED');
  });

  test('a capacity set, a booking and its cancellation', async () => {
    await callOk(slots(server), 'PUT', '/capacity', { arrivals_per_hour: 3 }, AUTH);
    const set = await landing(server);
    assert.deepEqual([set.slot.capacity, set.slot.capacity_source, set.slot.booked], [3, 'override', 0]);

    const id = await book(server, 'memory-1');
    const booked = await landing(server);
    assert.deepEqual([booked.slot.booked, booked.slot.remaining], [1, 2]);

    await callOk(slots(server), 'DELETE', `/bookings/${id}`, undefined, AUTH);
    assert.equal((await landing(server)).slot.booked, 0);
    await callOk(slots(server), 'PUT', '/capacity', { arrivals_per_hour: null }, AUTH);
    assert.equal((await landing(server)).slot.capacity_source, 'derived');
  });
});

/** Two instances on one storage and one Redis; `storage` gives the second one's config. */
function twoInstances(name: string, skip: string | false, storage: () => Promise<{ config: Record<string, string>; cleanup(): Promise<void> }>) {
  describe(`two instances on ${name} and Redis: a change on one shows on the other`, { skip, timeout: 120_000 }, () => {
    let first: TestServer;
    let second: TestServer;
    let cleanup = async () => {};

    before(async () => {
      const shared = await storage();
      cleanup = shared.cleanup;
      first = await startTestServer({ config: { redisUrl, ...shared.config } });
      second = await startTestServer({ config: { redisUrl, ...shared.config, ...(shared.config.databaseUrl ? {} : { dataDir: first.config.dataDir }) } });
    });
    after(async () => {
      await second?.close();
      await first?.close();
      await cleanup();
    });

    test('a METAR pushed to one', async () => {
      await callOk(first.url, 'POST', '/v3/aviation/airports/EGLL/metar', egllMetar('27010KT', 30), AUTH);
      await waitFor(async () => (await landing(second)).weather.wind?.direction_deg === 270, 'the first METAR on the second instance');
      const metar = egllMetar('09015KT', 2);
      await callOk(first.url, 'POST', '/v3/aviation/airports/EGLL/metar', metar, AUTH);
      assert.equal((await landing(first)).weather.metar, metar);
      await waitFor(async () => (await landing(second)).weather.metar === metar, 'the newer METAR on the second instance');
    });

    test('a TAF and a NOTAM pushed to the other', async () => {
      assert.equal((await landing(first)).weather.taf, null);
      const taf = egllTaf('09012KT', 5);
      await callOk(second.url, 'POST', '/v3/aviation/airports/EGLL/taf', taf, AUTH);
      await waitFor(async () => (await landing(first)).weather.taf === taf, 'the TAF on the first instance');

      assert.ok(!(await landing(first)).notams.some((notam: any) => notam.id === 'A0602/26'));
      await callOk(second.url, 'POST', '/v3/aviation/notams', closure(602), AUTH);
      await waitFor(async () => (await landing(first)).notams.some((notam: any) => notam.id === 'A0602/26'), 'the NOTAM on the first instance');
    });

    test('a fleet vehicle registered on one and removed on the other', async () => {
      const key = await organisationKey(first.config, 'pro');
      const typeFigures = await figures(second, key.headers, 'G-TWIN');
      assert.equal(typeFigures[0], 'aircraft_type');
      const id = await register(first, key.headers, 'G-TWIN', 12);
      assert.deepEqual(await figures(first, key.headers, 'G-TWIN'), ['fleet', 12]);
      await waitFor(async () => (await figures(second, key.headers, 'G-TWIN'))[0] === 'fleet', 'the vehicle on the second instance');
      await callOk(second.url, 'DELETE', `/v3/fleet/vehicles/${id}`, undefined, key.headers);
      assert.deepEqual(await figures(second, key.headers, 'G-TWIN'), typeFigures);
      await waitFor(async () => (await figures(first, key.headers, 'G-TWIN'))[0] === 'aircraft_type', 'the removal on the first instance');
    });

    test('a booking on one and its cancellation on the other', async () => {
      const bookedOn = async (server: TestServer) => (await landing(server)).slot.booked as number;
      const [onFirst, onSecond] = [await bookedOn(first), await bookedOn(second)];
      assert.equal(onFirst, onSecond);
      const id = await book(first, `memory-${name}`);
      assert.equal(await bookedOn(first), onFirst + 1);
      await waitFor(async () => (await bookedOn(second)) === onFirst + 1, 'the booking on the second instance');
      await callOk(slots(second), 'DELETE', `/bookings/${id}`, undefined, AUTH);
      assert.equal(await bookedOn(second), onFirst);
      await waitFor(async () => (await bookedOn(first)) === onFirst, 'the cancellation on the first instance');
    });
  });
}

twoInstances('one SQLite file', skipRedis, async () => ({ config: {}, cleanup: async () => {} }));
twoInstances('PostgreSQL', skipRedis || skipPostgres, async () => {
  const schema = await freshPostgresSchema();
  const url = new URL(postgresUrl!);
  url.searchParams.set('options', `-c search_path=${schema.schema}`);
  // One master key, as instances sharing storage have: fleet registrations are found by its blind index.
  return { config: { databaseUrl: url.toString(), masterKey: randomBytes(32).toString('hex') }, cleanup: () => schema.drop() };
});
