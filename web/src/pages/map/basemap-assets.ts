// The Natural Earth land files, bundled by Vite as assets of the dashboard (served by LAMIS itself,
// never fetched from elsewhere). Each scale is loaded once, the first time a zoom needs it.
import land10mUrl from 'world-atlas/land-10m.json?url';
import land110mUrl from 'world-atlas/land-110m.json?url';
import land50mUrl from 'world-atlas/land-50m.json?url';
import type { Topology } from 'topojson-specification';
import { landFromTopology, type Land } from './basemap.ts';

export type LandScale = '110m' | '50m' | '10m';

const URLS: Record<LandScale, string> = { '110m': land110mUrl, '50m': land50mUrl, '10m': land10mUrl };
const loading = new Map<LandScale, Promise<Land>>();

export function loadLand(scale: LandScale): Promise<Land> {
  let land = loading.get(scale);
  if (!land) {
    land = fetch(URLS[scale], { credentials: 'same-origin' })
      .then((response) => {
        if (!response.ok) throw new Error(`the basemap (${scale}) could not be loaded: HTTP ${response.status}`);
        return response.json() as Promise<Topology>;
      })
      .then(landFromTopology);
    // A failed load may be tried again at the next zoom.
    land.catch(() => loading.delete(scale));
    loading.set(scale, land);
  }
  return land;
}
