// The alerts inbox (`/alerts`): the organisation's events from GET /v3/events, newest first, by
// state, kind, severity and subject (kept in the address), "Show more" by cursor. Alerts from the
// event stream change the list in place, so a new one appears without a reload.
import { useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { useAsync } from '../../app/hooks.ts';
import { navigate, type PageProps } from '../../app/router.tsx';
import { Alert, Button, EmptyState, ErrorMessage, Loading, PageHeader, StatusBadge } from '../../app/ui/basics.tsx';
import { SelectField, TextField } from '../../app/ui/forms.tsx';
import {
  EVENT_KINDS, filtersFrom, inboxPath, KIND_WORDS, listQuery, matches, mergeEvent, SEVERITIES, type InboxFilters, type LamisEvent,
} from './alerts-model.ts';
import { EventCard } from './EventCard.tsx';
import { useAlerts, useLiveEvents } from './live-events.ts';
import './alerts.css';

const PAGE = 25;

interface Listing {
  events: LamisEvent[];
  next: string | null;
}

function Filters({ filters }: { filters: InboxFilters }) {
  const [subjectId, setSubjectId] = useState(filters.subject_id);
  const apply = (change: Partial<InboxFilters>) => navigate(inboxPath({ ...filters, ...change }), { replace: true });
  return (
    <form class="alerts-filters" aria-label="Filter the alerts" onSubmit={(event) => {
      event.preventDefault();
      apply({ subject_id: subjectId.trim() });
    }}>
      <SelectField label="State" value={filters.state || 'all'} onValue={(state) => apply({ state: state === 'all' ? '' : state as InboxFilters['state'] })}
        options={[{ value: 'open', label: 'Open' }, { value: 'cleared', label: 'Cleared' }, { value: 'all', label: 'Open and cleared' }]} />
      <SelectField label="Severity" value={filters.severity} placeholder="Any severity" onValue={(severity) => apply({ severity: severity as InboxFilters['severity'] })}
        options={SEVERITIES.map((severity) => ({ value: severity, label: severity }))} />
      <SelectField label="Kind" value={filters.kind} placeholder="Any kind" onValue={(kind) => apply({ kind: kind as InboxFilters['kind'] })}
        options={EVENT_KINDS.map((kind) => ({ value: kind, label: KIND_WORDS[kind] }))} />
      <SelectField label="About" value={filters.subject_type} placeholder="Anything" onValue={(subject_type) => apply({ subject_type })}
        options={['arrival', 'vessel', 'airport', 'port', 'zone', 'feed'].map((type) => ({ value: type, label: type }))} />
      <div class="alerts-subject">
        <TextField label="Subject id" optional hint="An arrival (arr_…), an MMSI, an ICAO code, a port." value={subjectId} onValue={setSubjectId} autoComplete="off" />
        <Button type="submit">Filter</Button>
      </div>
    </form>
  );
}

export default function AlertsPage({ query }: PageProps) {
  const filters = filtersFrom(query);
  const key = inboxPath(filters);
  const live = useLiveEvents();
  const [more, setMore] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const listing = useAsync<Listing>(async (signal) => {
    const page = await data('GET /v3/events', { query: { ...listQuery(filters), limit: PAGE } }, { signal });
    return { events: page.data, next: page.next_cursor };
  }, [key]);

  const [announcement, setAnnouncement] = useState('');
  useAlerts((event) => {
    if (!listing.data) return;
    const known = listing.data.events.some((item) => item.id === event.id);
    listing.setData({ ...listing.data, events: mergeEvent(listing.data.events, event, filters) });
    if (!known && event.state === 'open' && matches(event, filters)) setAnnouncement(`New ${event.severity} alert: ${event.summary}`);
  }, listing.reload);
  const replace = (event: LamisEvent) => {
    if (listing.data) listing.setData({ ...listing.data, events: mergeEvent(listing.data.events, event, filters) });
  };

  async function showMore() {
    if (!listing.data?.next) return;
    setMore({ busy: true, error: null });
    try {
      const page = await data('GET /v3/events', { query: { ...listQuery(filters), limit: PAGE, cursor: listing.data.next } });
      const seen = new Set(listing.data.events.map((event) => event.id));
      listing.setData({ events: [...listing.data.events, ...page.data.filter((event) => !seen.has(event.id))], next: page.next_cursor });
      setMore({ busy: false, error: null });
    } catch (error) {
      setMore({ busy: false, error });
    }
  }

  const events = listing.data?.events ?? [];
  return (
    <div class="alerts-page">
      <PageHeader title="Alerts" actions={
        <span class="alerts-live" role="status">
          {live.phase === 'live' ? <StatusBadge tone="ok">live</StatusBadge> : <StatusBadge tone="neutral">{live.phase}</StatusBadge>}
          {live.attention !== null && <span> {live.attention} open, not acknowledged</span>}
        </span>
      }>
        What LAMIS noticed about your fleet, airports and ports: each alert says what crossed which threshold and why. They clear by
        themselves when the condition is gone; acknowledge one to say it has been seen. Times are UTC.
      </PageHeader>
      {live.message && live.phase !== 'live' && <Alert tone="info">{live.message}</Alert>}
      <p class="visually-hidden" role="status" aria-live="polite">{announcement}</p>
      <Filters key={key} filters={filters} />
      {listing.error ? <ErrorMessage error={listing.error} title="The alerts could not be loaded" /> : null}
      {listing.loading && !listing.data ? <Loading label="Loading the alerts…" /> : events.length === 0 && !listing.error ? (
        <EmptyState title={filters.state === 'open' && !filters.kind && !filters.severity && !filters.subject_type && !filters.subject_id ? 'Nothing needs attention' : 'No alerts match'}
          action={<a href="/settings/notifications">Alert thresholds and e-mail</a>}>
          Alerts come from the thresholds of your fleet and the airports and ports you watch; new ones appear here as they happen.
        </EmptyState>
      ) : (
        <ol class="event-list" aria-label="Alerts">
          {events.map((event) => <li key={event.id}><EventCard event={event} onChange={replace} /></li>)}
        </ol>
      )}
      <ErrorMessage error={more.error} />
      {listing.data?.next && <p><Button busy={more.busy} onClick={showMore}>Show more</Button></p>}
    </div>
  );
}
