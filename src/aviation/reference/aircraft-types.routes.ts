// The aircraft type table over REST: every type, and one by its ICAO designator.
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { decodeCursor, Page, PageQuery, pageOf } from '../../platform/http/pagination.ts';
import { invalidField as invalid } from '../../platform/http/schema.ts';
import { TAG } from '../services.ts';
import { AircraftTypeSchema } from './aircraft-types.schemas.ts';
import { AIRCRAFT_TYPES, aircraftType, type AircraftType } from './aircraft-types.ts';

export const unknownAircraftType = problemType({
  code: 'unknown_aircraft_type',
  status: 404,
  title: 'No such aircraft type',
  description: 'The ICAO Doc 8643 type designator is not in the aircraft type table LAMIS holds.',
});

const DesignatorParams = Type.Object({
  designator: Type.String({ description: 'ICAO Doc 8643 type designator, 2 to 4 letters or digits ("B738"), any case' }),
});

function aircraftTypeView(type: AircraftType) {
  return { ...type, recat_eu: type.recat_eu ?? null, vref_kt: type.vref_kt ?? null };
}

export function registerAircraftTypeRoutes(app: App): void {
  app.get('/v3/aviation/aircraft-types', {
    schema: {
      summary: 'The aircraft types LAMIS knows',
      description: 'Sorted by designator, cursor-paginated. Planning reference figures: the flight manual and the operator\'s procedures always govern.',
      tags: [TAG],
      querystring: Type.Object({ ...PageQuery }),
      response: { 200: Page(AircraftTypeSchema) },
    },
  }, async (request) => {
    const after = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, (k): k is string => typeof k === 'string');
    const page = pageOf(AIRCRAFT_TYPES, (type) => type.designator, request.query.limit!, after);
    return { data: page.data.map(aircraftTypeView), next_cursor: page.next_cursor };
  });

  app.get('/v3/aviation/aircraft-types/:designator', {
    schema: {
      summary: 'One aircraft type by ICAO designator',
      description: 'Approach, wake and RECAT-EU categories, crosswind figure and landing distance. 404 `unknown_aircraft_type` when the type is not in the table.',
      tags: [TAG],
      params: DesignatorParams,
      response: { 200: AircraftTypeSchema },
    },
  }, async (request) => {
    const designator = request.params.designator;
    if (!/^[A-Za-z0-9]{2,4}$/.test(designator)) throw invalid('/params/designator', `must be 2 to 4 letters or digits (got "${designator}")`);
    const type = aircraftType(designator);
    if (type === undefined) throw new ProblemError(unknownAircraftType, `${designator.toUpperCase()} is not in the aircraft type table.`);
    return aircraftTypeView(type);
  });
}
