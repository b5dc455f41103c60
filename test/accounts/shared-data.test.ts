// What one organisation writes never changes what another is told. The METARs, TAFs and NOTAMs
// behind every landing briefing are written by the instance's operators only; AIS uploads go into
// the one vessel picture only from operators and from organisations an operator has shared; berth
// records an organisation makes are its own; and no organisation books more than its fair share of
// an airport hour. Two organisations against a real server, on SQLite and on PostgreSQL.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { positionReport, sentences } from '../../src/maritime/vessels/fixtures.ts';
import { json } from '../support/http.ts';
import { organisationKey, type OrganisationKey } from '../support/organisations.ts';
import { AUTH } from '../support/server.ts';
import { ACCOUNT_BACKENDS, problem, type AccountsServer } from './support.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
const HOUR = 3_600_000;

const two = (n: number) => String(n).padStart(2, '0');
/** METAR time group: DDHHMMZ. */
const dayTime = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}Z`;
};
/** NOTAM item B)/C) time: YYMMDDHHMM. */
const notamTime = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
};

for (const backend of ACCOUNT_BACKENDS) {
  describe(`data other organisations see, on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;
    /** Two organisations with a production key each, and a development key of B's. */
    let a: OrganisationKey;
    let b: OrganisationKey;
    let bDevelopment: OrganisationKey;

    before(async () => {
      accounts = await backend.start();
      const config = accounts.server.config;
      a = await organisationKey(config, 'enterprise');
      b = await organisationKey(config, 'enterprise');
      bDevelopment = await organisationKey(config, 'enterprise', { environment: 'development', orgId: b.orgId });
    });
    after(() => accounts?.close());

    /** A request; one a busy machine sheds (503 `overloaded`, development keys first) is sent again. */
    async function call(method: string, path: string, headers: Record<string, string>, body?: unknown, type = 'application/json'): Promise<Response> {
      for (let attempt = 1; ; attempt += 1) {
        const response = await fetch(accounts.server.url + path, {
          method,
          headers: { ...headers, ...(body === undefined ? {} : { 'content-type': type }) },
          body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        });
        if (response.status !== 503 || attempt === 20 || (await json(response.clone())).code !== 'overloaded') return response;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    /** `lamis org …` as an operator runs it beside the server. */
    async function lamisOrg(...args: string[]): Promise<any> {
      const { stdout } = await run(process.execPath, [bin, 'org', ...args, '--json'], { env: { ...process.env, ...accounts.env } });
      return JSON.parse(stdout);
    }

    test('an organisation cannot push METARs, TAFs or NOTAMs, so another\'s landing answer stays as it was; operators still can', async () => {
      const calm = `EGLL ${dayTime(Date.now() - 10 * 60_000)} 27005KT CAVOK 15/08 Q1020`;
      assert.equal((await call('POST', '/v3/aviation/airports/EGLL/metar', AUTH, calm, 'text/plain')).status, 201);
      const landing = async () => json(await call('POST', '/v3/intelligence/landing', a.headers, {
        destination_icao: 'EGLL', vehicle_type: 'aircraft', eta_utc: new Date(Date.now() + HOUR).toISOString(), registration: 'G-EUPT', aircraft_type: 'A320',
      }));
      const before = await landing();
      assert.equal(before.weather.metar, calm);
      assert.equal(before.destination.status, 'OPERATIONAL');

      const storm = `EGLL ${dayTime(Date.now() - 60_000)} 27030G45KT 0800 +TSRA BKN005CB 15/14 Q0995`;
      const taf = `TAF EGLL ${dayTime(Date.now() - 60_000)} ${dayTime(Date.now()).slice(0, 4)}/${dayTime(Date.now() + 24 * HOUR).slice(0, 4)} 27030G45KT 0800 +TSRA BKN005CB`;
      const closure = `A0777/26 NOTAMN
Q) EGTT/QFALC/IV/NBO/A/000/999/5129N00028W005
A) EGLL B) ${notamTime(Date.now() - HOUR)} C) ${notamTime(Date.now() + 30 * HOUR)}
E) AD CLSD`;
      for (const key of [b, bDevelopment]) {
        const refused = await problem(await call('POST', '/v3/aviation/airports/EGLL/metar', key.headers, storm, 'text/plain'), 403, 'forbidden');
        assert.match(refused.detail, /operator/);
        await problem(await call('POST', '/v3/aviation/airports/EGLL/taf', key.headers, taf, 'text/plain'), 403, 'forbidden');
        await problem(await call('POST', '/v3/aviation/notams', key.headers, closure, 'text/plain'), 403, 'forbidden');
      }

      const unchanged = await landing();
      assert.deepEqual(
        [unchanged.weather.metar, unchanged.safety_score, unchanged.destination.status, unchanged.notams],
        [before.weather.metar, before.safety_score, before.destination.status, before.notams],
      );
      await problem(await call('GET', '/v3/aviation/airports/EGLL/taf', a.headers), 404, 'no_report');

      const byOperator = await call('POST', '/v3/aviation/notams', AUTH, closure, 'text/plain');
      assert.equal(byOperator.status, 201, await byOperator.clone().text());
      assert.equal((await landing()).destination.status, 'CLOSED', 'an operator\'s NOTAM is what every organisation is briefed on');
    });

    test('AIS uploads: operators always; an organisation only once an operator has shared its uploads, and labelled as its own', async () => {
      const mmsi = 235_090_001;
      const nmea = sentences(positionReport(mmsi, 50.8, -1.2)).join('\r\n');
      const upload = (key: { headers: Record<string, string> }) => call('POST', '/v3/maritime/ais/nmea', key.headers, nmea, 'text/plain');

      const refused = await problem(await upload(b), 403, 'ais_upload_forbidden');
      assert.equal(refused.reason, 'not_shared');
      assert.match(refused.detail, /an operator .* shar/i);
      await problem(await call('GET', `/v3/maritime/vessels/${mmsi}`, a.headers), 404, 'vessel_not_found');

      assert.equal((await lamisOrg('set-ais-upload', b.orgId, 'shared')).ais_upload, 'shared');
      const shared = await upload(b);
      assert.equal(shared.status, 200, await shared.clone().text());
      assert.equal((await json(shared)).messages, 1);
      assert.equal((await json(await call('GET', `/v3/maritime/vessels/${mmsi}`, a.headers))).source, 'upload');
      const ready = await json(await fetch(`${accounts.server.url}/readyz`));
      const feeds = ready.checks.ais.detail.pipelines.map((pipeline: { feed: string }) => pipeline.feed);
      assert.deepEqual(feeds.filter((feed: string) => feed.startsWith('upload')), ['upload'], 'public readiness names no organisation');
      assert.equal((await problem(await upload(bDevelopment), 403, 'ais_upload_forbidden')).reason, 'development_key');

      await lamisOrg('set-ais-upload', b.orgId, 'off');
      assert.equal((await problem(await upload(b), 403, 'ais_upload_forbidden')).reason, 'not_shared');
      assert.equal((await upload({ headers: AUTH })).status, 200);
    });

    test('berths an organisation makes are its own: listed, counted and placed for it alone, labelled as its own', async () => {
      const berths = '/v3/maritime/ports/GBSOU/berths';
      const shared = await json(await call('POST', berths, AUTH, { name: 'Berth 101' }));
      assert.equal(shared.organisation_id, null);
      const own = await call('POST', berths, a.headers, { name: 'Ocean Terminal', length_m: 300 });
      assert.equal(own.status, 201, await own.clone().text());
      const ownBerth = await json(own);
      assert.equal(ownBerth.organisation_id, a.orgId);

      const listed = async (key: { headers: Record<string, string> }) => json(await call('GET', `${berths}?limit=100`, key.headers));
      const seenByA = await listed(a);
      assert.deepEqual(seenByA.data.map((berth: { name: string; organisation_id: string | null }) => [berth.name, berth.organisation_id]),
        [['Berth 101', null], ['Ocean Terminal', a.orgId]]);
      assert.equal(seenByA.capacity.berths, 2);
      const seenByB = await listed(b);
      assert.deepEqual(seenByB.data.map((berth: { name: string }) => berth.name), ['Berth 101']);
      assert.equal(seenByB.capacity.berths, 1);
      const availability = async (key: { headers: Record<string, string> }) =>
        (await json(await call('GET', '/v3/maritime/ports/GBSOU/availability', key.headers))).capacity.berths;
      assert.deepEqual([await availability(a), await availability(b)], [2, 1]);

      // Another organisation's berth answers as one that does not exist, and its name is free.
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        await problem(await call(method, `${berths}/${ownBerth.id}`, b.headers, method === 'PATCH' ? { depth_m: 2 } : undefined), 404, 'berth_not_found');
      }
      const sameName = await call('POST', berths, b.headers, { name: 'ocean terminal' });
      assert.equal(sameName.status, 201, await sameName.clone().text());
      await problem(await call('POST', berths, a.headers, { name: 'BERTH-101' }), 409, 'berth_name_taken');
      assert.equal((await call('GET', `${berths}/${ownBerth.id}`, bDevelopment.headers)).status, 404);
      assert.equal((await call('GET', `${berths}/${ownBerth.id}`, AUTH)).status, 200, 'operators reach every record by its id');
      assert.deepEqual((await listed({ headers: AUTH })).data.map((berth: { name: string }) => berth.name), ['Berth 101'], 'operators list the shared ones');
    });

    test('an organisation books at most its fair share of an hour; the 409 says why; an operator may grant more', async () => {
      const slots = '/v3/aviation/airports/EGGW/slots';
      assert.equal((await call('PUT', `${slots}/capacity`, AUTH, { arrivals_per_hour: 4 })).status, 200);
      const eta = new Date(Math.ceil(Date.now() / HOUR) * HOUR + 10 * 60_000).toISOString();
      let n = 0;
      const book = (key: { headers: Record<string, string> }) =>
        call('POST', `${slots}/bookings`, { ...key.headers, 'idempotency-key': `fair-${++n}` }, { eta_utc: eta, registration: 'G-EUPT' });

      for (let i = 0; i < 2; i += 1) assert.equal((await book(a)).status, 201);
      const over = await problem(await book(a), 409, 'slot_fair_share_exceeded');
      assert.deepEqual([over.fair_share, over.held, over.capacity], [2, 2, 4]);
      assert.match(over.detail, /holds 2 of the 4 arrival slots .* at most half \(2\)/);
      assert.equal((await book(b)).status, 201, 'another organisation still books');

      assert.equal((await lamisOrg('set-slot-share', a.orgId, '0.75')).slot_share, 0.75);
      assert.equal((await book(a)).status, 201, 'the operator\'s grant applies at once');
      await problem(await book(b), 409, 'slot_full');
      await lamisOrg('set-slot-share', a.orgId, 'default');
      assert.equal((await call('PUT', `${slots}/capacity`, AUTH, { arrivals_per_hour: 10 })).status, 200);
      for (let i = 0; i < 6; i += 1) assert.equal((await book({ headers: AUTH })).status, 201, 'operator keys have no share');
    });
  });
}
