// The alerts inbox, and one event at the address the e-mails link to.
import type { PageRoute } from '../../app/router.tsx';
import AlertsPage from './Alerts.tsx';
import EventPage from './EventPage.tsx';

export const routes: PageRoute[] = [
  { path: '/alerts', title: 'Alerts', page: AlertsPage },
  { path: '/events/:id', title: 'Alert', page: EventPage },
];
