// LAMIS's base map: MapLibre GL with a style made only of what the dashboard bundles and LAMIS
// serves itself. Natural Earth land, coasts, borders and country names (world-atlas, at 1:110m,
// 1:50m or 1:10m by zoom, each scale loaded the first time a zoom needs it, the coarser one drawn
// until it comes); labels in Noto Sans, a web font bundled with the dashboard, which MapLibre
// renders into glyphs in the browser (the style has no `glyphs` URL, so no glyph server is
// asked); a scale in nautical miles and in kilometres. Pages add their sources and layers once the
// map has loaded; areas go before BASE_LABELS, so that names stay legible.
import '@fontsource/noto-sans/400.css';
import '@fontsource/noto-sans/600.css';
import 'maplibre-gl/dist/maplibre-gl.css';
import { Map as MapLibreMap, ScaleControl, setWorkerUrl, type GeoJSONSource, type StyleSpecification } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import countries10mUrl from 'world-atlas/countries-10m.json?url';
import countries110mUrl from 'world-atlas/countries-110m.json?url';
import countries50mUrl from 'world-atlas/countries-50m.json?url';
import land10mUrl from 'world-atlas/land-10m.json?url';
import land110mUrl from 'world-atlas/land-110m.json?url';
import land50mUrl from 'world-atlas/land-50m.json?url';
import type { FeatureCollection } from 'geojson';
import type { Topology } from 'topojson-specification';
import { bordersFromTopology, countryLabels, landFromTopology } from './natural-earth.ts';

// The worker is a file of the dashboard like any other (no blob: URL, which the CSP would refuse).
setWorkerUrl(workerUrl);

/** The font stack for every label on LAMIS maps (a @font-face of the dashboard). */
export const BASE_MAP_FONT = ['Noto Sans'];
/** MapLibre takes the weight from the first name and falls through to the family that exists. */
export const BASE_MAP_FONT_BOLD = ['Noto Sans SemiBold', 'Noto Sans'];
/** The first label layer of the base map: pages add area layers before it so names stay on top. */
export const BASE_LABELS = 'base-country-labels';

export const BASE_MAP_COLOURS = {
  water: '#d6e4ee',
  land: '#f4f1ea',
  coast: '#98a9b5',
  border: '#b9a9bd',
  label: '#4a5560',
  halo: 'rgba(255, 255, 255, 0.85)',
};

type Scale = '110m' | '50m' | '10m';
/** Each scale serves from its zoom up to that of the next finer scale loaded (a coarser one stands in while a finer one loads). */
const SCALES: readonly { scale: Scale; minzoom: number; land: string; countries: string }[] = [
  { scale: '110m', minzoom: 0, land: land110mUrl, countries: countries110mUrl },
  { scale: '50m', minzoom: 3, land: land50mUrl, countries: countries50mUrl },
  { scale: '10m', minzoom: 6, land: land10mUrl, countries: countries10mUrl },
];
const MAX_ZOOM = 24;
const scaleLayers = (scale: Scale) => [`base-land-${scale}`, `base-coast-${scale}`, `base-borders-${scale}`];

const empty = (): FeatureCollection => ({ type: 'FeatureCollection', features: [] });
const ATTRIBUTION = '<a href="https://www.naturalearthdata.com/" target="_blank" rel="noopener">Natural Earth</a>';

export interface BaseMapOptions {
  /** [longitude, latitude]; the Atlantic by default. */
  center?: [number, number];
  zoom?: number;
  /** A Natural Earth file could not be loaded (the map stays usable, without that detail). */
  onError?(error: unknown): void;
}

function baseStyle(): StyleSpecification {
  const style: StyleSpecification = {
    version: 8,
    sources: { 'base-country-labels': { type: 'geojson', data: empty() } },
    layers: [{ id: 'base-water', type: 'background', paint: { 'background-color': BASE_MAP_COLOURS.water } }],
  };
  for (const { scale, minzoom } of SCALES) {
    style.sources[`base-land-${scale}`] = { type: 'geojson', data: empty(), attribution: ATTRIBUTION, tolerance: 0.5 };
    style.sources[`base-borders-${scale}`] = { type: 'geojson', data: empty(), tolerance: 0.5 };
    style.layers.push(
      { id: `base-land-${scale}`, type: 'fill', source: `base-land-${scale}`, minzoom, maxzoom: MAX_ZOOM, paint: { 'fill-color': BASE_MAP_COLOURS.land } },
      { id: `base-coast-${scale}`, type: 'line', source: `base-land-${scale}`, minzoom, maxzoom: MAX_ZOOM, paint: { 'line-color': BASE_MAP_COLOURS.coast, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.5, 8, 1.2] } },
      { id: `base-borders-${scale}`, type: 'line', source: `base-borders-${scale}`, minzoom, maxzoom: MAX_ZOOM, paint: { 'line-color': BASE_MAP_COLOURS.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.5, 8, 1.4], 'line-dasharray': [3, 2] } },
    );
  }
  style.layers.push({
    id: BASE_LABELS,
    type: 'symbol',
    source: 'base-country-labels',
    minzoom: 1,
    layout: {
      'text-field': ['get', 'name'],
      'text-font': BASE_MAP_FONT,
      'text-size': ['interpolate', ['linear'], ['zoom'], 1, 10, 6, 15],
      'text-max-width': 8,
      'text-transform': 'uppercase',
      'text-letter-spacing': 0.08,
      'symbol-sort-key': ['-', ['get', 'area']],
    },
    paint: { 'text-color': BASE_MAP_COLOURS.label, 'text-halo-color': BASE_MAP_COLOURS.halo, 'text-halo-width': 1.2, 'text-opacity': 0.8 },
  });
  return style;
}

async function loadTopology(url: string): Promise<Topology> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`a Natural Earth file could not be loaded: HTTP ${response.status}`);
  return response.json() as Promise<Topology>;
}

/**
 * A MapLibre map in `container` with LAMIS's local base map and scale. Pages wait for its `load`
 * event before adding sources; everything the map asks for comes from LAMIS's own origin.
 */
export function createBaseMap(container: HTMLElement, options: BaseMapOptions = {}): MapLibreMap {
  const map = new MapLibreMap({
    container,
    style: baseStyle(),
    center: options.center ?? [10, 25],
    zoom: options.zoom ?? 1,
    minZoom: 0,
    maxZoom: 16,
    // North stays up: vessel symbols turn with their heading, not with the map.
    dragRotate: false,
    pitchWithRotate: false,
    touchPitch: false,
    maxPitch: 0,
    attributionControl: { compact: true },
  });
  map.touchZoomRotate.disableRotation();
  map.keyboard.disableRotation();
  map.addControl(new ScaleControl({ unit: 'nautical', maxWidth: 120 }), 'bottom-left');
  map.addControl(new ScaleControl({ unit: 'metric', maxWidth: 120 }), 'bottom-left');

  const loaded = new Set<Scale>();
  const drawn = new Set<Scale>();
  let labelsFrom = -1;
  const fitZoomRanges = () => {
    SCALES.forEach(({ scale, minzoom }, index) => {
      const finer = SCALES.slice(index + 1).find((next) => drawn.has(next.scale));
      for (const id of scaleLayers(scale)) map.setLayerZoomRange(id, minzoom, finer?.minzoom ?? MAX_ZOOM);
    });
  };
  const ensureScale = () => {
    const zoom = map.getZoom();
    SCALES.forEach(({ scale, minzoom, land, countries }, index) => {
      if (loaded.has(scale) || zoom < minzoom - 0.5) return;
      loaded.add(scale);
      Promise.all([loadTopology(land), loadTopology(countries)]).then(([landTopology, countriesTopology]) => {
        (map.getSource(`base-land-${scale}`) as GeoJSONSource | undefined)?.setData(landFromTopology(landTopology));
        (map.getSource(`base-borders-${scale}`) as GeoJSONSource | undefined)?.setData(bordersFromTopology(countriesTopology));
        drawn.add(scale);
        fitZoomRanges();
        // Names from the most detailed scale loaded, which knows the most (small) countries.
        if (index > labelsFrom) {
          labelsFrom = index;
          (map.getSource('base-country-labels') as GeoJSONSource | undefined)?.setData(countryLabels(countriesTopology));
        }
      }).catch((error: unknown) => {
        // A later zoom may try again.
        loaded.delete(scale);
        options.onError?.(error);
      });
    });
  };
  map.once('load', ensureScale);
  map.on('zoomend', ensureScale);
  return map;
}
