// The problem codes of planned arrivals (both mounts). An ETA out of its window and a vessel
// asked to land answer the landing endpoint's own problems, `eta_out_of_range` and
// `vehicle_cannot_land`.
import { problemType } from '../platform/http/problems.ts';

export const arrivalNotFound = problemType({
  code: 'arrival_not_found',
  status: 404,
  title: 'No such planned arrival',
  description: 'The vehicle has no planned arrival with this id in the fleet of your organisation (or API key).',
});
