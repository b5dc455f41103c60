// Small pieces every feature's routes use: nullable schemas, field-level 400s, and a scope whose
// routes take raw text bodies (NMEA, METAR, NOTAM) instead of JSON.
import { Type, type TSchema } from 'typebox';
import type { App } from './app.ts';
import { ProblemError, Problems } from './problems.ts';

export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A 400 naming one field by its path (`/body/eta_utc`, `/params/mmsi`, `/querystring/bbox`). */
export function invalidField(path: string, message: string): ProblemError {
  return new ProblemError(Problems.validation, `${path} ${message}`, { errors: [{ path, message }] });
}

/** Registers routes that take the given text types as a string body (up to `bodyLimit`, default the server's), and no JSON. */
export function textBodyRoutes(app: App, body: { types: string[]; bodyLimit?: number }, register: (scope: App) => void): void {
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(body.types, { parseAs: 'string', bodyLimit: body.bodyLimit }, (_request, text, done) => done(null, text));
    register(scope);
  });
}
