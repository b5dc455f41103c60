import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NearQuery, SearchHit, SearchPage } from '../geo/place-index.ts';
import { DEFAULT_RADIUS_NM, geoSearchPage, NearQueryParams, shownDistanceNm } from './geo-query.ts';
import { decodeCursor, encodeCursor } from './pagination.ts';
import { ProblemError } from './problems.ts';

type Call = { near: NearQuery | undefined; after: string | undefined };

/** A search that records what it was asked and answers one hit and a next position. */
function recording(nextAfter: string | null = '7|K') {
  const calls: Call[] = [];
  const search = (near: NearQuery | undefined, after: string | undefined): SearchPage<SearchHit> => {
    calls.push({ near, after });
    return { items: [{ distance_nm: null, sort_key: '6|J' }], next_after: nextAfter };
  };
  return { calls, search };
}

const isAnyKey = (_key: unknown): _key is unknown => true;

/** The problem code and the field paths of what `run` throws. */
function problemOf(run: () => unknown): { code: string; paths: string[] } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ProblemError, String(error));
    return { code: error.type.code, paths: (error.errors ?? []).map((field) => field.path) };
  }
  assert.fail('no problem thrown');
}

test('near=lat,lon becomes the centre, with the default radius unless one is given', () => {
  const { calls, search } = recording();
  geoSearchPage({ near: ' 51.5 , -0.1 ' }, 'code', search);
  geoSearchPage({ near: '-90,180', radius_nm: 5 }, 'code', search);
  geoSearchPage({}, 'code', search);
  assert.deepEqual(calls.map((call) => call.near), [
    { lat: 51.5, lon: -0.1, radius_nm: DEFAULT_RADIUS_NM },
    { lat: -90, lon: 180, radius_nm: 5 },
    undefined,
  ]);
});

test('a malformed near, or a radius without near, is a 400 naming the parameter', () => {
  const { calls, search } = recording();
  for (const near of ['north', '51.5', '51.5,', ',0', '1,2,3', '91,0', '0,-180.5', 'NaN,0']) {
    assert.deepEqual(problemOf(() => geoSearchPage({ near }, 'code', search)), { code: 'validation_failed', paths: ['/querystring/near'] }, near);
  }
  assert.deepEqual(problemOf(() => geoSearchPage({ radius_nm: 10 }, 'code', search)), { code: 'validation_failed', paths: ['/querystring/radius_nm'] });
  assert.equal(calls.length, 0);
});

test('the cursor carries the position and its order, and comes back as `after`', () => {
  const { calls, search } = recording();
  const first = geoSearchPage({ q: 'london' }, 'code', search);
  assert.deepEqual(first.items, [{ distance_nm: null, sort_key: '6|J' }]);
  assert.deepEqual(decodeCursor(first.next_cursor!, isAnyKey), { after: '7|K', order: 'relevance' });
  geoSearchPage({ q: 'london', cursor: first.next_cursor! }, 'code', search);
  assert.equal(calls[1]!.after, '7|K');

  const byKey = geoSearchPage({ q: '  ' }, 'id', search);
  assert.deepEqual(decodeCursor(byKey.next_cursor!, isAnyKey), { after: '7|K', order: 'id' });
  const byDistance = geoSearchPage({ q: 'london', near: '0,0' }, 'id', search);
  assert.deepEqual(decodeCursor(byDistance.next_cursor!, isAnyKey), { after: '7|K', order: 'distance' });
  assert.equal(geoSearchPage({}, 'id', recording(null).search).next_cursor, null);
});

test('a cursor from another order, another list or none of ours is invalid_cursor', () => {
  const { search } = recording();
  const relevance = geoSearchPage({ q: 'london' }, 'code', search).next_cursor!;
  assert.equal(problemOf(() => geoSearchPage({ cursor: relevance }, 'code', search)).code, 'invalid_cursor');
  assert.equal(problemOf(() => geoSearchPage({ q: 'x', cursor: encodeCursor('7|K') }, 'code', search)).code, 'invalid_cursor');
  assert.equal(problemOf(() => geoSearchPage({ cursor: 'not a cursor' }, 'code', search)).code, 'invalid_cursor');
  // The index refuses the position inside a well-formed cursor.
  const refusing = () => {
    throw new RangeError('not a search position');
  };
  assert.equal(problemOf(() => geoSearchPage({ q: 'london', cursor: relevance }, 'code', refusing)).code, 'invalid_cursor');
  assert.throws(() => geoSearchPage({ q: 'london' }, 'code', refusing), RangeError);
});

test('query parameters and shown distances', () => {
  const { near, radius_nm } = NearQueryParams('ports') as unknown as Record<string, Record<string, unknown>>;
  assert.equal(near!.description, 'lat,lon in degrees: ports within `radius_nm`, nearest first');
  assert.equal(radius_nm!.maximum, 1000);
  assert.equal(shownDistanceNm(12.345), 12.3);
  assert.equal(shownDistanceNm(0.05), 0.1);
  assert.equal(shownDistanceNm(null), null);
});
