// The fleet feed's `feed` frames over real sockets: an organisation's stream hears nothing at first
// (the entries are the baseline), then, within a few seconds of an operator's METAR that changes the
// landing answer of one of its arrivals, a `feed` frame with the entry as the feed serves it. Another
// organisation's stream hears nothing of it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { callOk } from '../support/http.ts';
import { EventClient } from '../support/events.ts';
import { egllMetar } from '../support/metar.ts';
import { organisationKey, type OrganisationKey } from '../support/organisations.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

describe('feed frames on the event stream', { timeout: 60_000 }, () => {
  let server: TestServer;

  const call = (method: string, path: string, body: unknown, headers: Record<string, string>) => callOk(server.url, method, path, body, headers);
  const pushMetar = (metar: string) => call('POST', '/v3/aviation/airports/EGLL/metar', metar, AUTH);

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test("a METAR that changes an arrival's landing answer sends its entry to the owner's stream, and to no other", async () => {
    const alpha: OrganisationKey = await organisationKey(server.config, 'pro');
    const bravo: OrganisationKey = await organisationKey(server.config, 'pro');
    const vehicle = await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320' }, alpha.headers);
    // Within the hour the METAR pushed below describes.
    const eta = new Date(Date.now() + 1_800_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await call('POST', `/v3/fleet/vehicles/${vehicle.id}/arrivals`, { destination_icao: 'EGLL', eta_utc: eta }, alpha.headers);
    await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-BRAV', icao_type: 'A320' }, bravo.headers);
    await pushMetar(egllMetar('27010KT', 10));
    const before = (await call('GET', '/v3/fleet/feed', undefined, alpha.headers)).data[0];
    assert.match(before.landing.runway, /^27[LR]$/);

    const alphaStream = await EventClient.ready(server.url, alpha);
    const bravoStream = await EventClient.ready(server.url, bravo);
    // Bravo's entries are there too, so a change of theirs could be sent.
    await call('GET', '/v3/fleet/feed', undefined, bravo.headers);
    assert.deepEqual(alphaStream.of('feed'), [], 'an unchanged entry is not sent when the stream opens');

    const northerly = egllMetar('36025KT', 2);
    await pushMetar(northerly);
    await alphaStream.until('feed', 1, 5_000);
    const [frame] = alphaStream.of('feed');
    assert.equal(frame!.data.vehicle.id, vehicle.id);
    assert.equal(frame!.data.landing.metar, northerly);
    assert.notEqual(frame!.data.landing.wind.max_crosswind_kt, before.landing.wind.max_crosswind_kt);
    assert.ok(Date.parse(frame!.data.updated_at) > Date.parse(before.updated_at));
    const now = (await call('GET', '/v3/fleet/feed', undefined, alpha.headers)).data[0];
    // A change of runway opens `landing.runway_changed`, which joins the entry after the frame went out.
    const { open_events: _sent, updated_at: _sentAt, ...sent } = frame!.data;
    const { open_events: _served, updated_at: _servedAt, ...served } = now;
    assert.deepEqual(sent, served, 'the frame is the entry the feed serves');

    // The same METAR again changes nothing, so no frame follows; bravo heard nothing all along.
    await pushMetar(northerly);
    await call('GET', '/v3/fleet/feed', undefined, alpha.headers);
    assert.equal(alphaStream.of('feed').length, 1);
    assert.deepEqual(bravoStream.of('feed'), []);
    await alphaStream.close();
    await bravoStream.close();
  });
});
