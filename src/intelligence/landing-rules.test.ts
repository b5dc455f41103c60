// The landing rules on a real server over real storage: an operator's METAR with a strong crosswind
// opens one event for a watched arrival, a repeat of it and a restart raise nothing new, a calm
// METAR clears it once (and moves the recommended runway, which opens an event telling so). The changes are counted on
// the shared Redis bus the server publishes on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eventChanges, type EventChange } from '../events/index.ts';
import { openBus, type Bus } from '../platform/bus/index.ts';
import { json } from '../../test/support/http.ts';
import { redisUrl, skipRedis } from '../../test/support/backends.ts';
import { AUTH, startTestServer, testConfig, type TestServer } from '../../test/support/server.ts';

const config = testConfig({ redisUrl });
let server: TestServer;
let bus: Bus;
let arrivalId: string;
const changes: EventChange[] = [];

/** A METAR observed `minutesAgo` before now, in EGLL's form. */
function metar(wind: string, minutesAgo: number): string {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  const stamp = [at.getUTCDate(), at.getUTCHours(), at.getUTCMinutes()].map((n) => String(n).padStart(2, '0')).join('');
  return `EGLL ${stamp}Z ${wind} 9999 FEW030 12/05 Q1013`;
}

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method, headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`);
  return json(response);
};

const crosswindEvents = async () => (await call('GET', `/v3/events?kind=landing.crosswind_above&subject_id=${arrivalId}`)).data;

async function poll<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const until = Date.now() + 2_000;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`no ${what} within 2 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Lets the server evaluate what it was given, then answers the changes of this arrival seen so far. */
const settledChanges = async () => {
  await new Promise((resolve) => setTimeout(resolve, 500));
  return changes.filter((change) => change.event.subject.id === arrivalId).map((change) => `${change.event.kind} ${change.change}`);
};

before(async () => {
  if (skipRedis) return;
  bus = await openBus(config, (error) => { throw error; });
  await bus.subscribe(eventChanges, (change) => changes.push(change));
  server = await startTestServer({ config });
  const vehicle = await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320' });
  await call('PUT', `/v3/fleet/vehicles/${vehicle.id}/notification-settings`, { thresholds: { crosswind_kt_above: 15 } });
  // Within the hour the METAR describes: the METARs pushed below decide its weather.
  const eta = new Date(Date.now() + 1_800_000).toISOString().replace(/\.\d+Z$/, 'Z');
  arrivalId = (await call('POST', `/v3/fleet/vehicles/${vehicle.id}/arrivals`, { destination_icao: 'EGLL', eta_utc: eta })).id;
});
after(async () => {
  await server?.close();
  await bus?.close();
  config.cleanup();
});

test('a crosswind METAR opens one event for the watched arrival; a repeat and a restart raise nothing; a calm METAR clears it', { skip: skipRedis }, async () => {
  const strong = metar('36022KT', 10);
  await call('POST', '/v3/aviation/airports/EGLL/metar', strong);
  const [event] = await poll(async () => {
    const found = await crosswindEvents();
    return found.length > 0 ? found : undefined;
  }, 'crosswind event');
  assert.equal(event.state, 'open');
  assert.deepEqual(event.subject, { type: 'arrival', id: arrivalId, vehicle_id: event.subject.vehicle_id, arrival_id: arrivalId, icao: 'EGLL' });
  assert.match(event.summary, /^Crosswind \d+ kt on runway \w+ is above the 15 kt limit of G-EUPT\.$/);
  assert.equal(event.data.threshold, 15);
  assert.equal(event.data.threshold_source, 'vehicle');
  assert.ok(event.data.value > 15);
  assert.equal(event.data.metar, strong);
  assert.ok(['warning', 'critical'].includes(event.severity));
  const raised = ['landing.crosswind_above opened'];
  assert.deepEqual(await settledChanges(), raised);

  await call('POST', '/v3/aviation/airports/EGLL/metar', strong);
  assert.deepEqual(await settledChanges(), raised, 'the same METAR again changes nothing');

  await server.close();
  server = await startTestServer({ config });
  assert.deepEqual(await settledChanges(), raised, 'a restart raises nothing new');
  assert.equal((await crosswindEvents()).length, 1);

  await call('POST', '/v3/aviation/airports/EGLL/metar', metar('27005KT', 5));
  const cleared = await poll(async () => {
    const [found] = await crosswindEvents();
    return found?.state === 'cleared' ? found : undefined;
  }, 'cleared event');
  assert.equal(cleared.id, event.id);
  // Cleared once; when the calm wind moves the recommended runway, the change event tells it.
  const changes = (await settledChanges()).slice(1);
  assert.deepEqual(changes.filter((change) => change !== 'landing.runway_changed opened'), ['landing.crosswind_above cleared']);
});
