// AIS streams served by stream processes (LAMIS_STREAM_PROCESSES), against a real server with two:
// streams are spread over the processes; a vessel's static data reaches a process that did not
// watch its region when it was sent; a process that dies takes only its own streams down, gives
// their slots back and is replaced by one that knows every vessel. The protocol itself is
// stream.test.ts, run in processes by stream-in-processes.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { positionReport, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { imoFromPrefix } from '../../src/maritime/vessels/reference/index.ts';
import { organisationKey } from '../support/organisations.ts';
import { AUTH, TEST_API_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { TestStream, metric, refusedUpgrade, sleep, upload } from './stream-support.ts';

let server: TestServer;
let logs = '';

/** How many stream processes have been ready so far. */
const readyCount = () => logs.split('"msg":"stream process ready"').length - 1;

/** The stream process of each stream opened so far, by the order of the `stream opened` lines. */
function openedIn(): number[] {
  return logs.split('\n').filter((line) => line.includes('"msg":"stream opened"')).map((line) => JSON.parse(line).stream_process as number);
}

before(async () => {
  const capture = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk;
      done();
    },
  });
  server = await startTestServer({ logger: pino({ level: 'info' }, capture), config: { streamProcesses: 2 } });
  // The processes start with the first stream, which waits for the first of them.
  const first = new TestStream(server.url, { headers: AUTH });
  await first.next('ready', 30_000);
  await waitFor(() => readyCount() === 2, 'both processes ready', 30_000);
  await first.close();
  logs = '';
});
after(() => server.close());

test('a stream process checks client messages without loading TypeBox', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lamis-stream-modules-'));
  const file = path.join(dir, 'modules.txt');
  const recorder = new URL('../support/record-modules.ts', import.meta.url).pathname;
  const saved = { NODE_OPTIONS: process.env.NODE_OPTIONS, LAMIS_TEST_MODULES_FILE: process.env.LAMIS_TEST_MODULES_FILE };
  // The stream process takes its environment as it starts, with the first stream.
  process.env.NODE_OPTIONS = `${saved.NODE_OPTIONS ?? ''} --import ${recorder}`;
  process.env.LAMIS_TEST_MODULES_FILE = file;
  const single = await startTestServer({ config: { streamProcesses: 1 } });
  try {
    const stream = new TestStream(single.url);
    // The process completes the handshake once it has started.
    await new Promise((resolve) => stream.ws.once('open', resolve));
    stream.send({ type: 'auth', api_key: TEST_API_KEY });
    await stream.next('ready', 30_000);
    stream.send({ type: 'subscribe', bbox: { minLat: 95, maxLat: 96, minLon: 0, maxLon: 1 } });
    assert.deepEqual((await stream.next('error')).data, { code: 'invalid_subscription', message: '/bbox/minLat must be at most 90', field: '/bbox/minLat' });
    stream.send({ type: 'subscribe', mmsi: [257_300_002] });
    await stream.next('subscribed');
    await stream.close();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await single.close();
  }
  try {
    const loaded = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    assert.ok(loaded.some((url) => url.endsWith('/src/maritime/stream/process.ts')), "the modules are the stream process's");
    assert.ok(loaded.some((url) => url.includes('/node_modules/@cfworker/json-schema/')), 'it checked client messages');
    assert.deepEqual(loaded.filter((url) => url.includes('/node_modules/typebox/')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with one process (the default on two cores), the first stream starts it, waits for it, and is served', async () => {
  const single = await startTestServer({ config: { streamProcesses: 1 } });
  try {
    // The first stream waits for the process to start: on a busy machine that takes a while.
    const stream = new TestStream(single.url, { headers: AUTH });
    await stream.next('ready', 30_000);
    stream.send({ type: 'subscribe', mmsi: [257_300_001], updateIntervalSec: 1 });
    await stream.next('subscribed');
    await upload(single.url, [positionReport(257_300_001, 63, 7)]);
    assert.equal((await stream.next('position')).data.mmsi, 257_300_001);
    await stream.close();
  } finally {
    await single.close();
  }
});

describe('stream processes', () => {
  test('streams are spread over the processes, and each gets its own updates once, in order', async () => {
    const vessels = Array.from({ length: 4 }, (_, i) => ({ mmsi: 257_100_000 + i, lat: 61 + i * 0.1, lon: 5 }));
    const streams = await Promise.all(vessels.map((v) => TestStream.subscribed(server.url, { mmsi: [v.mmsi], updateIntervalSec: 1 })));
    const processes = openedIn();
    assert.equal(processes.length, 4);
    assert.equal(new Set(processes).size, 2, `two processes serve the four streams: ${processes.join(', ')}`);
    for (let round = 1; round <= 3; round++) {
      await upload(server.url, vessels.map((v) => positionReport(v.mmsi, v.lat + round / 1000, v.lon)));
      await sleep(1100);
    }
    vessels.forEach((v, i) => {
      const lats = streams[i]!.of('position').map((frame) => [frame.data.mmsi, (frame.data.lat as number).toFixed(3)]);
      assert.deepEqual(lats, [1, 2, 3].map((round) => [v.mmsi, (v.lat + round / 1000).toFixed(3)]));
    });
    await Promise.all(streams.map((stream) => stream.close()));
  });

  test('streams opened all at once each get their subscription acknowledged: nothing a client sends after the handshake is lost in the hand-over', async () => {
    const streams = await Promise.all(Array.from({ length: 200 }, () => TestStream.subscribed(server.url, { bbox: { minLat: 10, maxLat: 11, minLon: 10, maxLon: 11 } })));
    assert.equal(streams.filter((stream) => stream.of('subscribed').length === 1).length, 200);
    await Promise.all(streams.map((stream) => stream.close()));
  });

  test("a vessel's static data, sent before any stream watched its waters, reaches the process that serves them later", async () => {
    const vessel = { mmsi: 244_700_001, imo: imoFromPrefix(912_345), lat: -33.9, lon: 18.4 };
    await upload(server.url, [staticVoyage(vessel.mmsi, { imo: vessel.imo, shipname: 'CAPE STATIC', shiptype: 70, callsign: 'PCST', destination: 'ZACPT' })]);
    await upload(server.url, [positionReport(vessel.mmsi, vessel.lat, vessel.lon)]);
    const stream = await TestStream.subscribed(server.url, { bbox: { minLat: -34.5, maxLat: -33.5, minLon: 18, maxLon: 19 }, imo: [vessel.imo], updateIntervalSec: 1 });
    await upload(server.url, [positionReport(vessel.mmsi, vessel.lat + 0.01, vessel.lon)]);
    const position = await stream.next('position');
    assert.equal(position.data.mmsi, vessel.mmsi);
    assert.equal(position.data.imo, vessel.imo);
    assert.equal(position.data.name, 'CAPE STATIC');
    await stream.close();
  });

  test('a process that dies drops only its streams (1006) and gives their slots back; another takes its place and knows every vessel', async () => {
    const pro = await organisationKey(server.config, 'pro');
    const vessel = { mmsi: 257_200_001, imo: imoFromPrefix(923_456), lat: 62, lon: 6 };
    await upload(server.url, [staticVoyage(vessel.mmsi, { imo: vessel.imo, shipname: 'FJORD KEEPER', shiptype: 80, callsign: 'LFKP', destination: 'NOBGO' })]);
    await upload(server.url, [positionReport(vessel.mmsi, vessel.lat, vessel.lon)]);
    const before = openedIn().length;
    const streams = [];
    for (let i = 0; i < 4; i++) streams.push(await TestStream.subscribed(server.url, { mmsi: [vessel.mmsi], updateIntervalSec: 1 }, pro.headers));
    const killed = openedIn()[before]!;
    // Streams go to the process holding the fewest, as far as it knows: operator-key streams (no cap)
    // until one lives on the other process too.
    while (!openedIn().slice(before).some((pid) => pid !== killed)) {
      streams.push(await TestStream.subscribed(server.url, { mmsi: [vessel.mmsi], updateIntervalSec: 1 }));
      assert.ok(streams.length < 40, 'a stream on the other process');
    }
    const processes = openedIn().slice(before);
    const readyFrames = () => metric(server.url, 'lamis_stream_frames_total{event="ready"}');
    const readyBefore = await readyFrames();
    process.kill(killed, 'SIGKILL');
    const dropped = streams.filter((_, i) => processes[i] === killed);
    const kept = streams.filter((_, i) => processes[i] !== killed);
    for (const stream of dropped) assert.equal((await stream.closed).code, 1006);
    const droppedPro = processes.slice(0, 4).filter((pid) => pid === killed).length;
    assert.ok(droppedPro > 0);
    // The Pro plan holds 5 streams: the dropped ones' slots are free again.
    await waitFor(() => readyCount() === 1, 'a process ready in place of the one killed', 30_000);
    const again = [];
    for (let i = 0; i < droppedPro + 1; i++) again.push(await TestStream.subscribed(server.url, { imo: [vessel.imo], updateIntervalSec: 1 }, pro.headers));
    assert.ok(openedIn().slice(-again.length).some((pid) => !processes.includes(pid)), 'the new process serves streams');
    await upload(server.url, [positionReport(vessel.mmsi, vessel.lat + 0.01, vessel.lon)]);
    for (const stream of [...kept, ...again]) {
      const position = await stream.next('position');
      assert.equal(position.data.name, 'FJORD KEEPER', 'every process knows the vessel');
    }
    // Each process answers the figures within a second or counts nothing: on a busy machine, ask again.
    const open = kept.length + again.length;
    await waitFor(async () => (await metric(server.url, 'lamis_stream_connections{state="open"}')) === open, `${open} streams open in the figures`, 10_000);
    // The counts are counters still: what the killed process had counted stays in the sums.
    assert.equal(await readyFrames(), readyBefore + again.length);
    await Promise.all([...kept, ...again].map((stream) => stream.close()));
  });

  test('a process that stops applying its changes is killed and replaced; the changes held for it meanwhile reach the other', { timeout: 60_000 }, async () => {
    const vessel = { mmsi: 257_400_001, lat: 63, lon: 8 };
    const before = openedIn().length;
    const readyBefore = readyCount();
    const streams = [await TestStream.subscribed(server.url, { mmsi: [vessel.mmsi], updateIntervalSec: 1 })];
    while (new Set(openedIn().slice(before)).size < 2) {
      streams.push(await TestStream.subscribed(server.url, { mmsi: [vessel.mmsi], updateIntervalSec: 1 }));
      assert.ok(streams.length < 40, 'a stream on each process');
    }
    const processes = openedIn().slice(before);
    const stuck = processes[0]!;
    const dropped = streams.filter((_, i) => processes[i] === stuck);
    const kept = streams.filter((_, i) => processes[i] !== stuck);
    process.kill(stuck, 'SIGSTOP');
    try {
      // The first batch goes to both; the stuck process never applies it, so the next is held.
      await upload(server.url, [positionReport(vessel.mmsi, vessel.lat, vessel.lon)]);
      for (const stream of kept) assert.equal((await stream.next('position')).data.lat, vessel.lat);
      await upload(server.url, [positionReport(vessel.mmsi, vessel.lat + 0.01, vessel.lon)]);
      await sleep(2_000);
      assert.equal(kept[0]!.of('position').length, 1, 'held while a process sits on its batch');
      for (const stream of dropped) assert.equal((await stream.closed).code, 1006);
      assert.match(logs, /did not apply its changes in time; killing it/);
      for (const stream of kept) assert.equal((await stream.next('position')).data.lat, vessel.lat + 0.01);
      await waitFor(() => readyCount() === readyBefore + 1, 'a process in place of the stuck one', 30_000);
    } finally {
      try {
        process.kill(stuck, 'SIGKILL'); // whatever failed, the stopped process does not outlive the test
      } catch {
        // killed by the server, as it should be
      }
    }
    await Promise.all(kept.map((stream) => stream.close()));
  });

  test('when no stream process can start, the upgrade is refused with a problem document and its slot goes back; a later stream starts one', { timeout: 60_000 }, async () => {
    const single = await startTestServer({ config: { streamProcesses: 1 } });
    const nodeOptions = process.env.NODE_OPTIONS;
    const restore = () => {
      if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = nodeOptions;
    };
    try {
      const pro = await organisationKey(single.config, 'pro');
      // A process started meanwhile fails before it is ready.
      process.env.NODE_OPTIONS = `${nodeOptions ?? ''} --require ./no-such-module.cjs`;
      const refused = await refusedUpgrade(single.url, pro.headers);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers['content-type'], 'application/problem+json');
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.body.code, 'service_unavailable');
      assert.equal(refused.body.detail, 'No stream process is running; connect again.');
      assert.equal(refused.body.request_id, refused.headers['request-id']);
      restore();
      await sleep(1_000);
      // The Pro plan holds 5 streams: all of them, the refused one's slot included.
      const streams = [];
      for (let i = 0; i < 5; i++) streams.push(await TestStream.ready(single.url, pro.headers, {}, 30_000));
      await Promise.all(streams.map((stream) => stream.close()));
    } finally {
      restore();
      await single.close();
    }
  });
});
