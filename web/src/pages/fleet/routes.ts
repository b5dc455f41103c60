// The fleet: the list, adding a vehicle and one vehicle's profile.
import type { PageRoute } from '../../app/router.tsx';
import Fleet from './Fleet.tsx';
import VehicleEditor from './VehicleEditor.tsx';

export const routes: PageRoute[] = [
  { path: '/fleet', title: 'Fleet', page: Fleet },
  { path: '/fleet/new', title: 'Add vehicle', page: VehicleEditor },
  { path: '/fleet/:id', title: 'Vehicle', page: VehicleEditor },
];
