import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { VESSEL_CATEGORIES, type VesselCategory } from '../vessels/reference/index.ts';
import { inBox, type BBox, type Vessel } from '../vessels/store.ts';
import type { Filter } from './stream.schemas.ts';
import { CompiledFilter, SubscriptionIndex, gridCellsFor } from './subscriptions.ts';

interface VesselFacts {
  mmsi: number;
  imo: number | null;
  category: VesselCategory;
  flag: string | null;
  position: { lat: number; lon: number } | null;
}

function vessel(facts: VesselFacts): Vessel {
  return {
    mmsi: facts.mmsi, mmsi_kind: 'ship', flag: facts.flag === null ? null : { alpha2: facts.flag, country: facts.flag },
    ais_class: 'A', name: null, callsign: null, imo: facts.imo, ship_type: null, category: facts.category, dimensions: null,
    destination: null, eta: null, draught: null,
    position: facts.position && {
      ...facts.position, sog: null, cog: null, heading: null, rot: null, rot_direction: null, nav_status: null, position_accuracy: false, timestamp: '2026-11-21T12:00:00.000Z',
    },
    source: 'live', sources: ['live'], last_update: '2026-11-21T12:00:00.000Z', static_updated_at: null,
  };
}

function filter(parts: Partial<Filter>): Filter {
  return { bboxes: [], vesselTypes: [], mmsi: [], imo: [], flags: [], updateIntervalSec: 5, ...parts };
}

function matching(index: SubscriptionIndex<string>, facts: VesselFacts): string[] {
  const seen: string[] = [];
  index.forEachMatch(vessel(facts), (name) => seen.push(name));
  return seen.sort();
}

const at = (lat: number, lon: number): VesselFacts => ({ mmsi: 244_000_001, imo: null, category: 'CARGO', flag: 'NL', position: { lat, lon } });

test('boxes are filed under few cells of the finest size that holds them, or globally', () => {
  // A port's box, 0.2° by 0.15°: 4 × 4 cells of 1/16°.
  assert.equal(gridCellsFor({ minLat: 51.9, maxLat: 52.1, minLon: 4.05, maxLon: 4.2 })!.length, 16);
  // Just under 1° square, aligned with the grid: 4 × 4 cells of 0.25°.
  assert.equal(gridCellsFor({ minLat: 51, maxLat: 51.99, minLon: 3, maxLon: 3.99 })!.length, 16);
  assert.equal(gridCellsFor({ minLat: 51.2, maxLat: 51.8, minLon: 3.1, maxLon: 3.9 })!.length, 16);
  assert.equal(gridCellsFor({ minLat: 50, maxLat: 57.5, minLon: 0, maxLon: 7.5 })!.length, 64);
  // 20° square: too many 1° cells, 6 × 5 cells of 4° (the grid starts at 90° S and 180° W).
  assert.equal(gridCellsFor({ minLat: 0, maxLat: 19, minLon: 0, maxLon: 19 })!.length, 30);
  // An ocean: 6 × 9 cells of 16°.
  assert.equal(gridCellsFor({ minLat: -40, maxLat: 40, minLon: -60, maxLon: 60 })!.length, 54);
  // A box over a good part of the world matches most vessels anyway: it is tested for every position.
  assert.equal(gridCellsFor({ minLat: -60, maxLat: 60, minLon: -100, maxLon: 60 }), null);
  assert.equal(gridCellsFor({ minLat: -90, maxLat: 90, minLon: -180, maxLon: 180 }), null);
  // Across the antimeridian: cells on both sides.
  assert.equal(gridCellsFor({ minLat: -18, maxLat: -17.9, minLon: 179.9, maxLon: -179.9 })!.length, 8);
});

test('each kind of filter finds its vessels, kinds combine with AND and values with OR', () => {
  const index = new SubscriptionIndex<string>();
  const north = { minLat: 50, maxLat: 60, minLon: 0, maxLon: 10 };
  index.set('north-sea', new CompiledFilter(filter({ bboxes: [north] })));
  index.set('dateline', new CompiledFilter(filter({ bboxes: [{ minLat: -20, maxLat: -10, minLon: 175, maxLon: -175 }] })));
  index.set('tankers-or-tugs', new CompiledFilter(filter({ vesselTypes: ['TANKER', 'TUG'] })));
  index.set('dutch-tankers-north', new CompiledFilter(filter({ bboxes: [north], flags: ['NL'], vesselTypes: ['TANKER'] })));
  index.set('one-ship', new CompiledFilter(filter({ mmsi: [244_000_001, 244_000_002] })));
  index.set('by-imo', new CompiledFilter(filter({ imo: [9_074_729] })));
  index.set('everything', new CompiledFilter(filter({})));

  assert.deepEqual(matching(index, at(55, 5)), ['everything', 'north-sea', 'one-ship']);
  assert.deepEqual(matching(index, { ...at(55, 5), category: 'TANKER' }), ['dutch-tankers-north', 'everything', 'north-sea', 'one-ship', 'tankers-or-tugs']);
  assert.deepEqual(matching(index, { ...at(55, 5), category: 'TANKER', flag: 'GB', mmsi: 235_000_001 }), ['everything', 'north-sea', 'tankers-or-tugs']);
  assert.deepEqual(matching(index, { ...at(-15, 179.9), mmsi: 520_000_001, flag: 'FJ' }), ['dateline', 'everything']);
  assert.deepEqual(matching(index, { ...at(-15, -179.9), mmsi: 520_000_001, flag: 'FJ' }), ['dateline', 'everything']);
  assert.deepEqual(matching(index, { ...at(-15, 170), mmsi: 520_000_001, imo: 9_074_729 }), ['by-imo', 'everything']);
  // Without a position no box matches.
  assert.deepEqual(matching(index, { ...at(0, 0), position: null }), ['everything', 'one-ship']);

  index.set('everything', new CompiledFilter(filter({ mmsi: [1] })));
  index.delete('north-sea');
  assert.deepEqual(matching(index, at(55, 5)), ['one-ship']);
  assert.equal(index.size, 6);
});

const FLAGS = ['NL', 'GB', 'PA', 'LR', 'FJ'];
const MMSIS = [244_000_001, 235_000_002, 352_000_003, 636_000_004, 520_000_005];
const IMOS = [9_074_729, 9_319_466, 9_811_000];

const latitude = fc.double({ min: -90, max: 90, noNaN: true });
const longitude = fc.double({ min: -180, max: 180, noNaN: true });
const box: fc.Arbitrary<BBox> = fc.record({ a: latitude, b: latitude, minLon: longitude, maxLon: longitude })
  .map(({ a, b, minLon, maxLon }) => ({ minLat: Math.min(a, b), maxLat: Math.max(a, b), minLon, maxLon }));
const smallBox: fc.Arbitrary<BBox> = fc.record({ lat: fc.double({ min: -89, max: 88, noNaN: true }), lon: longitude, size: fc.double({ min: 0, max: 2, noNaN: true }) })
  .map(({ lat, lon, size }) => ({ minLat: lat, maxLat: lat + size, minLon: lon, maxLon: lon + size > 180 ? lon + size - 360 : lon + size }));
const someOf = <T>(values: readonly T[]) => fc.subarray([...values]);

const filters: fc.Arbitrary<Filter> = fc.record({
  bboxes: fc.array(fc.oneof(box, smallBox), { maxLength: 3 }),
  vesselTypes: someOf(VESSEL_CATEGORIES.slice(0, 4)),
  mmsi: fc.oneof(fc.constant<number[]>([]), someOf(MMSIS)),
  imo: fc.oneof(fc.constant<number[]>([]), someOf(IMOS)),
  flags: someOf(FLAGS),
  updateIntervalSec: fc.constant(5),
});

const vessels: fc.Arbitrary<VesselFacts> = fc.record({
  mmsi: fc.constantFrom(...MMSIS),
  imo: fc.option(fc.constantFrom(...IMOS)),
  category: fc.constantFrom(...VESSEL_CATEGORIES.slice(0, 5)),
  flag: fc.option(fc.constantFrom(...FLAGS)),
  position: fc.option(fc.oneof(
    fc.record({ lat: latitude, lon: longitude }),
    // Edges and the antimeridian, where cells and ranges meet.
    fc.record({ lat: fc.constantFrom(-90, -0.5, 0, 45, 90), lon: fc.constantFrom(-180, -179.5, 0, 179.5, 180) }),
  )),
});

/** The filter rules written out plainly, with the store's own box test. */
function passes(spec: Filter, v: VesselFacts): boolean {
  const within = <T>(values: readonly T[], value: T | null) => values.length === 0 || (value !== null && values.includes(value));
  return within(spec.mmsi, v.mmsi) && within(spec.imo, v.imo) && within(spec.flags, v.flag) && within<string>(spec.vesselTypes, v.category) &&
    (spec.bboxes.length === 0 || (v.position !== null && spec.bboxes.some((b) => inBox(b, v.position!.lat, v.position!.lon))));
}

test('the index finds exactly the subscriptions a full scan finds, each once', () => {
  fc.assert(fc.property(fc.array(filters, { minLength: 1, maxLength: 30 }), fc.array(vessels, { minLength: 1, maxLength: 20 }), (specs, facts) => {
    const index = new SubscriptionIndex<number>();
    const compiled = specs.map((spec) => new CompiledFilter(spec));
    compiled.forEach((f, i) => index.set(i, f));
    for (const v of facts) {
      const found: number[] = [];
      index.forEachMatch(vessel(v), (i) => found.push(i));
      const scanned = specs.flatMap((spec, i) => (passes(spec, v) ? [i] : []));
      assert.deepEqual(found.sort((a, b) => a - b), scanned);
    }
  }), { numRuns: 300 });
});

test('after subscriptions are replaced and deleted, the index still finds exactly what a full scan finds', () => {
  const change = fc.record({ subscriber: fc.nat(29), filter: fc.option(filters) });
  fc.assert(fc.property(fc.array(filters, { minLength: 1, maxLength: 30 }), fc.array(change, { maxLength: 40 }), fc.array(vessels, { minLength: 1, maxLength: 20 }), (specs, changes, facts) => {
    const index = new SubscriptionIndex<number>();
    const current = new Map(specs.map((spec, i) => [i, spec]));
    current.forEach((spec, i) => index.set(i, new CompiledFilter(spec)));
    for (const { subscriber, filter: spec } of changes) {
      if (spec === null) {
        index.delete(subscriber);
        current.delete(subscriber);
      } else {
        index.set(subscriber, new CompiledFilter(spec));
        current.set(subscriber, spec);
      }
    }
    assert.equal(index.size, current.size);
    for (const v of facts) {
      const found: number[] = [];
      index.forEachMatch(vessel(v), (i) => found.push(i));
      const scanned = [...current].flatMap(([i, spec]) => (passes(spec, v) ? [i] : []));
      assert.deepEqual(found.sort((a, b) => a - b), scanned.sort((a, b) => a - b));
    }
  }), { numRuns: 300 });
});
