// `feed.stale`: a source an organisation depends on has gone quiet or failed (subject
// `{type: "feed", id}`; warning; cleared when it is fresh again), checked on a timer:
//
// - each AIS feed (`ais:<feed id>`, the simulator `ais:simulator` among them), for organisations with
//   fleet vessels or zones: stale when it has received nothing for the AIS limit
//   (LAMIS_FEED_STALE_AIS_SEC; a feed that never received counts from when it entered its state).
//   A feed stopped or a file replay that reached its end is no longer a source: its event clears.
// - the METAR source (`metar`) and the NOTAM source (`notam`), for organisations with watched
//   planned arrivals or watched airports: stale when none of the airports the organisation watches
//   has a METAR observed within the METAR limit, or NOTAMs fetched within the NOTAM limit — the
//   source, not one quiet station. Where no source runs (operators push the reports) nothing can
//   go stale: the event clears.
//
// An organisation that no longer depends on a source (its last vessel, zone or watched airport gone)
// has that source's event cleared at the next check. `data`: the limit, the newest data seen and,
// for METAR and NOTAM, each airport's.
import type { ArrivalStore, FleetStore } from '../fleet/index.ts';
import type { LandingWatch, SourceFreshness } from '../aviation/index.ts';
import type { EventStore } from '../events/index.ts';
import type { MaritimeWatch } from '../maritime/index.ts';
import type { WatchListStore } from '../watchlist/index.ts';
import type { ZoneStore } from '../zones/index.ts';
import { applyOutcome, type Outcome } from './outcome.ts';

/** What an AIS feed's status says: `since` is when it entered its state, `last_data_at` when data last came. */
export function aisFeedOutcome(feed: { id: string; state: string; since: string; last_data_at: string | null; detail: string | null }, nowMs: number, limitMs: number): Outcome {
  if (feed.state === 'stopped' || feed.state === 'finished') return { status: 'off' };
  const last = feed.last_data_at ?? feed.since;
  const quietMs = nowMs - Date.parse(last);
  if (quietMs <= limitMs) return { status: 'categorical', holds: false };
  const quietMin = Math.round(quietMs / 60_000);
  return {
    status: 'categorical', holds: true,
    event: {
      severity: 'warning',
      summary: `The AIS feed ${feed.id} has received nothing for ${quietMin} min (limit ${Math.round(limitMs / 1000)} s); it is ${feed.state}.`,
      data: { source: `ais:${feed.id}`, state: feed.state, detail: feed.detail, last_data_at: feed.last_data_at, limit_sec: Math.round(limitMs / 1000) },
    },
  };
}

/** What the METAR or NOTAM source says for one organisation's airports. */
export function aviationSourceOutcome(kind: 'metar' | 'notam', freshness: SourceFreshness, nowMs: number, limitMs: number): Outcome {
  if (freshness.source === 'operator_only' || freshness.airports.length === 0) return { status: 'off' };
  const newest = freshness.airports.map((airport) => airport.at).filter((at): at is string => at !== null).sort().at(-1) ?? null;
  if (newest !== null && nowMs - Date.parse(newest) <= limitMs) return { status: 'categorical', holds: false };
  const what = kind === 'metar' ? 'METAR observed' : 'NOTAMs fetched';
  const limitMin = Math.round(limitMs / 60_000);
  return {
    status: 'categorical', holds: true,
    event: {
      severity: 'warning',
      summary: `The ${freshness.source} ${kind.toUpperCase()} source is stale: no airport you watch has ${what} in the last ${limitMin} min.`,
      data: { source: kind, source_kind: freshness.source, newest, limit_minutes: limitMin, airports: freshness.airports },
    },
  };
}

export interface FeedRulesInputs {
  fleet: FleetStore;
  zones: ZoneStore;
  arrivals: ArrivalStore;
  watchList: WatchListStore;
  landing: LandingWatch;
  maritime: MaritimeWatch;
  events: EventStore;
  limits: { aisMs: number; metarMs: number; notamMs: number };
}

export class FeedRules {
  readonly #inputs: FeedRulesInputs;
  /** The owners and feeds judged by the last evaluation: one that no longer depends on a feed has its event cleared. */
  #judged = new Map<string, { owner: string; id: string }>();

  constructor(inputs: FeedRulesInputs) {
    this.#inputs = inputs;
  }

  async evaluate(nowMs = Date.now()): Promise<void> {
    const { fleet, zones, arrivals, watchList, landing, maritime, events, limits } = this.#inputs;
    const judged = new Map<string, { owner: string; id: string }>();
    const judge = async (owner: string, id: string, outcome: Outcome) => {
      judged.set(`${owner} ${id}`, { owner, id });
      await applyOutcome(events, owner, 'feed.stale', { type: 'feed', id }, outcome);
    };
    const aisOwners = new Set([...(await fleet.fleetVessels()).map((vessel) => vessel.owner), ...(await zones.owners())]);
    const feeds = maritime.feeds();
    for (const owner of aisOwners) {
      for (const feed of feeds) await judge(owner, `ais:${feed.id}`, aisFeedOutcome(feed, nowMs, limits.aisMs));
    }

    const airportsOf = new Map<string, Set<string>>();
    const watch = (owner: string, icao: string) => airportsOf.set(owner, (airportsOf.get(owner) ?? new Set()).add(icao));
    for (const arrival of await arrivals.watched(null, nowMs)) watch(arrival.org_id, arrival.destination_icao);
    for (const { org_id: owner, target } of await watchList.watchers('airport')) watch(owner, target);
    if (airportsOf.size > 0) {
      // Each airport asked once, whoever watches it.
      const everyAirport = [...new Set([...airportsOf.values()].flatMap((set) => [...set]))].sort();
      const fresh = await landing.freshness(everyAirport, nowMs);
      for (const [owner, icaos] of airportsOf) {
        const only = (freshness: SourceFreshness): SourceFreshness => ({ source: freshness.source, airports: freshness.airports.filter((airport) => icaos.has(airport.icao)) });
        await judge(owner, 'metar', aviationSourceOutcome('metar', only(fresh.metar), nowMs, limits.metarMs));
        await judge(owner, 'notam', aviationSourceOutcome('notam', only(fresh.notams), nowMs, limits.notamMs));
      }
    }
    for (const [key, { owner, id }] of this.#judged) {
      if (!judged.has(key)) await applyOutcome(events, owner, 'feed.stale', { type: 'feed', id }, { status: 'off' });
    }
    this.#judged = judged;
  }
}
