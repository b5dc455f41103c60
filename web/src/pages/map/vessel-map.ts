// The live map: LAMIS's base map with port and airport names, and the vessels of the store on top
// as one clustered GeoJSON source. A symbol per vessel in its type's colour, turned to its heading
// (or course) when under way, a dot when at rest; clusters with a count when zoomed out. The store
// is handed to MapLibre at most every FLUSH_EVERY_MS and never while the map moves, so panning
// stays smooth however many vessels there are. Also: the selected vessel's ring and its track.
import type { GeoJSONSource, Map as MapLibreMap, MapGeoJSONFeature, MapMouseEvent } from 'maplibre-gl';
import { NavigationControl } from 'maplibre-gl';
import { BASE_MAP_FONT_BOLD, createBaseMap } from '../../map/base-map.ts';
import { addDrawnIcon } from '../../map/icons.ts';
import { unwrapLine } from '../../map/natural-earth.ts';
import { addPlaceLabels } from '../../map/places.ts';
import { boxContains, boxOfBounds, type Bounds } from './area.ts';
import { CATEGORIES } from './categories.ts';
import type { VesselRecord, VesselStore } from './vessel-store.ts';

export interface VesselMapOptions {
  center: [number, number];
  zoom: number;
  /** The map came to rest (and once when it first knows its size). */
  onView(view: { bounds: Bounds; lat: number; lon: number; zoom: number }): void;
  /** A vessel was clicked (null: the map itself). */
  onSelect(mmsi: number | null): void;
  /** Part of the base map or the place names could not be loaded. */
  onError(error: unknown): void;
}

/** The vessels go to MapLibre's worker at most this often (it re-tiles and re-clusters them each time). */
const FLUSH_EVERY_MS = 500;
/** Above this zoom every vessel is drawn on its own. */
const CLUSTER_MAX_ZOOM = 6;
/** Below this speed (knots) a vessel is drawn as a dot: its heading says little. */
const UNDER_WAY_KN = 0.5;

const EMPTY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

/** A hull seen from above pointing north, or a dot, 20 px, in a type's colour. */
function vesselIcon(colour: string, underWay: boolean) {
  return (ctx: CanvasRenderingContext2D) => {
    ctx.beginPath();
    if (underWay) {
      ctx.moveTo(10, 1.5);
      ctx.lineTo(15.5, 17.5);
      ctx.lineTo(10, 14.5);
      ctx.lineTo(4.5, 17.5);
      ctx.closePath();
    } else {
      ctx.arc(10, 10, 4.5, 0, Math.PI * 2);
    }
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.lineWidth = 1.2;
    ctx.strokeStyle = 'rgba(20, 30, 40, 0.85)';
    ctx.stroke();
  };
}

function feature(vessel: VesselRecord): GeoJSON.Feature<GeoJSON.Point> {
  const underWay = (vessel.sog ?? 0) >= UNDER_WAY_KN;
  const bearing = vessel.heading ?? vessel.cog;
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [vessel.lon, vessel.lat] },
    properties: { mmsi: vessel.mmsi, icon: `vessel-${underWay && bearing !== null ? 'way' : 'rest'}-${vessel.category}`, bearing: bearing ?? 0 },
  };
}

export class VesselMap {
  readonly map: MapLibreMap;
  readonly #stage: HTMLElement;
  readonly #store: VesselStore;
  readonly #options: VesselMapOptions;
  #ready = false;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #lastFlush = 0;
  #flushedVersion = -1;
  #selected: number | null = null;
  #drawn = 0;

  constructor(stage: HTMLElement, store: VesselStore, options: VesselMapOptions) {
    this.#stage = stage;
    this.#store = store;
    this.#options = options;
    this.map = createBaseMap(stage, { center: options.center, zoom: options.zoom, onError: options.onError });
    this.map.addControl(new NavigationControl({ showCompass: false }), 'top-left');
    this.map.getCanvas().setAttribute('aria-label', 'Map of live vessels: arrow keys move it, + and − zoom');
    this.map.once('load', () => this.#setUp());
    this.map.on('moveend', () => {
      this.#count();
      this.#options.onView(this.view);
      // Updates that waited for the map to rest.
      if (this.#store.version !== this.#flushedVersion) this.dataChanged();
    });
    stage.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.#options.onSelect(null);
    });
  }

  get view(): { bounds: Bounds; lat: number; lon: number; zoom: number } {
    const bounds = this.map.getBounds();
    const centre = this.map.getCenter().wrap();
    return { bounds: { west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth() }, lat: centre.lat, lon: centre.lng, zoom: this.map.getZoom() };
  }

  /** Vessels in view at the last count. */
  get drawnCount(): number {
    return this.#drawn;
  }

  /** Something in the store changed: hand it to MapLibre when the interval has passed and the map rests. */
  dataChanged(): void {
    if (this.#flushTimer !== undefined || !this.#ready) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      // Moving: `moveend` asks again.
      if (this.map.isMoving()) return;
      this.#flush();
    }, Math.max(0, this.#lastFlush + FLUSH_EVERY_MS - performance.now()));
  }

  setSelected(mmsi: number | null): void {
    this.#selected = mmsi;
    this.#showSelected();
  }

  setTrack(points: readonly { lat: number; lon: number }[] | null): void {
    const source = this.map.getSource('vessel-track') as GeoJSONSource | undefined;
    const line = points && points.length > 1 ? unwrapLine(points.map((point) => [point.lon, point.lat])) : null;
    source?.setData(line ? { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: line } } : EMPTY);
  }

  flyTo(lat: number, lon: number, zoom = Math.max(this.map.getZoom(), 10)): void {
    this.map.flyTo({ center: [lon, lat], zoom, essential: true });
  }

  /** Shows the place at once: for a link, where a flight from the world view would only delay it. */
  jumpTo(lat: number, lon: number, zoom: number): void {
    this.map.jumpTo({ center: [lon, lat], zoom });
  }

  /** The vessels in view nearest the centre. */
  nearest(count: number): VesselRecord[] {
    const box = boxOfBounds(this.view.bounds);
    const centre = this.map.project(this.map.getCenter());
    const list: { vessel: VesselRecord; distance: number }[] = [];
    for (const vessel of this.#store.values()) {
      if (box && !boxContains(box, vessel.lat, vessel.lon)) continue;
      const point = this.map.project([vessel.lon, vessel.lat]);
      list.push({ vessel, distance: Math.hypot(point.x - centre.x, point.y - centre.y) });
    }
    return list.sort((a, b) => a.distance - b.distance).slice(0, count).map((item) => item.vessel);
  }

  destroy(): void {
    clearTimeout(this.#flushTimer);
    this.map.remove();
  }

  #setUp(): void {
    const map = this.map;
    void addPlaceLabels(map, this.#options.onError);
    for (const { category, colour } of CATEGORIES) {
      addDrawnIcon(map, `vessel-way-${category}`, 20, vesselIcon(colour, true));
      addDrawnIcon(map, `vessel-rest-${category}`, 20, vesselIcon(colour, false));
    }
    map.addSource('vessel-track', { type: 'geojson', data: EMPTY });
    map.addSource('vessels', { type: 'geojson', data: EMPTY, cluster: true, clusterMaxZoom: CLUSTER_MAX_ZOOM, clusterRadius: 44 });
    map.addSource('vessel-selected', { type: 'geojson', data: EMPTY });
    map.addLayer({ id: 'vessel-track-casing', type: 'line', source: 'vessel-track', layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': '#ffffff', 'line-width': 5, 'line-opacity': 0.8 } });
    map.addLayer({ id: 'vessel-track', type: 'line', source: 'vessel-track', layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': '#1d3f66', 'line-width': 2.2 } });
    map.addLayer({
      id: 'vessel-clusters',
      type: 'circle',
      source: 'vessels',
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': ['step', ['get', 'point_count'], '#5b8fb9', 50, '#3f74a3', 500, '#2a5a88', 5000, '#1d3f66'],
        'circle-radius': ['step', ['get', 'point_count'], 12, 50, 16, 500, 21, 5000, 26],
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 1.5,
        'circle-opacity': 0.9,
      },
    });
    map.addLayer({
      id: 'vessel-cluster-counts',
      type: 'symbol',
      source: 'vessels',
      filter: ['has', 'point_count'],
      layout: { 'text-field': ['get', 'point_count_abbreviated'], 'text-font': BASE_MAP_FONT_BOLD, 'text-size': 12, 'text-allow-overlap': true },
      paint: { 'text-color': '#ffffff' },
    });
    map.addLayer({
      id: 'vessel-selected',
      type: 'circle',
      source: 'vessel-selected',
      paint: { 'circle-radius': 14, 'circle-color': 'rgba(255, 200, 0, 0.25)', 'circle-stroke-color': '#e0a800', 'circle-stroke-width': 2.5 },
    });
    map.addLayer({
      id: 'vessels',
      type: 'symbol',
      source: 'vessels',
      filter: ['!', ['has', 'point_count']],
      layout: {
        'icon-image': ['get', 'icon'],
        'icon-rotate': ['get', 'bearing'],
        'icon-rotation-alignment': 'map',
        'icon-allow-overlap': true,
        'icon-ignore-placement': true,
        'icon-size': ['interpolate', ['linear'], ['zoom'], 4, 0.75, 10, 1.1],
      },
    });
    map.on('click', (event) => this.#click(event));
    for (const layer of ['vessels', 'vessel-clusters']) {
      map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
      map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
    }
    this.#ready = true;
    this.#count();
    this.#options.onView(this.view);
    this.dataChanged();
  }

  #flush(): void {
    const features: GeoJSON.Feature[] = [];
    for (const vessel of this.#store.values()) features.push(feature(vessel));
    (this.map.getSource('vessels') as GeoJSONSource).setData({ type: 'FeatureCollection', features });
    this.#flushedVersion = this.#store.version;
    this.#lastFlush = performance.now();
    this.#count();
    this.#showSelected();
  }

  #showSelected(): void {
    const vessel = this.#selected === null ? undefined : this.#store.get(this.#selected);
    (this.map.getSource('vessel-selected') as GeoJSONSource | undefined)?.setData(vessel ? { type: 'FeatureCollection', features: [feature(vessel)] } : EMPTY);
  }

  /** How many vessels the map shows now, for the status line (and as a test hook on the stage). */
  #count(): void {
    const box = boxOfBounds(this.view.bounds);
    let count = 0;
    if (this.#flushedVersion >= 0) {
      for (const vessel of this.#store.values()) if (!box || boxContains(box, vessel.lat, vessel.lon)) count++;
    }
    this.#drawn = count;
    this.#stage.dataset.drawnVessels = String(count);
  }

  #click(event: MapMouseEvent): void {
    const tolerance = (event.originalEvent as PointerEvent).pointerType === 'touch' ? 18 : 8;
    const { x, y } = event.point;
    const hits = this.map.queryRenderedFeatures([[x - tolerance, y - tolerance], [x + tolerance, y + tolerance]], { layers: ['vessels', 'vessel-clusters'] });
    let nearest: MapGeoJSONFeature | undefined;
    let nearestDistance = Infinity;
    for (const hit of hits) {
      const point = this.map.project((hit.geometry as GeoJSON.Point).coordinates as [number, number]);
      const distance = Math.hypot(point.x - x, point.y - y);
      if (distance < nearestDistance) [nearest, nearestDistance] = [hit, distance];
    }
    if (!nearest) {
      this.#options.onSelect(null);
      return;
    }
    if (nearest.layer.id === 'vessel-clusters') {
      const source = this.map.getSource('vessels') as GeoJSONSource;
      const centre = (nearest.geometry as GeoJSON.Point).coordinates as [number, number];
      void source.getClusterExpansionZoom(nearest.properties.cluster_id as number).then((zoom) => this.map.easeTo({ center: centre, zoom }));
      return;
    }
    this.#options.onSelect(nearest.properties.mmsi as number);
  }
}
