// The landing briefing, in a chunk of its own (it brings the runway drawings and the METAR words).
import type { PageRoute } from '../../app/router.tsx';

export const routes: PageRoute[] = [
  { path: '/landing', title: 'Landing briefing', load: () => import('./Landing.tsx') },
];
