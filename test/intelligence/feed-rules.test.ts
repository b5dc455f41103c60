// `feed.stale` on a real server over real storage: an organisation with a zone depends on the AIS
// feeds. A UDP feed that receives nothing past the (test-short) limit opens the event; datagrams
// arriving again clear it; quiet again it opens anew, and clears once the organisation has no zone
// left to depend on it. Changes are counted on the shared Redis bus.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before, test } from 'node:test';
import { parseFeedSpec } from '../../src/maritime/feeds/spec.ts';
import { positionReport, sentences } from '../../src/maritime/vessels/fixtures.ts';
import { skipRedis } from '../support/backends.ts';
import { startEngine, type EngineServer } from './support.ts';

const FEED = 'udp://127.0.0.1:0';
const SUBJECT = `ais:${FEED}`;

let engine: EngineServer;
let zoneId: string;
before(async () => {
  if (skipRedis) return;
  engine = await startEngine({ aisFeeds: [parseFeedSpec(FEED)], feedStaleAisSec: 2, feedCheckIntervalSec: 1 });
  zoneId = (await engine.call('POST', '/v3/zones', { name: 'Solent', geometry: { type: 'Circle', center: { lat: 50.8, lon: -1.3 }, radius_nm: 5 } })).id;
});
after(() => engine?.close());

test('a quiet AIS feed opens feed.stale for an organisation that depends on it; data again clears it; no zone left, it clears', { skip: skipRedis }, async () => {
  const stale = await engine.until('feed.stale', SUBJECT, 'open', 'stale feed');
  assert.deepEqual([stale.subject, stale.severity], [{ type: 'feed', id: SUBJECT }, 'warning']);
  assert.deepEqual([stale.data.source, stale.data.state, stale.data.limit_sec, stale.data.last_data_at], [SUBJECT, 'listening', 2, null]);

  const ready = await (await fetch(`${engine.server.url}/readyz`)).json() as { checks: Record<string, { detail: { feeds: { id: string; detail: string }[] } }> };
  const address = ready.checks.ais!.detail.feeds.find((feed) => feed.id === FEED)!.detail.match(/listening on 127\.0\.0\.1:(\d+)/);
  assert.ok(address, JSON.stringify(ready.checks.ais));
  const socket = createSocket('udp4');
  const line = sentences(positionReport(235_000_001, 50.8, -1.3))[0]!;
  const sending = setInterval(() => socket.send(`${line}\r\n`, Number(address[1]), '127.0.0.1'), 200);
  try {
    const fresh = await engine.until('feed.stale', SUBJECT, 'cleared', 'fresh feed');
    assert.equal(fresh.id, stale.id);
  } finally {
    clearInterval(sending);
    socket.close();
  }
  const again = await engine.until('feed.stale', SUBJECT, 'open', 'stale feed again');
  assert.notEqual(again.id, stale.id);
  await engine.call('DELETE', `/v3/zones/${zoneId}`);
  assert.equal((await engine.until('feed.stale', SUBJECT, 'cleared', 'no longer depended on')).id, again.id);
  assert.deepEqual(await engine.settledChanges(SUBJECT), ['opened', 'cleared', 'opened', 'cleared']);
});
