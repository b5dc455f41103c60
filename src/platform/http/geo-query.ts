// Lists of places that can be searched around a point: the `near=lat,lon` and `radius_nm` query
// parameters, and the cursor, which carries the index's sort key together with the order the key
// belongs to, since a position in one order means nothing in another.
import { Type } from 'typebox';
import type { NearQuery, SearchPage } from '../geo/place-index.ts';
import { decodeCursor, encodeCursor, invalidCursor } from './pagination.ts';
import { ProblemError } from './problems.ts';
import { invalidField as invalid } from './schema.ts';

export const DEFAULT_RADIUS_NM = 50;
export const MAX_RADIUS_NM = 1000;

/** The `near` and `radius_nm` query parameters of a list of `things` ("airports"). */
export function NearQueryParams(things: string) {
  return {
    near: Type.Optional(Type.String({ description: `lat,lon in degrees: ${things} within \`radius_nm\`, nearest first` })),
    radius_nm: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_NM, description: `With \`near\`; default ${DEFAULT_RADIUS_NM}` })),
  };
}

export type GeoSearchParams = {
  readonly q?: string;
  readonly near?: string;
  readonly radius_nm?: number;
  readonly cursor?: string;
};

type SearchCursor = { after: string; order: string };

function isSearchCursor(key: unknown): key is SearchCursor {
  const cursor = key as Partial<SearchCursor> | null;
  return typeof cursor === 'object' && cursor !== null && typeof cursor.after === 'string' && typeof cursor.order === 'string';
}

/**
 * One page of a place search: checks `near` and `radius_nm`, hands `search` the centre and the
 * position inside the cursor, and wraps the next position in `next_cursor`. `keyOrder` names the
 * order without `near` or `q` ("code"), as written into cursors already handed out.
 */
export function geoSearchPage<H>(
  params: GeoSearchParams,
  keyOrder: string,
  search: (near: NearQuery | undefined, after: string | undefined) => SearchPage<H>,
): { readonly items: readonly H[]; readonly next_cursor: string | null } {
  if (params.radius_nm !== undefined && params.near === undefined) throw invalid('/querystring/radius_nm', 'needs `near`');
  const near = params.near === undefined ? undefined : parseNear(params.near, params.radius_nm);
  const order = near !== undefined ? 'distance' : params.q !== undefined && params.q.trim() !== '' ? 'relevance' : keyOrder;
  let after: string | undefined;
  if (params.cursor !== undefined) {
    const cursor = decodeCursor(params.cursor, isSearchCursor);
    if (cursor.order !== order) throw new ProblemError(invalidCursor, 'The cursor belongs to a search in another order; start again without one.');
    after = cursor.after;
  }
  let result: SearchPage<H>;
  try {
    result = search(near, after);
  } catch (error) {
    // `near` is checked above, so a RangeError here is the search position inside the cursor.
    if (error instanceof RangeError && after !== undefined) throw new ProblemError(invalidCursor, 'The cursor was not issued by this list; start again without one.');
    throw error;
  }
  return {
    items: result.items,
    next_cursor: result.next_after === null ? null : encodeCursor({ after: result.next_after, order } satisfies SearchCursor),
  };
}

/** A distance as lists show it: to 0.1 nm. */
export function shownDistanceNm(distance: number | null): number | null {
  return distance === null ? null : Math.round(distance * 10) / 10;
}

function parseNear(text: string, radius: number | undefined): NearQuery {
  return { ...parseLatLon(text, '/querystring/near'), radius_nm: radius ?? DEFAULT_RADIUS_NM };
}

/** A "lat,lon" query parameter in degrees; a problem naming `path` when it is not one. */
export function parseLatLon(text: string, path: string): { lat: number; lon: number } {
  const parts = text.split(',').map((part) => part.trim());
  const [lat, lon] = parts.map(Number) as [number, number];
  if (parts.length !== 2 || parts.some((part) => part === '') || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    throw invalid(path, `must be two numbers: lat,lon (got "${text}")`);
  }
  if (Math.abs(lat) > 90) throw invalid(path, 'latitude must lie in -90..90');
  if (Math.abs(lon) > 180) throw invalid(path, 'longitude must lie in -180..180');
  return { lat, lon };
}
