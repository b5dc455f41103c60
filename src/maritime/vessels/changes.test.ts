// Change batches: the read copy a batch builds equals the store it was taken from, every change
// arrives in order while the copy keeps up, positions of one vessel merge once it is behind (the
// latest wins, a static change is kept), and the copy keeps one object per vessel (a new one for
// its second change in a slice), with a new position object per change unless it updates positions
// in place too (a stream process's).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyChangeBatch, PendingChanges, readCopy, ROW_WIDTH, type VesselCopy } from './changes.ts';
import { decoded, positionReport, staticVoyage } from './fixtures.ts';
import { AisIngest } from './ingest.ts';
import { VesselStore, type Change, type Vessel } from './store.ts';
import { encodeAisSentences } from '../ais/index.ts';

const T0 = Date.parse('2026-05-04T00:00:00Z');

function pair(coalesceAfter?: number) {
  const source = new VesselStore();
  const ingest = new AisIngest(source);
  const pending = new PendingChanges(coalesceAfter);
  ingest.onChange((change) => pending.add(change));
  const copy = new VesselStore();
  // What each listener saw while it ran: the vessel object goes on changing after.
  const heard: Change[] = [];
  const sync = (max = 10_000) => applyChangeBatch(readCopy(copy), pending.take(max), (change) => heard.push({ ...change, vessel: { ...change.vessel } }));
  return { source, ingest, pending, copy, heard, sync };
}

test('a batch rebuilds every field of the vessels it carries', () => {
  const { source, ingest, copy, sync } = pair();
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_123_456)), decoded(positionReport(244_123_456, 51.9, 4.1, { turn: -127 }))], T0);
  ingest.messages('upl', 'upload', [decoded(positionReport(244_123_456, 51.91, 4.11, { speed: 0, heading: 511 }))], T0 + 5_000);
  const classB = encodeAisSentences({ type: 24, repeat: 0, mmsi: 235_009_876, partno: 0, shipname: 'SMALL ONE' }, { channel: 'B' });
  ingest.lines('feed', 'live', classB, T0);
  assert.equal(sync(), 4);
  for (const mmsi of [244_123_456, 235_009_876]) assert.deepEqual(copy.get(mmsi), source.get(mmsi));
  assert.equal(copy.byImo(9074729)?.mmsi, 244_123_456);
  assert.deepEqual([...copy.inBox({ minLat: 51, maxLat: 52, minLon: 4, maxLon: 5 })].map((v) => v.mmsi), [244_123_456]);
  assert.deepEqual(copy.get(244_123_456)!.sources, ['live', 'upload']);
});

test('while the copy keeps up, every change arrives in order, each with the state it left', () => {
  const { ingest, heard, sync } = pair();
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.0, 4.0))], T0);
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_123_456, { draught: 124 }))], T0 + 1_000);
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.2, 4.2))], T0 + 2_000);
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_123_456, { draught: 90 }))], T0 + 3_000);
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.4, 4.4))], T0 + 4_000);
  assert.equal(sync(), 5);
  assert.deepEqual(heard.map(({ vessel, position, static: changed }) => [vessel.position!.lat, vessel.draught, position, changed]),
    [[51.0, null, true, false], [51.0, 12.4, false, true], [51.2, 12.4, true, false], [51.2, 9, false, true], [51.4, 9, true, false]]);
});

test('once the copy is behind, positions of one vessel merge: the latest wins, static changes are kept, each merge is counted', () => {
  const { ingest, pending, copy, heard, sync } = pair(2);
  ingest.messages('feed', 'live', [decoded(positionReport(244_000_001, 50.0, 3.0))], T0);
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.0, 4.0))], T0);
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.2, 4.2))], T0 + 2_000);
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_123_456, { destination: 'DEHAM' }))], T0 + 3_000);
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.4, 4.4))], T0 + 4_000);
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.6, 4.6))], T0 + 5_000);
  assert.equal(pending.size, 3);
  assert.equal(pending.coalesced, 2);
  sync();
  assert.deepEqual(heard.map(({ vessel, position, static: changed }) => [vessel.mmsi, vessel.position!.lat, vessel.destination, position, changed]),
    [[244_000_001, 50.0, null, true, false], [244_123_456, 51.2, null, true, false], [244_123_456, 51.6, 'DEHAM', true, true]]);
  assert.equal(copy.get(244_123_456)!.position!.lat, 51.6);
});

test('a batch takes at most the rows asked for, the first changed first, and the rest waits', () => {
  const { ingest, pending, copy, sync } = pair();
  for (let i = 0; i < 5; i++) ingest.messages('feed', 'live', [decoded(positionReport(244_000_001 + i, 50 + i, 3))], T0);
  assert.equal(sync(3), 3);
  assert.deepEqual([...copy.all()].map((v) => v.mmsi), [244_000_001, 244_000_002, 244_000_003]);
  assert.equal(pending.size, 2);
  const batch = pending.take(10);
  assert.equal(batch.rows.length / ROW_WIDTH, 2);
  assert.equal(pending.size, 0);
});

test('a position merges into its vessel\'s waiting row after part of the rows went, and never into a row taken', () => {
  const { ingest, pending, copy, heard, sync } = pair(2);
  for (const [i, mmsi] of [244_000_001, 244_000_002, 244_000_003].entries()) ingest.messages('feed', 'live', [decoded(positionReport(mmsi, 50 + i, 3))], T0);
  assert.equal(sync(1), 1);
  ingest.messages('feed', 'live', [decoded(positionReport(244_000_003, 52.5, 3))], T0 + 1_000);
  assert.equal(pending.size, 2);
  assert.equal(sync(), 2);
  assert.equal(copy.get(244_000_003)!.position!.lat, 52.5);
  // Every row went: a new position of the first vessel gets a row of its own.
  ingest.messages('feed', 'live', [decoded(positionReport(244_000_001, 50.5, 3))], T0 + 2_000);
  assert.equal(pending.size, 1);
  sync();
  assert.deepEqual(heard.map(({ vessel }) => [vessel.mmsi, vessel.position!.lat]), [[244_000_001, 50], [244_000_002, 51], [244_000_003, 52.5], [244_000_001, 50.5]]);
});

test('static changes split over batches stay with their rows', () => {
  const { ingest, copy, sync } = pair();
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_000_001, { shipname: 'FIRST' }))], T0);
  ingest.messages('feed', 'live', [decoded(positionReport(244_000_002, 50, 3))], T0);
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_000_003, { shipname: 'THIRD' }))], T0);
  assert.equal(sync(2), 2);
  assert.equal(sync(2), 1);
  assert.deepEqual([...copy.all()].map((v) => v.name), ['FIRST', null, 'THIRD']);
});

test('the copy keeps one object per vessel from slice to slice, with a new position per position change; a vessel changed twice in a slice is a new object the second time', () => {
  const { ingest, pending, copy, sync } = pair();
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.0, 4.0))], T0);
  sync();
  const vessel = copy.get(244_123_456)!;
  const first = vessel.position!;
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.5, 4.5))], T0 + 30_000);
  sync();
  assert.equal(copy.get(244_123_456), vessel);
  assert.notEqual(vessel.position, first);
  assert.equal(first.lat, 51.0);
  // Two changes in one slice: the first is heard as it left the vessel, however late it is read.
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_123_456, { imo: 9321483 }))], T0 + 40_000);
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 52.0, 5.0))], T0 + 60_000);
  const handed: Vessel[] = [];
  applyChangeBatch(readCopy(copy), pending.take(10), (change) => handed.push(change.vessel));
  assert.equal(handed[0], vessel);
  assert.deepEqual([handed[0]!.position!.lat, handed[0]!.imo], [51.5, 9321483]);
  assert.notEqual(handed[1], vessel);
  assert.deepEqual([handed[1]!.position!.lat, handed[1]!.imo], [52.0, 9321483]);
  assert.equal(copy.get(244_123_456), handed[1]);
  assert.equal(copy.byImo(9321483), handed[1]);
  // Moved a cell: the live index follows.
  assert.deepEqual([...copy.inBox({ minLat: 50.5, maxLat: 51.5, minLon: 3.5, maxLon: 4.5 })], []);
  assert.equal([...copy.inBox({ minLat: 51.5, maxLat: 52.5, minLon: 4.5, maxLon: 5.5 })].length, 1);
});

test('an IMO number a vessel gave up no longer finds it', () => {
  const { ingest, copy, sync } = pair();
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_123_456, { imo: 9321483 }))], T0);
  sync();
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_123_456, { imo: 9074729 }))], T0 + 1_000);
  sync();
  assert.equal(copy.byImo(9321483), undefined);
  assert.equal(copy.byImo(9074729)?.mmsi, 244_123_456);
});

test('a static-only change keeps the position the copy holds', () => {
  const { ingest, copy, heard, sync } = pair();
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.0, 4.0))], T0);
  sync();
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_123_456, { imo: 9321483 }))], T0 + 1_000);
  sync();
  assert.equal(heard[1]!.position, false);
  assert.equal(copy.get(244_123_456)!.position!.lat, 51.0);
  assert.equal(copy.byImo(9321483)?.mmsi, 244_123_456);
});

test('a copy that updates in place keeps one object per vessel, equal to the store after every batch', () => {
  const source = new VesselStore();
  const ingest = new AisIngest(source);
  const pending = new PendingChanges();
  ingest.onChange((change) => pending.add(change));
  const vessels = new Map<number, Vessel>();
  const copy: VesselCopy = { get: (mmsi) => vessels.get(mmsi), put: (vessel) => void vessels.set(vessel.mmsi, vessel), inPlace: 'vessel and position' };
  const seen: { lat: number | undefined; draught: number | null }[] = [];
  const sync = () => applyChangeBatch(copy, pending.take(10_000), ({ vessel }) => seen.push({ lat: vessel.position?.lat, draught: vessel.draught }));
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.0, 4.0))], T0);
  sync();
  const first = vessels.get(244_123_456)!;
  const firstPosition = first.position!;
  ingest.messages('feed', 'live', [decoded(staticVoyage(244_123_456, { draught: 124 }))], T0 + 1_000);
  ingest.messages('feed', 'live', [decoded(positionReport(244_123_456, 51.2, 4.2, { speed: 0, heading: 511 }))], T0 + 2_000);
  sync();
  assert.equal(vessels.get(244_123_456), first);
  assert.equal(first.position, firstPosition);
  assert.deepEqual(first, source.get(244_123_456));
  // Each listener saw the state its change left, while it ran.
  assert.deepEqual(seen, [{ lat: 51.0, draught: null }, { lat: 51.0, draught: 12.4 }, { lat: 51.2, draught: 12.4 }]);
});
