// One event as the inbox and the event page show it: the event's own sentence, what crossed which
// threshold, its reasons, links to what it is about, its times in UTC, and acknowledging it.
import { useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { formatUtc } from '../../app/format.ts';
import { Button, ErrorMessage, StatusBadge } from '../../app/ui/basics.tsx';
import { crossingOf, KIND_WORDS, reasonsOf, SEVERITY_TONES, subjectLinks, subjectWords, type LamisEvent } from './alerts-model.ts';
import { liveEvents } from './live-events.ts';

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z$/;

/** The figures of `data` that are plain values (the rest is in the API answer). */
function figures(event: LamisEvent): [string, string][] {
  return Object.entries(event.data)
    .filter((entry): entry is [string, string | number | boolean] => ['string', 'number', 'boolean'].includes(typeof entry[1]))
    .map(([name, value]) => [name.replaceAll('_', ' '), typeof value === 'string' && ISO_TIME.test(value) ? formatUtc(value) : String(value)]);
}

export function EventCard({ event, onChange, heading = 'h2' }: { event: LamisEvent; onChange(event: LamisEvent): void; heading?: 'h1' | 'h2' }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const crossing = crossingOf(event);
  const reasons = reasonsOf(event);
  const links = subjectLinks(event.subject);
  const shown = figures(event);
  const Heading = heading;

  async function acknowledge() {
    setBusy(true);
    setError(null);
    try {
      const acknowledged = await data('POST /v3/events/{id}/acknowledge', { path: { id: event.id } });
      liveEvents.noteEvent(acknowledged);
      onChange(acknowledged);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <article class={`event-card card severity-${event.severity}${event.state === 'cleared' ? ' is-cleared' : ''}`} aria-labelledby={`${event.id}-title`} data-event={event.id}>
      <div class="event-head">
        <StatusBadge tone={SEVERITY_TONES[event.severity]}>{event.severity}</StatusBadge>
        <StatusBadge tone={event.state === 'open' ? 'neutral' : 'ok'}>{event.state}</StatusBadge>
        {event.acknowledged_at && <StatusBadge tone="neutral">acknowledged</StatusBadge>}
        <span class="muted small">{KIND_WORDS[event.kind]}</span>
      </div>
      <Heading id={`${event.id}-title`} class="event-summary" tabIndex={heading === 'h1' ? -1 : undefined} data-page-heading={heading === 'h1' ? '' : undefined}>
        {heading === 'h2' ? <a href={`/events/${event.id}`}>{event.summary}</a> : event.summary}
      </Heading>
      {crossing && <p class="event-crossing"><strong>{crossing}.</strong></p>}
      {reasons.length > 0 && (
        <>
          <p class="small muted event-reasons-title">Why:</p>
          <ul class="event-reasons">{reasons.map((reason) => <li key={reason}>{reason}</li>)}</ul>
        </>
      )}
      <dl class="event-facts small">
        <div><dt>About</dt><dd class="mono">{subjectWords(event.subject)}</dd></div>
        <div><dt>Opened</dt><dd>{formatUtc(event.opened_at)}</dd></div>
        {event.cleared_at && <div><dt>Cleared</dt><dd>{formatUtc(event.cleared_at)}</dd></div>}
        {event.acknowledged_at && <div><dt>Acknowledged</dt><dd>{formatUtc(event.acknowledged_at)}</dd></div>}
      </dl>
      {heading === 'h1' && shown.length > 0 && (
        <details class="event-figures">
          <summary>All the figures</summary>
          <dl class="small">{shown.map(([name, value]) => <div key={name}><dt>{name}</dt><dd class="mono">{value}</dd></div>)}</dl>
        </details>
      )}
      <div class="event-actions">
        {links.map((link) => <a key={link.href} href={link.href}>{link.label}</a>)}
        {!event.acknowledged_at && (
          <Button size="small" variant="primary" busy={busy} onClick={acknowledge}>
            Acknowledge<span class="visually-hidden">: {event.summary}</span>
          </Button>
        )}
      </div>
      <ErrorMessage error={error} />
    </article>
  );
}
