import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { answerEndlessly, type EndlessAnswer } from '../../../test/support/endless-upstream.ts';
import { waitFor } from '../../maritime/feeds/testing.ts';
import { AwcClient } from './awc.ts';
import type { AwcClientOptions } from './awc.ts';

// Response bodies in the Data API's shapes: JSON arrays with icaoId/obsTime/rawOb (METAR) and
// icaoId/issueTime/rawTAF (TAF), and the plain-text format.
const METAR_JSON = [
  {
    icaoId: 'KSFO', receiptTime: '2026-03-14T17:58:02.114Z', obsTime: 1773510660, reportTime: '2026-03-14T18:00:00.000Z',
    temp: 14.4, dewp: 8.9, wdir: 290, wspd: 14, wgst: null, visib: '10+', altim: 1016.9, slp: 1016.8, qcField: 4,
    metarType: 'METAR', rawOb: 'METAR KSFO 141751Z 29014KT 10SM FEW012 SCT200 14/09 A3003 RMK AO2 SLP168 T01440089',
    lat: 37.6196, lon: -122.3656, elev: 3, name: 'San Francisco Intl, CA, US', cover: 'SCT',
    clouds: [{ cover: 'FEW', base: 1200 }, { cover: 'SCT', base: 20000 }], fltCat: 'VFR',
  },
  {
    icaoId: 'EGLL', receiptTime: '2026-03-14T17:50:31.220Z', obsTime: 1773510600, reportTime: '2026-03-14T18:00:00.000Z',
    temp: 9, dewp: 7, wdir: 230, wspd: 12, wgst: null, visib: '6+', altim: 1004, metarType: 'METAR',
    rawOb: 'METAR EGLL 141750Z AUTO 23012KT 9999 -RA BKN011 OVC018 09/07 Q1004 NOSIG',
    lat: 51.4775, lon: -0.4614, elev: 25, name: 'London/Heathrow Intl, EN, GB', cover: 'OVC',
    clouds: [{ cover: 'BKN', base: 1100 }, { cover: 'OVC', base: 1800 }], fltCat: 'MVFR',
  },
  {
    icaoId: 'EGLL', obsTime: 1773508800, reportTime: '2026-03-14T17:20:00.000Z', metarType: 'METAR',
    rawOb: 'METAR EGLL 141720Z AUTO 23011KT 9999 -RA BKN012 OVC020 09/07 Q1004 NOSIG', fltCat: 'MVFR',
  },
];

const TAF_JSON = [
  {
    icaoId: 'KSFO', dbPopTime: '2026-03-14T17:21:40.512Z', bulletinTime: '2026-03-14T17:20:00.000Z',
    issueTime: '2026-03-14T17:20:00.000Z', validTimeFrom: 1773511200, validTimeTo: 1773619200,
    rawTAF: 'TAF KSFO 141720Z 1418/1524 29015G22KT P6SM FEW015 FM150300 28010KT P6SM SKC',
    mostRecent: 1, remarks: '', lat: 37.6196, lon: -122.3656, elev: 3, prior: 0, name: 'San Francisco Intl',
    fcsts: [{ timeFrom: 1773511200, timeTo: 1773543600, fcstChange: null, wdir: 290, wspd: 15, wgst: 22, visib: '6+' }],
  },
  { icaoId: 'EGLL', bulletinTime: '2026-03-14 16:59:00', rawTAF: 'TAF EGLL 141659Z 1418/1524 23012KT 9999 BKN012' },
  { icaoId: 'LFPG', issueTime: '2026-03-14T17:00:00.000Z' },
];

const METAR_RAW = [
  'METAR KSFO 141751Z 29014KT 10SM FEW012 SCT200 14/09 A3003 RMK AO2 SLP168 T01440089',
  'METAR EGLL 141750Z AUTO 23012KT 9999 -RA BKN011 OVC018 09/07 Q1004 NOSIG',
  'EGLL 141720Z GARBLED',
  '',
].join('\n');

const TAF_RAW = [
  'TAF KSFO 141720Z 1418/1524 29015G22KT P6SM FEW015',
  '      FM150300 28010KT P6SM SKC',
  '',
  'TAF EGLL 141659Z 1418/1524 23012KT 9999 BKN012',
  '  TEMPO 1418/1422 4000 RA BKN008',
  '',
].join('\n');

const NOW = Date.parse('2026-03-14T18:05:00Z');

interface Recorded {
  path: string;
  params: URLSearchParams;
  userAgent: string | undefined;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A loopback HTTP server standing in for aviationweather.gov; records every request it gets. */
async function upstream(handler: Handler): Promise<{ url: string; requests: Recorded[]; server: Server }> {
  const requests: Recorded[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push({ path: url.pathname, params: url.searchParams, userAgent: request.headers['user-agent'] });
    handler(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

const servers: Server[] = [];
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

function sendJson(response: ServerResponse, body: unknown, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function client(url: string, options: AwcClientOptions = {}): AwcClient {
  return new AwcClient({ baseUrl: url, minIntervalMs: 0, clock: () => NOW, ...options });
}

describe('AwcClient', () => {
  test('METARs in JSON: every entry with its observation time, asked for politely', async () => {
    const { url, requests } = await upstream((_request, response) => sendJson(response, METAR_JSON));
    const result = await client(url).fetchMetars(['ksfo', 'EGLL']);
    assert.equal(result.ok, true);
    assert.deepEqual(result.reports, [
      { icao: 'KSFO', raw: METAR_JSON[0]?.rawOb, observed_at: '2026-03-14T17:51:00.000Z' },
      { icao: 'EGLL', raw: METAR_JSON[1]?.rawOb, observed_at: '2026-03-14T17:50:00.000Z' },
      { icao: 'EGLL', raw: METAR_JSON[2]?.rawOb, observed_at: '2026-03-14T17:20:00.000Z' },
    ]);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]?.path, '/api/data/metar');
    assert.deepEqual(
      [requests[0]?.params.get('ids'), requests[0]?.params.get('format'), requests[0]?.params.get('hours')],
      ['KSFO,EGLL', 'json', '2'],
    );
    assert.match(requests[0]?.userAgent ?? '', /^LAMIS\/\d+\.\d+\.\d+ /);
  });

  test('TAFs in JSON: issue time from issueTime or bulletinTime; an entry without text is listed as rejected', async () => {
    const { url, requests } = await upstream((_request, response) => sendJson(response, TAF_JSON));
    const result = await client(url).fetchTafs(['KSFO', 'EGLL', 'LFPG']);
    assert.ok(result.ok);
    assert.deepEqual(result.reports.map((report) => [report.icao, report.observed_at]), [
      ['KSFO', '2026-03-14T17:20:00.000Z'],
      ['EGLL', '2026-03-14T16:59:00.000Z'],
    ]);
    assert.equal(result.rejected.length, 1);
    assert.match(result.rejected[0]?.reason ?? '', /rawTAF/);
    assert.equal(requests[0]?.path, '/api/data/taf');
    assert.equal(requests[0]?.params.get('hours'), null);
  });

  test('the raw format: one METAR a line, TAFs with indented continuation lines; an unreadable line is rejected', async () => {
    const { url } = await upstream((request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(request.url?.includes('/taf') ? TAF_RAW : METAR_RAW);
    });
    const raw = client(url, { format: 'raw' });
    const metars = await raw.fetchMetars(['KSFO', 'EGLL']);
    assert.ok(metars.ok);
    assert.deepEqual(metars.reports.map((report) => [report.icao, report.observed_at]), [
      ['KSFO', '2026-03-14T17:51:00.000Z'],
      ['EGLL', '2026-03-14T17:50:00.000Z'],
    ]);
    assert.equal(metars.rejected.length, 1);
    assert.match(metars.rejected[0]?.reason ?? '', /^unrecognised_group "GARBLED"/);

    const tafs = await raw.fetchTafs(['KSFO', 'EGLL']);
    assert.ok(tafs.ok);
    assert.deepEqual(tafs.reports.map((report) => report.raw), [
      'TAF KSFO 141720Z 1418/1524 29015G22KT P6SM FEW015 FM150300 28010KT P6SM SKC',
      'TAF EGLL 141659Z 1418/1524 23012KT 9999 BKN012 TEMPO 1418/1422 4000 RA BKN008',
    ]);
    assert.equal(tafs.reports[1]?.observed_at, '2026-03-14T16:59:00.000Z');
  });

  test('204 No Content: no reports, no error', async () => {
    const { url } = await upstream((_request, response) => response.writeHead(204).end());
    const result = await client(url).fetchMetars(['ZZZZ']);
    assert.deepEqual(result, { ok: true, reports: [], rejected: [] });
  });

  test('429 with Retry-After: no call until then, the same error answered at once meanwhile', async () => {
    let now = NOW;
    const { url, requests } = await upstream((_request, response) => {
      response.writeHead(429, { 'retry-after': '120', 'content-type': 'text/plain' }).end('Too Many Requests');
    });
    const awc = client(url, { clock: () => now });
    const first = await awc.fetchMetars(['KSFO']);
    assert.equal(first.ok, false);
    assert.deepEqual(!first.ok && [first.error.kind, first.error.status, first.error.retry_after_ms], ['rate_limited', 429, 120_000]);

    now += 30_000;
    const refused = await awc.fetchTafs(['KSFO']);
    assert.deepEqual(!refused.ok && [refused.error.kind, refused.error.retry_after_ms], ['rate_limited', 90_000]);
    assert.match(!refused.ok ? refused.error.message : '', /not calling until 2026-03-14T18:07:00.000Z/);
    assert.equal(requests.length, 1);
    assert.equal(awc.backoff()?.until_ms, NOW + 120_000);

    now += 90_000;
    assert.equal(awc.backoff(), null);
    await awc.fetchMetars(['KSFO']);
    assert.equal(requests.length, 2);
  });

  test('server errors back off, doubling while they last; a success clears the back-off', async () => {
    let now = NOW;
    let failing = true;
    const { url, requests } = await upstream((_request, response) => {
      if (failing) response.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>');
      else sendJson(response, METAR_JSON.slice(0, 1));
    });
    const awc = client(url, { clock: () => now });
    const first = await awc.fetchMetars(['KSFO']);
    assert.deepEqual(!first.ok && [first.error.kind, first.error.status, first.error.retry_after_ms], ['upstream', 502, 10_000]);
    assert.match(!first.ok ? first.error.message : '', /^502 from 127\.0\.0\.1:\d+: <html>Bad Gateway<\/html>$/);
    now += 10_000;
    const second = await awc.fetchMetars(['KSFO']);
    assert.equal(!second.ok && second.error.retry_after_ms, 20_000);
    now += 20_000;
    failing = false;
    const third = await awc.fetchMetars(['KSFO']);
    assert.equal(third.ok, true);
    assert.equal(awc.backoff(), null);
    assert.equal(requests.length, 3);
  });

  test('malformed JSON and 400 are bad responses and start no back-off', async () => {
    let reply: (response: ServerResponse) => void = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('[{"icaoId":"KSFO","rawOb":');
    };
    const { url } = await upstream((_request, response) => reply(response));
    const awc = client(url);
    const truncated = await awc.fetchMetars(['KSFO']);
    assert.equal(!truncated.ok && truncated.error.kind, 'bad_response');
    assert.match(!truncated.ok ? truncated.error.message : '', /not JSON/);
    assert.equal(awc.backoff(), null);

    reply = (response) => sendJson(response, { error: 'expected an array' });
    const notArray = await awc.fetchMetars(['KSFO']);
    assert.match(!notArray.ok ? notArray.error.message : '', /expected a JSON array of reports, got object/);

    reply = (response) => response.writeHead(400, { 'content-type': 'text/plain' }).end('Invalid value for ids');
    const bad = await awc.fetchMetars(['KSFO']);
    assert.deepEqual(!bad.ok && [bad.error.kind, bad.error.status], ['bad_response', 400]);
    assert.match(!bad.ok ? bad.error.message : '', /Invalid value for ids/);
    assert.equal(awc.backoff(), null);
  });

  test('a server that does not answer in time is a network error', async () => {
    const { url } = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
    });
    const result = await client(url, { timeoutMs: 200 }).fetchMetars(['KSFO']);
    assert.equal(!result.ok && result.error.kind, 'network');
    assert.match(!result.ok ? result.error.message : '', /no complete answer from 127\.0\.0\.1:\d+ within 200 ms/);
  });

  test('an answer over the size limit is cut off: a failed fetch that backs off, and a log line', async () => {
    const answers: EndlessAnswer[] = [];
    const { url } = await upstream((_request, response) => answerEndlessly(response, answers));
    const logged: unknown[][] = [];
    const awc = client(url, { maxAnswerBytes: 64 * 1024, logger: { warn: (...line: unknown[]) => logged.push(line) } });
    const result = await awc.fetchMetars(['KSFO']);
    assert.equal(!result.ok && result.error.kind, 'too_large');
    assert.match(!result.ok ? result.error.message : '', /answer from 127\.0\.0\.1:\d+ is over the limit of 64 KiB/);
    assert.ok(awc.backoff(), 'no call again at once');
    await waitFor(() => answers.length === 1, 'the upstream to see the connection close');
    assert.equal(answers[0]!.complete, false, 'the client hung up');
    assert.ok(answers[0]!.sent < 64 * 1024 * 1024);
    assert.match(JSON.stringify(logged), /over its size limit/);
  });

  test('a refused connection is a network error', async () => {
    const { url, server } = await upstream((_request, response) => response.end());
    server.close();
    await once(server, 'close');
    const result = await client(url).fetchTafs(['KSFO']);
    assert.equal(!result.ok && result.error.kind, 'network');
    assert.match(!result.ok ? result.error.message : '', /ECONNREFUSED/);
  });

  test('many stations go in batches, one request at a time, spaced by the minimum interval', async () => {
    const { url, requests } = await upstream((request, response) => {
      const ids = new URL(request.url ?? '/', 'http://localhost').searchParams.get('ids')?.split(',') ?? [];
      sendJson(response, ids.map((icaoId) => ({ icaoId, obsTime: NOW / 1000 - 900, rawOb: `METAR ${icaoId} 141750Z 00000KT CAVOK 10/05 Q1020` })));
    });
    const waits: number[] = [];
    const awc = client(url, {
      maxIdsPerRequest: 50,
      minIntervalMs: 1_500,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const icaos = Array.from({ length: 120 }, (_, index) => `X${String(index).padStart(3, '0')}`);
    const result = await awc.fetchMetars([...icaos, 'x000', 'NOT-AN-ID']);
    assert.ok(result.ok);
    assert.deepEqual(requests.map((request) => request.params.get('ids')?.split(',').length), [50, 50, 20]);
    assert.deepEqual(result.reports.map((report) => report.icao), icaos);
    assert.deepEqual(result.rejected.map((entry) => entry.entry), ['NOT-AN-ID']);
    // The clock stands still in this test, so each later request waits the whole interval.
    assert.deepEqual(waits, [1_500, 1_500]);
  });
});
