// What a NOTAM feed (the FAA NOTAM API, the simulator) gives the NOTAM store.
import type { NotamSource } from './notams.table.ts';
import type { Notam } from './types.ts';

export type FeedSource = Exclude<NotamSource, 'operator'>;

export type ProviderResult = { ok: true; notams: Notam[] } | { ok: false; error: string };

/** A feed of NOTAMs per aerodrome. A thrown error counts as a failed refresh. */
export interface NotamProvider {
  readonly source: FeedSource;
  /** The NOTAMs the feed currently lists for the location. */
  notamsFor(location: string, nowMs: number): Promise<ProviderResult>;
}
