// REST for events: the organisation's events as pages newest first, one event, and its
// acknowledgement. Everything belongs to the caller's organisation, or to the API key itself for
// keys outside any: another owner's event answers 404, exactly as one that does not exist.
import type { App } from '../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page } from '../platform/http/pagination.ts';
import { ProblemError } from '../platform/http/problems.ts';
import { instant } from '../platform/http/schema.ts';
import { eventNotFound } from './events.problems.ts';
import { EventListQuery, EventParams, EventSchema } from './events.schemas.ts';
import { ownerOf, type EventCursor, type EventStore, type LamisEvent } from './events.ts';

const TAG = 'Events';

const notFound = (id: string) => new ProblemError(eventNotFound, `No event ${id} for your organisation.`);

const isCursor = (key: unknown): key is EventCursor =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

export function registerEventRoutes(app: App, store: EventStore): void {
  app.get('/v3/events', {
    schema: {
      summary: 'The events of your organisation',
      description: 'Newest opening first (ties by id), cursor-paginated. `kind`, `state`, `severity`, `subject_type`, `subject_id` and `since` (opened at or after) narrow the list. A cleared event is kept for the event retention (90 days by default) after it cleared; an open one, however old.',
      tags: [TAG],
      querystring: EventListQuery,
      response: { 200: Page(EventSchema) },
    },
  }, async (request) => {
    const { limit, cursor, since, ...filters } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isCursor);
    const from = since === undefined ? undefined : new Date(instant(since, '/querystring/since')).toISOString();
    const data = await store.page(ownerOf(request.principal!), { ...filters, since: from, limit: limit! + 1, after });
    const more = data.length > limit!;
    const page = data.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page, next_cursor: more && last ? encodeCursor([last.opened_at, last.id]) : null };
  });

  app.get('/v3/events/:id', {
    schema: { summary: 'One event', description: '404 `event_not_found`.', tags: [TAG], params: EventParams, response: { 200: EventSchema } },
  }, async (request): Promise<LamisEvent> => {
    const event = await store.get(ownerOf(request.principal!), request.params.id);
    if (!event) throw notFound(request.params.id);
    return event;
  });

  app.post('/v3/events/:id/acknowledge', {
    schema: {
      summary: 'Acknowledge an event',
      description: 'Records that someone has seen it: `acknowledged_at` is set by the first acknowledgement and kept through later ones and through changes of severity. Open and cleared events alike. 200 with the event; 404 `event_not_found`.',
      tags: [TAG],
      params: EventParams,
      response: { 200: EventSchema },
    },
  }, async (request): Promise<LamisEvent> => {
    const result = await store.acknowledge(ownerOf(request.principal!), request.params.id);
    if (!result) throw notFound(request.params.id);
    return result.event;
  });
}
