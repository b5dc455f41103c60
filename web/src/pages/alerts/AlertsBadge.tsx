// The header's link to the alerts inbox with the count of open events nobody has acknowledged,
// kept current by the event stream. Hidden while the count is unknown (no key for this member).
import { BellIcon } from '../../app/ui/icons.tsx';
import { useLiveEvents } from './live-events.ts';

export function AlertsBadge({ current }: { current: boolean }) {
  const { attention, phase } = useLiveEvents();
  const words = attention === null ? 'Alerts' : `Alerts: ${attention} open, not acknowledged`;
  return (
    <a class={`alerts-link${attention ? ' has-alerts' : ''}`} href="/alerts" aria-current={current ? 'page' : undefined}
      aria-label={words} title={phase === 'live' ? words : `${words} (not live)`} data-testid="alerts-badge" data-count={attention ?? ''}>
      <BellIcon size={20} />
      {attention !== null && attention > 0 && <span class="alerts-count" aria-hidden="true">{attention > 999 ? '999+' : attention}</span>}
    </a>
  );
}
