// The basemap: Natural Earth land (from world-atlas TopoJSON) projected once into world units and
// drawn onto a canvas for any view. Rings off screen are skipped, and points closer than half a
// pixel to the last one drawn are left out, so the whole world at a glance costs few lines.
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import { MAX_LATITUDE, latitudeOf, longitudeOf, toScreen, worldCopies, worldPixels, worldX, worldY, type View } from './projection.ts';

export interface Ring {
  /** x, y pairs in world units. */
  points: Float64Array;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface Land {
  rings: Ring[];
  /** Points in all rings, for choosing the level of detail. */
  pointCount: number;
}

/** The parts of a 2D canvas context the basemap draws with. */
export interface PathContext {
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  fill(fillRule?: 'nonzero' | 'evenodd'): void;
  stroke(): void;
  fillRect(x: number, y: number, width: number, height: number): void;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
}

export interface BasemapStyle {
  water: string;
  land: string;
  coast: string;
  graticule: string;
}

export const BASEMAP_STYLE: BasemapStyle = {
  water: '#d9e6ef',
  land: '#f4f1ea',
  coast: '#a9b6bf',
  graticule: 'rgba(80, 110, 130, 0.14)',
};

/** Projects the `land` object of a world-atlas topology into rings in world units. */
export function landFromTopology(topology: Topology): Land {
  const object = topology.objects.land;
  if (!object) throw new Error('the topology has no land object');
  const geo = feature(topology, object);
  const features = 'features' in geo ? geo.features : [geo];
  const rings: Ring[] = [];
  let pointCount = 0;
  for (const item of features) {
    const geometry = item.geometry;
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];
    for (const polygon of polygons) {
      for (const ring of polygon) {
        const projected = projectRing(ring as [number, number][]);
        rings.push(projected);
        pointCount += projected.points.length / 2;
      }
    }
  }
  return { rings, pointCount };
}

/**
 * A ring in world units. The topology is spherical, so a ring across the antimeridian (Chukotka,
 * Fiji) jumps from 180° to -180°: unwrapped, it carries on past 180° instead, and is drawn across
 * two copies of the world. A ring round a pole (Antarctica) does not close once unwrapped: it is
 * closed along the pole, the bottom edge of the map. Each ring is then moved by whole worlds so
 * that it starts within the first.
 */
function projectRing(ring: readonly [number, number][]): Ring {
  const lons: number[] = [];
  const lats: number[] = [];
  let previous = ring[0]?.[0] ?? 0;
  for (const [rawLon, lat] of ring) {
    let lon = rawLon;
    while (lon - previous > 180) lon -= 360;
    while (lon - previous < -180) lon += 360;
    previous = lon;
    lons.push(lon);
    lats.push(lat);
  }
  if (lons.length > 1 && Math.abs(lons.at(-1)! - lons[0]!) > 180) {
    const pole = lats.reduce((sum, lat) => sum + lat, 0) < 0 ? -90 : 90;
    lons.push(lons.at(-1)!, lons[0]!);
    lats.push(pole, pole);
  }
  const shift = -Math.floor(worldX(Math.min(...lons)));
  const points = new Float64Array(lons.length * 2);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  lons.forEach((lon, index) => {
    const x = worldX(lon) + shift;
    const y = worldY(Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lats[index]!)));
    points[index * 2] = x;
    points[index * 2 + 1] = y;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  });
  return { points, minX, minY, maxX, maxY };
}

/** Which Natural Earth scale suits a zoom: 1:110m for the world, 1:50m for seas, 1:10m near ports. */
export function landScaleFor(zoom: number): '110m' | '50m' | '10m' {
  if (zoom < 2.5) return '110m';
  if (zoom < 5) return '50m';
  return '10m';
}

/** Draws water, graticule and land for the view. Returns how many ring points were drawn. */
export function drawBasemap(ctx: PathContext, view: View, land: Land | undefined, style: BasemapStyle = BASEMAP_STYLE): number {
  ctx.fillStyle = style.water;
  ctx.fillRect(0, 0, view.width, view.height);
  drawGraticule(ctx, view, style);
  if (!land) return 0;
  const size = worldPixels(view);
  const [originX, originY] = toScreen(view, 0, 0);
  let drawn = 0;
  ctx.beginPath();
  // One more copy either side, for rings that reach across the antimeridian into the view.
  const copies = worldCopies(view);
  for (let offset = copies[0]! - 1; offset <= copies.at(-1)! + 1; offset++) {
    const left = originX + offset * size;
    for (const ring of land.rings) {
      if (left + ring.maxX * size < 0 || left + ring.minX * size > view.width) continue;
      if (originY + ring.maxY * size < 0 || originY + ring.minY * size > view.height) continue;
      const points = ring.points;
      let lastX = left + points[0]! * size;
      let lastY = originY + points[1]! * size;
      ctx.moveTo(lastX, lastY);
      drawn++;
      for (let index = 2; index < points.length; index += 2) {
        const x = left + points[index]! * size;
        const y = originY + points[index + 1]! * size;
        if (Math.abs(x - lastX) < 0.5 && Math.abs(y - lastY) < 0.5 && index < points.length - 2) continue;
        ctx.lineTo(x, y);
        lastX = x;
        lastY = y;
        drawn++;
      }
      ctx.closePath();
    }
  }
  ctx.fillStyle = style.land;
  ctx.fill('evenodd');
  ctx.strokeStyle = style.coast;
  ctx.lineWidth = 0.75;
  ctx.stroke();
  return drawn;
}

/** Degrees between graticule lines: about one line every 150 pixels, on round numbers. */
export function graticuleStep(view: View): number {
  const degreesPerPixel = 360 / worldPixels(view);
  const wanted = degreesPerPixel * 150;
  for (const step of [0.25, 0.5, 1, 2, 5, 10, 15, 30]) if (step >= wanted) return step;
  return 30;
}

function drawGraticule(ctx: PathContext, view: View, style: BasemapStyle): void {
  const step = graticuleStep(view);
  const size = worldPixels(view);
  const [, topY] = toScreen(view, 0, 0);
  const westLon = longitudeOf(view.centerX - view.width / 2 / size);
  const eastLon = longitudeOf(view.centerX + view.width / 2 / size);
  const northLat = latitudeOf(Math.max(0, view.centerY - view.height / 2 / size));
  const southLat = latitudeOf(Math.min(1, view.centerY + view.height / 2 / size));
  ctx.beginPath();
  for (let lon = Math.ceil(westLon / step) * step; lon <= eastLon; lon += step) {
    const [x] = toScreen(view, worldX(lon), 0);
    ctx.moveTo(x, Math.max(0, topY));
    ctx.lineTo(x, Math.min(view.height, topY + size));
  }
  for (let lat = Math.ceil(Math.max(-80, southLat) / step) * step; lat <= Math.min(80, northLat); lat += step) {
    const [, y] = toScreen(view, 0, worldY(lat));
    ctx.moveTo(0, y);
    ctx.lineTo(view.width, y);
  }
  ctx.strokeStyle = style.graticule;
  ctx.lineWidth = 1;
  ctx.stroke();
}
