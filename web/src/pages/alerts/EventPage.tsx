// One event at `/events/{id}`, the address the e-mails link to; it follows the stream while open.
import { data } from '../../api/data-key.ts';
import { useAsync } from '../../app/hooks.ts';
import { usePageTitle, type PageProps } from '../../app/router.tsx';
import { ButtonLink, ErrorMessage, Loading } from '../../app/ui/basics.tsx';
import { KIND_WORDS } from './alerts-model.ts';
import { EventCard } from './EventCard.tsx';
import { useAlerts } from './live-events.ts';
import './alerts.css';

export default function EventPage({ params }: PageProps) {
  const event = useAsync((signal) => data('GET /v3/events/{id}', { path: { id: params.id! } }, { signal }), [params.id]);
  usePageTitle(event.data ? KIND_WORDS[event.data.kind] : 'Alert');
  useAlerts((changed) => {
    if (changed.id === params.id) event.setData(changed);
  }, event.reload);
  return (
    <div class="alerts-page">
      <p><a href="/alerts">← All alerts</a></p>
      {event.error ? (
        <>
          <h1 tabIndex={-1} data-page-heading>Alert not found</h1>
          <ErrorMessage error={event.error} />
          <p><ButtonLink href="/alerts">Open the alerts</ButtonLink></p>
        </>
      ) : !event.data ? <Loading label="Loading the alert…" /> : <EventCard event={event.data} onChange={event.setData} heading="h1" />}
    </div>
  );
}
