import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AisstreamFeed } from './aisstream.ts';
import { createFeed } from './create-feed.ts';
import { ReplayFeed } from './replay.ts';
import { parseFeedSpecs } from './spec.ts';
import { TcpClientFeed, TcpListenFeed } from './tcp.ts';
import { UdpFeed } from './udp.ts';

test('createFeed builds the adapter of each kind with its source label', () => {
  const parsed = parseFeedSpecs(
    'udp://127.0.0.1:0,tcp://127.0.0.1:1,tcp-listen://127.0.0.1:0,aisstream+ws://127.0.0.1:1/s,file:/nonexistent.nmea?speed=2',
  );
  assert.ok(parsed.ok);
  const built = parsed.specs.map((spec) => createFeed(spec, { aisstreamApiKey: 'k' }));
  assert.ok(built[0] instanceof UdpFeed);
  assert.ok(built[1] instanceof TcpClientFeed);
  assert.ok(built[2] instanceof TcpListenFeed);
  assert.ok(built[3] instanceof AisstreamFeed);
  assert.ok(built[4] instanceof ReplayFeed);
  assert.deepEqual(
    built.map((feed) => [feed.kind, feed.source]),
    [
      ['udp', 'live'],
      ['tcp', 'live'],
      ['tcp-listen', 'live'],
      ['aisstream', 'live'],
      ['file', 'replay'],
    ],
  );
  for (const feed of built) {
    const status = feed.status();
    assert.equal(status.state, 'stopped');
    assert.equal(status.id, feed.id);
  }
});
