// The vessel layer: every vessel drawn on one canvas, batched by colour (one path per category, so
// thousands of vessels cost a few dozen canvas calls), and the screen positions kept for hit testing.
// A vessel under way is an arrow along its heading (its course when the heading is unknown); one
// at rest, or with no direction, is a small diamond. Both are straight-edged on purpose: a path of
// thousands of arcs fills many times slower than one of thousands of polygons.
import { CATEGORIES } from './categories.ts';
import { toScreen, worldCopies, worldPixels, worldX, worldY, type View } from './projection.ts';
import type { VesselRecord } from './vessel-store.ts';

/** The parts of a 2D canvas context the layer draws with. */
export interface VesselContext {
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  arc(x: number, y: number, radius: number, start: number, end: number): void;
  closePath(): void;
  fill(): void;
  stroke(): void;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
}

/** Where each vessel was drawn, for hit testing. */
export interface DrawnVessels {
  /** Vessels drawn (a vessel shown on two copies of the world counts once). */
  count: number;
  /** Entries in the arrays below (one per vessel and world copy). */
  length: number;
  xs: Float32Array;
  ys: Float32Array;
  mmsi: Uint32Array;
}

export const EMPTY_DRAWN: DrawnVessels = { count: 0, length: 0, xs: new Float32Array(0), ys: new Float32Array(0), mmsi: new Uint32Array(0) };

/** Slower than this (knots) counts as at rest. */
const UNDER_WAY_KN = 0.5;
const MARGIN_PX = 12;

/** The direction to draw, in degrees clockwise from north, or null to draw a dot. */
export function drawnDirection(vessel: Pick<VesselRecord, 'sog' | 'cog' | 'heading'>): number | null {
  if (vessel.sog === null || vessel.sog < UNDER_WAY_KN) return null;
  return vessel.heading ?? vessel.cog;
}

/** Arrow length in pixels: small for the whole world, larger near a port. */
export function vesselSize(zoom: number): number {
  return Math.max(7, Math.min(12, 5 + zoom * 0.6));
}

export function drawVessels(ctx: VesselContext, view: View, vessels: Iterable<VesselRecord>, selected: number | null = null): DrawnVessels {
  const size = worldPixels(view);
  const [originX, originY] = toScreen(view, 0, 0);
  const copies = worldCopies(view).map((offset) => originX + offset * size);

  // Screen positions first, bucketed by category so each colour is one path.
  let capacity = 1024;
  let xs = new Float32Array(capacity);
  let ys = new Float32Array(capacity);
  let mmsi = new Uint32Array(capacity);
  let angle = new Float32Array(capacity);
  let category = new Uint8Array(capacity);
  let length = 0;
  let count = 0;
  let selectedAt = -1;
  const perCategory = new Array<number>(CATEGORIES.length).fill(0);
  for (const vessel of vessels) {
    const y = originY + vessel.y * size;
    if (y < -MARGIN_PX || y > view.height + MARGIN_PX) continue;
    const direction = drawnDirection(vessel);
    let shown = false;
    for (const left of copies) {
      const x = left + vessel.x * size;
      if (x < -MARGIN_PX || x > view.width + MARGIN_PX) continue;
      if (length === capacity) {
        capacity *= 2;
        xs = grow(xs, new Float32Array(capacity));
        ys = grow(ys, new Float32Array(capacity));
        mmsi = grow(mmsi, new Uint32Array(capacity));
        angle = grow(angle, new Float32Array(capacity));
        category = grow(category, new Uint8Array(capacity));
      }
      xs[length] = x;
      ys[length] = y;
      mmsi[length] = vessel.mmsi;
      angle[length] = direction === null ? NaN : (direction * Math.PI) / 180;
      category[length] = vessel.categoryIndex;
      perCategory[vessel.categoryIndex]!++;
      if (vessel.mmsi === selected) selectedAt = length;
      length++;
      shown = true;
    }
    if (shown) count++;
  }

  const arrow = vesselSize(view.zoom);
  const dot = Math.max(3, arrow * 0.4);
  ctx.lineWidth = 0.6;
  ctx.strokeStyle = 'rgba(20, 30, 40, 0.6)';
  for (let index = 0; index < CATEGORIES.length; index++) {
    if (perCategory[index] === 0) continue;
    ctx.beginPath();
    for (let at = 0; at < length; at++) {
      if (category[at] !== index) continue;
      shape(ctx, xs[at]!, ys[at]!, angle[at]!, arrow, dot);
    }
    ctx.fillStyle = CATEGORIES[index]!.colour;
    ctx.fill();
    ctx.stroke();
  }
  if (selectedAt !== -1) {
    ctx.beginPath();
    ctx.arc(xs[selectedAt]!, ys[selectedAt]!, arrow + 4, 0, Math.PI * 2);
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = '#111827';
    ctx.stroke();
  }
  return { count, length, xs, ys, mmsi };
}

function grow<T extends Float32Array | Uint32Array | Uint8Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}

/** An arrow with a notched tail pointing along `angle` (radians from north), or a diamond. */
function shape(ctx: VesselContext, x: number, y: number, angle: number, length: number, dot: number): void {
  if (Number.isNaN(angle)) {
    ctx.moveTo(x, y - dot);
    ctx.lineTo(x + dot, y);
    ctx.lineTo(x, y + dot);
    ctx.lineTo(x - dot, y);
    ctx.closePath();
    return;
  }
  const sin = Math.sin(angle);
  const cos = Math.cos(angle);
  // Points in the vessel's frame (forward is -y on screen), rotated by the heading.
  const point = (across: number, along: number): [number, number] => [x + across * cos - along * sin, y + across * sin + along * cos];
  const half = length / 2;
  const [tipX, tipY] = point(0, -half * 1.3);
  const [rightX, rightY] = point(half * 0.62, half);
  const [notchX, notchY] = point(0, half * 0.5);
  const [leftX, leftY] = point(-half * 0.62, half);
  ctx.moveTo(tipX, tipY);
  ctx.lineTo(rightX, rightY);
  ctx.lineTo(notchX, notchY);
  ctx.lineTo(leftX, leftY);
  ctx.closePath();
}

/** The vessel drawn nearest to a screen point within `radius` pixels, or null. */
export function hitTest(drawn: DrawnVessels, x: number, y: number, radius = 10): number | null {
  let best: number | null = null;
  let bestDistance = radius * radius;
  for (let index = drawn.length - 1; index >= 0; index--) {
    const dx = drawn.xs[index]! - x;
    const dy = drawn.ys[index]! - y;
    const distance = dx * dx + dy * dy;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = drawn.mmsi[index]!;
    }
  }
  return best;
}

/**
 * A vessel's recorded track as a line, oldest point first. Longitudes are unwrapped along the
 * way, so a track across the antimeridian stays one line instead of crossing the whole world.
 */
export function drawTrack(ctx: VesselContext, view: View, points: readonly { lat: number; lon: number }[], colour = '#111827'): void {
  if (points.length < 2) return;
  const size = worldPixels(view);
  const [originX, originY] = toScreen(view, 0, 0);
  const unwrapped: [number, number][] = [];
  let lon = points[0]!.lon;
  for (const point of points) {
    lon += ((((point.lon - lon) % 360) + 540) % 360) - 180;
    unwrapped.push([worldX(lon), worldY(point.lat)]);
  }
  ctx.beginPath();
  // One copy further west than the view needs, for a track that starts east of 180° and ends west of it.
  for (const offset of [worldCopies(view)[0]! - 1, ...worldCopies(view)]) {
    unwrapped.forEach(([x, y], index) => {
      const screenX = originX + (x + offset) * size;
      const screenY = originY + y * size;
      if (index === 0) ctx.moveTo(screenX, screenY);
      else ctx.lineTo(screenX, screenY);
    });
  }
  ctx.lineWidth = 2;
  ctx.strokeStyle = colour;
  ctx.stroke();
}
