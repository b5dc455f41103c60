// The vessel rules end to end on a real server: an organisation's fleet vessel (its MMSI on the
// vehicle) and a zone, AIS sentences uploaded as NMEA; the vessel sails into the zone, then into
// Rotterdam and moors. `vessel.zone_entered` and `vessel.port_arrival` reach the organisation's
// event stream as alerts, are listed by GET /v3/events and POSTed, signed, to its webhook; the same
// sentences again raise nothing; another organisation hears nothing.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatTagBlock } from '../../src/maritime/ais/index.ts';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import { positionReport, sentences, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { EventClient } from '../support/events.ts';
import { json } from '../support/http.ts';
import { organisationKey, type OrganisationKey } from '../support/organisations.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';
import { signedBy, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const MMSI = 244_660_777;
const ROTTERDAM = { lat: 51.9, lon: 4.4833 };
const ZONE_CENTRE = { lat: 52.05, lon: 3.8 };
const WEST_OF_ZONE = { lat: 52.05, lon: 3.6 };

describe('vessel rules on a real server', { timeout: 60_000 }, () => {
  let server: TestServer;
  let alpha: OrganisationKey;
  let bravo: OrganisationKey;
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await startWebhookReceiver();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-vessel-rules-'));
    await saveImport(dataDir, 'wpi', 'test rows', [
      wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', ...ROTTERDAM, harbour_size: 'large' }),
    ]);
    server = await startTestServer({ config: { dataDir, webhookAllowPrivate: true } });
    alpha = await organisationKey(server.config, 'pro');
    bravo = await organisationKey(server.config, 'pro');
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  const call = async (key: OrganisationKey, method: string, pathname: string, body?: unknown) => {
    const response = await fetch(server.url + pathname, {
      method, headers: { ...key.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await json(response) };
  };
  /** The test's now: reports are times before it, so the same report uploaded again is the same sentence. */
  const now = Date.now();
  /** Reports of the vessel, `ago` seconds before now, with the receiver's times (tag-block `c:`) so they keep their order. */
  const upload = async (reports: ({ lat: number; lon: number; sog: number; status?: number; ago: number } | { voyage: true; ago: number })[]) => {
    const lines = reports.flatMap((report, i) => {
      const at = Math.floor((now - report.ago * 1000) / 1000);
      const raw = 'voyage' in report
        ? staticVoyage(MMSI, { shiptype: 70, destination: 'NLRTM' })
        : positionReport(MMSI, report.lat, report.lon, { speed: Math.round(report.sog * 10), status: report.status ?? 0 });
      return sentences(raw, i % 10).map((sentence) => formatTagBlock(['s:pier', `c:${at}`]) + sentence);
    });
    const response = await fetch(`${server.url}/v3/maritime/ais/nmea`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: lines.join('\r\n') });
    assert.equal(response.status, 200);
  };
  const alertOf = (client: EventClient, kind: string) => client.of('alert').find((frame) => frame.data.kind === kind && frame.data.state === 'open');

  test('a fleet vessel entering a zone and mooring in port: zone_entered and port_arrival on the stream and in the list', async () => {
    const vehicle = await call(alpha, 'POST', '/v3/fleet/vehicles', { vehicle_type: 'vessel', mmsi: MMSI });
    assert.equal(vehicle.status, 201);
    const zone = await call(alpha, 'POST', '/v3/zones', { name: 'Maas approaches', geometry: { type: 'Circle', center: ZONE_CENTRE, radius_nm: 5 } });
    assert.equal(zone.status, 201);
    const webhook = await call(alpha, 'POST', '/v3/webhooks', { url: receiver.url(), kinds: ['vessel.zone_entered', 'vessel.port_arrival'] });
    assert.equal(webhook.status, 201);
    const alphaStream = await EventClient.ready(server.url, alpha);
    const bravoStream = await EventClient.ready(server.url, bravo);

    const intoTheZone = [{ voyage: true, ago: 240 }, { ...WEST_OF_ZONE, sog: 12, ago: 230 }, { ...ZONE_CENTRE, sog: 12, ago: 200 }] as const;
    await upload([...intoTheZone]);
    await alphaStream.until('alert', 1, 5000);
    const entered = alertOf(alphaStream, 'vessel.zone_entered')!;
    assert.ok(entered, JSON.stringify(alphaStream.frames));
    assert.deepEqual(entered.data.subject, { type: 'zone_vessel', id: `${zone.body.id}/${MMSI}`, mmsi: MMSI, zone_id: zone.body.id, vehicle_id: vehicle.body.id });
    assert.equal(entered.data.data.zone_name, 'Maas approaches');
    const listed = await call(alpha, 'GET', '/v3/events?kind=vessel.zone_entered');
    assert.deepEqual(listed.body.data.map((event: { id: string; state: string }) => [event.id, event.state]), [[entered.data.id, 'open']]);

    // On into Rotterdam, where it moors: the call opens, and with it the arrival; leaving the zone, the exit.
    const intoPort = [{ ...ROTTERDAM, sog: 8, ago: 100 }, { ...ROTTERDAM, sog: 0, status: 5, ago: 60 }] as const;
    await upload([...intoPort]);
    await alphaStream.until('alert', 4, 5000);
    const arrival = alertOf(alphaStream, 'vessel.port_arrival')!;
    assert.ok(arrival, JSON.stringify(alphaStream.frames.map((frame) => frame.data?.kind)));
    assert.deepEqual([arrival.data.subject.port_id, arrival.data.data.port_name, arrival.data.severity], ['NLRTM', 'Rotterdam', 'info']);
    assert.ok(alertOf(alphaStream, 'vessel.zone_exited'));
    const arrivals = await call(alpha, 'GET', `/v3/events?kind=vessel.port_arrival&subject_id=${MMSI}`);
    assert.deepEqual(arrivals.body.data.map((event: { id: string }) => event.id), [arrival.data.id]);

    // The webhook heard both openings (and what followed), each signed with the secret shown at its creation.
    await receiver.waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(receiver.received.every((delivery) => signedBy(webhook.body.secret, delivery)));
    const opened = receiver.received.map((delivery) => JSON.parse(delivery.body)).filter((body) => body.data.change === 'opened');
    assert.deepEqual(opened.map((body) => [body.type, body.data.event.id]).sort(),
      [['vessel.port_arrival', arrival.data.id], ['vessel.zone_entered', entered.data.id]]);

    // The same sentences again (a feed replaying them) raise, change and deliver nothing.
    const alerts = alphaStream.of('alert').length;
    const delivered = receiver.received.length;
    await upload([...intoTheZone, ...intoPort]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(alphaStream.of('alert').length, alerts, JSON.stringify(alphaStream.of('alert').slice(alerts).map((frame) => [frame.data.kind, frame.data.state, frame.data.data])));
    assert.equal(receiver.received.length, delivered);

    // Another organisation, without the vessel or the zone, is told nothing.
    assert.deepEqual((await call(bravo, 'GET', '/v3/events')).body.data, []);
    assert.deepEqual(bravoStream.of('alert'), []);
    await alphaStream.close();
    await bravoStream.close();
  });
});
