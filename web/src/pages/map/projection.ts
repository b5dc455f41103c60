// Web Mercator for the live map. Positions are kept in world units (x and y from 0 to 1 over the
// whole world), so panning and zooming only change the view, and the world repeats east and west
// of itself: the map pans across the antimeridian without a seam.

/** Web Mercator stops here, where the world becomes square. */
export const MAX_LATITUDE = 85.05112878;
/** Pixels across the whole world at zoom 0. */
export const WORLD_PIXELS = 256;
/** Natural Earth's 1:10m coastline is about a kilometre off at best: closer than this would mislead. */
export const MAX_ZOOM = 12;

export interface View {
  /** The centre in world units; x is kept within [0, 1). */
  centerX: number;
  centerY: number;
  /** The world is WORLD_PIXELS × 2^zoom pixels across. */
  zoom: number;
  /** The canvas size in CSS pixels. */
  width: number;
  height: number;
}

/** A box in degrees as the stream takes it; minLon > maxLon crosses the antimeridian. */
export interface Box {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

const RADIANS = Math.PI / 180;

export function worldX(lon: number): number {
  return (lon + 180) / 360;
}

export function worldY(lat: number): number {
  const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  const sin = Math.sin(clamped * RADIANS);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

export function longitudeOf(x: number): number {
  return x * 360 - 180;
}

export function latitudeOf(y: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
}

/** Longitude folded into [-180, 180). */
export function normaliseLongitude(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

export function worldPixels(view: View): number {
  return WORLD_PIXELS * 2 ** view.zoom;
}

/** The smallest zoom at which the world still fills the height of the view. */
export function minZoom(view: Pick<View, 'height'>): number {
  return Math.max(0, Math.log2(Math.max(1, view.height) / WORLD_PIXELS));
}

/** A view of the given size centred on a position. */
export function viewAt(lat: number, lon: number, zoom: number, width: number, height: number): View {
  return constrain({ centerX: worldX(lon), centerY: worldY(lat), zoom, width, height });
}

/** Keeps the zoom in range, x within [0, 1) and the poles' edges from leaving the view. */
export function constrain(view: View): View {
  const zoom = Math.min(MAX_ZOOM, Math.max(minZoom(view), view.zoom));
  const size = WORLD_PIXELS * 2 ** zoom;
  const halfHeight = view.height / 2 / size;
  const centerY = halfHeight >= 0.5 ? 0.5 : Math.min(1 - halfHeight, Math.max(halfHeight, view.centerY));
  const centerX = view.centerX - Math.floor(view.centerX);
  return { ...view, zoom, centerX, centerY };
}

/** Screen position (CSS pixels) of world coordinates, without wrapping. */
export function toScreen(view: View, x: number, y: number): [number, number] {
  const size = worldPixels(view);
  return [(x - view.centerX) * size + view.width / 2, (y - view.centerY) * size + view.height / 2];
}

export function toWorld(view: View, screenX: number, screenY: number): [number, number] {
  const size = worldPixels(view);
  return [view.centerX + (screenX - view.width / 2) / size, view.centerY + (screenY - view.height / 2) / size];
}

export function panBy(view: View, dx: number, dy: number): View {
  const size = worldPixels(view);
  return constrain({ ...view, centerX: view.centerX - dx / size, centerY: view.centerY - dy / size });
}

/** Zooms by `delta` levels keeping the world point under (screenX, screenY) where it is. */
export function zoomAround(view: View, delta: number, screenX = view.width / 2, screenY = view.height / 2): View {
  const [x, y] = toWorld(view, screenX, screenY);
  const zoom = Math.min(MAX_ZOOM, Math.max(minZoom(view), view.zoom + delta));
  const size = WORLD_PIXELS * 2 ** zoom;
  return constrain({
    ...view,
    zoom,
    centerX: x - (screenX - view.width / 2) / size,
    centerY: y - (screenY - view.height / 2) / size,
  });
}

export function resize(view: View, width: number, height: number): View {
  return constrain({ ...view, width, height });
}

/**
 * The world copies (offsets of whole worlds) that show in the view: one when zoomed in, several
 * side by side when the view is wider than the world.
 */
export function worldCopies(view: View): number[] {
  const size = worldPixels(view);
  const left = view.centerX - view.width / 2 / size;
  const right = view.centerX + view.width / 2 / size;
  const copies: number[] = [];
  for (let offset = Math.floor(left); offset <= Math.floor(right); offset++) copies.push(offset);
  return copies;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/**
 * The area the view shows, widened by `margin` (a fraction of its size on each side), as the
 * stream's bounding box: null when it takes in every longitude and latitude (subscribe to
 * everything). A view across the antimeridian gives a box with minLon > maxLon.
 */
export function visibleBox(view: View, margin = 0): Box | null {
  const size = worldPixels(view);
  const halfWidth = (view.width / 2 / size) * (1 + 2 * margin);
  const halfHeight = (view.height / 2 / size) * (1 + 2 * margin);
  const top = view.centerY - halfHeight;
  const bottom = view.centerY + halfHeight;
  const maxLat = top <= 0 ? 90 : round(latitudeOf(top));
  const minLat = bottom >= 1 ? -90 : round(latitudeOf(bottom));
  const everyLongitude = halfWidth * 2 >= 1;
  if (everyLongitude && minLat === -90 && maxLat === 90) return null;
  if (everyLongitude) return { minLat, maxLat, minLon: -180, maxLon: 180 };
  const west = round(normaliseLongitude(longitudeOf(view.centerX - halfWidth)));
  let east = round(normaliseLongitude(longitudeOf(view.centerX + halfWidth)));
  // The eastern edge exactly on the antimeridian is 180, not -180.
  if (east === -180) east = 180;
  return { minLat, maxLat, minLon: west, maxLon: east };
}

/** Whether a position lies in a box (edges included; a box may cross the antimeridian). */
export function boxContains(box: Box, lat: number, lon: number): boolean {
  if (lat < box.minLat || lat > box.maxLat) return false;
  return box.minLon <= box.maxLon ? lon >= box.minLon && lon <= box.maxLon : lon >= box.minLon || lon <= box.maxLon;
}
