// Home, at `/`: what comes first follows what the account operates.
import type { PageRoute } from '../../app/router.tsx';
import Home from './Home.tsx';

export const routes: PageRoute[] = [
  { path: '/', title: 'Home', page: Home },
];
