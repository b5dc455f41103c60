// The map surface: two stacked canvases (the basemap, redrawn when the view moves; the vessels,
// redrawn when the view or the data changes), at most one draw per animation frame and none when
// nothing changed. It pans and zooms with mouse, wheel, touch (one finger pans, two pinch) and
// keyboard, and reports clicks on vessels.
import { drawBasemap, landScaleFor, type Land, type PathContext } from './basemap.ts';
import { loadLand, type LandScale } from './basemap-assets.ts';
import { constrain, panBy, resize, zoomAround, type View } from './projection.ts';
import { drawTrack, drawVessels, EMPTY_DRAWN, hitTest, type DrawnVessels, type VesselContext } from './vessel-layer.ts';
import type { VesselStore } from './vessel-store.ts';

export interface LiveMapOptions {
  view: View;
  /** The view moved (called for every change; debounce what is costly). */
  onView(view: View): void;
  /** A vessel was clicked (null: the map itself). */
  onSelect(mmsi: number | null): void;
  /** The basemap could not be loaded. */
  onError(error: unknown): void;
}

/** A click moves the pointer less than this (px); more is a drag. */
const CLICK_SLOP = 5;
const KEY_PAN_PX = 90;

export class LiveMap {
  readonly #stage: HTMLElement;
  readonly #base: HTMLCanvasElement;
  readonly #top: HTMLCanvasElement;
  readonly #store: VesselStore;
  readonly #options: LiveMapOptions;
  readonly #lands = new Map<LandScale, Land>();
  readonly #resizer: ResizeObserver;
  readonly #pointers = new Map<number, { x: number; y: number }>();
  #view: View;
  #frame = 0;
  #baseDirty = true;
  #topDirty = true;
  #drawnVersion = -1;
  #drawn: DrawnVessels = EMPTY_DRAWN;
  #selected: number | null = null;
  #track: readonly { lat: number; lon: number }[] | null = null;
  #dragStart: { x: number; y: number; moved: boolean } | null = null;
  #destroyed = false;

  constructor(stage: HTMLElement, store: VesselStore, options: LiveMapOptions) {
    this.#stage = stage;
    this.#store = store;
    this.#options = options;
    this.#base = canvas('map-base');
    this.#top = canvas('map-vessels');
    stage.prepend(this.#base, this.#top);
    const rect = stage.getBoundingClientRect();
    this.#view = resize(options.view, Math.max(1, rect.width), Math.max(1, rect.height));
    this.#resizer = new ResizeObserver(() => {
      const box = stage.getBoundingClientRect();
      this.#setView(resize(this.#view, Math.max(1, box.width), Math.max(1, box.height)), true);
    });
    this.#resizer.observe(stage);
    this.#listen();
    this.#setView(this.#view, true);
  }

  get view(): View {
    return this.#view;
  }

  /** Vessels drawn in the last frame. */
  get drawnCount(): number {
    return this.#drawn.count;
  }

  get drawn(): DrawnVessels {
    return this.#drawn;
  }

  /** Something in the store changed: draw at the next frame. */
  dataChanged(): void {
    if (this.#store.version !== this.#drawnVersion) this.#request(false);
  }

  setSelected(mmsi: number | null): void {
    this.#selected = mmsi;
    this.#request(false);
  }

  setTrack(points: readonly { lat: number; lon: number }[] | null): void {
    this.#track = points;
    this.#request(false);
  }

  setView(view: View): void {
    this.#setView(constrain({ ...view, width: this.#view.width, height: this.#view.height }), false);
  }

  zoomBy(delta: number): void {
    this.#setView(zoomAround(this.#view, delta), false);
  }

  destroy(): void {
    this.#destroyed = true;
    cancelAnimationFrame(this.#frame);
    this.#resizer.disconnect();
    this.#base.remove();
    this.#top.remove();
  }

  #setView(view: View, sized: boolean): void {
    const moved = view.centerX !== this.#view.centerX || view.centerY !== this.#view.centerY || view.zoom !== this.#view.zoom;
    this.#view = view;
    if (sized) this.#size();
    this.#ensureLand(view.zoom);
    this.#request(true);
    if (moved || sized) this.#options.onView(view);
  }

  #size(): void {
    const ratio = window.devicePixelRatio || 1;
    for (const surface of [this.#base, this.#top]) {
      surface.width = Math.round(this.#view.width * ratio);
      surface.height = Math.round(this.#view.height * ratio);
      surface.style.width = `${this.#view.width}px`;
      surface.style.height = `${this.#view.height}px`;
    }
  }

  #ensureLand(zoom: number): void {
    const scale = landScaleFor(zoom);
    if (this.#lands.has(scale)) return;
    loadLand(scale).then(
      (land) => {
        if (this.#destroyed) return;
        this.#lands.set(scale, land);
        this.#request(true);
      },
      (error: unknown) => this.#options.onError(error),
    );
  }

  /** The finest land loaded that suits the zoom, else the nearest coarser or finer one. */
  #land(): Land | undefined {
    const wanted = landScaleFor(this.#view.zoom);
    const order: LandScale[] = wanted === '10m' ? ['10m', '50m', '110m'] : wanted === '50m' ? ['50m', '110m', '10m'] : ['110m', '50m', '10m'];
    for (const scale of order) {
      const land = this.#lands.get(scale);
      if (land) return land;
    }
    return undefined;
  }

  #request(base: boolean): void {
    if (base) this.#baseDirty = true;
    this.#topDirty = true;
    if (this.#frame || this.#destroyed) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#draw();
    });
  }

  #draw(): void {
    const ratio = window.devicePixelRatio || 1;
    if (this.#baseDirty) {
      const ctx = this.#base.getContext('2d')!;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      drawBasemap(ctx as unknown as PathContext, this.#view, this.#land());
      this.#baseDirty = false;
    }
    if (this.#topDirty) {
      const ctx = this.#top.getContext('2d')!;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, this.#view.width, this.#view.height);
      if (this.#track) drawTrack(ctx as unknown as VesselContext, this.#view, this.#track);
      this.#drawnVersion = this.#store.version;
      this.#drawn = drawVessels(ctx as unknown as VesselContext, this.#view, this.#store.values(), this.#selected);
      this.#topDirty = false;
      // For tests and assistive summaries: how many vessels the canvas shows.
      this.#stage.dataset.drawnVessels = String(this.#drawn.count);
    }
  }

  #point(event: { clientX: number; clientY: number }): { x: number; y: number } {
    const rect = this.#stage.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  #listen(): void {
    const surface = this.#top;
    surface.addEventListener('pointerdown', (event) => {
      surface.setPointerCapture(event.pointerId);
      const point = this.#point(event);
      this.#pointers.set(event.pointerId, point);
      this.#dragStart = this.#pointers.size === 1 ? { ...point, moved: false } : null;
    });
    surface.addEventListener('pointermove', (event) => {
      const point = this.#point(event);
      const previous = this.#pointers.get(event.pointerId);
      if (!previous) {
        surface.style.cursor = hitTest(this.#drawn, point.x, point.y) === null ? 'grab' : 'pointer';
        return;
      }
      if (this.#pointers.size === 2) {
        const [other] = [...this.#pointers.entries()].filter(([id]) => id !== event.pointerId).map(([, value]) => value);
        const before = Math.hypot(previous.x - other!.x, previous.y - other!.y);
        const after = Math.hypot(point.x - other!.x, point.y - other!.y);
        const middle = { x: (point.x + other!.x) / 2, y: (point.y + other!.y) / 2 };
        let view = panBy(this.#view, (point.x - previous.x) / 2, (point.y - previous.y) / 2);
        if (before > 0 && after > 0) view = zoomAround(view, Math.log2(after / before), middle.x, middle.y);
        this.#setView(view, false);
      } else {
        if (this.#dragStart && Math.hypot(point.x - this.#dragStart.x, point.y - this.#dragStart.y) > CLICK_SLOP) this.#dragStart.moved = true;
        if (this.#dragStart?.moved) {
          surface.style.cursor = 'grabbing';
          this.#setView(panBy(this.#view, point.x - previous.x, point.y - previous.y), false);
        }
      }
      this.#pointers.set(event.pointerId, point);
    });
    const release = (event: PointerEvent) => {
      const point = this.#point(event);
      const click = this.#dragStart && !this.#dragStart.moved && this.#pointers.size === 1 && event.type === 'pointerup';
      this.#pointers.delete(event.pointerId);
      if (click) this.#options.onSelect(hitTest(this.#drawn, point.x, point.y, event.pointerType === 'touch' ? 18 : 10));
      if (this.#pointers.size === 0) {
        this.#dragStart = null;
        surface.style.cursor = 'grab';
      }
    };
    surface.addEventListener('pointerup', release);
    surface.addEventListener('pointercancel', release);
    surface.addEventListener('wheel', (event) => {
      event.preventDefault();
      const point = this.#point(event);
      // Lines (Firefox) or pixels; a notch of a mouse wheel is about half a zoom level.
      const pixels = event.deltaMode === 1 ? event.deltaY * 40 : event.deltaY;
      this.#setView(zoomAround(this.#view, Math.max(-1, Math.min(1, -pixels / 200)), point.x, point.y), false);
    }, { passive: false });
    surface.addEventListener('dblclick', (event) => {
      const point = this.#point(event);
      this.#setView(zoomAround(this.#view, event.shiftKey ? -1 : 1, point.x, point.y), false);
    });
    this.#stage.addEventListener('keydown', (event) => {
      if (event.target !== this.#stage) return;
      const step = event.shiftKey ? KEY_PAN_PX * 3 : KEY_PAN_PX;
      const moves: Record<string, () => View> = {
        ArrowLeft: () => panBy(this.#view, step, 0),
        ArrowRight: () => panBy(this.#view, -step, 0),
        ArrowUp: () => panBy(this.#view, 0, step),
        ArrowDown: () => panBy(this.#view, 0, -step),
        '+': () => zoomAround(this.#view, 1),
        '=': () => zoomAround(this.#view, 1),
        '-': () => zoomAround(this.#view, -1),
        _: () => zoomAround(this.#view, -1),
      };
      const move = moves[event.key];
      if (move) {
        event.preventDefault();
        this.#setView(move(), false);
      } else if (event.key === 'Escape') {
        this.#options.onSelect(null);
      }
    });
  }
}

function canvas(className: string): HTMLCanvasElement {
  const element = document.createElement('canvas');
  element.className = className;
  element.setAttribute('aria-hidden', 'true');
  return element;
}
