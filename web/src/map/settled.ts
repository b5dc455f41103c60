// Marks a map's element `data-map-settled` while MapLibre has nothing left to load or draw, and
// clears it as data or a move starts: what the browser tests wait for before they look.
import type { Map as MapLibreMap } from 'maplibre-gl';

export function markSettled(map: MapLibreMap, element: HTMLElement): void {
  map.on('idle', () => { element.dataset.mapSettled = 'true'; });
  const unsettle = () => { delete element.dataset.mapSettled; };
  map.on('dataloading', unsettle);
  map.on('movestart', unsettle);
}
