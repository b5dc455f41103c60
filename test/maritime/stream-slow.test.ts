// A slow consumer: one client stops reading while two others keep up. The others still get every
// update; the stalled stream holds only the latest update per vessel, so what waits for it stays
// bounded, and once past the hard bound for the slow-close time it is closed with 4503.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { positionReport } from '../../src/maritime/vessels/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { TestStream, metric, sleep, upload } from './stream-support.ts';

const VESSELS = 5000;
const ROUNDS = 8;
/** Longer than the streams' update interval (1 s), so no update of a keeping-up client is coalesced. */
const ROUND_MS = 1500;
const SOFT_KB = 16;
const HARD_KB = 64;

let server: TestServer;

before(async () => {
  server = await startTestServer({ config: { streamBufferKb: SOFT_KB, streamBufferMaxKb: HARD_KB, streamSlowCloseSec: 2 } });
});
after(() => server.close());

const mmsiOf = (i: number) => 244_500_000 + i;
const latOf = (round: number, i: number) => 50 + round / 100 + (i % 100) / 10_000;

test('a paused client is closed with 4503 while the others get every update, and memory stays bounded', { timeout: 60_000 }, async () => {
  const keeping = [await TestStream.subscribed(server.url, { updateIntervalSec: 1 }), await TestStream.subscribed(server.url, { updateIntervalSec: 1 })];
  const paused = await TestStream.subscribed(server.url, { updateIntervalSec: 1 });
  paused.ws.pause();
  const open = () => metric(server.url, 'lamis_stream_connections{state="open"}');
  assert.equal(await open(), 3);

  let maxWaiting = 0;
  let givenUp = false;
  for (let round = 0; round < ROUNDS; round++) {
    const started = Date.now();
    await upload(server.url, Array.from({ length: VESSELS }, (_, i) => positionReport(mmsiOf(i), latOf(round, i), 4 + i / 1000)));
    while (Date.now() - started < ROUND_MS) {
      maxWaiting = Math.max(maxWaiting, await metric(server.url, 'lamis_stream_waiting_bytes_max'));
      if (!givenUp && (await open()) === 2) {
        // The server closed it: reading again, the client finds the close frame behind the backlog.
        givenUp = true;
        paused.ws.resume();
      }
      await sleep(50);
    }
  }

  // Every client that reads got every update, the last round's position last.
  for (const stream of keeping) {
    await waitFor(() => stream.of('position').length >= VESSELS * ROUNDS, 'every update', 10_000);
    assert.equal(stream.of('position').length, VESSELS * ROUNDS);
    const latest = new Map(stream.of('position').map((frame) => [frame.data.mmsi, frame.data.lat]));
    for (let i = 0; i < VESSELS; i++) assert.equal(latest.get(mmsiOf(i)).toFixed(4), latOf(ROUNDS - 1, i).toFixed(4));
  }

  assert.ok(givenUp, 'the paused stream was not closed');
  const closed = await paused.closed;
  assert.equal(closed.code, 4503);
  assert.match(closed.reason, /slow consumer/);
  assert.ok(paused.of('position').length < VESSELS * ROUNDS);
  assert.equal(await metric(server.url, 'lamis_stream_closes_total{code="4503"}'), 1);
  assert.ok(await metric(server.url, 'lamis_stream_updates_dropped_total') > 0, 'the paused stream kept only the latest update per vessel');

  // What waited on one stream never exceeded what the bounds allow: the soft bound, a few control
  // frames, and one held frame per vessel (under 400 bytes each), where every update sent to the
  // paused client (some 10 MB) would have piled up otherwise.
  assert.ok(maxWaiting > HARD_KB * 1024, `the paused stream never went past the hard bound (${maxWaiting} bytes)`);
  assert.ok(maxWaiting <= SOFT_KB * 1024 + 4096 + VESSELS * 400, `${maxWaiting} bytes waited on one stream`);

  await Promise.all(keeping.map((stream) => stream.close()));
});
