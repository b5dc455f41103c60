// The ingest's feeds and senders: each sender of a feed (an uploading key) has its own
// multi-sentence reassembly, and the feed's counts add up every sender's lines under the feed's
// name alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { positionReport, sentences, staticVoyage } from './fixtures.ts';
import { AisIngest } from './ingest.ts';
import { VesselStore } from './store.ts';

const T0 = Date.parse('2026-05-04T00:00:00Z');

test("two senders of one feed: their groups are reassembled apart and counted together", () => {
  const store = new VesselStore();
  const ingest = new AisIngest(store);
  // The same sequence id from both senders, interleaved: mixed, each would complete the other's message.
  const [a1, a2] = sentences(staticVoyage(244_123_456, { shipname: 'FIRST SENDER' }), 3);
  const [b1, b2] = sentences(staticVoyage(235_009_876, { shipname: 'SECOND SENDER' }), 3);
  ingest.lines('upload', 'upload', [a1!], T0, 'key_a');
  ingest.lines('upload', 'upload', [b1!], T0, 'key_b');
  assert.equal(ingest.feedCounts('upload', 'upload').pending, 2);
  ingest.lines('upload', 'upload', [a2!], T0, 'key_a');
  ingest.lines('upload', 'upload', [b2!, 'garbage', ...sentences(positionReport(235_009_876, 50.5, -1))], T0, 'key_b');
  assert.equal(store.get(244_123_456)?.name, 'FIRST SENDER');
  assert.equal(store.get(235_009_876)?.name, 'SECOND SENDER');

  const counts = ingest.counts();
  assert.equal(counts.length, 1);
  const [upload] = counts;
  assert.deepEqual(
    [upload!.feed, upload!.source, upload!.lines, upload!.accepted, upload!.pending, upload!.messages, upload!.rejected.framing, upload!.messagesByType],
    ['upload', 'upload', 6, 5, 0, 3, 1, { 1: 1, 5: 2 }],
  );
});
