// Vessels over HTTP against a real server: NMEA uploaded through POST /v3/maritime/ais/nmea, then
// read back by MMSI, IMO, name, flag, category and area, with tracks and the flag table.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { formatTagBlock } from '../../src/maritime/ais/index.ts';
import { imoCheckDigit } from '../../src/maritime/vessels/reference/index.ts';
import { positionReport, sentences, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, TEST_API_KEY, type TestServer } from '../support/server.ts';

let server: TestServer;

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers: { ...AUTH, ...headers } });
const upload = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/v3/maritime/ais/nmea`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain', ...headers }, body });

function validImo(prefix: number): number {
  return prefix * 10 + imoCheckDigit(prefix);
}

// A Dutch cargo ship off Rotterdam, a British tanker in the Channel, a Fijian ship across 180°.
const NORDIC = 244_123_456;
const THAMES = 235_009_876;
const PACIFIC = 520_123_000;
const TRACKED = 538_000_111;
const NORDIC_IMO = validImo(907_472);

before(async () => {
  server = await startTestServer();
  const lines = [
    ...sentences(staticVoyage(NORDIC, { imo: NORDIC_IMO, shipname: 'NORDIC SPIRIT', shiptype: 70 }), 1),
    ...sentences(positionReport(NORDIC, 51.95, 4.05)),
    ...sentences(staticVoyage(THAMES, { imo: validImo(931_234), shipname: 'THAMES PRIDE', shiptype: 80, callsign: 'GTHP' }), 2),
    ...sentences(positionReport(THAMES, 50.5, -1.0, { speed: 0 })),
    ...sentences(positionReport(PACIFIC, -17.0, 179.9, { turn: 127 })),
  ];
  const response = await upload(lines.join('\r\n'));
  assert.equal(response.status, 200, await response.clone().text());
});
after(() => server.close());

describe('upload', () => {
  test('answers what was accepted and what was rejected, by reason', async () => {
    const good = sentences(positionReport(NORDIC, 51.96, 4.06));
    const body = [good[0], '!AIVDM,1,1,,A,15M67FC000G?ufbE`FepT@3n00Sa,0*00', 'garbage', ''].join('\n');
    const result = await json(await upload(body));
    assert.equal(result.lines, 3);
    assert.equal(result.accepted, 1);
    assert.equal(result.messages, 1);
    assert.equal(result.rejected.checksum, 1);
    assert.equal(result.rejected.framing, 1);
  });

  test('a multi-sentence message may span two uploads', async () => {
    const [first, second] = sentences(staticVoyage(NORDIC, { imo: NORDIC_IMO, shipname: 'NORDIC SPIRIT', shiptype: 70, destination: 'DEHAM' }), 7);
    assert.equal((await json(await upload(first!))).pending, 1);
    const completed = await json(await upload(second!));
    assert.equal(completed.messages, 1);
    assert.equal((await json(await get(`/v3/maritime/vessels/${NORDIC}`))).destination, 'DEHAM');
  });

  test('needs an API key and takes only NMEA text', async () => {
    const anonymous = await fetch(`${server.url}/v3/maritime/ais/nmea`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    assert.equal(anonymous.status, 401);
    const json415 = await upload('{}', { 'content-type': 'application/json' });
    assert.equal(json415.status, 415);
    assert.match((await json(json415)).detail, /send text\/plain/);
  });

  test('refuses a body over 1 MiB', async () => {
    const response = await upload('!AIVDM'.padEnd(1024 * 1024 + 10, 'x'));
    assert.equal(response.status, 413);
    assert.equal((await json(response)).code, 'payload_too_large');
  });
});

describe('one vessel', () => {
  test('by MMSI: position, static and voyage data, flag, class and source', async () => {
    const vessel = await json(await get(`/v3/maritime/vessels/${THAMES}`));
    assert.equal(vessel.mmsi, THAMES);
    assert.equal(vessel.name, 'THAMES PRIDE');
    assert.equal(vessel.callsign, 'GTHP');
    assert.equal(vessel.category, 'TANKER');
    assert.deepEqual(vessel.flag, { alpha2: 'GB', country: 'United Kingdom' });
    assert.equal(vessel.ais_class, 'A');
    assert.equal(vessel.source, 'upload');
    assert.deepEqual(vessel.sources, ['upload']);
    assert.equal(vessel.position.lat, 50.5);
    assert.equal(vessel.position.lon, -1);
    assert.equal(vessel.position.sog, 0);
    assert.equal(vessel.draught, 11.8);
    assert.equal(vessel.dimensions.length, 180);
  });

  test('a fast turn with no turn indicator: no rate, only the direction', async () => {
    const vessel = await json(await get(`/v3/maritime/vessels/${PACIFIC}`));
    assert.deepEqual([vessel.position.rot, vessel.position.rot_direction], [null, 'starboard']);
    const steady = await json(await get(`/v3/maritime/vessels/${THAMES}`));
    assert.deepEqual([steady.position.rot, steady.position.rot_direction], [0, null]);
  });

  test('a malformed MMSI answers 400, an unknown one 404', async () => {
    for (const bad of ['abc', '1234567890', '0', '-5', '12.5']) {
      const response = await get(`/v3/maritime/vessels/${bad}`);
      assert.equal(response.status, 400, bad);
      assert.equal((await json(response)).errors[0].path, '/params/mmsi');
    }
    const missing = await get('/v3/maritime/vessels/211000001');
    assert.equal(missing.status, 404);
    assert.equal((await json(missing)).code, 'vessel_not_found');
  });
});

describe('search', () => {
  test('by IMO, validating the check digit', async () => {
    const found = await json(await get(`/v3/maritime/vessels?imo=${NORDIC_IMO}`));
    assert.deepEqual(found.data.map((v: { mmsi: number }) => v.mmsi), [NORDIC]);
    assert.deepEqual((await json(await get(`/v3/maritime/vessels?imo=${validImo(100_000)}`))).data, []);
    const bad = await get(`/v3/maritime/vessels?imo=${NORDIC_IMO + 1}`);
    assert.equal(bad.status, 400);
    assert.match((await json(bad)).detail, /check digit/);
  });

  test('by name part, flag and category', async () => {
    const mmsis = async (query: string) => (await json(await get(`/v3/maritime/vessels?${query}`))).data.map((v: { mmsi: number }) => v.mmsi);
    assert.deepEqual(await mmsis('name=pride'), [THAMES]);
    assert.deepEqual(await mmsis('flag=nl'), [NORDIC]);
    assert.deepEqual(await mmsis('category=CARGO'), [NORDIC]);
    assert.deepEqual(await mmsis('category=TANKER&flag=NL'), []);
    assert.equal((await get('/v3/maritime/vessels?category=SPACESHIP')).status, 400);
  });

  test('by bounding box, including one across the antimeridian', async () => {
    const mmsis = async (bbox: string) => (await json(await get(`/v3/maritime/vessels?bbox=${bbox}`))).data.map((v: { mmsi: number }) => v.mmsi);
    assert.deepEqual(await mmsis('-5,49,10,53'), [THAMES, NORDIC]);
    assert.deepEqual(await mmsis('179,-18,-179,-16'), [PACIFIC]);
    for (const bad of ['1,2,3', '0,0,200,1', '0,10,1,5', 'a,b,c,d']) {
      assert.equal((await get(`/v3/maritime/vessels?bbox=${bad}`)).status, 400, bad);
    }
  });

  test('pages with a cursor, without repeats or gaps', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { mmsi: number }[]; next_cursor: string | null } =
        await json(await get(`/v3/maritime/vessels?limit=1${cursor ? `&cursor=${cursor}` : ''}`));
      assert.ok(page.data.length <= 1);
      seen.push(...page.data.map((v) => v.mmsi));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, [THAMES, NORDIC, PACIFIC]);
    const bad = await get('/v3/maritime/vessels?cursor=not-a-cursor');
    assert.equal(bad.status, 400);
    assert.equal((await json(bad)).code, 'invalid_cursor');
    assert.equal((await get('/v3/maritime/vessels?limit=101')).status, 400);
  });
});

describe('track', () => {
  test('as JSON and as a GeoJSON LineString', async () => {
    // A vessel heard three times a minute apart (tag-block times), so the recorder keeps each point.
    const start = Date.now() - 4 * 60_000;
    const lines = [0, 1, 2].map((i) => {
      const [line] = sentences(positionReport(TRACKED, -17.0 + i * 0.01, 179.9));
      return formatTagBlock([`c:${Math.round((start + i * 60_000) / 1000)}`]) + line;
    });
    assert.equal((await json(await upload(lines.join('\n')))).messages, 3);
    const track = await json(await get(`/v3/maritime/vessels/${TRACKED}/track`));
    assert.ok(track.points.length >= 3, JSON.stringify(track));
    const times = track.points.map((p: { time: string }) => p.time);
    assert.deepEqual(times, [...times].sort());
    const feature = await json(await get(`/v3/maritime/vessels/${TRACKED}/track`, { accept: 'application/geo+json' }));
    assert.equal(feature.type, 'Feature');
    assert.equal(feature.geometry.type, 'LineString');
    assert.deepEqual(feature.geometry.coordinates.at(-1), [179.9, -16.98]);
    assert.equal(feature.properties.times.length, feature.geometry.coordinates.length);
    const empty = await json(await get(`/v3/maritime/vessels/${TRACKED}/track?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z&format=geojson`));
    assert.equal(empty.geometry, null);
    assert.equal((await get(`/v3/maritime/vessels/${NORDIC}/track?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`)).status, 400);
    assert.equal((await get(`/v3/maritime/vessels/${TRACKED}/track?from=yesterday`)).status, 400);
  });
});

test('the MID table lists every flag', async () => {
  const flags = await json(await get('/v3/maritime/flags'));
  assert.equal(flags.data.length, 292);
  assert.deepEqual(flags.data.find((f: { mid: number }) => f.mid === 244), { mid: 244, alpha2: 'NL', country: 'Netherlands' });
});

test('/metrics and /readyz account for every line, as one upload feed that names no key', async () => {
  const metricsText = await (await fetch(`${server.url}/metrics`)).text();
  assert.match(metricsText, /lamis_ais_rejected_lines_total\{feed="upload",reason="checksum"\} 1/);
  assert.match(metricsText, /lamis_vessels\{state="known"\} 4/);
  const readyText = await (await fetch(`${server.url}/readyz`)).text();
  const ready = JSON.parse(readyText);
  assert.equal(ready.checks.ais.state, 'up');
  assert.equal(ready.checks.ais.detail.vessels, 4);
  assert.deepEqual(ready.checks.ais.detail.pipelines.map((p: { feed: string }) => p.feed), ['upload']);
  assert.equal(ready.checks.ais.detail.pipelines[0].rejected.framing, 1);
  // Both are public: the id of the key that uploaded (configured keys are `cfg_` and a digest) appears in neither.
  const keyId = `cfg_${createHash('sha256').update(TEST_API_KEY).digest('hex').slice(0, 12)}`;
  for (const text of [metricsText, readyText]) assert.ok(!text.includes(keyId), `the key id ${keyId} is public`);
});
