// The settings pages: API keys, team, webhooks, notification thresholds, plan and usage, audit log, sessions.
import { useEffect } from 'preact/hooks';
import { navigate, type PageRoute } from '../../app/router.tsx';
import AuditPage from './Audit.tsx';
import KeysPage from './Keys.tsx';
import NotificationsPage from './Notifications.tsx';
import PlanUsagePage from './PlanUsage.tsx';
import SessionsPage from './Sessions.tsx';
import TeamPage from './Team.tsx';
import WebhookPage from './WebhookPage.tsx';
import WebhooksPage from './Webhooks.tsx';

function SettingsIndex() {
  useEffect(() => navigate('/settings/keys', { replace: true }), []);
  return null;
}

export const routes: PageRoute[] = [
  { path: '/settings', title: 'Settings', page: SettingsIndex },
  { path: '/settings/keys', title: 'API keys', page: KeysPage },
  { path: '/settings/team', title: 'Team', page: TeamPage },
  { path: '/settings/webhooks', title: 'Webhooks', page: WebhooksPage },
  { path: '/settings/webhooks/:id', title: 'Webhook', page: WebhookPage },
  { path: '/settings/notifications', title: 'Notifications', page: NotificationsPage },
  { path: '/settings/plan', title: 'Plan and usage', page: PlanUsagePage },
  { path: '/settings/audit', title: 'Audit log', page: AuditPage },
  { path: '/settings/sessions', title: 'Sessions and password', page: SessionsPage },
];
