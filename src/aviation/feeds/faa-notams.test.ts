// The FAA NOTAM API client against a loopback server answering in the API's GeoJSON format.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { answerEndlessly, type EndlessAnswer } from '../../../test/support/endless-upstream.ts';
import { waitFor } from '../../maritime/feeds/testing.ts';
import { FaaNotamClient } from './faa-notams.ts';
import type { FaaNotamClientOptions } from './faa-notams.ts';

const CLIENT_ID = 'lamis-test-id';
const CLIENT_SECRET = 'lamis-test-secret';

interface FeatureInput {
  id: string;
  number: string;
  classification: 'DOM' | 'FDC' | 'INTL';
  accountId: string;
  text: string;
  effectiveStart: string;
  effectiveEnd: string;
  series?: string;
  selectionCode?: string;
  icao?: string;
  local?: string;
}

/** One item as the API returns it with responseFormat=geoJson. */
function feature(input: FeatureInput): unknown {
  const translations: unknown[] = [];
  if (input.local !== undefined) translations.push({ type: 'LOCAL_FORMAT', simpleText: input.local });
  if (input.icao !== undefined) translations.push({ type: 'ICAO', formattedText: input.icao });
  return {
    type: 'Feature',
    properties: {
      coreNOTAMData: {
        notamEvent: { scenario: '6000' },
        notam: {
          id: input.id,
          ...(input.series === undefined ? {} : { series: input.series }),
          number: input.number,
          type: 'N',
          issued: '2025-03-01T10:00:00.000Z',
          affectedFIR: 'KZNY',
          ...(input.selectionCode === undefined ? {} : { selectionCode: input.selectionCode }),
          minimumFL: '000',
          maximumFL: '999',
          location: 'JFK',
          effectiveStart: input.effectiveStart,
          effectiveEnd: input.effectiveEnd,
          text: input.text,
          classification: input.classification,
          accountId: input.accountId,
          lastUpdated: '2025-03-01T10:00:00.000Z',
          icaoLocation: 'KJFK',
          coordinates: '4038N07346W',
          radius: '5',
        },
        notamTranslation: translations,
      },
    },
    geometry: { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [-73.7789, 40.6398] }] },
  };
}

const ILS_OUT = feature({
  id: 'NOTAM_1_80000001', number: '03/045', classification: 'DOM', accountId: 'JFK',
  text: 'NAV ILS RWY 04R U/S', effectiveStart: '2025-03-08T11:00:00.000Z', effectiveEnd: '2025-03-20T20:00:00.000Z',
  local: '!JFK 03/045 JFK NAV ILS RWY 04R U/S 2503081100-2503202000',
  icao: '03/045 NOTAMN\nQ) KZNY/QICAS/IV/NBO/A/000/999/4038N07346W005\nA) KJFK\nB) 2503081100\nC) 2503202000\nE) ILS RWY 04R U/S',
});
const NIGHTLY_CLOSURE = feature({
  id: 'NOTAM_1_80000002', number: '03/050', classification: 'DOM', accountId: 'JFK',
  text: 'RWY 13R/31L CLSD DLY 0400-1000', effectiveStart: '2025-03-09T04:00:00.000Z', effectiveEnd: '2025-03-15T10:00:00.000Z',
  local: '!JFK 03/050 JFK RWY 13R/31L CLSD DLY 0400-1000 2503090400-2503151000',
  icao: '03/050 NOTAMN\nQ) KZNY/QMRLC/IV/NBO/A/000/999/4038N07346W005\nA) KJFK\nB) 2503090400\nC) 2503151000\nD) DLY 0400-1000\nE) RWY 13R/31L CLSD',
});
const PROCEDURE = feature({
  id: 'NOTAM_1_80000003', number: '5/1234', classification: 'FDC', accountId: 'FDC',
  text: 'IAP JOHN F KENNEDY INTL, NEW YORK, NY.\nILS OR LOC RWY 22L, AMDT 7...\nS-ILS 22L DA 213/HAT 200 ALL CATS. 2503011500-2703011500EST',
  effectiveStart: '2025-03-01T15:00:00.000Z', effectiveEnd: '2027-03-01T15:00:00.000Z',
  local: '!FDC 5/1234 JFK IAP JOHN F KENNEDY INTL, NEW YORK, NY.\nILS OR LOC RWY 22L, AMDT 7...\nS-ILS 22L DA 213/HAT 200 ALL CATS.\n2503011500-2703011500EST',
  icao: 'Q) KZNY/QPIXX/I/NBO/A/000/999/4038N07346W005\nA) KJFK\nB) 2503011500\nC) 2703011500EST\nE) JFK JOHN F KENNEDY INTL, NEW YORK, NY.\nILS OR LOC RWY 22L, AMDT 7...\nS-ILS 22L DA 213/HAT 200 ALL CATS.',
});
const CRANE = feature({
  id: 'NOTAM_1_80000004', number: 'A0612/25', series: 'A', selectionCode: 'QOBCE', classification: 'INTL', accountId: 'KJFK',
  text: 'CRANE 403912N0734705W (0.8NM NW JFK) 215FT AMSL (200FT AGL) FLAGGED AND LGTD',
  effectiveStart: '2025-03-05T12:00:00.000Z', effectiveEnd: '2025-06-30T23:59:00.000Z',
  icao: 'A0612/25 NOTAMN\nQ) KZNY/QOBCE/IV/M/AE/000/003/4039N07347W001\nA) KJFK B) 2503051200 C) 2506302359 EST\nE) CRANE 403912N0734705W (0.8NM NW JFK) 215FT AMSL (200FT AGL) FLAGGED AND LGTD',
});
/** The ICAO translation is damaged; the domestic text is read instead. */
const CLOSURE_DOMESTIC_ONLY = feature({
  id: 'NOTAM_1_80000005', number: '03/061', classification: 'DOM', accountId: 'JFK',
  text: 'RWY 04L/22R CLSD', effectiveStart: '2025-03-10T03:00:00.000Z', effectiveEnd: '2025-03-10T09:00:00.000Z',
  local: '!JFK 03/061 JFK RWY 04L/22R CLSD 2503100300-2503100900',
  icao: '03/061 NOTAMN\nQ) KZNY/QMRLC/IV/NBO/A/000/999/UNDEFINED\nA) KJFK\nB) 2503100300\nC) 2503100900\nE) RWY 04L/22R CLSD',
});
/** Neither text can be read. */
const UNREADABLE = feature({
  id: 'NOTAM_1_80000006', number: '03/070', classification: 'DOM', accountId: 'JFK',
  text: 'TWY B CLSD', effectiveStart: '2025-03-10T12:00:00.000Z', effectiveEnd: '2025-03-11T12:00:00.000Z',
  local: '!JFK 03/070 JFK TWY B CLSD',
  icao: '03/070 NOTAMN\nQ) KZNY/QMXLC/IV/M/A/000/999/4038N07346W005\nA) KJFK\nB) 2513101200\nC) 2513111200\nE) TWY B CLSD',
});

/** Eight items over three pages of three; the crane appears again on the last page. */
const PAGES: unknown[][] = [[ILS_OUT, NIGHTLY_CLOSURE, PROCEDURE], [CRANE, CLOSURE_DOMESTIC_ONLY, UNREADABLE], [{ type: 'Feature', properties: {} }, CRANE]];

function pageBody(pageNum: number, pageSize = 3): string {
  return JSON.stringify({ pageSize, pageNum, totalCount: 8, totalPages: PAGES.length, items: PAGES[pageNum - 1] ?? [] });
}

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

function sendJson(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(body);
}

/** Answers like the API: pages by pageNum, 401 for other credentials. */
const apiLike: Handler = (request, response, url) => {
  if (request.headers.client_id !== CLIENT_ID || request.headers.client_secret !== CLIENT_SECRET) {
    sendJson(response, 401, JSON.stringify({ error: 'invalid_client', error_description: 'Client authentication failed' }));
    return;
  }
  sendJson(response, 200, pageBody(Number(url.searchParams.get('pageNum'))));
};

describe('FAA NOTAM API client', () => {
  let server: ReturnType<typeof createServer>;
  let baseUrl: string;
  let handler: Handler;
  let requests: { url: URL; headers: IncomingMessage['headers'] }[];
  let now: number;

  function client(options: Partial<FaaNotamClientOptions> = {}): FaaNotamClient {
    return new FaaNotamClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, baseUrl, pageSize: 3, clock: () => now, ...options });
  }

  beforeEach(async () => {
    now = Date.parse('2025-03-10T12:00:00Z');
    requests = [];
    handler = apiLike;
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      requests.push({ url, headers: request.headers });
      handler(request, response, url);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notamapi/v1`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('reads every page: the ICAO translation first, the domestic text when it fails, failures listed', async () => {
    const faa = client();
    const result = await faa.fetchNotams('kjfk');
    assert.ok(result.ok, JSON.stringify(result));

    assert.deepEqual(requests.map((r) => r.url.pathname), ['/notamapi/v1/notams', '/notamapi/v1/notams', '/notamapi/v1/notams']);
    assert.deepEqual(requests.map((r) => Object.fromEntries(r.url.searchParams)), [1, 2, 3].map((page) => ({
      icaoLocation: 'KJFK', responseFormat: 'geoJson', pageSize: '3', pageNum: String(page),
    })));
    assert.equal(requests[0]!.headers.client_id, CLIENT_ID);
    assert.equal(requests[0]!.headers.client_secret, CLIENT_SECRET);

    const { set } = result;
    assert.equal(set.location, 'KJFK');
    assert.equal(set.total_count, 8);
    assert.equal(set.truncated, false);
    assert.equal(set.fetched_at, '2025-03-10T12:00:00.000Z');
    assert.deepEqual(set.notams.map((n) => [n.id, n.format]), [
      ['03/045', 'icao'], ['03/050', 'icao'], ['FDC 5/1234', 'icao'], ['A0612/25', 'icao'], ['JFK 03/061', 'faa'],
    ]);
    const [ils, closure, procedure, crane, domestic] = set.notams;
    assert.deepEqual(ils!.effects, [{ kind: 'ils_unserviceable', runways: ['04R'] }]);
    assert.deepEqual(closure!.effects, [{ kind: 'runway_closed', runways: ['13R', '31L'] }]);
    assert.equal(closure!.schedule, 'DLY 0400-1000');
    // The FDC ICAO translation has no number: the API's fields give it.
    assert.deepEqual([procedure!.number, procedure!.type, procedure!.q_code], [1234, 'NEW', 'QPIXX']);
    assert.deepEqual(procedure!.effects, [{ kind: 'other', runways: [] }]);
    assert.deepEqual([crane!.series, crane!.number, crane!.year, crane!.end_estimated], ['A', 612, 2025, true]);
    assert.deepEqual(domestic!.effects, [{ kind: 'runway_closed', runways: ['04L', '22R'] }]);

    assert.equal(set.failures.length, 2);
    assert.deepEqual([set.failures[0]!.id, set.failures[0]!.number], ['NOTAM_1_80000006', '03/070']);
    assert.match(set.failures[0]!.reason, /^ICAO: bad_time: .*; LOCAL_FORMAT: missing_start_time: /);
    assert.deepEqual(set.failures[1], { id: null, number: null, reason: 'not a Feature with properties.coreNOTAMData.notam' });

    assert.deepEqual(faa.lastGood('KJFK'), set);
    assert.deepEqual(await faa.notamsFor('KJFK'), { ok: true, notams: set.notams });
  });

  test('pages beyond maxPages are not read, and the set says so', async () => {
    const result = await client({ maxPages: 2 }).fetchNotams('KJFK');
    assert.ok(result.ok);
    assert.equal(requests.length, 2);
    assert.equal(result.set.truncated, true);
    assert.equal(result.set.notams.length, 5);
  });

  test('refused credentials: unauthorized, then no call for five minutes', async () => {
    const faa = client({ clientSecret: 'wrong' });
    const refused = await faa.fetchNotams('KJFK');
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'unauthorized');
    assert.equal(refused.error.status, 401);
    assert.match(refused.error.message, /^unauthorized: HTTP 401 .*invalid_client.*client_id and client_secret/);
    assert.equal(refused.error.retry_at, '2025-03-10T12:05:00.000Z');
    assert.equal(refused.last_good, null);

    const waiting = await faa.fetchNotams('KJFK');
    assert.ok(!waiting.ok);
    assert.equal(waiting.error.code, 'backing_off');
    assert.match(waiting.error.message, /until 2025-03-10T12:05:00.000Z after unauthorized/);
    assert.equal(requests.length, 1);

    now += 300_000;
    assert.equal((await faa.fetchNotams('KJFK')).ok, false);
    assert.equal(requests.length, 2);
  });

  test('rate limited: Retry-After is honoured and the last good set comes back meanwhile', async () => {
    const faa = client();
    const good = await faa.fetchNotams('KJFK');
    assert.ok(good.ok);

    handler = (_request, response) => sendJson(response, 429, '{"message":"Too Many Requests"}', { 'retry-after': '120' });
    const limited = await faa.fetchNotams('KJFK');
    assert.ok(!limited.ok);
    assert.equal(limited.error.code, 'rate_limited');
    assert.equal(limited.error.retry_at, '2025-03-10T12:02:00.000Z');
    assert.equal(faa.retryAt(), '2025-03-10T12:02:00.000Z');
    assert.deepEqual(limited.last_good, good.set);

    const requestsSoFar = requests.length;
    const waiting = await faa.fetchNotams('KJFK');
    assert.ok(!waiting.ok);
    assert.equal(waiting.error.code, 'backing_off');
    assert.deepEqual(waiting.last_good, good.set);
    assert.deepEqual(await faa.notamsFor('KJFK'), { ok: false, error: waiting.error.message });
    assert.equal(requests.length, requestsSoFar);

    now += 120_000;
    handler = apiLike;
    assert.equal((await faa.fetchNotams('KJFK')).ok, true);
    assert.equal(faa.retryAt(), null);
  });

  test('Retry-After as an HTTP date', async () => {
    handler = (_request, response) => sendJson(response, 429, '', { 'retry-after': 'Mon, 10 Mar 2025 12:10:00 GMT' });
    const limited = await client().fetchNotams('KJFK');
    assert.ok(!limited.ok);
    assert.equal(limited.error.retry_at, '2025-03-10T12:10:00.000Z');
  });

  test('server errors back off, doubling while they last, until an answer succeeds', async () => {
    const faa = client();
    handler = (_request, response) => sendJson(response, 503, '<html>Service Unavailable</html>');
    const first = await faa.fetchNotams('KJFK');
    assert.ok(!first.ok);
    assert.equal(first.error.code, 'server_error');
    assert.equal(first.error.status, 503);
    assert.equal(first.error.retry_at, '2025-03-10T12:00:30.000Z');

    now += 30_000;
    const second = await faa.fetchNotams('KJFK');
    assert.ok(!second.ok);
    assert.equal(second.error.retry_at, '2025-03-10T12:01:30.000Z');

    now += 60_000;
    handler = apiLike;
    assert.equal((await faa.fetchNotams('KJFK')).ok, true);
    handler = (_request, response) => sendJson(response, 500, '');
    const again = await faa.fetchNotams('KJFK');
    assert.ok(!again.ok);
    assert.equal(again.error.retry_at, '2025-03-10T12:02:00.000Z');
  });

  test('garbage with status 200 is a bad response', async () => {
    const faa = client();
    const bodies: [string, RegExp][] = [
      ['<html><body>Maintenance</body></html>', /^bad_response: the body is not JSON .*Maintenance/],
      ['{"pageSize":3,"pageNum":1,"totalCount":0}', /^bad_response: expected an object with an items array/],
      ['[1,2,3]', /^bad_response: expected an object with an items array/],
    ];
    for (const [body, message] of bodies) {
      handler = (_request, response) => sendJson(response, 200, body);
      const result = await faa.fetchNotams('KJFK');
      assert.ok(!result.ok);
      assert.equal(result.error.code, 'bad_response');
      assert.match(result.error.message, message);
      now += 3_600_000;
    }
  });

  test('an empty answer is a good, empty set', async () => {
    handler = (_request, response) => sendJson(response, 200, JSON.stringify({ pageSize: 3, pageNum: 1, totalCount: 0, totalPages: 0, items: [] }));
    const result = await client().fetchNotams('KJFK');
    assert.ok(result.ok);
    assert.deepEqual([result.set.notams, result.set.failures, requests.length], [[], [], 1]);
  });

  test('a failure on a later page fails the fetch; the last good set stays', async () => {
    const faa = client();
    const good = await faa.fetchNotams('KJFK');
    assert.ok(good.ok);
    now += 600_000;
    handler = (request, response, url) => (url.searchParams.get('pageNum') === '2' ? sendJson(response, 502, 'Bad Gateway') : apiLike(request, response, url));
    const failed = await faa.fetchNotams('KJFK');
    assert.ok(!failed.ok);
    assert.equal(failed.error.code, 'server_error');
    assert.deepEqual(failed.last_good, good.set);
    assert.deepEqual(faa.lastGood('kjfk'), good.set);
  });

  test('an answer over the size limit is cut off: a failed fetch, the last good set kept, a log line', async () => {
    const logged: unknown[][] = [];
    const faa = client({ maxAnswerBytes: 64 * 1024, logger: { warn: (...line: unknown[]) => logged.push(line) } });
    const good = await faa.fetchNotams('KJFK');
    assert.ok(good.ok);
    now += 600_000;
    const answers: EndlessAnswer[] = [];
    handler = (_request, response) => answerEndlessly(response, answers);
    const failed = await faa.fetchNotams('KJFK');
    assert.ok(!failed.ok);
    assert.equal(failed.error.code, 'too_large');
    assert.match(failed.error.message, /^too_large: the answer from 127\.0\.0\.1:\d+ is over the limit of 64 KiB/);
    assert.ok(failed.error.retry_at, 'no call again at once');
    assert.deepEqual(failed.last_good, good.set);
    await waitFor(() => answers.length === 1, 'the upstream to see the connection close');
    assert.equal(answers[0]!.complete, false, 'the client hung up');
    assert.ok(answers[0]!.sent < 64 * 1024 * 1024);
    assert.match(JSON.stringify(logged), /over its size limit/);
  });

  test('other statuses are HTTP errors', async () => {
    handler = (_request, response) => sendJson(response, 404, '{"message":"no Route matched"}');
    const result = await client().fetchNotams('KJFK');
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'http_error');
    assert.match(result.error.message, /^http_error: HTTP 404 .*no Route matched/);
  });

  test('no answer within the timeout', async () => {
    handler = () => {
      // Never answers; the connection is closed when the server shuts down.
    };
    const result = await client({ timeoutMs: 100 }).fetchNotams('KJFK');
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'timeout');
    assert.match(result.error.message, /within 100 ms/);
  });

  test('nothing listening: a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await client({ baseUrl: `http://127.0.0.1:${port}/notamapi/v1` }).fetchNotams('KJFK');
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'network');
    assert.match(result.error.message, /ECONNREFUSED/);
  });

  test('a location that is not one is refused without a call', async () => {
    for (const location of ['K JFK', '', 'KJFK1']) {
      const result = await client().fetchNotams(location);
      assert.ok(!result.ok);
      assert.equal(result.error.code, 'bad_location');
    }
    assert.equal(requests.length, 0);
  });
});
