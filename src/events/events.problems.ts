// The problem codes of the events routes.
import { problemType } from '../platform/http/problems.ts';

export const eventNotFound = problemType({
  code: 'event_not_found',
  status: 404,
  title: 'No such event',
  description: 'No event with this id was raised for your organisation (or API key).',
});
