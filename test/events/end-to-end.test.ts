// The intelligence engine end to end, over real sockets: a fleet A320 with a crosswind threshold of
// 15 kt and a planned arrival at EGLL; an operator pushes a METAR with a strong crosswind. Within
// seconds the event is on the organisation's event stream, in GET /v3/events and POSTed, signed, to a
// loopback webhook. The same METAR again raises nothing, a restart raises nothing, and a calm METAR
// clears the event with one `cleared` delivery. Needs Redis: the test counts the engine's changes
// on the bus the server publishes on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { skipRedis } from '../support/backends.ts';
import { EventClient } from '../support/events.ts';
import { callOk } from '../support/http.ts';
import { egllMetar } from '../support/metar.ts';
import { organisationKey, type OrganisationKey } from '../support/organisations.ts';
import { AUTH } from '../support/server.ts';
import { signedBy, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { startEngine, type EngineServer } from '../intelligence/support.ts';

const KIND = 'landing.crosswind_above';

let engine: EngineServer;
let receiver: WebhookReceiver;
let key: OrganisationKey;

const call = (method: string, path: string, body: unknown, headers: Record<string, string> = key.headers) => callOk(engine.server.url, method, path, body, headers);

const pushMetar = (metar: string) => call('POST', '/v3/aviation/airports/EGLL/metar', metar, AUTH);
/** The webhook deliveries of the crosswind event, as their bodies. */
const crosswindDeliveries = () => receiver.received.map((delivery) => JSON.parse(delivery.body)).filter((body) => body.type === KIND);

before(async () => {
  if (skipRedis) return;
  receiver = await startWebhookReceiver();
  engine = await startEngine({ webhookAllowPrivate: true });
  key = await organisationKey(engine.config, 'pro');
});
after(async () => {
  await engine?.close();
  await receiver?.close();
});

test('a crosswind above the threshold reaches the stream, the log and a signed webhook once, and clears once', { skip: skipRedis, timeout: 90_000 }, async () => {
  const vehicle = await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320' });
  await call('PUT', `/v3/fleet/vehicles/${vehicle.id}/notification-settings`, { thresholds: { crosswind_kt_above: 15 } });
  await pushMetar(egllMetar('27005KT', 10));
  // Within the hour the METAR describes: the METARs pushed below decide its weather.
  const eta = new Date(Date.now() + 1_800_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const arrival = await call('POST', `/v3/fleet/vehicles/${vehicle.id}/arrivals`, { destination_icao: 'EGLL', eta_utc: eta });
  const webhook = await call('POST', '/v3/webhooks', { url: receiver.url(), kinds: [KIND], description: 'Dispatch' });
  const stream = await EventClient.ready(engine.server.url, key);

  // A north wind of 25 kt across EGLL's east-west runways.
  const strong = egllMetar('36025KT', 1);
  // Bounds for a busy machine, not the latency (the events benchmark measures that).
  await pushMetar(strong);
  await waitFor(() => stream.of('alert').some((frame) => frame.data.kind === KIND), 'the alert on the stream', 10_000);
  await waitFor(() => crosswindDeliveries().length === 1, 'the signed webhook delivery', 10_000);
  const alert = stream.of('alert').find((frame) => frame.data.kind === KIND)!.data;
  assert.equal(alert.state, 'open');
  assert.deepEqual(alert.subject, { type: 'arrival', id: arrival.id, vehicle_id: vehicle.id, arrival_id: arrival.id, icao: 'EGLL' });
  assert.equal(alert.data.threshold, 15);
  assert.equal(alert.data.value, 25);
  assert.match(alert.summary, /Crosswind 25 kt on runway \d\d[LR]? is above the 15 kt limit of G-EUPT/);

  const logged = await call('GET', `/v3/events?kind=${KIND}`, undefined);
  assert.deepEqual(logged.data.map((event: any) => [event.id, event.state]), [[alert.id, 'open']]);

  const delivery = receiver.received.find((request) => JSON.parse(request.body).type === KIND)!;
  assert.ok(signedBy(webhook.secret, delivery), 'the signature verifies with the secret shown at creation');
  const body = JSON.parse(delivery.body);
  assert.equal(body.data.change, 'opened');
  assert.deepEqual(body.data.event, await call('GET', `/v3/events/${alert.id}`, undefined));

  // The same report again, then a restart: nothing new is raised, changed or delivered.
  await pushMetar(strong);
  await engine.restart();
  assert.deepEqual(await engine.settledChanges(arrival.id, KIND), ['opened']);
  assert.equal(crosswindDeliveries().length, 1);

  // Calm: the event clears, once, and the webhook hears of it once.
  await pushMetar(egllMetar('00000KT', 0));
  await waitFor(async () => (await call('GET', `/v3/events/${alert.id}`, undefined)).state === 'cleared', 'the event cleared', 5_000);
  await waitFor(() => crosswindDeliveries().length === 2, 'the cleared delivery', 5_000);
  assert.deepEqual(await engine.settledChanges(arrival.id, KIND), ['opened', 'cleared']);
  assert.deepEqual(crosswindDeliveries().map((delivery) => delivery.data.change), ['opened', 'cleared']);
  await stream.close();
});
