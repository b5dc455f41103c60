// Vessel changes taken once when two instances read the same feed: another reader's copy of a
// report, or of an older one, is dropped; a reader's own changes, and news from either, pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RepeatFilter, REPEAT_MS, type PublishedChange } from './repeats.ts';
import { newVessel } from './store.ts';

const T0 = Date.parse('2026-05-04T06:00:00Z');

/** A position change of vessel 244000001 heard by `reader` at `ms`, at `lat`. */
function heard(reader: string, ms: number, lat: number, extra: Partial<PublishedChange> = {}): PublishedChange {
  const time = new Date(ms).toISOString();
  const vessel = newVessel(244_000_001, 'live', time);
  vessel.position = { lat, lon: 4.4, sog: 12, cog: 90, heading: 91, rot: 0, rot_direction: null, nav_status: 0, position_accuracy: true, timestamp: time };
  return { vessel, position: true, static: false, reader, ...extra };
}

test('the first copy of each report passes; the other reader\'s copy, a moment later or earlier, does not', () => {
  const filter = new RepeatFilter();
  const passed = [
    heard('a', T0, 52.0), heard('b', T0 + 3, 52.0),
    heard('b', T0 + 2000, 52.1), heard('a', T0 + 1998, 52.1),
    heard('a', T0 + 4000, 52.2), heard('b', T0 + 4001, 52.2),
  ].filter((change) => !filter.repeated(change));
  assert.deepEqual(passed.map((change) => [change.reader, change.vessel.position!.lat]), [['a', 52.0], ['b', 52.1], ['a', 52.2]]);
});

test('a slower reader\'s copy of an earlier report is dropped once a newer one has passed', () => {
  const filter = new RepeatFilter();
  assert.equal(filter.repeated(heard('a', T0, 52.0)), false);
  assert.equal(filter.repeated(heard('a', T0 + 2000, 52.1)), false);
  assert.equal(filter.repeated(heard('b', T0 + 5, 52.0)), true);
  assert.equal(filter.repeated(heard('b', T0 + 2004, 52.1)), true);
});

test('a reader\'s own repeats pass, and so does the same position from another reader once REPEAT_MS is over', () => {
  const filter = new RepeatFilter();
  assert.equal(filter.repeated(heard('a', T0, 52.0)), false);
  assert.equal(filter.repeated(heard('a', T0 + 1000, 52.0)), false, 'news to a stream subscribed since');
  assert.equal(filter.repeated(heard('b', T0 + 1000 + REPEAT_MS + 1, 52.0)), false);
});

test('voyage data is compared as positions are: a change of it passes, another reader\'s copy does not', () => {
  const filter = new RepeatFilter();
  const voyage = (reader: string, ms: number, destination: string) => {
    const change = heard(reader, ms, 52.0, { position: false, static: true });
    change.vessel.destination = destination;
    return change;
  };
  assert.equal(filter.repeated(voyage('a', T0, 'NLRTM')), false);
  assert.equal(filter.repeated(voyage('b', T0 + 2, 'NLRTM')), true);
  assert.equal(filter.repeated(voyage('b', T0 + 3, 'DEHAM')), false);
});
