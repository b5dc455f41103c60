// The problem of an airport code the reference data does not know: the airport routes and the
// landing endpoint raise it alike.
import { problemType } from '../../platform/http/problems.ts';

export const airportNotFound = problemType({
  code: 'airport_not_found', status: 404, title: 'No such airport',
  description: 'No airport in the reference data (OurAirports) has this ICAO, GPS or IATA code; `errors` names the field.',
});
