// NOTAMs over REST: those in force at an airport for an instant or a window, and NOTAMs pushed as
// raw ICAO or FAA domestic text by operators of the instance (every organisation is briefed on them).
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import { operatorsOnly } from '../../platform/http/operators.ts';
import { instant, invalidField as invalid, textBodyRoutes } from '../../platform/http/schema.ts';
import { airportFor, IcaoParams } from '../reference/airports.routes.ts';
import { TAG, type AviationServices } from '../services.ts';
import { FeedStatusSchema, NotamQuery, NotamSchema, SubmitResultSchema } from './notams.schemas.ts';
import type { StoredNotam } from './store.ts';

export const invalidNotam = problemType({
  code: 'invalid_notam',
  status: 422,
  title: 'The NOTAM was refused',
  description:
    'A pushed NOTAM was not stored. `reason` says why: a parser code (`missing_q_line`, `bad_time`, `missing_location`...), ' +
    '`missing_number` (no `A1234/24 NOTAMN` header), `duplicate` (the number is on file with another text) or ' +
    '`unknown_reference` (a NOTAMC for a NOTAM not on file).',
});

function notamView(notam: StoredNotam) {
  return { ...notam, location: [...notam.location], purpose: [...notam.purpose], scope: [...notam.scope] };
}

/** The instant or window of the query, in milliseconds; [now, now + 1) by default. */
function window(query: { at?: string; from?: string; to?: string }): { from: number; to: number } {
  if (query.at !== undefined) {
    if (query.from !== undefined || query.to !== undefined) throw invalid('/querystring/at', 'cannot be combined with `from` and `to`');
    const at = instant(query.at, '/querystring/at');
    return { from: at, to: at + 1 };
  }
  if (query.from === undefined && query.to === undefined) {
    const now = Date.now();
    return { from: now, to: now + 1 };
  }
  if (query.from === undefined) throw invalid('/querystring/from', 'is required with `to`');
  if (query.to === undefined) throw invalid('/querystring/to', 'is required with `from`');
  const from = instant(query.from, '/querystring/from');
  const to = instant(query.to, '/querystring/to');
  if (to <= from) throw invalid('/querystring/to', 'must be after `from`');
  return { from, to };
}

export function registerNotamRoutes(app: App, services: AviationServices): void {
  const { notams } = services;

  app.get('/v3/aviation/airports/:icao/notams', {
    schema: {
      summary: 'The NOTAMs in force at an airport',
      description:
        'NOTAMs in force at `at` (default now), or at any moment of [`from`, `to`), item D) schedules applied; with the parsed fields, ' +
        'their landing effects and their source. `feeds` gives the state of each NOTAM feed for the airport, `input_source` where this ' +
        'instance gets NOTAMs from (operator pushes come on top).',
      tags: [TAG],
      params: IcaoParams,
      querystring: NotamQuery,
      response: {
        200: Type.Object({
          icao: Type.String(),
          from: Type.String({ format: 'date-time' }),
          to: Type.String({ format: 'date-time', description: 'Exclusive; for an instant (`at`, or now) 1 ms after `from`' }),
          data: Type.Array(NotamSchema),
          feeds: Type.Array(FeedStatusSchema),
          input_source: Type.Enum(['live', 'simulated', 'operator_only']),
          disclaimer: Type.String(),
        }),
      },
    },
  }, async (request) => {
    const airport = airportFor(services, request.params.icao);
    const { from, to } = window(request.query);
    const result = await notams.forAirport(airport.icao, { from, to });
    return {
      icao: airport.icao,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      data: result.notams.map(notamView),
      feeds: result.feeds,
      input_source: services.sources.notams,
      disclaimer: DISCLAIMER,
    };
  });

  textBodyRoutes(app, { types: ['text/plain'] }, (scope) => {
    scope.post('/v3/aviation/notams', {
      preValidation: operatorsOnly('Only an operator of this instance may push a NOTAM: every organisation is briefed on it.'),
      schema: {
        summary: 'Push a NOTAM (operators)',
        description:
          'For operators of this instance only (403 `forbidden` for organisation keys): every organisation is briefed on the NOTAMs in force. ' +
          'Body: one NOTAM as `text/plain`, ICAO format (`A1234/24 NOTAMN`, Q) and items A)-G)) or FAA domestic (`!JFK 01/123 ...`). ' +
          'It is filed under each item A) location with source `operator`. A NOTAMR or NOTAMC ends the NOTAM it names when it comes into force. ' +
          '201 when stored, 200 when the identical NOTAM was already on file, 422 `invalid_notam` with the `reason` otherwise.',
        tags: [TAG],
        consumes: ['text/plain'],
        body: Type.String({ description: 'The raw NOTAM' }),
        response: { 200: SubmitResultSchema, 201: SubmitResultSchema },
      },
    }, async (request, reply) => {
      const result = await notams.submit(request.body);
      if (!result.ok) throw new ProblemError(invalidNotam, result.error.message, { extra: { reason: result.error.code } });
      reply.code(result.created ? 201 : 200);
      return { notam: notamView(result.notam), created: result.created, ended: result.ended };
    });
  });
}
