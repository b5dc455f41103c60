// The problem codes of the zone routes.
import { problemType } from '../platform/http/problems.ts';
import { MAX_ZONES } from './zones.ts';

export const zoneNotFound = problemType({
  code: 'zone_not_found',
  status: 404,
  title: 'No such zone',
  description: 'No zone with this id belongs to your organisation (or API key).',
});

export const zoneLimitReached = problemType({
  code: 'zone_limit_reached',
  status: 409,
  title: 'Your organisation has as many zones as it may',
  description: `An organisation keeps at most ${MAX_ZONES.toLocaleString('en')} zones; remove one to add another.`,
});
