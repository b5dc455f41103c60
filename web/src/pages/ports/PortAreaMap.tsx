// The water LAMIS counts as the port, on the base map: the area's polygon, the anchorages and
// berth clusters learned from where ships stop (each a circle of its radius round its centroid,
// named by its stops), and the port's position. A legend says which is which; a link opens the
// zone editor here, to draw a zone of one's own.
import type { OperationResponse } from '@lamis/sdk';
import type { Feature, FeatureCollection, Polygon } from 'geojson';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatNumber } from '../../app/format.ts';
import { BASE_LABELS, BASE_MAP_FONT, createBaseMap } from '../../map/base-map.ts';
import { markSettled } from '../../map/settled.ts';
import { circleRing } from '../zones/zone-geometry.ts';

type Port = OperationResponse<'GET /v3/maritime/ports/{id}'>;
type Cluster = Port['area']['anchorages'][number];

const COLOURS = { area: '#2f6fdb', anchorage: '#d9480f', berth: '#2e9d4f', port: '#1d2935' };
/** A cluster of one report has no radius: drawn at least this wide so it shows. */
const MIN_CLUSTER_NM = 0.1;

function clusterFeatures(clusters: Cluster[], kind: 'anchorage' | 'berth'): Feature<Polygon>[] {
  return clusters.map((cluster) => ({
    type: 'Feature',
    properties: { kind, label: `${kind === 'anchorage' ? 'Anchorage' : 'Berths'} · ${cluster.stops} stop${cluster.stops === 1 ? '' : 's'}` },
    geometry: { type: 'Polygon', coordinates: [circleRing(cluster.centroid, Math.max(MIN_CLUSTER_NM, cluster.radius_nm), 48)] },
  }));
}

function centres(area: Port['area']): FeatureCollection {
  const point = (cluster: Cluster, kind: 'anchorage' | 'berth'): Feature => ({
    type: 'Feature', properties: { kind }, geometry: { type: 'Point', coordinates: [cluster.centroid.lon, cluster.centroid.lat] },
  });
  return { type: 'FeatureCollection', features: [...area.anchorages.map((c) => point(c, 'anchorage')), ...area.berth_clusters.map((c) => point(c, 'berth'))] };
}

export function PortAreaMap({ port }: { port: Port }) {
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { area } = port;

  useEffect(() => {
    let map: MapLibreMap;
    try {
      map = createBaseMap(container.current!, { center: [port.lon, port.lat], zoom: 9 });
    } catch {
      setFailure('This browser cannot draw the map (it needs WebGL).');
      return;
    }
    markSettled(map, container.current!);
    const ring = area.polygon.coordinates[0]!;
    map.on('load', () => {
      const clusters: FeatureCollection = { type: 'FeatureCollection', features: [...clusterFeatures(area.anchorages, 'anchorage'), ...clusterFeatures(area.berth_clusters, 'berth')] };
      map.addSource('port-area', { type: 'geojson', data: { type: 'Feature', properties: {}, geometry: area.polygon as Polygon } });
      map.addSource('port-clusters', { type: 'geojson', data: clusters });
      map.addSource('port-cluster-centres', { type: 'geojson', data: centres(area) });
      map.addSource('port-position', { type: 'geojson', data: { type: 'Feature', properties: { name: port.name }, geometry: { type: 'Point', coordinates: [port.lon, port.lat] } } });
      map.addLayer({ id: 'port-area-fill', type: 'fill', source: 'port-area', paint: { 'fill-color': COLOURS.area, 'fill-opacity': 0.1 } }, BASE_LABELS);
      map.addLayer({ id: 'port-area-line', type: 'line', source: 'port-area', paint: { 'line-color': COLOURS.area, 'line-width': 2, 'line-dasharray': [4, 2] } }, BASE_LABELS);
      map.addLayer({
        id: 'port-clusters-fill', type: 'fill', source: 'port-clusters',
        paint: { 'fill-color': ['match', ['get', 'kind'], 'anchorage', COLOURS.anchorage, COLOURS.berth], 'fill-opacity': 0.35 },
      }, BASE_LABELS);
      map.addLayer({
        id: 'port-clusters-line', type: 'line', source: 'port-clusters',
        paint: { 'line-color': ['match', ['get', 'kind'], 'anchorage', COLOURS.anchorage, COLOURS.berth], 'line-width': 1.5 },
      }, BASE_LABELS);
      // Seen from afar a cluster is a few metres across: its centre is marked at a size that shows.
      map.addLayer({
        id: 'port-cluster-centres', type: 'circle', source: 'port-cluster-centres',
        paint: {
          'circle-radius': 5, 'circle-color': ['match', ['get', 'kind'], 'anchorage', COLOURS.anchorage, COLOURS.berth],
          'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1.5,
        },
      });
      map.addLayer({
        id: 'port-clusters-name', type: 'symbol', source: 'port-clusters', minzoom: 10,
        layout: { 'text-field': ['get', 'label'], 'text-font': BASE_MAP_FONT, 'text-size': 12, 'text-offset': [0, 1.4] },
        paint: { 'text-color': COLOURS.port, 'text-halo-color': 'rgba(255, 255, 255, 0.9)', 'text-halo-width': 1.5 },
      });
      map.addLayer({ id: 'port-position', type: 'circle', source: 'port-position', paint: { 'circle-radius': 5, 'circle-color': COLOURS.port, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 } }, 'port-cluster-centres');
      const lons = ring.map(([lon]) => lon!);
      const lats = ring.map(([, lat]) => lat!);
      map.fitBounds([[Math.min(...lons), Math.min(...lats)], [Math.max(...lons), Math.max(...lats)]], { padding: 30, duration: 0 });
      setReady(true);
    });
    return () => map.remove();
  }, [port.id]);

  return (
    <div class="port-area">
      <div ref={container} class="port-area-map" role="img"
        aria-label={`Map of ${port.name}'s area with ${area.anchorages.length} anchorages and ${area.berth_clusters.length} berth clusters`}
        data-map-ready={ready || undefined} data-anchorages={area.anchorages.length} data-berth-clusters={area.berth_clusters.length} />
      {failure && <p class="small muted">{failure}</p>}
      <ul class="port-area-legend">
        <li><span class="port-swatch port-swatch-area" />Port area{area.exit_margin_nm ? ` (a vessel has left ${formatNumber(area.exit_margin_nm)} nm beyond it)` : ''}</li>
        <li><span class="port-swatch port-swatch-anchorage" />Anchorages seen: {area.anchorages.length}</li>
        <li><span class="port-swatch port-swatch-berth" />Berth clusters seen: {area.berth_clusters.length}</li>
        <li><span class="port-swatch port-swatch-position" />Port position</li>
      </ul>
      <p class="small"><a href={`/zones/new?lat=${port.lat}&lon=${port.lon}&zoom=10`}>Draw a zone of your own here</a></p>
    </div>
  );
}
