// REST for the watch list under /v3/watch-list, for API keys: add an airport or a port, list
// (cursor-paginated), read, change the note and remove. A key acts for its whole organisation, or
// for itself outside any, as under /v3/zones. What may be watched is what the reference data holds:
// an airport by ICAO code, a port by the id the port endpoints give it.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../platform/http/pagination.ts';
import { ProblemError } from '../platform/http/problems.ts';
import { invalidField, nullable, Shared } from '../platform/http/schema.ts';
import { watchEntryNotFound, watchListFull, watchTargetUnknown } from './watch-list.problems.ts';
import { MAX_WATCH_ENTRIES, WATCH_TYPES, type WatchEntry, type WatchKey, type WatchListStore, type WatchTarget } from './watch-list.ts';

const TAG = 'Watch list';

/** What the reference data knows: the airport or port as it names it, null for one it does not hold. */
export interface WatchTargets {
  airport(icao: string): Promise<string | null> | string | null;
  port(id: string): Promise<string | null> | string | null;
}

const Note = nullable(Type.String({ maxLength: 500, description: 'Your own words about why it is watched' }));

const NewWatchEntry = Shared('NewWatchEntry', Type.Object({
  type: Type.Enum([...WATCH_TYPES], { description: '`airport` (give `icao`) or `port` (give `port_id`)' }),
  icao: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{3,4}$', description: 'The airport\'s ICAO code (EGLL) or IATA code (LHR), stored as its ICAO code; for `airport` only' })),
  port_id: Type.Optional(Type.String({ maxLength: 16, description: 'The port as the port endpoints name it: a UN/LOCODE (NLRTM) or WPI-<number>; for `port` only' })),
  note: Type.Optional(Note),
}, { additionalProperties: false }));

const WatchEntrySchema = Shared('WatchEntry', Type.Object({
  id: Type.String({ description: '`wat_` and 16 letters or digits' }),
  type: Type.Enum([...WATCH_TYPES]),
  icao: Type.Optional(Type.String({ description: 'For an airport' })),
  port_id: Type.Optional(Type.String({ description: 'For a port' })),
  note: nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}));

const IdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The watch list entry id' }) });

const isWatchKey = (key: unknown): key is WatchKey =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

const ownerOf = (request: FastifyRequest) => request.principal!.organisation_id ?? request.principal!.key_id;
const notFound = (id: string) => new ProblemError(watchEntryNotFound, `No entry ${id} on your watch list.`);

function unknownTarget(path: string, message: string): ProblemError {
  return new ProblemError(watchTargetUnknown, `${path} ${message}`, { errors: [{ path, message }] });
}

/** The airport or port the body names, as the reference data names it: 400 for a missing or misplaced field, 422 for one it does not hold. */
async function targetOf(body: { type: WatchTarget['type']; icao?: string; port_id?: string }, targets: WatchTargets): Promise<WatchTarget> {
  const [wanted, other] = body.type === 'airport' ? ['icao', 'port_id'] as const : ['port_id', 'icao'] as const;
  if (body[other] !== undefined) throw invalidField(`/body/${other}`, `is not taken for ${body.type === 'airport' ? 'an airport' : 'a port'}; give ${wanted}`);
  const given = body[wanted];
  if (given === undefined) throw invalidField(`/body/${wanted}`, `is required for ${body.type === 'airport' ? 'an airport' : 'a port'}`);
  const found = await (body.type === 'airport' ? targets.airport(given) : targets.port(given));
  if (found === null) {
    throw unknownTarget(`/body/${wanted}`, body.type === 'airport' ? `${given.toUpperCase()} is not an airport of the reference data` : `${given.toUpperCase()} is not a port of the port data`);
  }
  return { type: body.type, target: found };
}

/** What the routes tell the rest of the service: an entry added (to judge it at once), an entry removed (to clear what was raised about it). */
export interface WatchListHooks {
  added(owner: string, entry: WatchEntry): Promise<void>;
  removed(owner: string, entry: WatchEntry): Promise<void>;
}

export function registerWatchListRoutes(app: App, store: WatchListStore, targets: WatchTargets, hooks: WatchListHooks): void {
  app.get('/v3/watch-list', {
    schema: {
      summary: 'Your watch list',
      description: 'The airports and ports your organisation watches, by when they were added (ties by id), cursor-paginated; `type` narrows the list.',
      tags: [TAG],
      querystring: Type.Object({ ...PageQuery, type: Type.Optional(Type.Enum([...WATCH_TYPES])) }),
      response: { 200: Page(WatchEntrySchema) },
    },
  }, async (request) => {
    const { limit, cursor, type } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isWatchKey);
    const page = await store.list(ownerOf(request), { limit: limit!, type, after });
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  app.post('/v3/watch-list', {
    schema: {
      summary: 'Watch an airport or a port',
      description:
        'LAMIS then raises `airport.status_changed` about a watched airport and `port.weather_hold` about a watched port (see Events). ' +
        '201 with the entry; 200 with the entry already there when the airport or port is watched already (its note unchanged); ' +
        '400 naming a missing or misplaced field; 422 `watch_target_unknown` naming the field for an airport or port the reference data ' +
        `does not hold; 409 \`watch_list_full\` at ${MAX_WATCH_ENTRIES} entries.`,
      tags: [TAG],
      body: NewWatchEntry,
      response: { 200: WatchEntrySchema, 201: WatchEntrySchema },
    },
  }, async (request, reply) => {
    const result = await store.add(ownerOf(request), await targetOf(request.body, targets), request.body.note ?? null);
    if (result.status === 'full') throw new ProblemError(watchListFull, `Your watch list has ${MAX_WATCH_ENTRIES} entries already.`);
    if (result.status === 'created') {
      await hooks.added(ownerOf(request), result.entry);
      reply.code(201).header('Location', `/v3/watch-list/${result.entry.id}`);
    }
    return result.entry;
  });

  app.get('/v3/watch-list/:id', {
    schema: { summary: 'One watch list entry', description: '404 `watch_entry_not_found`.', tags: [TAG], params: IdParams, response: { 200: WatchEntrySchema } },
  }, async (request) => {
    const entry = await store.get(ownerOf(request), request.params.id);
    if (!entry) throw notFound(request.params.id);
    return entry;
  });

  app.patch('/v3/watch-list/:id', {
    schema: {
      summary: 'Change the note of a watch list entry',
      description: 'The note is the only field that changes; null clears it. 404 `watch_entry_not_found`.',
      tags: [TAG],
      params: IdParams,
      body: Type.Object({ note: Note }, { additionalProperties: false }),
      response: { 200: WatchEntrySchema },
    },
  }, async (request) => {
    const entry = await store.setNote(ownerOf(request), request.params.id, request.body.note);
    if (!entry) throw notFound(request.params.id);
    return entry;
  });

  app.delete('/v3/watch-list/:id', {
    schema: {
      summary: 'Stop watching an airport or a port',
      description: 'Its open events (`airport.status_changed`, `port.weather_hold`) clear. 404 `watch_entry_not_found`.',
      tags: [TAG], params: IdParams, response: { 204: Type.Null({ description: 'Removed' }) },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const entry = await store.get(owner, request.params.id);
    if (!entry || !(await store.delete(owner, entry.id))) throw notFound(request.params.id);
    await hooks.removed(owner, entry);
    return reply.code(204).send(null);
  });
}
