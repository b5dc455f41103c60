// Port and airport names on a base map, from LAMIS's own indexes (`/v3/maritime/ports/labels` and
// `/v3/aviation/airports/labels`, one cached request each). Larger places show from lower zooms:
// big harbours and airports on a continent, small harbours only along a coast.
import type { GeoJSONSource, Map as MapLibreMap, SymbolLayerSpecification } from 'maplibre-gl';
import { data } from '../api/data-key.ts';
import { BASE_MAP_COLOURS, BASE_MAP_FONT } from './base-map.ts';
import { addDrawnIcon } from './icons.ts';

const PLACE_COLOURS = { port: '#1b5e8c', airport: '#6a4c93' };

/** Which sizes show from which zoom. */
const PORT_LAYERS: readonly { id: string; sizes: (string | null)[]; minzoom: number }[] = [
  { id: 'places-ports-large', sizes: ['large'], minzoom: 3 },
  { id: 'places-ports-medium', sizes: ['medium'], minzoom: 5 },
  { id: 'places-ports-small', sizes: ['small', 'very_small', null], minzoom: 7 },
];
const AIRPORT_LAYERS: readonly { id: string; sizes: string[]; minzoom: number }[] = [
  { id: 'places-airports-large', sizes: ['large'], minzoom: 4 },
  { id: 'places-airports-medium', sizes: ['medium'], minzoom: 7 },
];

/** A small round marker, 10 px: a ring for ports, a filled dot for airports. */
function marker(colour: string, filled: boolean) {
  return (ctx: CanvasRenderingContext2D) => {
    ctx.beginPath();
    ctx.arc(5, 5, 3, 0, Math.PI * 2);
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
    ctx.fillStyle = filled ? colour : '#ffffff';
    ctx.fill();
    ctx.lineWidth = 1.4;
    ctx.strokeStyle = colour;
    ctx.stroke();
  };
}

function layer(id: string, source: string, icon: string, colour: string, sizes: (string | null)[], minzoom: number): SymbolLayerSpecification {
  const known = sizes.filter((size): size is string => size !== null);
  const bySize: SymbolLayerSpecification['filter'] = ['in', ['get', 'size'], ['literal', known]];
  return {
    id,
    type: 'symbol',
    source,
    minzoom,
    filter: sizes.includes(null) ? ['any', bySize, ['==', ['typeof', ['get', 'size']], 'null']] : bySize,
    layout: {
      'icon-image': icon,
      'icon-allow-overlap': false,
      'text-field': ['get', 'name'],
      'text-font': BASE_MAP_FONT,
      'text-size': 12,
      'text-offset': [0.8, 0],
      'text-anchor': 'left',
      'text-max-width': 10,
      'text-optional': true,
    },
    paint: { 'text-color': colour, 'text-halo-color': BASE_MAP_COLOURS.halo, 'text-halo-width': 1.4 },
  };
}

/** Adds port and airport names on top of a map that has loaded its base style (pages add their data layers after). */
export async function addPlaceLabels(map: MapLibreMap, onError: (error: unknown) => void): Promise<void> {
  addDrawnIcon(map, 'place-port', 10, marker(PLACE_COLOURS.port, false));
  addDrawnIcon(map, 'place-airport', 10, marker(PLACE_COLOURS.airport, true));
  map.addSource('places-ports', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  map.addSource('places-airports', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  for (const { id, sizes, minzoom } of AIRPORT_LAYERS) map.addLayer(layer(id, 'places-airports', 'place-airport', PLACE_COLOURS.airport, sizes, minzoom));
  for (const { id, sizes, minzoom } of PORT_LAYERS) map.addLayer(layer(id, 'places-ports', 'place-port', PLACE_COLOURS.port, sizes, minzoom));
  await Promise.all([
    data('GET /v3/maritime/ports/labels').then((ports) => (map.getSource('places-ports') as GeoJSONSource | undefined)?.setData(ports as GeoJSON.FeatureCollection)),
    data('GET /v3/aviation/airports/labels').then((airports) => (map.getSource('places-airports') as GeoJSONSource | undefined)?.setData(airports as GeoJSON.FeatureCollection)),
  ]).catch(onError);
}
