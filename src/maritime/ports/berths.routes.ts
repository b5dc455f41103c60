// REST for berth records. A caller sees the shared records (made by operators) and those of its own
// organisation; another organisation's record answers 404, as one that does not exist. Writing:
// - operators of this instance (keys from LAMIS_API_KEYS, or the data folder's development key when
//   none are set) create shared records, and may change and delete any record by its id;
// - an organisation's production key may create records of its own, which it alone sees, and
//   change or delete them (production keys come from owners and admins whose identity is verified);
// - development keys only read.
// Each record names the organisation that made it (`organisation_id`, null for shared records).
import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { haversineNm } from '../../platform/geo/great-circle.ts';
import type { App } from '../../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../../platform/http/pagination.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { invalidField, nullable, Shared } from '../../platform/http/schema.ts';
import { IdParams, portById } from './ports.routes.ts';
import {
  berthNameKey, CARGO_TYPES, ESTIMATED_BERTHS, capacityOf, type Berth, type BerthCursor, type BerthFields, type BerthStore, type BerthViewer,
} from './berths.ts';
import type { PortAreas } from './areas.ts';
import type { Port, PortIndex } from './model.ts';

const TAG = 'Ports';
const MAX_NAME = 80;

export const berthNotFound = problemType({
  code: 'berth_not_found',
  status: 404,
  title: 'No such berth',
  description: 'The port has no berth record with this id.',
});

export const berthNameTaken = problemType({
  code: 'berth_name_taken',
  status: 409,
  title: 'The port has a berth of that name',
  description:
    'Berth names are unique within what one organisation sees at a port (the shared records and its own), compared without case, accents or punctuation ' +
    '("Quay 1" is "QUAY-1"); `berth_id` names the record that has the name. Change that berth, or choose another name.',
});

export const berthWriteForbidden = problemType({
  code: 'berth_write_forbidden',
  status: 403,
  title: 'This API key may not change berth records',
  description:
    'Operators of the instance may change any berth record; an organisation\'s production key may add records of its own and change or delete them. ' +
    '`reason`: `development_key` (development keys only read) or `other_organisation` (the record is a shared one, made by an operator).',
});

export const berthIdempotencyKeyReused = problemType({
  code: 'berth_idempotency_key_reused',
  status: 422,
  title: 'The Idempotency-Key was used for another berth',
  description: 'The key already created a berth from other fields; send a new key for a new berth.',
});

// Type lists rather than anyOf with null: with type coercion on, ajv would turn null into 0 for numbers.
const orNull = (schema: Record<string, unknown>) => Type.Unsafe<number | null>({ ...schema, type: ['number', 'null'] });

const FIELDS = {
  name: Type.String({ minLength: 1, maxLength: MAX_NAME, description: 'As the port names it ("Europahaven 2", "Quay 7")' }),
  length_m: Type.Optional(orNull({ exclusiveMinimum: 0, maximum: 5000, description: 'Quay length, metres' })),
  depth_m: Type.Optional(orNull({ exclusiveMinimum: 0, maximum: 40, description: 'Charted depth alongside, metres' })),
  cargo_types: Type.Optional(Type.Array(Type.Enum([...CARGO_TYPES]), { maxItems: CARGO_TYPES.length, uniqueItems: true, description: 'What the berth handles' })),
  lat: Type.Optional(orNull({ minimum: -90, maximum: 90, description: 'Middle of the berth; with `lon`, within the port\'s area (`area` of the port)' })),
  lon: Type.Optional(orNull({ minimum: -180, maximum: 180 })),
};
const CreateBody = Type.Object(FIELDS, { additionalProperties: false });
const PatchBody = Type.Object({ ...FIELDS, name: Type.Optional(FIELDS.name) }, { additionalProperties: false, minProperties: 1 });

export const BerthSchema = Shared('Berth', Type.Object({
  id: Type.String({ description: '`brt_` and 16 letters or digits' }),
  port_id: Type.String(),
  name: Type.String(),
  length_m: nullable(Type.Number()),
  depth_m: nullable(Type.Number()),
  cargo_types: Type.Array(Type.Enum([...CARGO_TYPES])),
  lat: nullable(Type.Number()),
  lon: nullable(Type.Number()),
  organisation_id: nullable(Type.String({ description: 'Your organisation, which made the record and alone sees it; null: a shared record, made by an operator of this instance' })),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}));

export const CapacitySchema = Shared('BerthCapacity', Type.Object({
  basis: Type.Enum(['berths', 'estimate'], { description: '`berths`: the records you see (shared and your organisation\'s); `estimate`: you see none' }),
  berths: Type.Integer({ description: 'Berths for sea-going ships' }),
  by_harbour_size: nullable(Type.Integer({
    description: `Estimate only: berths assumed by harbour size (${Object.entries(ESTIMATED_BERTHS).map(([size, count]) => `${size} ${count}`).join(', ')})`,
  })),
  observed_peak: nullable(Type.Integer({ description: 'Estimate only: the most vessels seen at berth at once in the last 30 days; the estimate is never lower' })),
}, { description: 'Where the port has no berth records, capacity is an estimate, marked as one' }));

const BerthParams = Type.Object({ ...IdParams.properties, berthId: Type.String({ maxLength: 64, description: 'The berth id' }) });

const isCursor = (key: unknown): key is BerthCursor =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

export interface BerthApiDeps {
  index: PortIndex;
  berths: BerthStore;
  /** A berth's position must lie in its port's area. */
  areas: Pick<PortAreas, 'holds'>;
  /** The most vessels at berth at once at the port in the last 30 days (for capacity estimates). */
  observedPeak(port: Port): Promise<number>;
}

/** Who wants to write: an operator, or an organisation's production key; refused otherwise. */
function writer(request: FastifyRequest): { admin: boolean; organisation_id: string | null; created_by: string } {
  const principal = request.principal!;
  if (principal.admin) return { admin: true, organisation_id: null, created_by: principal.key_id };
  if (principal.environment !== 'production' || principal.organisation_id === null) {
    throw new ProblemError(berthWriteForbidden, 'Development keys read berth records but do not change them; use a production key of your organisation.', {
      extra: { reason: 'development_key' },
    });
  }
  return { admin: false, organisation_id: principal.organisation_id, created_by: principal.organisation_id };
}

function mayChange(request: FastifyRequest, berth: Berth): void {
  const who = writer(request);
  if (who.admin || berth.organisation_id === who.organisation_id) return;
  throw new ProblemError(berthWriteForbidden, `Berth ${berth.id} is a shared record, made by an operator of this instance; only an operator may change it.`, {
    extra: { reason: 'other_organisation' },
  });
}

/** The records the caller's lists cover: the shared ones and its organisation's (operators: the shared ones). */
function viewerOf(request: FastifyRequest): BerthViewer {
  return request.principal!.organisation_id;
}

type Input = Partial<Static<typeof CreateBody>>;

/** The fields of a berth after `input` (a creation, or a patch over `current`), checked against the port. */
function fieldsFor(port: Port, areas: Pick<PortAreas, 'holds'>, input: Input, current?: Berth): BerthFields {
  const name = (input.name ?? current?.name ?? '').trim();
  if (name === '') throw invalidField('/body/name', 'must hold more than spaces');
  const pick = <K extends 'length_m' | 'depth_m' | 'lat' | 'lon'>(key: K) => (input[key] !== undefined ? input[key] : current?.[key] ?? null);
  const lat = pick('lat');
  const lon = pick('lon');
  if ((lat === null) !== (lon === null)) throw invalidField(lat === null ? '/body/lat' : '/body/lon', 'goes with the other coordinate: give both, or null both');
  if (lat !== null && lon !== null && !areas.holds(port, { lat, lon }, true)) {
    const distance = haversineNm(lat, lon, port.lat, port.lon);
    throw invalidField('/body/lat', `the position lies ${distance.toFixed(1)} nm from ${port.name}, outside its port area (\`area\` of /v3/maritime/ports/${port.id}); a berth must lie within it`);
  }
  return {
    name,
    length_m: pick('length_m'),
    depth_m: pick('depth_m'),
    cargo_types: input.cargo_types ?? current?.cargo_types ?? [],
    lat,
    lon,
  };
}

export function registerBerthRoutes(app: App, deps: BerthApiDeps): void {
  const { index, berths } = deps;
  /** A record the caller sees; operators reach every record by its id. */
  const berthOf = async (request: FastifyRequest, port: Port, berthId: string) => {
    const berth = await berths.get(port.id, berthId, request.principal!.admin ? 'every' : viewerOf(request));
    if (berth === null) throw new ProblemError(berthNotFound, `${port.name} (${port.id}) has no berth ${berthId}.`);
    return berth;
  };
  const nameTaken = (port: Port, name: string, holder: Berth) =>
    new ProblemError(berthNameTaken, `${port.name} (${port.id}) already has a berth named like "${name}": ${holder.id}.`, { extra: { berth_id: holder.id } });

  app.get('/v3/maritime/ports/:id/berths', {
    schema: {
      summary: 'The berth records of a port you see, with its berth capacity',
      description:
        'The shared records (made by operators) and your organisation\'s own, by name, cursor-paginated. ' +
        '`capacity` is the number of these records, or, where there are none, an estimate from the harbour size ' +
        '(never below the most vessels seen at berth at once in the last 30 days), marked `basis: estimate`. 400 for a malformed port id, 404 `port_not_found`.',
      tags: [TAG],
      params: IdParams,
      querystring: Type.Object(PageQuery),
      response: { 200: Type.Object({ ...Page(BerthSchema).properties, capacity: CapacitySchema }) },
    },
  }, async (request) => {
    const port = portById(index, request.params.id);
    const { limit, cursor } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isCursor);
    const viewer = viewerOf(request);
    const [page, count] = await Promise.all([berths.page(port.id, viewer, limit! + 1, after), berths.count(port.id, viewer)]);
    const data = page.slice(0, limit);
    const last = data[data.length - 1];
    const capacity = capacityOf(port, count, count > 0 ? 0 : await deps.observedPeak(port));
    return {
      data: data.map(view),
      next_cursor: page.length > limit! && last ? encodeCursor([berthNameKey(last.name), last.id]) : null,
      capacity,
    };
  });

  app.get('/v3/maritime/ports/:id/berths/:berthId', {
    schema: {
      summary: 'One berth record',
      description: 'A shared record or one of your organisation\'s; another organisation\'s answers 404 `berth_not_found`, as one that does not exist. 404 `port_not_found`.',
      tags: [TAG],
      params: BerthParams,
      response: { 200: BerthSchema },
    },
  }, async (request) => view(await berthOf(request, portById(index, request.params.id), request.params.berthId)));

  app.post('/v3/maritime/ports/:id/berths', {
    schema: {
      summary: 'Add a berth record to a port',
      description:
        'An operator\'s record is shared: every caller sees it. An organisation\'s production key adds a record of its own, which names the organisation ' +
        'and which that organisation alone sees (listed, counted in the capacity and in availability). Development keys get 403 `berth_write_forbidden`. ' +
        'A position must lie within the port\'s area (400). 409 `berth_name_taken` when a berth you see has that name. ' +
        'With an `Idempotency-Key`, a retry answers 200 with the berth the key made; the key with other fields answers 422 `berth_idempotency_key_reused`.',
      tags: [TAG],
      params: IdParams,
      headers: Type.Object({
        'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Unique per berth you mean to add; retries send the same key' })),
      }),
      body: CreateBody,
      response: { 200: BerthSchema, 201: BerthSchema },
    },
  }, async (request, reply) => {
    const author = writer(request);
    const port = portById(index, request.params.id);
    const fields = fieldsFor(port, deps.areas, request.body);
    const result = await berths.create(port.id, fields, author, request.headers['idempotency-key']);
    switch (result.status) {
      case 'created':
        reply.code(201).header('Location', `/v3/maritime/ports/${port.id}/berths/${result.berth.id}`);
        return view(result.berth);
      case 'existing':
        return view(result.berth);
      case 'key_reused':
        throw new ProblemError(berthIdempotencyKeyReused, `This Idempotency-Key created berth ${result.berth.id} from other fields.`);
      case 'name_taken':
        throw nameTaken(port, fields.name, result.berth);
    }
  });

  app.patch('/v3/maritime/ports/:id/berths/:berthId', {
    schema: {
      summary: 'Change a berth record',
      description:
        'Only the fields sent change; null clears a field. By operators, or by the organisation that made the berth (403 `berth_write_forbidden` for a shared one). ' +
        '404 `berth_not_found` (also for another organisation\'s); 409 `berth_name_taken`; 400 for a position outside the port\'s area.',
      tags: [TAG],
      params: BerthParams,
      body: PatchBody,
      response: { 200: BerthSchema },
    },
  }, async (request) => {
    const port = portById(index, request.params.id);
    const current = await berthOf(request, port, request.params.berthId);
    mayChange(request, current);
    const fields = fieldsFor(port, deps.areas, request.body, current);
    const result = await berths.update(port.id, current.id, fields);
    if (result.status === 'updated') return view(result.berth);
    if (result.status === 'name_taken') throw nameTaken(port, fields.name, result.berth);
    throw new ProblemError(berthNotFound, `${port.name} (${port.id}) has no berth ${current.id}.`);
  });

  app.delete('/v3/maritime/ports/:id/berths/:berthId', {
    schema: {
      summary: 'Delete a berth record',
      description: 'By operators, or by the organisation that made the berth (403 `berth_write_forbidden` for a shared one). 404 `berth_not_found` (also for another organisation\'s).',
      tags: [TAG],
      params: BerthParams,
      response: { 204: Type.Null({ description: 'Deleted' }) },
    },
  }, async (request, reply) => {
    const port = portById(index, request.params.id);
    const current = await berthOf(request, port, request.params.berthId);
    mayChange(request, current);
    if (!(await berths.delete(port.id, current.id))) throw new ProblemError(berthNotFound, `${port.name} (${port.id}) has no berth ${current.id}.`);
    return reply.code(204).send(null);
  });

}

function view(berth: Berth) {
  return { ...berth, cargo_types: [...berth.cargo_types] };
}
