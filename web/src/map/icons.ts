// Map icons are drawn on a canvas, so no sprite sheet is fetched, at twice their size in CSS
// pixels for sharp screens.
import type { Map as MapLibreMap } from 'maplibre-gl';

const PIXEL_RATIO = 2;

/** Adds an icon `size` CSS pixels square, drawn by `draw` in CSS pixels. */
export function addDrawnIcon(map: MapLibreMap, name: string, size: number, draw: (ctx: CanvasRenderingContext2D) => void): void {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size * PIXEL_RATIO;
  const ctx = canvas.getContext('2d')!;
  ctx.scale(PIXEL_RATIO, PIXEL_RATIO);
  draw(ctx);
  map.addImage(name, ctx.getImageData(0, 0, canvas.width, canvas.height), { pixelRatio: PIXEL_RATIO });
}
