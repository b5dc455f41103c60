// The zone pages, in a chunk of their own (they bring the map and the drawing tools).
import type { PageRoute } from '../../app/router.tsx';

export const routes: PageRoute[] = [
  { path: '/zones', title: 'Zones', load: () => import('./ZonesPage.tsx') },
  { path: '/zones/new', title: 'Draw a zone', load: () => import('./ZoneEditor.tsx') },
  { path: '/zones/:id', title: 'Zone', load: () => import('./ZoneEditor.tsx') },
];
