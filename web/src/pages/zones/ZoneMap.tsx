// Zones on LAMIS's base map: every zone given, filled and named, the one in hand drawn stronger,
// and, with a tool chosen, a polygon or a circle drawn with the pointer. The drawing is Terra Draw's
// (its MapLibre adapter); once a shape is finished it is handed up as the API's geometry and drawn
// by this map's own layers like any zone, so a circle typed into the form looks the same.
import type { FeatureCollection } from 'geojson';
import type { GeoJSONSource, Map as MapLibreMap, MapLayerMouseEvent } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'preact/hooks';
import { TerraDraw, TerraDrawCircleMode, TerraDrawPolygonMode, type GeoJSONStoreFeatures } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { BASE_LABELS, BASE_MAP_FONT_BOLD, createBaseMap } from '../../map/base-map.ts';
import { markSettled } from '../../map/settled.ts';
import { circleFromDrawn, polygonFromDrawn, zoneBounds, zoneFeature, type Zone, type ZoneGeometry } from './zone-geometry.ts';

export type DrawTool = 'polygon' | 'circle';

const COLOUR = '#2f6fdb';
const EDITED = '#d9480f';

export interface ZoneMapProps {
  zones: Pick<Zone, 'id' | 'name' | 'geometry'>[];
  /** The zone being made or changed: drawn stronger, and the map fits it when it first shows. */
  edited?: ZoneGeometry | null;
  tool?: DrawTool | null;
  onDrawn?: (geometry: ZoneGeometry) => void;
  /** A click on a zone. */
  onSelect?: (id: string) => void;
  /** Where the map opens when there is nothing to fit: [longitude, latitude] and zoom. */
  center?: [number, number];
  zoom?: number;
  label: string;
}

const collection = (features: FeatureCollection['features']): FeatureCollection => ({ type: 'FeatureCollection', features });

function fitTo(map: MapLibreMap, geometries: ZoneGeometry[]) {
  if (!geometries.length) return;
  const boxes = geometries.map(zoneBounds);
  const west = Math.min(...boxes.map(([[w]]) => w));
  const south = Math.min(...boxes.map(([[, s]]) => s));
  const east = Math.max(...boxes.map(([, [e]]) => e));
  const north = Math.max(...boxes.map(([, [, n]]) => n));
  map.fitBounds([[west, south], [east, north]], { padding: 40, maxZoom: 11, duration: 0 });
}

export function ZoneMap({ zones, edited = null, tool = null, onDrawn, onSelect, center, zoom, label }: ZoneMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const drawRef = useRef<TerraDraw | null>(null);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const latest = useRef({ onDrawn, onSelect });
  latest.current = { onDrawn, onSelect };

  useEffect(() => {
    let map: MapLibreMap;
    try {
      map = createBaseMap(container.current!, { center, zoom, onError: () => setFailure('Part of the coastline could not be loaded; the zones are still drawn.') });
    } catch {
      setFailure('This browser cannot draw the map (it needs WebGL). Zones can still be typed as circles below.');
      return;
    }
    mapRef.current = map;
    markSettled(map, container.current!);
    map.on('load', () => {
      map.addSource('zones', { type: 'geojson', data: collection([]) });
      map.addSource('zone-edited', { type: 'geojson', data: collection([]) });
      map.addLayer({ id: 'zones-fill', type: 'fill', source: 'zones', paint: { 'fill-color': COLOUR, 'fill-opacity': 0.15 } }, BASE_LABELS);
      map.addLayer({ id: 'zones-line', type: 'line', source: 'zones', paint: { 'line-color': COLOUR, 'line-width': 1.5 } }, BASE_LABELS);
      map.addLayer({ id: 'zone-edited-fill', type: 'fill', source: 'zone-edited', paint: { 'fill-color': EDITED, 'fill-opacity': 0.2 } }, BASE_LABELS);
      map.addLayer({ id: 'zone-edited-line', type: 'line', source: 'zone-edited', paint: { 'line-color': EDITED, 'line-width': 2.5 } }, BASE_LABELS);
      map.addLayer({
        id: 'zones-name', type: 'symbol', source: 'zones',
        layout: { 'text-field': ['get', 'name'], 'text-font': BASE_MAP_FONT_BOLD, 'text-size': 13, 'text-max-width': 10 },
        paint: { 'text-color': '#1d3f7a', 'text-halo-color': 'rgba(255, 255, 255, 0.9)', 'text-halo-width': 1.5 },
      });
      map.on('click', 'zones-fill', (event: MapLayerMouseEvent) => {
        const id = event.features?.[0]?.properties?.id;
        if (typeof id === 'string' && !drawRef.current?.getMode().match(/polygon|circle/)) latest.current.onSelect?.(id);
      });
      map.on('mouseenter', 'zones-fill', () => { if (latest.current.onSelect) map.getCanvas().style.cursor = 'pointer'; });
      map.on('mouseleave', 'zones-fill', () => { map.getCanvas().style.cursor = ''; });

      const draw = new TerraDraw({
        adapter: new TerraDrawMapLibreGLAdapter({ map, coordinatePrecision: 9 }),
        modes: [
          new TerraDrawPolygonMode({ styles: { fillColor: EDITED, outlineColor: EDITED, closingPointColor: EDITED, fillOpacity: 0.2 } }),
          new TerraDrawCircleMode({ styles: { fillColor: EDITED, outlineColor: EDITED, fillOpacity: 0.2 } }),
        ],
      });
      draw.start();
      draw.on('finish', (id, context) => {
        if (context.action !== 'draw') return;
        const feature = draw.getSnapshotFeature(id) as GeoJSONStoreFeatures | undefined;
        draw.clear();
        if (!feature || feature.geometry.type !== 'Polygon') return;
        const ring = feature.geometry.coordinates[0]!;
        const radiusKm = feature.properties.radiusKilometers;
        latest.current.onDrawn?.(feature.properties.mode === 'circle' && typeof radiusKm === 'number' ? circleFromDrawn(ring, radiusKm) : polygonFromDrawn(ring));
      });
      drawRef.current = draw;
      setReady(true);
    });
    return () => {
      drawRef.current?.stop();
      drawRef.current = null;
      map.remove();
      mapRef.current = null;
    };
  }, []);

  // The zones, and the one in hand. The map fits them the first time there is something to show,
  // and again when the one in hand no longer fits the view (a circle typed); until the user moves
  // the map, it keeps them fitted as it resizes (a phone turned).
  const fitted = useRef<ZoneGeometry[] | null>(null);
  const userMoved = useRef(false);
  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map) return;
    (map.getSource('zones') as GeoJSONSource).setData(collection(zones.map(zoneFeature)));
    (map.getSource('zone-edited') as GeoJSONSource).setData(collection(edited ? [zoneFeature({ id: 'edited', name: '', geometry: edited })] : []));
    const shown = edited ? [edited] : zones.map((zone) => zone.geometry);
    if (!shown.length) return;
    const [[west, south], [east, north]] = zoneBounds(shown[0]!);
    const view = map.getBounds();
    const outOfView = edited && !(view.contains([west, south]) && view.contains([east, north]));
    if (!fitted.current || outOfView) {
      fitted.current = shown;
      userMoved.current = false;
      fitTo(map, shown);
    }
  }, [ready, zones, edited]);
  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map) return;
    const moved = (event: { originalEvent?: unknown }) => {
      if (event.originalEvent) userMoved.current = true;
    };
    const resized = () => {
      if (fitted.current && !userMoved.current) fitTo(map, fitted.current);
    };
    map.on('movestart', moved);
    map.on('resize', resized);
    return () => {
      map.off('movestart', moved);
      map.off('resize', resized);
    };
  }, [ready]);

  useEffect(() => {
    const draw = drawRef.current;
    if (!ready || !draw) return;
    draw.clear();
    draw.setMode(tool ?? 'static');
  }, [ready, tool]);

  return (
    <div class="zone-map-wrap">
      <div ref={container} class="zone-map" role="region" aria-label={label} data-map-ready={ready || undefined} data-tool={tool ?? undefined} />
      {failure && <p class="small muted">{failure}</p>}
    </div>
  );
}
