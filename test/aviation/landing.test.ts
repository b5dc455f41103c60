// The landing endpoint against a real server on its simulated inputs: every field of the bundle,
// consistent with its own METAR (recomputed here from the returned text), and every refusal.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { approachMinimaMet, chooseRunway } from '../../src/aviation/landing/index.ts';
import { CONSERVATIVE_DEFAULTS, aircraftType } from '../../src/aviation/reference/aircraft-types.ts';
import { loadAirports } from '../../src/aviation/reference/airports.ts';
import { distanceNm } from '../../src/aviation/reference/geo.ts';
import { parseMetar, parseTaf, weatherAtEta } from '../../src/aviation/weather/index.ts';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { defaultConfig } from '../../src/config.ts';
import { loggerOptions } from '../../src/server.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, TEST_API_KEY, type TestServer } from '../support/server.ts';

let server: TestServer;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
const fields = (overrides: Record<string, string> = {}) => ({
  destination_icao: 'EGLL', vehicle_type: 'aircraft', eta_utc: inAnHour(), registration: 'G-EUPT', ...overrides,
});

/** The server's log, one parsed line each. */
const logLines: Record<string, unknown>[] = [];
const logSink = new Writable({
  write(chunk, _encoding, callback) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    callback();
  },
});

/** fetch() refuses GET bodies, so requests go through node:http and come back as a Response. */
function landing(method: 'GET' | 'POST', body: unknown, query = '', headers: Record<string, string> = {}): Promise<Response> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.url}/v3/intelligence/landing${query}`, {
      method,
      headers: { ...AUTH, ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: response.statusCode, headers: response.headers as Record<string, string> })));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** What the landing route serialised (the bundle as computed, and its JSON text), by Request-Id. */
const serialised = new Map<string, { computed: unknown; text: string }[]>();

before(async () => {
  server = await startTestServer({
    config: { aviationSimulators: 'on' },
    logger: pino(loggerOptions(defaultConfig({ logLevel: 'info' })), logSink),
    beforeListen: (app) => {
      // The route writes its answer with the reply's serialiser (once per answer, then reused).
      app.addHook('preHandler', async (request, reply) => {
        if (!request.url.startsWith('/v3/intelligence/landing')) return;
        const serialize = reply.serialize.bind(reply);
        reply.serialize = (payload: unknown) => {
          const text = serialize(payload) as string;
          serialised.set(request.id, [...serialised.get(request.id) ?? [], { computed: JSON.parse(JSON.stringify(payload)), text }]);
          return text;
        };
      });
    },
  });
});
after(() => server.close());

describe('the bundle', () => {
  test('GET with a JSON body answers every field with its type, from labelled simulated inputs', async () => {
    const response = await landing('GET', fields());
    assert.equal(response.status, 200, await response.clone().text());
    const bundle = await json(response);
    assert.equal(typeof bundle.request_id, 'string');
    assert.equal(bundle.destination.icao, 'EGLL');
    assert.match(bundle.destination.name, /Heathrow/);
    assert.ok(['OPERATIONAL', 'LIMITED', 'CLOSED', 'UNKNOWN'].includes(bundle.destination.status));
    assert.match(bundle.weather.metar, /^(METAR |SPECI )?EGLL \d{6}Z /);
    assert.equal(typeof bundle.weather.conditions, 'string');
    assert.ok(['LOW', 'MODERATE', 'HIGH', 'SEVERE'].includes(bundle.weather.wind_shear_risk));
    assert.equal(typeof bundle.weather.visibility_nm, 'number');
    assert.ok(Number.isInteger(bundle.safety_score) && bundle.safety_score >= 0 && bundle.safety_score <= 100);
    assert.equal(typeof bundle.slot_available, 'boolean');
    assert.match(bundle.recommended_approach, /^((ILS|RNAV|VISUAL) RWY \w+|NONE)$/);
    assert.ok(Array.isArray(bundle.notams));
    assert.equal(typeof bundle.intelligence_freshness_sec, 'number');
    assert.equal(bundle.sources.metar.source, 'simulated');
    assert.equal(bundle.sources.taf.source, 'simulated');
    assert.ok(bundle.sources.notams.every((feed: { source: string }) => feed.source === 'simulated'));
    assert.match(bundle.disclaimer, /sole source/);
    const sum = 100 + bundle.safety_factors.reduce((total: number, f: { points: number }) => total + f.points, 0);
    assert.equal(bundle.safety_score, Math.max(0, Math.min(100, sum)), 'the score is its factors added up');
  });

  test('is consistent with its own METAR and TAF: the weather at the ETA, category, conditions and runway recomputed', async () => {
    for (const eta of [new Date(), new Date(Date.now() + 5 * 3_600_000)]) {
      const nowIso = eta.toISOString().replace(/\.\d+Z$/, 'Z');
      const bundle = await json(await landing('POST', fields({ eta_utc: nowIso })));
      const metar = parseMetar(bundle.weather.metar, { now: new Date() });
      const taf = parseTaf(bundle.weather.taf, { now: new Date() });
      assert.ok(metar.ok && taf.ok);
      const atEta = weatherAtEta({ metar: metar.metar, taf: taf.taf, etaMs: Date.parse(nowIso) });
      assert.equal(bundle.weather.basis, atEta.basis);
      assert.equal(bundle.weather.basis_summary, atEta.summary);
      assert.equal(bundle.weather.visibility_nm, atEta.visibility_nm?.nm ?? null);
      assert.equal(bundle.weather.flight_category, atEta.flight_category);
      assert.equal(bundle.weather.conditions, atEta.conditions[0]);

      const airports = await loadAirports({ cacheDir: server.config.referenceCacheDir!, dataDir: server.config.dataDir });
      const aircraft = CONSERVATIVE_DEFAULTS.aircraft;
      const choice = chooseRunway({ runways: airports.get('EGLL')!.runways, weather: atEta, aircraft, notams: bundle.notams, approachMinimaMet: approachMinimaMet(atEta, { ...aircraft, type_known: false }) });
      assert.equal(bundle.runway?.designator ?? null, choice.runway?.designator ?? null);
      if (bundle.runway) assert.ok(bundle.recommended_approach.endsWith(`RWY ${bundle.runway.designator}`));
    }
    const now = await json(await landing('POST', fields({ eta_utc: new Date().toISOString() })));
    assert.equal(now.weather.basis, 'observation', 'the simulator observes every hour: an ETA now is within the latest METAR');
  });

  test('a METAR with no sky group: the ceiling is unknown, so no category, no clear sky and no visual approach', async () => {
    // Dated ahead of the simulator's reports (within the 10 minutes allowed) so it is the newest.
    const observed = new Date(Date.now() + 5 * 60_000);
    const time = [observed.getUTCDate(), observed.getUTCHours(), observed.getUTCMinutes()].map((n) => String(n).padStart(2, '0')).join('');
    const raw = `EGKK ${time}Z 26008KT 10SM 18/12 A3001 RMK AO1`;
    const pushed = await fetch(`${server.url}/v3/aviation/airports/EGKK/metar`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: raw });
    assert.equal(pushed.status, 201, await pushed.clone().text());
    const bundle = await json(await landing('POST', fields({ destination_icao: 'EGKK' })));
    assert.equal(bundle.weather.metar, raw);
    assert.equal(bundle.weather.flight_category, null);
    assert.equal(bundle.weather.conditions, 'UNKNOWN');
    assert.doesNotMatch(bundle.recommended_approach, /^VISUAL/);
    const category = bundle.safety_factors.find((f: { factor: string }) => f.factor === 'flight_category');
    assert.equal(category.points, -10);
    assert.match(category.detail, /ceiling is unknown/);
  });

  test("the README's example runs as written, on any day", { skip: existsSync('/usr/bin/curl') ? false : 'needs curl' }, async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!).find((block) => block.includes('/v3/intelligence/landing'));
    assert.ok(example, 'README.md has a landing example');
    assert.doesNotMatch(example, /\d{4}-\d{2}-\d{2}T/, 'no fixed date: it would lie in the past one day');
    // Run where the first start keeps its key, against the test server instead of the default port.
    const folder = mkdtempSync(path.join(tmpdir(), 'lamis-readme-'));
    try {
      mkdirSync(path.join(folder, 'data'));
      writeFileSync(path.join(folder, 'data', 'api-key'), TEST_API_KEY);
      const script = example.replaceAll('http://127.0.0.1:8080', server.url);
      const { stdout } = await promisify(execFile)('bash', ['-e', '-c', script], { cwd: folder });
      const bundle = JSON.parse(stdout);
      assert.equal(bundle.destination?.icao, 'EGLL', stdout);
      assert.equal(bundle.aircraft.designator, 'A320');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('the answer carries every field the bundle computes: its schema drops nothing', async () => {
    const created = await fetch(`${server.url}/v3/fleet/vehicles`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ vehicle_type: 'helicopter', registration: 'G-HLCP', icao_type: 'EC35', crosswind_limit_kt: 17 }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    for (const body of [fields(), { ...fields(), aircraft_type: 'B738' }, fields({ vehicle_type: 'helicopter', registration: 'G-HLCP' }), fields({ destination_icao: 'KJFK' })]) {
      const response = await landing('POST', body);
      assert.equal(response.status, 200, await response.clone().text());
      const answer = await json(response);
      assert.ok(answer.notams.length > 0 || body.destination_icao === 'KJFK', 'the simulator gives NOTAMs to check');
      const written = serialised.get(response.headers.get('request-id')!) ?? [];
      for (const { computed, text } of written) assert.deepEqual(JSON.parse(text), computed);
      // A helicopter of the caller's fleet was never asked about before: its answer is built and written afresh.
      if (body.registration === 'G-HLCP') assert.ok(written.length > 0);
    }
  });

  test('query parameters and POST give the same answer as a GET body', async () => {
    const body = fields();
    const byQuery = await json(await landing('GET', undefined, `?${new URLSearchParams(body)}`));
    const byPost = await json(await landing('POST', body));
    for (const bundle of [byQuery, byPost]) {
      assert.equal(bundle.weather.metar !== null, true);
      assert.equal(bundle.recommended_approach, byPost.recommended_approach);
      assert.equal(bundle.safety_score, byPost.safety_score);
      assert.equal(bundle.eta_utc, byPost.eta_utc);
    }
  });

  test("a registration in the caller's fleet brings the fleet's profile", async () => {
    const created = await fetch(`${server.url}/v3/fleet/vehicles`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ vehicle_type: 'aircraft', registration: 'G-FLTA', icao_type: 'A320', crosswind_limit_kt: 20 }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const bundle = await json(await landing('POST', fields({ registration: 'gflta' })));
    assert.equal(bundle.aircraft.profile_source, 'fleet');
    assert.equal(bundle.aircraft.crosswind_limit_kt, 20);
    assert.equal(bundle.aircraft.designator, 'A320');
  });

  test('request_id is the request\'s one id: the Request-Id header, the log line, and a caller\'s own X-Request-Id', async () => {
    for (const [response, expected] of [
      [await landing('POST', fields()), null],
      [await landing('GET', undefined, `?${new URLSearchParams(fields())}`, { 'x-request-id': 'dispatch-42.a:b' }), 'dispatch-42.a:b'],
    ] as const) {
      assert.equal(response.status, 200);
      const id = response.headers.get('request-id');
      assert.ok(id);
      if (expected !== null) assert.equal(id, expected);
      assert.equal((await json(response)).request_id, id);
      await waitFor(() => logLines.some((line) => line.request_id === id && line.msg === 'request'), 'the request\'s log line');
    }
  });

  test('an aircraft type brings its own limits', async () => {
    const bundle = await json(await landing('POST', { ...fields(), aircraft_type: 'a320' }));
    assert.equal(bundle.aircraft.profile_source, 'aircraft_type');
    assert.equal(bundle.aircraft.crosswind_limit_kt, aircraftType('A320')!.crosswind_limit_kt);
    const fallback = await json(await landing('POST', fields()));
    assert.equal(fallback.aircraft.profile_source, 'default');
  });
});

describe('refusals', () => {
  async function problem(response: Response, status: number, code: string, path?: string) {
    assert.equal(response.status, status);
    const body = await json(response);
    assert.equal(body.code, code);
    if (path) assert.equal(body.errors[0].path, path);
    return body;
  }

  test('a malformed ICAO code is a 400 naming the field', async () => {
    await problem(await landing('POST', fields({ destination_icao: 'EG LL' })), 400, 'validation_failed', '/body/destination_icao');
    await problem(await landing('GET', undefined, '?destination_icao=E&vehicle_type=aircraft&eta_utc=2030-01-01T00:00:00Z&registration=X'), 400, 'validation_failed', '/querystring/destination_icao');
  });

  test('an unknown airport is a 404', async () => {
    await problem(await landing('POST', fields({ destination_icao: 'ZZZZ' })), 404, 'airport_not_found');
  });

  test('an ETA that is not ISO 8601 UTC is a 400', async () => {
    for (const eta_utc of ['tomorrow', '2026-11-21 14:20', '2026-11-21T14:20:00+02:00', '2026-13-40T99:00:00Z']) {
      await problem(await landing('POST', fields({ eta_utc })), 400, 'validation_failed', '/body/eta_utc');
    }
  });

  test('a vessel is a 422; an unknown vehicle type a 400', async () => {
    await problem(await landing('POST', fields({ vehicle_type: 'vessel' })), 422, 'vehicle_cannot_land');
    await problem(await landing('POST', fields({ vehicle_type: 'submarine' })), 400, 'validation_failed', '/body/vehicle_type');
  });

  test('an ETA beyond the tolerance in the past is a 422; within it, an answer', async () => {
    await problem(await landing('POST', fields({ eta_utc: new Date(Date.now() - 3_600_000).toISOString() })), 422, 'eta_out_of_range');
    assert.equal((await landing('POST', fields({ eta_utc: new Date(Date.now() - 5 * 60_000).toISOString() }))).status, 200);
  });

  test('missing fields, unknown aircraft types and a missing key', async () => {
    await problem(await landing('GET', undefined, '?destination_icao=EGLL'), 400, 'validation_failed', '/querystring/vehicle_type');
    await problem(await landing('POST', { ...fields(), aircraft_type: 'ZZZ9' }), 422, 'invalid_aircraft_type');
    const anonymous = await fetch(`${server.url}/v3/intelligence/landing?${new URLSearchParams(fields())}`);
    assert.equal(anonymous.status, 401);
  });
});

describe('alternates', () => {
  const two = (n: number) => String(n).padStart(2, '0');
  const notamTime = (ms: number) => {
    const d = new Date(ms);
    return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
  };

  test('an A320 to Heathrow gets real nearby airports with runways it fits, best suited first; one closed at the ETA + 30 min drops out', async () => {
    const airports = await loadAirports({ cacheDir: server.config.referenceCacheDir! });
    const heathrow = airports.get('EGLL')!;
    const a320 = aircraftType('A320')!;
    const request = { ...fields(), aircraft_type: 'A320' };
    const ask = async () => (await json(await landing('POST', request))).alternates;

    const before = await ask();
    assert.equal(before.radius_nm, 150);
    assert.equal(Date.parse(before.assessed_for) - Date.parse(request.eta_utc), 30 * 60_000);
    assert.ok(before.airports.length > 0 && before.airports.length <= 3, JSON.stringify(before));
    // London's own airports (Gatwick, Luton, Stansted, Farnborough, City...), which of them by the
    // hour's simulated weather and NOTAMs.
    assert.ok(before.airports.every((alternate: { distance_nm: number }) => alternate.distance_nm <= 60), JSON.stringify(before));
    for (const alternate of before.airports) {
      const airport = airports.get(alternate.icao)!;
      assert.ok(['large_airport', 'medium_airport'].includes(airport.type), `${alternate.icao} is a ${airport.type}`);
      assert.ok(airport.runways.some((runway) => (runway.length_ft ?? 0) * 0.3048 >= a320.min_runway_m), `${alternate.icao} has a runway of ${a320.min_runway_m} m`);
      assert.ok(Math.abs(alternate.distance_nm - distanceNm(heathrow, airport)) < 0.1);
      assert.ok(alternate.distance_nm <= 150);
      assert.ok(alternate.reasons.length > 0 && alternate.reasons[0].startsWith('Fits the aircraft'));
      assert.equal(typeof alternate.bearing_deg, 'number');
    }
    const order = ['suitable', 'limited', 'marginal'];
    const limits = (alternate: { reasons: string[] }) => alternate.reasons.filter((reason) => /^(Marginal|Limited):/.test(reason)).length;
    const rankOf = (alternate: { suitability: string; reasons: string[]; distance_nm: number }) => [order.indexOf(alternate.suitability), limits(alternate), alternate.distance_nm];
    const ranks = before.airports.map(rankOf);
    assert.deepEqual(ranks, [...ranks].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!), 'ordered by suitability, the number of limits, then distance');

    const eta = Date.parse(request.eta_utc);
    const closure = `A0777/26 NOTAMN\nQ) EGTT/QFALC/IV/NBO/A/000/999/5109N00011W005\nA) EGKK B) ${notamTime(eta)} C) ${notamTime(eta + 4 * 3_600_000)}\nE) AD CLSD`;
    const pushed = await fetch(`${server.url}/v3/aviation/notams`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: closure });
    assert.equal(pushed.status, 201, await pushed.clone().text());
    const after = await ask();
    assert.ok(!after.airports.some((alternate: { icao: string }) => alternate.icao === 'EGKK'), JSON.stringify(after));
    assert.ok(after.reasoning.some((line: string) => /EGKK closed at the ETA \+ 30 min/.test(line)), after.reasoning.join('\n'));
  });
});
