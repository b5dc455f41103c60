// REST for fleets: vehicles (CRUD, cursor-paginated) and notification settings, organisation-wide
// and per vehicle. Everything belongs to the caller's organisation, or to the API key itself for
// keys outside any: another owner's vehicle answers 404, exactly as one that does not exist.
// The routes are defined once and mounted twice: under /v3/fleet for API keys (here), and under
// the organisation's path for signed-in members by role (organisation-mount.ts).
import type { FastifyContextConfig, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { Type, type TProperties } from 'typebox';
import { VEHICLE_TYPES } from '../../common/vehicle-types.ts';
import type { App } from '../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../platform/http/pagination.ts';
import { ProblemError, Problems } from '../platform/http/problems.ts';
import { nullable, Shared } from '../platform/http/schema.ts';
import type { VehicleChange } from './changes.ts';
import { THRESHOLD_NAMES, ThresholdsSchema } from './thresholds.ts';
import { FleetValidationError } from './validation.ts';
import { duplicateRegistration, vehicleIdempotencyKeyReused, vehicleNotFound } from './vehicles.problems.ts';
import { MAX_REGIONS, type FleetStore, type FleetVehicle, type ListKey } from './vehicles.ts';

const TAG = 'Fleet';

// Type lists rather than anyOf with null: with type coercion on, ajv would turn null into 0 or "".
const orNull = <T>(type: string, schema: Record<string, unknown>) => Type.Unsafe<T | null>({ ...schema, type: [type, 'null'] });

const FIELDS = {
  registration: Type.Optional(orNull<string>('string', { maxLength: 32, description: 'e.g. G-EUPT; required for aircraft and helicopters. Compared without case, spaces or hyphens; stored encrypted' })),
  icao_type: Type.Optional(orNull<string>('string', { maxLength: 8, description: 'ICAO type designator (e.g. A320); required for aircraft and helicopters. A type LAMIS does not know needs crosswind_limit_kt and min_runway_m' })),
  home_base_icao: Type.Optional(orNull<string>('string', { maxLength: 8, description: 'Airport code of 3 or 4 letters or digits; aircraft and helicopters only' })),
  operational_regions: Type.Optional(orNull<string[]>('array', {
    items: { type: 'string', maxLength: 8 }, maxItems: MAX_REGIONS,
    description: 'FIRs (4 letters, e.g. EGTT) and ICAO regions (1 or 2 letters, e.g. K, EG)',
  })),
  mmsi: Type.Optional(orNull<number>('integer', { description: '9-digit MMSI of a ship station; required for vessels' })),
  imo: Type.Optional(orNull<number>('integer', { description: '7-digit IMO number with a valid check digit; vessels only' })),
  crosswind_limit_kt: Type.Optional(orNull<number>('number', { description: 'The operator\'s crosswind limit (1–60 kt), replacing the type\'s figure in landing intelligence' })),
  min_runway_m: Type.Optional(orNull<number>('integer', { description: 'The operator\'s shortest usable runway (1–6000 m), replacing the type\'s figure' })),
};
const VehicleTypeSchema = Type.Enum([...VEHICLE_TYPES], { description: 'Decides which fields are required; see the README' });
const VEHICLE_FIELDS = ['vehicle_type', ...Object.keys(FIELDS)];
const CreateBody = Shared('NewVehicle', Type.Object({ vehicle_type: VehicleTypeSchema, ...FIELDS }));
const PatchBody = Shared('VehicleChanges', Type.Object({ vehicle_type: Type.Optional(VehicleTypeSchema), ...FIELDS }));

const VehicleSchema = Shared('Vehicle', Type.Object({
  id: Type.String({ description: '`veh_` and 16 letters or digits' }),
  vehicle_type: Type.Enum([...VEHICLE_TYPES]),
  registration: nullable(Type.String({ description: 'Upper case without spaces, hyphens as given' })),
  icao_type: nullable(Type.String()),
  home_base_icao: nullable(Type.String()),
  operational_regions: Type.Array(Type.String()),
  mmsi: nullable(Type.Integer()),
  imo: nullable(Type.Integer()),
  crosswind_limit_kt: nullable(Type.Number()),
  min_runway_m: nullable(Type.Integer()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}));

const IdParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The vehicle id' }) });

const AlertThresholdsSchema = Shared('AlertThresholds', ThresholdsSchema);
const SettingsSchema = Shared('NotificationSettings', Type.Object({
  vehicle_id: nullable(Type.String({ description: 'null for the organisation-wide settings' })),
  thresholds: AlertThresholdsSchema,
  effective: AlertThresholdsSchema,
  updated_at: nullable(Type.String({ format: 'date-time', description: 'null when never set' })),
}, { description: '`effective` is what applies: the organisation-wide thresholds, replaced key by key by the vehicle\'s own' }));
const SettingsBody = Type.Object({ thresholds: AlertThresholdsSchema });

/** Unknown body fields, named one by one (a closed schema would only say that some field is extra). */
export function refuseUnknown(body: object, known: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const errors = unknown.map((key) => ({ path: `/body/${key}`, message: `is not a field here; the fields are ${known.join(', ')}` }));
  throw new ProblemError(Problems.validation, errors.map((e) => `${e.path} ${e.message}`).join('; '), { errors });
}

async function validated<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof FleetValidationError)) throw error;
    const errors = error.issues.map((issue) => ({ path: `/body/${issue.field}`, message: issue.message }));
    throw new ProblemError(Problems.validation, errors.map((e) => `${e.path} ${e.message}`).join('; '), { errors });
  }
}

const notFound = (id: string) => new ProblemError(vehicleNotFound, `No vehicle ${id} in your fleet.`);
const duplicate = () => new ProblemError(duplicateRegistration, 'Another vehicle of your fleet has this registration.');

const isListKey = (key: unknown): key is ListKey =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

/** A route's description and what its mount adds about who may call it. */
export const withNote = (text: string, note: string) => [text, note].filter(Boolean).join(' ');

/** What a route asks of the caller: to see the fleet, or to change it. */
export type FleetAccess = 'view' | 'manage';

/**
 * Where the fleet routes are mounted and how a mount finds whose fleet a request is about. The
 * routes themselves (schemas, validation, answers) are the same on every mount.
 */
export interface FleetMount {
  /** The path the routes hang under, with its own parameters: `/v3/fleet`, `/v3/organisations/:orgId/fleet`. */
  prefix: string;
  /** The schemas of the prefix's path parameters. */
  params: TProperties;
  /** The owner of the fleet: an organisation's id, or the id of an API key outside any. Called after the mount's hooks. */
  ownerOf(request: FastifyRequest): string;
  /** The route options that admit callers with `access` (`what` completes "you may not …"), and what each description adds about them. */
  admit(access: FleetAccess, what: string): { options: { config?: FastifyContextConfig; onRequest?: onRequestAsyncHookHandler[] }; note: string };
}

/** `/v3/fleet`, for API keys: a key acts for its whole organisation, or for itself outside any. */
export const API_KEY_MOUNT: FleetMount = {
  prefix: '/v3/fleet',
  params: {},
  ownerOf(request) {
    const principal = request.principal!;
    return principal.organisation_id ?? principal.key_id;
  },
  admit: () => ({ options: {}, note: '' }),
};

/** The vehicle and notification-settings routes under `mount.prefix`. */
/** `announce`: tells the rules that depend on the fleet what changed, once it is stored. */
export function mountFleetRoutes(app: App, store: FleetStore, mount: FleetMount, announce: (change: VehicleChange) => Promise<void>): void {
  const { prefix, ownerOf } = mount;
  const PrefixParams = Type.Object(mount.params);
  const VehicleParams = Type.Object({ ...mount.params, ...IdParams.properties });
  /** The path of the request's prefix, its parameters filled in: where a new vehicle is found. */
  const base = (request: FastifyRequest) =>
    prefix.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent((request.params as Record<string, string>)[name]!));

  const list = mount.admit('view', 'see the fleet');
  app.get(`${prefix}/vehicles`, {
    ...list.options,
    schema: {
      summary: 'The vehicles of your fleet',
      description: withNote('By creation time (ties by id), cursor-paginated; `vehicle_type` narrows the list.', list.note),
      tags: [TAG],
      params: PrefixParams,
      querystring: Type.Object({ vehicle_type: Type.Optional(Type.Enum([...VEHICLE_TYPES])), ...PageQuery }),
      response: { 200: Page(VehicleSchema) },
    },
  }, async (request) => {
    const { vehicle_type, limit, cursor } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isListKey);
    const page = await store.list(ownerOf(request), { vehicle_type, limit: limit!, after });
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  const create = mount.admit('manage', 'add vehicles');
  app.post(`${prefix}/vehicles`, {
    ...create.options,
    schema: {
      summary: 'Add a vehicle to your fleet',
      description: withNote(
        'Aircraft and helicopters need `registration` and `icao_type`; vessels need `mmsi` (see the README for every field). ' +
        'With an `Idempotency-Key`, a retry answers 200 with the vehicle the key made; the key with other fields answers 422. ' +
        '201 with the vehicle; 409 `duplicate_registration` when the registration is already in your fleet.',
        create.note,
      ),
      tags: [TAG],
      params: PrefixParams,
      headers: Type.Object({
        'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Unique per vehicle you mean to add; retries send the same key' })),
      }),
      body: CreateBody,
      response: { 200: VehicleSchema, 201: VehicleSchema },
    },
  }, async (request, reply) => {
    refuseUnknown(request.body, VEHICLE_FIELDS);
    const result = await validated(store.create(ownerOf(request), request.body, request.headers['idempotency-key']));
    switch (result.status) {
      case 'created':
        await announce({ org_id: ownerOf(request), vehicle_id: result.vehicle.id, change: 'created' });
        reply.code(201).header('Location', `${base(request)}/vehicles/${result.vehicle.id}`);
        return result.vehicle;
      case 'existing':
        return result.vehicle;
      case 'key_reused':
        throw new ProblemError(vehicleIdempotencyKeyReused, `This Idempotency-Key created vehicle ${result.vehicle.id} from other fields.`);
      case 'duplicate_registration':
        throw duplicate();
    }
  });

  const read = mount.admit('view', 'see the fleet');
  app.get(`${prefix}/vehicles/:id`, {
    ...read.options,
    schema: { summary: 'One vehicle of your fleet', description: withNote('404 `vehicle_not_found`.', read.note), tags: [TAG], params: VehicleParams, response: { 200: VehicleSchema } },
  }, async (request): Promise<FleetVehicle> => {
    const vehicle = await store.get(ownerOf(request), request.params.id);
    if (!vehicle) throw notFound(request.params.id);
    return vehicle;
  });

  const change = mount.admit('manage', 'change vehicles');
  app.patch(`${prefix}/vehicles/:id`, {
    ...change.options,
    schema: {
      summary: 'Change a vehicle of your fleet',
      description: withNote('Only the fields sent change; null clears a field. The result must be a valid vehicle of its type. 404 `vehicle_not_found`; 409 `duplicate_registration`.', change.note),
      tags: [TAG],
      params: VehicleParams,
      body: PatchBody,
      response: { 200: VehicleSchema },
    },
  }, async (request) => {
    refuseUnknown(request.body, VEHICLE_FIELDS);
    const result = await validated(store.update(ownerOf(request), request.params.id, request.body));
    if (result.status === 'not_found') throw notFound(request.params.id);
    if (result.status === 'duplicate_registration') throw duplicate();
    await announce({ org_id: ownerOf(request), vehicle_id: result.vehicle.id, change: 'updated' });
    return result.vehicle;
  });

  const remove = mount.admit('manage', 'remove vehicles');
  app.delete(`${prefix}/vehicles/:id`, {
    ...remove.options,
    schema: {
      summary: 'Remove a vehicle from your fleet',
      description: withNote('Its notification settings go with it. 404 `vehicle_not_found`.', remove.note),
      tags: [TAG],
      params: VehicleParams,
      response: { 204: Type.Null({ description: 'Removed' }) },
    },
  }, async (request, reply) => {
    if (!(await store.delete(ownerOf(request), request.params.id))) throw notFound(request.params.id);
    await announce({ org_id: ownerOf(request), vehicle_id: request.params.id, change: 'deleted' });
    return reply.code(204).send(null);
  });

  const settingsDescription = `Alert thresholds: ${THRESHOLD_NAMES.join(', ')}. Each is optional; PUT replaces them all, and an unknown one answers 400 naming it.`;

  const readSettings = mount.admit('view', 'see the notification settings');
  app.get(`${prefix}/notification-settings`, {
    ...readSettings.options,
    schema: {
      summary: 'Your organisation-wide notification settings',
      description: withNote(settingsDescription, readSettings.note),
      tags: [TAG],
      params: PrefixParams,
      response: { 200: SettingsSchema },
    },
  }, async (request) => (await store.notificationSettings(ownerOf(request), null))!);

  const setSettings = mount.admit('manage', 'change the notification settings');
  app.put(`${prefix}/notification-settings`, {
    ...setSettings.options,
    schema: {
      summary: 'Set your organisation-wide notification settings',
      description: withNote(settingsDescription, setSettings.note),
      tags: [TAG],
      params: PrefixParams,
      body: SettingsBody,
      response: { 200: SettingsSchema },
    },
  }, async (request) => {
    refuseUnknown(request.body, ['thresholds']);
    const settings = (await validated(store.setNotificationSettings(ownerOf(request), null, request.body.thresholds)))!;
    await announce({ org_id: ownerOf(request), vehicle_id: null, change: 'settings' });
    return settings;
  });

  const readVehicleSettings = mount.admit('view', 'see the notification settings');
  app.get(`${prefix}/vehicles/:id/notification-settings`, {
    ...readVehicleSettings.options,
    schema: {
      summary: 'A vehicle\'s notification settings',
      description: withNote(`${settingsDescription} \`effective\` is what applies to the vehicle. 404 \`vehicle_not_found\`.`, readVehicleSettings.note),
      tags: [TAG],
      params: VehicleParams,
      response: { 200: SettingsSchema },
    },
  }, async (request) => {
    const settings = await store.notificationSettings(ownerOf(request), request.params.id);
    if (!settings) throw notFound(request.params.id);
    return settings;
  });

  const setVehicleSettings = mount.admit('manage', 'change the notification settings');
  app.put(`${prefix}/vehicles/:id/notification-settings`, {
    ...setVehicleSettings.options,
    schema: {
      summary: 'Set a vehicle\'s notification settings',
      description: withNote(`${settingsDescription} They replace the organisation-wide thresholds key by key. 404 \`vehicle_not_found\`.`, setVehicleSettings.note),
      tags: [TAG],
      params: VehicleParams,
      body: SettingsBody,
      response: { 200: SettingsSchema },
    },
  }, async (request) => {
    refuseUnknown(request.body, ['thresholds']);
    const settings = await validated(store.setNotificationSettings(ownerOf(request), request.params.id, request.body.thresholds));
    if (!settings) throw notFound(request.params.id);
    await announce({ org_id: ownerOf(request), vehicle_id: request.params.id, change: 'settings' });
    return settings;
  });
}
