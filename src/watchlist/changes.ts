// The watch list's changes topic: an organisation began watching an airport or a port, so the
// intelligence engine judges it at once rather than at its next input or interval. It names the
// owner and the target only.
import { topic } from '../platform/bus/index.ts';
import type { WatchType } from './watch-list.ts';

export interface WatchListChange {
  org_id: string;
  type: WatchType;
  /** The airport's ICAO code or the port's id. */
  target: string;
}

export const watchListChanges = topic<WatchListChange>('watchlist.changes');
