// A 1° grid of points, for "what lies within r nm of here" without measuring every point: only the
// cells a circle of radius r can reach are read. Columns wrap at the antimeridian, and a circle
// that reaches a pole reads every column of the rows it covers.
import { EARTH_RADIUS_NM, haversineNm, type LatLon } from './great-circle.ts';

export type GridHit<T> = { readonly item: T; readonly distance_nm: number };

export type PointGrid<T> = {
  /**
   * The items within `radiusNm` of `centre` that `accept` lets through, nearest first. Equal
   * distances go by the code-point order of the grid's key, so the order never depends on which
   * cell an item sits in; without a key they come in no set order.
   */
  nearest(centre: LatLon, radiusNm: number, accept?: (item: T) => boolean): GridHit<T>[];
};

const DEG = 180 / Math.PI;

export function createPointGrid<T>(items: Iterable<T>, position: (item: T) => LatLon, key?: (item: T) => string): PointGrid<T> {
  const cells = new Map<number, T[]>();
  for (const item of items) {
    const { lat, lon } = position(item);
    const cell = cellKey(Math.floor(lat), Math.floor(lon));
    const members = cells.get(cell);
    if (members === undefined) cells.set(cell, [item]);
    else members.push(item);
  }
  return {
    nearest(centre, radiusNm, accept) {
      const hits: GridHit<T>[] = [];
      for (const cell of cellsAround(centre, radiusNm)) {
        for (const item of cells.get(cell) ?? []) {
          if (accept !== undefined && !accept(item)) continue;
          const { lat, lon } = position(item);
          const distance = haversineNm(centre.lat, centre.lon, lat, lon);
          if (distance <= radiusNm) hits.push({ item, distance_nm: distance });
        }
      }
      return hits.sort((a, b) => a.distance_nm - b.distance_nm || (key === undefined ? 0 : compareKeys(key(a.item), key(b.item))));
    },
  };
}

/** Code-point order, the same in every locale. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cellKey(latCell: number, lonCell: number): number {
  const row = Math.min(179, Math.max(0, latCell + 90));
  const column = (((lonCell + 180) % 360) + 360) % 360;
  return row * 360 + column;
}

/** The cells a circle of `radiusNm` around `centre` can reach, each once. */
function* cellsAround(centre: LatLon, radiusNm: number): Generator<number> {
  const radiusDeg = (radiusNm / EARTH_RADIUS_NM) * DEG;
  const south = centre.lat - radiusDeg;
  const north = centre.lat + radiusDeg;
  // The widest longitude span of a circle that does not reach a pole: asin(sin r / cos lat).
  const spread = Math.sin(radiusDeg / DEG) / Math.cos(centre.lat / DEG);
  const allLongitudes = south <= -90 || north >= 90 || radiusDeg >= 90 || spread >= 1;
  const halfWidth = allLongitudes ? 180 : Math.asin(spread) * DEG;
  const firstColumn = Math.floor(centre.lon - halfWidth);
  const columns = allLongitudes ? 360 : Math.min(360, Math.floor(centre.lon + halfWidth) - firstColumn + 1);
  for (let row = Math.floor(Math.max(-90, south)); row <= Math.floor(Math.min(89.999, north)); row++) {
    for (let i = 0; i < columns; i++) yield cellKey(row, firstColumn + i);
  }
}
