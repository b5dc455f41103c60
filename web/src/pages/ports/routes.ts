// The ports pages: search, and one port with its berths, arrivals, calls, tides and weather holds.
import type { PageRoute } from '../../app/router.tsx';

export const routes: PageRoute[] = [
  { path: '/ports', title: 'Ports', load: () => import('./PortsSearch.tsx') },
  { path: '/ports/:id', title: 'Port', load: () => import('./PortPage.tsx') },
];
