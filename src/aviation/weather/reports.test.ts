// The report store on SQLite (always) and PostgreSQL (when LAMIS_TEST_DATABASE_URL is set), with
// the live source played by a loopback server speaking the aviationweather.gov Data API.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { AwcClient } from '../feeds/awc.ts';
import { parseMetar, parseTaf } from './index.ts';
import { weatherReportsMigration } from '../migrations/0002_weather_reports.ts';
import { awcProvider, simulatorProvider, WeatherReports } from './reports.ts';
import type { WeatherReportsOptions } from './reports.ts';

const T0 = Date.parse('2026-03-14T10:55:00Z');
const MINUTE = 60_000;

/**
 * aviationweather.gov on a loopback port: serves the METARs and TAFs set in `metars`/`tafs` in the
 * JSON format, counts requests, and can fail or hold its answers.
 */
async function startUpstream() {
  const metars = new Map<string, { rawOb: string; obsTime: number }>();
  const tafs = new Map<string, { rawTAF: string; issueTime: string }>();
  const state = { requests: 0, failing: false, holding: false };
  const held: Array<() => void> = [];
  let onHeld: (() => void) | null = null;
  const server = createServer((request, response) => {
    state.requests += 1;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const ids = url.searchParams.get('ids')?.split(',') ?? [];
    const answer = () => reply(response, url.pathname, ids);
    if (state.holding) {
      held.push(answer);
      onHeld?.();
    } else answer();
  });
  function reply(response: ServerResponse, path: string, ids: string[]): void {
    if (state.failing) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    const body = path.endsWith('/taf')
      ? ids.flatMap((icaoId) => {
        const taf = tafs.get(icaoId);
        return taf === undefined ? [] : [{ icaoId, ...taf }];
      })
      : ids.flatMap((icaoId) => {
        const metar = metars.get(icaoId);
        return metar === undefined ? [] : [{ icaoId, metarType: 'METAR', ...metar }];
      });
    if (body.length === 0) response.writeHead(204).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    setMetar(icao: string, raw: string, observedIso: string) {
      metars.set(icao, { rawOb: raw, obsTime: Date.parse(observedIso) / 1000 });
    },
    setTaf(icao: string, raw: string, issuedIso: string) {
      tafs.set(icao, { rawTAF: raw, issueTime: issuedIso });
    },
    /** Resolves once a request is being held. */
    nextHeld(): Promise<void> {
      return new Promise((resolve) => {
        onHeld = resolve;
      });
    },
    release() {
      state.holding = false;
      for (const answer of held.splice(0)) answer();
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

for (const backend of STORAGE_BACKENDS) {
  describe(`weather reports on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let now = T0;

    before(async () => {
      handle = await backend.open([weatherReportsMigration]);
      upstream = await startUpstream();
    });
    after(async () => {
      await upstream.close();
      await handle.cleanup();
    });

    function store(options: WeatherReportsOptions = {}): WeatherReports {
      return new WeatherReports(handle.database, { clock: () => now, ...options });
    }

    function live(options: WeatherReportsOptions = {}): WeatherReports {
      const client = new AwcClient({ baseUrl: upstream.url, minIntervalMs: 0, clock: () => now });
      return store({ provider: awcProvider(client), ...options });
    }

    test('an operator report is stored and served with its source, times and freshness', async () => {
      now = T0;
      const reports = store();
      const raw = 'METAR EDDF 141050Z 24012KT 9999 FEW030 08/02 Q1021';
      const submitted = await reports.submit('eddf', 'metar', raw);
      assert.ok(submitted.ok);
      const expected = {
        icao: 'EDDF',
        kind: 'metar',
        source: 'operator',
        raw,
        observed_at: '2026-03-14T10:50:00.000Z',
        received_at: '2026-03-14T10:55:00.000Z',
        checked_at: '2026-03-14T10:55:00.000Z',
        age_s: 0,
        freshness: 'live',
      };
      assert.deepEqual(submitted.report, expected);
      assert.deepEqual(await reports.latest('EDDF', 'metar'), expected);
      now = T0 + 2 * MINUTE;
      assert.deepEqual(
        [(await reports.latest('EDDF', 'metar'))?.freshness, (await reports.latest('EDDF', 'metar'))?.age_s],
        ['recent', 120],
      );
      now = T0 + 6 * MINUTE;
      assert.equal((await reports.latest('EDDF', 'metar'))?.freshness, 'stale');
      assert.equal(await reports.latest('EDDF', 'taf'), null);
      assert.equal(await reports.latest('not a station', 'metar'), null);
    });

    test('submitted reports are validated, with a clear reason for each refusal', async () => {
      now = T0;
      const reports = store();
      const refusals = [
        await reports.submit('ED', 'metar', 'METAR EDDM 141050Z 24012KT 9999 FEW030 08/02 Q1021'),
        await reports.submit('EDDM', 'metar', 'TAF EDDM 141100Z 1412/1518 24012KT 9999 FEW030'),
        await reports.submit('EDDM', 'taf', 'METAR EDDM 141050Z 24012KT 9999 FEW030 08/02 Q1021'),
        await reports.submit('EDDM', 'metar', 'METAR EDDM 141050Z 24012KT 9999 FEW030 08/02 1021'),
        await reports.submit('EDDM', 'metar', 'METAR EDDH 141050Z 24012KT 9999 FEW030 08/02 Q1021'),
        await reports.submit('EDDM', 'metar', 'METAR EDDM 141140Z 24012KT 9999 FEW030 08/02 Q1021'),
        await reports.submit('EDDM', 'taf', 'TAF EDDM 141100Z 1412/1518 24012KT 9999 FEW030 TEMPO 1414/1416 30035KTS'),
      ];
      assert.deepEqual(
        refusals.map((result) => (result.ok ? 'stored' : result.error.code)),
        ['bad_station', 'wrong_kind', 'wrong_kind', 'invalid_report', 'station_mismatch', 'in_future', 'invalid_report'],
      );
      const messages = refusals.map((result) => (result.ok ? '' : result.error.message));
      assert.match(messages[0] ?? '', /^bad_station: "ED" is not an ICAO location indicator/);
      assert.match(messages[1] ?? '', /this is a TAF: submit it as a TAF/);
      assert.match(messages[3] ?? '', /^bad_pressure "1021": expected Q and four digits/);
      const invalid = refusals[3];
      assert.equal(!invalid?.ok && invalid?.error.report_error?.code, 'bad_pressure');
      assert.match(messages[4] ?? '', /^station_mismatch: the report is for EDDH, not EDDM$/);
      assert.match(messages[5] ?? '', /^in_future: observed at 2026-03-14T11:40:00Z, more than 10 minutes after the current time 2026-03-14T10:55:00.000Z$/);
      assert.match(messages[6] ?? '', /^bad_wind "30035KTS"/);
      assert.equal(await reports.latest('EDDM', 'metar'), null);
    });

    test('the newest observation wins, not the latest arrival', async () => {
      now = T0;
      const reports = live();
      upstream.setMetar('EGLL', 'METAR EGLL 141020Z 23012KT 9999 BKN011 09/07 Q1004', '2026-03-14T10:20:00Z');
      const operator = await reports.submit('EGLL', 'metar', 'EGLL 141050Z 23013KT 9999 -RA BKN010 09/07 Q1004');
      assert.ok(operator.ok);
      now = T0 + MINUTE;
      assert.deepEqual(await reports.refresh(['EGLL'], 'metar'), { stored: 1, error: null });
      const newest = await reports.latest('EGLL', 'metar');
      assert.deepEqual([newest?.source, newest?.observed_at, newest?.freshness], ['operator', '2026-03-14T10:50:00.000Z', 'live']);

      upstream.setMetar('EGLL', 'METAR EGLL 141120Z 22012KT 9999 BKN014 10/07 Q1005', '2026-03-14T11:20:00Z');
      now = T0 + 30 * MINUTE;
      assert.equal((await reports.latest('EGLL', 'metar'))?.source, 'operator');
      await reports.idle();
      const after = await reports.latest('EGLL', 'metar');
      assert.deepEqual([after?.source, after?.observed_at, after?.raw], ['live', '2026-03-14T11:20:00.000Z', 'METAR EGLL 141120Z 22012KT 9999 BKN014 10/07 Q1005']);
    });

    test('requests for one airport share one upstream call, and stale data is answered at once', async () => {
      now = T0;
      upstream.state.requests = 0;
      const reports = live();
      upstream.setMetar('KSFO', 'METAR KSFO 141051Z 29014KT 10SM FEW012 14/09 A3003', '2026-03-14T10:51:00Z');
      upstream.setTaf('KSFO', 'TAF KSFO 141120Z 1412/1518 29015G22KT P6SM FEW015', '2026-03-14T11:20:00Z');
      const first = await Promise.all(Array.from({ length: 5 }, () => reports.latest('KSFO', 'metar')));
      assert.equal(upstream.state.requests, 1);
      assert.ok(first.every((report) => report?.source === 'live' && report.observed_at === '2026-03-14T10:51:00.000Z'));

      upstream.setMetar('KSFO', 'METAR KSFO 141151Z 30016KT 10SM FEW012 15/09 A3002', '2026-03-14T11:51:00Z');
      now = T0 + 5 * MINUTE + 1;
      upstream.state.holding = true;
      const held = upstream.nextHeld();
      // The upstream answer is held back, yet every request is answered, with the report held.
      const stale = await Promise.all(Array.from({ length: 5 }, () => reports.latest('KSFO', 'metar')));
      assert.ok(stale.every((report) => report?.observed_at === '2026-03-14T10:51:00.000Z' && report.freshness === 'stale'));
      await held;
      upstream.release();
      await reports.idle();
      assert.equal(upstream.state.requests, 2);
      const fresh = await reports.latest('KSFO', 'metar');
      assert.deepEqual([fresh?.observed_at, fresh?.freshness], ['2026-03-14T11:51:00.000Z', 'live']);

      const taf = await reports.latest('KSFO', 'taf');
      assert.deepEqual([taf?.source, taf?.observed_at], ['live', '2026-03-14T11:20:00.000Z']);
      assert.equal(upstream.state.requests, 3);
    });

    test('when the live source fails, the last good report is kept and the source left alone until its retry time', async () => {
      now = T0;
      upstream.state.requests = 0;
      const reports = live();
      upstream.setMetar('LFPG', 'METAR LFPG 141030Z 20008KT CAVOK 12/03 Q1018', '2026-03-14T10:30:00Z');
      assert.equal((await reports.latest('LFPG', 'metar'))?.source, 'live');

      upstream.state.failing = true;
      now = T0 + 6 * MINUTE;
      assert.equal((await reports.latest('LFPG', 'metar'))?.observed_at, '2026-03-14T10:30:00.000Z');
      await reports.idle();
      assert.equal(upstream.state.requests, 2);
      const kept = await reports.latest('LFPG', 'metar');
      assert.deepEqual([kept?.raw, kept?.freshness, kept?.age_s], ['METAR LFPG 141030Z 20008KT CAVOK 12/03 Q1018', 'stale', 360]);
      await reports.idle();
      assert.equal(upstream.state.requests, 2, 'no call during the back-off');

      upstream.state.failing = false;
      upstream.setMetar('LFPG', 'METAR LFPG 141100Z 21009KT CAVOK 13/03 Q1018', '2026-03-14T11:00:00Z');
      now += 11_000;
      await reports.latest('LFPG', 'metar');
      await reports.idle();
      assert.equal(upstream.state.requests, 3);
      assert.equal((await reports.latest('LFPG', 'metar'))?.observed_at, '2026-03-14T11:00:00.000Z');
    });

    test('an airport the source does not know is asked for again only when its answer is stale', async () => {
      now = T0;
      upstream.state.requests = 0;
      const reports = live();
      assert.equal(await reports.latest('ZZZZ', 'metar'), null);
      assert.equal(await reports.latest('ZZZZ', 'metar'), null);
      assert.equal(upstream.state.requests, 1);
      now += 6 * MINUTE;
      assert.equal(await reports.latest('ZZZZ', 'metar'), null);
      assert.equal(upstream.state.requests, 2);
    });

    test('with the simulator, a refresh writes the current simulated report', async () => {
      now = T0;
      const airports = new Map([['LSZH', { icao: 'LSZH', lat: 47.4647, lon: 8.5492, elevation_ft: 1416 }]]);
      const reports = store({ provider: simulatorProvider((icao) => airports.get(icao), 7), dueWaitMs: 60_000 });
      const metar = await reports.latest('LSZH', 'metar');
      assert.deepEqual([metar?.source, metar?.observed_at, metar?.freshness], ['simulated', '2026-03-14T10:50:00.000Z', 'live']);
      assert.equal(parseMetar(metar?.raw, { now: new Date(now) }).ok, true);
      const taf = await reports.latest('LSZH', 'taf');
      assert.equal(taf?.observed_at, '2026-03-14T05:20:00.000Z');
      assert.equal(parseTaf(taf?.raw, { now: new Date(now) }).ok, true);
      assert.equal(await reports.latest('XXXX', 'metar'), null);

      now = T0 + 60 * MINUTE;
      assert.equal((await reports.latest('LSZH', 'metar'))?.observed_at, '2026-03-14T11:50:00.000Z');
    });

    test('the first request once the next report is due gets that report, not the previous one marked stale', async () => {
      // The simulator observes at :50; the store was last asked at 11:48, less than 300 s before.
      const airports = new Map([['LOWW', { icao: 'LOWW', lat: 48.1103, lon: 16.5697, elevation_ft: 600 }]]);
      const simulated = store({ provider: simulatorProvider((icao) => airports.get(icao), 7), dueWaitMs: 60_000 });
      now = Date.parse('2026-03-14T11:48:00Z');
      assert.equal((await simulated.latest('LOWW', 'metar'))?.observed_at, '2026-03-14T10:50:00.000Z');
      now = Date.parse('2026-03-14T11:50:01Z');
      const first = await simulated.latest('LOWW', 'metar');
      assert.deepEqual([first?.observed_at, first?.freshness], ['2026-03-14T11:50:00.000Z', 'live']);
      // TAFs: the next one is issued at 11:20 for 12 UTC.
      now = Date.parse('2026-03-14T11:15:00Z');
      assert.equal((await simulated.latest('LOWW', 'taf'))?.observed_at, '2026-03-14T05:20:00.000Z');
      now = Date.parse('2026-03-14T11:20:30Z');
      assert.equal((await simulated.latest('LOWW', 'taf'))?.observed_at, '2026-03-14T11:20:00.000Z');

      // The live source: its report of 10:51 held, the one of 11:51 published since.
      const reports = live({ dueWaitMs: 60_000 });
      now = T0;
      upstream.setMetar('KJFK', 'METAR KJFK 141051Z 31012KT 10SM FEW250 06/M08 A3012', '2026-03-14T10:51:00Z');
      assert.equal((await reports.latest('KJFK', 'metar'))?.observed_at, '2026-03-14T10:51:00.000Z');
      upstream.setMetar('KJFK', 'METAR KJFK 141151Z 31014KT 10SM FEW250 07/M08 A3011', '2026-03-14T11:51:00Z');
      now = Date.parse('2026-03-14T11:52:00Z');
      const current = await reports.latest('KJFK', 'metar');
      assert.deepEqual([current?.observed_at, current?.freshness], ['2026-03-14T11:51:00.000Z', 'live']);
    });

    test('a request waits for an overdue report only so long: a source that does not answer gets the report held', async () => {
      now = T0;
      const reports = live({ dueWaitMs: 20 });
      upstream.setMetar('EDDH', 'METAR EDDH 141050Z 27010KT 9999 FEW030 08/02 Q1020', '2026-03-14T10:50:00Z');
      assert.equal((await reports.latest('EDDH', 'metar'))?.observed_at, '2026-03-14T10:50:00.000Z');
      upstream.setMetar('EDDH', 'METAR EDDH 141150Z 27011KT 9999 FEW030 09/02 Q1020', '2026-03-14T11:50:00Z');
      now = Date.parse('2026-03-14T11:51:00Z');
      upstream.state.holding = true;
      const held = upstream.nextHeld();
      // Answered while the source still holds its answer back.
      const waited = await reports.latest('EDDH', 'metar');
      assert.deepEqual([waited?.observed_at, waited?.freshness], ['2026-03-14T10:50:00.000Z', 'stale']);
      await held;
      upstream.release();
      await reports.idle();
      assert.equal((await reports.latest('EDDH', 'metar'))?.observed_at, '2026-03-14T11:50:00.000Z');
    });

    test('a correction replaces the report held for the same time; reports long superseded are deleted', async () => {
      now = T0;
      const reports = store({ retentionMs: 24 * 60 * MINUTE });
      await reports.submit('EHAM', 'metar', 'METAR EHAM 141050Z 25015KT 9999 SCT025 09/04 Q1012');
      const corrected = await reports.submit('EHAM', 'metar', 'METAR COR EHAM 141050Z 25015KT 9999 SCT020 09/04 Q1012');
      assert.ok(corrected.ok);
      assert.equal((await reports.latest('EHAM', 'metar'))?.raw, 'METAR COR EHAM 141050Z 25015KT 9999 SCT020 09/04 Q1012');

      now = T0 + 20 * 60 * MINUTE;
      await reports.submit('EHAM', 'metar', 'METAR EHAM 150650Z 24010KT 9999 FEW030 07/03 Q1015');
      now = T0 + 30 * 60 * MINUTE;
      await reports.submit('EHAM', 'metar', 'METAR EHAM 151650Z 23012KT 9999 FEW035 11/03 Q1014');
      const rows = await handle.database.db
        .selectFrom('weather_reports')
        .select('observed_at')
        .where('icao', '=', 'EHAM')
        .orderBy('observed_at')
        .execute();
      assert.deepEqual(rows.map((row) => row.observed_at), ['2026-03-15T06:50:00.000Z', '2026-03-15T16:50:00.000Z']);
    });
  });
}
