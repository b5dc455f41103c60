import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textFramePayload } from '../../platform/stream/index.ts';
import { decoded, positionReport, staticVoyage } from '../vessels/fixtures.ts';
import { VesselStore, type Change } from '../vessels/store.ts';
import { Fanout } from './fanout.ts';
import { emptyStats, Outbox } from './outbox.ts';
import { LIMITS } from './protocol.ts';
import type { Filter } from './stream.schemas.ts';

function stream(stats = emptyStats()) {
  const written: Buffer[] = [];
  const outbox = new Outbox({
    softLimitBytes: 1 << 20, hardLimitBytes: 1 << 21, slowCloseMs: 10_000, intervalMs: 1000,
    write: (frame) => written.push(frame), buffered: () => 0, onSlow: () => {}, onDue: () => {}, stats,
  });
  return { outbox, written, events: () => written.map((frame) => JSON.parse(textFramePayload(frame).toString()).event as string) };
}

const filter = (parts: Partial<Filter>): Filter => ({ bboxes: [], vesselTypes: [], mmsi: [], imo: [], flags: [], updateIntervalSec: LIMITS.defaultUpdateIntervalSec, ...parts });

test('a change goes to the streams it passes, as the same bytes, paced by each stream', () => {
  let now = 0;
  const fanout = new Fanout(() => now);
  const store = new VesselStore();
  const [north, everything, elsewhere] = [stream(), stream(), stream()];
  fanout.subscribe(north.outbox, filter({ bboxes: [{ minLat: 50, maxLat: 56, minLon: 0, maxLon: 8 }], updateIntervalSec: 1 }));
  fanout.subscribe(everything.outbox, filter({ updateIntervalSec: 60 }));
  fanout.subscribe(elsewhere.outbox, filter({ flags: ['PA'] }));
  assert.equal(fanout.subscriptions, 3);

  const apply = (message: Parameters<typeof decoded>[0]) => fanout.publish(store.apply(decoded(message), Date.now(), 'live') as Change);
  apply(positionReport(244_123_456, 51.9, 4.0));
  assert.deepEqual(north.events(), ['position']);
  assert.equal(north.written[0], everything.written[0], 'one frame for every stream');
  assert.deepEqual(elsewhere.written, []);

  now = 1500;
  apply(positionReport(244_123_456, 52.0, 4.0));
  apply(staticVoyage(244_123_456));
  assert.deepEqual(north.events(), ['position', 'position', 'static']);
  // Paced at 60 s: the second position waits, the static data does not.
  assert.deepEqual(everything.events(), ['position', 'static']);

  fanout.unsubscribe(north.outbox);
  apply(positionReport(244_123_456, 52.1, 4.0));
  assert.equal(north.written.length, 3);
  assert.equal(fanout.subscriptions, 2);
});

test('changes without a position or static data, and positions of vessels never placed, send nothing', () => {
  const fanout = new Fanout(() => 0);
  const all = stream();
  fanout.subscribe(all.outbox, filter({}));
  const store = new VesselStore();
  const staticOnly = store.apply(decoded(staticVoyage(244_000_001)), Date.now(), 'live')!;
  fanout.publish({ ...staticOnly, static: false });
  fanout.publish({ ...staticOnly, position: true, static: false });
  assert.deepEqual(all.written, []);
  fanout.publish(staticOnly);
  assert.deepEqual(all.events(), ['static']);
});
