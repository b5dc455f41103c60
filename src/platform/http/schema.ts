// Small pieces every feature's routes use: nullable schemas, shapes shared under a name, field-level
// 400s, a scope whose routes take raw text bodies (NMEA, METAR, NOTAM) instead of JSON, and GeoJSON
// point collections for maps.
import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import type { App } from './app.ts';
import { ProblemError, Problems } from './problems.ts';

export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const sharedSchemas = new Map<string, TSchema>();

/**
 * A shape clients name (`Metar`, `Vessel`), declared once: the schema is kept under `name` and
 * what comes back is a reference to it (`$ref`), typed as the shape itself. The server registers
 * every such shape (`addSharedSchemas`), so serialisation and validation resolve the references and
 * OpenAPI lists the shape once under its name in `components.schemas`: the SDK gets one type for it.
 */
export function Shared<T extends TSchema>(name: string, schema: T): TUnsafe<Static<T>> {
  if (sharedSchemas.has(name)) throw new Error(`two shared schemas are named ${name}`);
  sharedSchemas.set(name, { ...schema, $id: name, title: name });
  return Type.Unsafe<Static<T>>({ $ref: `${name}#` });
}

/** Registers every shape declared with `Shared` (route modules declare theirs when imported). */
export function addSharedSchemas(app: FastifyInstance): void {
  for (const schema of sharedSchemas.values()) app.addSchema(schema);
}

/** A 400 naming one field by its path (`/body/eta_utc`, `/params/mmsi`, `/querystring/bbox`). */
export function invalidField(path: string, message: string): ProblemError {
  return new ProblemError(Problems.validation, `${path} ${message}`, { errors: [{ path, message }] });
}

/** An ISO 8601 time parameter: validated by the schema, read here. */
export const DateTime = (description: string) => Type.String({ format: 'date-time', description });

/**
 * Milliseconds of an ISO 8601 time the schema accepted as `date-time`; 400 naming the field for
 * the few the schema lets through that are not real instants (a leap second, lower-case letters).
 */
export function instant(text: string, path: string): number {
  const ms = Date.parse(text.toUpperCase());
  if (Number.isNaN(ms)) throw invalidField(path, `must be an ISO 8601 time such as 2026-11-21T14:20:00Z (got "${text}")`);
  return ms;
}

/** Registers routes that take the given text types as a string body (up to `bodyLimit`, default the server's), and no JSON. */
export function textBodyRoutes(app: App, body: { types: string[]; bodyLimit?: number }, register: (scope: App) => void): void {
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(body.types, { parseAs: 'string', bodyLimit: body.bodyLimit }, (_request, text, done) => done(null, text));
    register(scope);
  });
}

/**
 * A GeoJSON FeatureCollection of points ([longitude, latitude]) with `properties` of the given shape:
 * what a map draws as it is, e.g. the port and airport labels of the dashboard's map.
 */
export function PointCollection<T extends TSchema>(properties: T, description: string) {
  return Type.Object({
    type: Type.Literal('FeatureCollection'),
    features: Type.Array(Type.Object({
      type: Type.Literal('Feature'),
      geometry: Type.Object({
        type: Type.Literal('Point'),
        coordinates: Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[longitude, latitude], degrees' }),
      }),
      properties,
    })),
  }, { description });
}
