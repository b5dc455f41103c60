// The problem codes of the watch list routes.
import { problemType } from '../platform/http/problems.ts';
import { MAX_WATCH_ENTRIES } from './watch-list.ts';

export const watchEntryNotFound = problemType({
  code: 'watch_entry_not_found',
  status: 404,
  title: 'No such watch list entry',
  description: 'No entry with this id is on the watch list of your organisation (or API key).',
});

export const watchListFull = problemType({
  code: 'watch_list_full',
  status: 409,
  title: 'Your watch list is full',
  description: `An organisation watches at most ${MAX_WATCH_ENTRIES.toLocaleString('en')} airports and ports; remove an entry to add another.`,
});

export const watchTargetUnknown = problemType({
  code: 'watch_target_unknown',
  status: 422,
  title: 'LAMIS does not know this airport or port',
  description: 'The `icao` is not an airport of the reference data (OurAirports), or the `port_id` not a port of the port data LAMIS holds; `errors` names the field.',
});
