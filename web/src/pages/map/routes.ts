// The live vessel map, in a chunk of its own (it brings the canvas layers and the stream client).
import type { PageRoute } from '../../app/router.tsx';

export const routes: PageRoute[] = [
  { path: '/map', title: 'Live map', load: () => import('./MapPage.tsx') },
];
