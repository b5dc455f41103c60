// Where each input of a landing bundle came from and how old it is, one row per input, so a
// simulated or stale input is never mistaken for a live one.
import { formatUtc } from '../../app/format.ts';
import { age } from './format.ts';
import type { LandingBundle } from './types.ts';

/** Where the data came from: a live feed, the built-in simulator, an operator's push, imported reference data. */
export type Origin = 'live' | 'simulated' | 'operator' | 'imported' | 'none';
/** How recently LAMIS confirmed it with its source; `reference` for data that does not age (airports). */
export type Currency = 'live' | 'recent' | 'stale' | 'missing' | 'failing' | 'reference';

export interface FreshnessRow {
  input: string;
  origin: Origin;
  currency: Currency;
  /** "observed 28 min ago", "fetched 12 s ago". */
  age: string;
  detail: string;
}

type Sources = LandingBundle['sources'];
/** A METAR's (observed) or a TAF's (issued) source. */
type ReportSource = NonNullable<Sources['metar']> | NonNullable<Sources['taf']>;

// The thresholds the weather store uses for its reports (README, "Inputs and where they come
// from"): confirmed under a minute ago is live, up to five minutes recent, then stale.
const LIVE_WITHIN_S = 60;
const STALE_AFTER_S = 300;

function reportRow(input: string, report: ReportSource | null, ageSec: number | null, what: 'observed' | 'checked'): FreshnessRow {
  if (report === null) {
    return { input, origin: 'none', currency: 'missing', age: '', detail: `No ${input} is held for this airport.` };
  }
  const when = 'observed_at' in report ? report.observed_at : report.issued_at;
  return {
    input,
    origin: report.source,
    currency: report.freshness,
    age: ageSec === null ? '' : `${what} ${age(ageSec)} ago`,
    detail: `${what === 'observed' ? 'Observed' : 'Issued'} ${formatUtc(when)}, received ${formatUtc(report.received_at)}.`,
  };
}

/** One row per input: METAR, TAF, each NOTAM feed, the airport data. */
export function freshnessRows(bundle: LandingBundle, nowMs: number): FreshnessRow[] {
  const sources = bundle.sources;
  const rows: FreshnessRow[] = [
    reportRow('METAR', sources.metar, sources.ages_sec.metar_observation, 'observed'),
    reportRow('TAF', sources.taf, sources.ages_sec.taf_check, 'checked'),
  ];
  if (sources.notams.length === 0) {
    rows.push({ input: 'NOTAMs', origin: 'none', currency: 'missing', age: '', detail: 'No NOTAM source is configured: only operators\' NOTAMs are shown.' });
  }
  for (const feed of sources.notams) {
    const fetchedAgo = feed.fetched_at === null ? null : Math.max(0, (nowMs - Date.parse(feed.fetched_at)) / 1000);
    const currency: Currency = feed.error !== null ? 'failing'
      : fetchedAgo === null ? 'missing'
      : fetchedAgo < LIVE_WITHIN_S ? 'live' : fetchedAgo <= STALE_AFTER_S ? 'recent' : 'stale';
    rows.push({
      input: 'NOTAMs',
      origin: feed.source,
      currency,
      age: fetchedAgo === null ? 'never fetched' : `fetched ${age(fetchedAgo)} ago`,
      detail: feed.error === null ? `Last fetched ${formatUtc(feed.fetched_at)}.` : `The last fetch failed (${feed.error}); the previous NOTAMs are shown.`,
    });
  }
  rows.push({ input: 'Airport and runways', origin: 'imported', currency: 'reference', age: '', detail: bundle.sources.airport });
  return rows;
}

/** Whether any input is simulated: the briefing then says so at the top. */
export function anySimulated(rows: readonly FreshnessRow[]): boolean {
  return rows.some((row) => row.origin === 'simulated');
}
