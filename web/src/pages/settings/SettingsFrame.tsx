// The settings pages share a heading and a row of tabs.
import type { ComponentChildren } from 'preact';
import { useMembership } from '../../api/session.ts';
import { useLocation } from '../../app/router.tsx';
import { PageHeader } from '../../app/ui/basics.tsx';

/** The tabs; `shownTo` leaves out one whose page the role would only be refused. */
const TABS: { href: string; label: string; shownTo?: (role: string) => boolean }[] = [
  { href: '/settings/keys', label: 'API keys' },
  { href: '/settings/team', label: 'Team' },
  { href: '/settings/notifications', label: 'Notifications' },
  { href: '/settings/webhooks', label: 'Webhooks' },
  { href: '/settings/plan', label: 'Plan and usage' },
  { href: '/settings/audit', label: 'Audit log', shownTo: (role) => CAN.viewAuditLog(role) },
  { href: '/settings/sessions', label: 'Sessions and password' },
];

export function SettingsFrame({ children }: { children: ComponentChildren }) {
  const { pathname } = useLocation();
  const membership = useMembership();
  return (
    <>
      <PageHeader title="Settings">
        {membership && <>For <strong>{membership.name}</strong>, where you are {membership.role === 'admin' || membership.role === 'owner' ? 'an' : 'a'} {membership.role}.</>}
      </PageHeader>
      <nav class="tabs" aria-label="Settings">
        {TABS.filter((tab) => !tab.shownTo || (membership && tab.shownTo(membership.role))).map((tab) => <a key={tab.href} href={tab.href} aria-current={pathname === tab.href || pathname.startsWith(`${tab.href}/`) ? 'page' : undefined}>{tab.label}</a>)}
      </nav>
      {children}
    </>
  );
}

/** What a role may do (the server's role matrix decides; this only spares a refused request). */
export const CAN = {
  manageKeys: (role: string) => role === 'owner' || role === 'admin',
  viewKeys: (role: string) => role !== 'viewer',
  invite: (role: string) => role === 'owner' || role === 'admin',
  changePlan: (role: string) => role === 'owner',
  viewAuditLog: (role: string) => role === 'owner' || role === 'admin',
  manageFleet: (role: string) => role !== 'viewer',
};
