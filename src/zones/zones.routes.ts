// REST for zones under /v3/zones, for API keys: add, list (cursor-paginated), read, change and
// remove. A key acts for its whole organisation, or for itself outside any, as under /v3/fleet.
// The geometry is checked by geometry.ts, which names the broken part in a 400.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { VESSEL_CATEGORIES } from '../maritime/index.ts';
import type { App } from '../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../platform/http/pagination.ts';
import { ProblemError, Problems } from '../platform/http/problems.ts';
import { nullable, Shared } from '../platform/http/schema.ts';
import { GeometryError, MAX_RADIUS_NM, MAX_VERTICES, parseGeometry, type ZoneGeometry } from './geometry.ts';
import { zoneLimitReached, zoneNotFound } from './zones.problems.ts';
import { MAX_ZONES, type ZoneKey, type ZoneStore } from './zones.ts';

const TAG = 'Zones';

// The exact rules are geometry.ts's, so that a broken ring is named by its path rather than by
// whichever branch of a union the schema validator tried last.
const GeometrySchema = Shared('ZoneGeometry', Type.Unsafe<ZoneGeometry>({
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', enum: ['Polygon', 'MultiPolygon', 'Circle'] } },
  additionalProperties: true,
  description: 'A GeoJSON (RFC 7946) `Polygon` or `MultiPolygon` — positions [longitude, latitude], closed rings of at least 4 positions, the outer ring first, ' +
    `at most ${MAX_VERTICES.toLocaleString('en')} positions in all; a ring may cross the antimeridian by jumping across it or be split there — ` +
    `or a circle \`{"type": "Circle", "center": {"lat", "lon"}, "radius_nm"}\`, radius above 0 and at most ${MAX_RADIUS_NM} nm`,
}));
const AppliesToSchema = Shared('ZoneAppliesTo', Type.Object({
  fleet: Type.Literal(true, { description: 'The vessels of your fleet (vehicles of type vessel, by their MMSI), always watched' }),
  categories: Type.Optional(Type.Array(Type.Enum([...VESSEL_CATEGORIES]), { maxItems: VESSEL_CATEGORIES.length, uniqueItems: true, description: 'Other vessels of these categories are watched too (and of `flags`, when both are given)' })),
  flags: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), { maxItems: 250, uniqueItems: true, description: 'Other vessels under these flags (ISO 3166-1 alpha-2, e.g. GB) are watched too (and of `categories`, when both are given)' })),
}, { additionalProperties: false, description: 'Which vessels the zone watches: your fleet, and other vessels by category and flag (at most 100 open events about them per zone); `{"fleet": true}` when absent' }));

const FIELDS = {
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  description: Type.Optional(nullable(Type.String({ maxLength: 1000 }))),
  geometry: GeometrySchema,
  applies_to: Type.Optional(AppliesToSchema),
};
const FIELD_NAMES = Object.keys(FIELDS);
const NewZone = Shared('NewZone', Type.Object(FIELDS, { additionalProperties: false }));
const ZoneChanges = Shared('ZoneChanges', Type.Partial(Type.Object(FIELDS), { additionalProperties: false }));

const ZoneSchema = Shared('Zone', Type.Object({
  id: Type.String({ description: '`zon_` and 16 letters or digits' }),
  name: Type.String(),
  description: nullable(Type.String()),
  geometry: GeometrySchema,
  applies_to: AppliesToSchema,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}));

const IdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The zone id' }) });

const isZoneKey = (key: unknown): key is ZoneKey =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

const ownerOf = (request: FastifyRequest) => request.principal!.organisation_id ?? request.principal!.key_id;
const notFound = (id: string) => new ProblemError(zoneNotFound, `No zone ${id} in your organisation.`);

/** The geometry checked; a 400 naming each broken part under /body/geometry. */
function geometryOf(input: unknown): ZoneGeometry {
  try {
    return parseGeometry(input);
  } catch (error) {
    if (!(error instanceof GeometryError)) throw error;
    const errors = error.issues.map((issue) => ({ path: `/body/geometry${issue.field ? `/${issue.field}` : ''}`, message: issue.message }));
    throw new ProblemError(Problems.validation, errors.map((e) => `${e.path} ${e.message}`).join('; '), { errors });
  }
}

export function registerZoneRoutes(app: App, store: ZoneStore): void {
  app.get('/v3/zones', {
    schema: {
      summary: 'Your zones',
      description: 'By creation time (ties by id), cursor-paginated.',
      tags: [TAG],
      querystring: Type.Object(PageQuery),
      response: { 200: Page(ZoneSchema) },
    },
  }, async (request) => {
    const { limit, cursor } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isZoneKey);
    const page = await store.list(ownerOf(request), { limit: limit!, after });
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  app.post('/v3/zones', {
    schema: {
      summary: 'Add a zone',
      description: `A named area the watcher reports your vessels entering and leaving. 201 with the zone; 400 naming a broken part of the geometry; 409 \`zone_limit_reached\` at ${MAX_ZONES.toLocaleString('en')} zones.`,
      tags: [TAG],
      body: NewZone,
      response: { 201: ZoneSchema },
    },
  }, async (request, reply) => {
    const zone = await store.create(ownerOf(request), { ...request.body, geometry: geometryOf(request.body.geometry) });
    if (!zone) throw new ProblemError(zoneLimitReached, `Your organisation has ${MAX_ZONES} zones already.`);
    reply.code(201).header('Location', `/v3/zones/${zone.id}`);
    return zone;
  });

  app.get('/v3/zones/:id', {
    schema: { summary: 'One zone', description: '404 `zone_not_found`.', tags: [TAG], params: IdParams, response: { 200: ZoneSchema } },
  }, async (request) => {
    const zone = await store.get(ownerOf(request), request.params.id);
    if (!zone) throw notFound(request.params.id);
    return zone;
  });

  app.patch('/v3/zones/:id', {
    schema: {
      summary: 'Change a zone',
      description: `Only the fields sent change (${FIELD_NAMES.join(', ')}); a null description clears it. 404 \`zone_not_found\`.`,
      tags: [TAG],
      params: IdParams,
      body: ZoneChanges,
      response: { 200: ZoneSchema },
    },
  }, async (request) => {
    const { geometry, ...rest } = request.body;
    const zone = await store.update(ownerOf(request), request.params.id, { ...rest, ...(geometry === undefined ? {} : { geometry: geometryOf(geometry) }) });
    if (!zone) throw notFound(request.params.id);
    return zone;
  });

  app.delete('/v3/zones/:id', {
    schema: { summary: 'Remove a zone', description: '404 `zone_not_found`.', tags: [TAG], params: IdParams, response: { 204: Type.Null({ description: 'Removed' }) } },
  }, async (request, reply) => {
    if (!(await store.delete(ownerOf(request), request.params.id))) throw notFound(request.params.id);
    return reply.code(204).send(null);
  });
}
