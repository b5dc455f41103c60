// Vessel changes as a receiver on the bus takes them. Every instance that reads a feed publishes
// what it ingests, so when two read the same feed each report arrives twice, once from each
// reader, with the same content and each reader's own receive time (the same time when the feed
// carries its receivers' tag-block times). A receiver passes on the first copy and drops a change
// of another reader than the vessel's last one passed on when it says nothing new: it is older
// (the slower reader's copy of an earlier report), or it carries the same position and voyage data
// within REPEAT_MS (its copy of the same report; or one transmission two receivers relayed). A
// reader's own changes always pass: they come in order, and a vessel that repeats itself is news
// to a stream subscribed since.
import type { Change, Vessel } from './store.ts';

/** How far apart two readers may stamp one report (their clocks kept right, e.g. by NTP). */
export const REPEAT_MS = 5000;

/** A vessel change as it travels on the bus: with the instance that read it. */
export type PublishedChange = Change & { reader: string };

/**
 * The vessel of the last change passed on, and who read it. On the in-process bus it is the read
 * copy's object, updated in place; but that bus carries this instance's changes only, never
 * compared. On NATS and Redis every change arrives as an object of its own.
 */
type Held = { reader: string; vessel: Vessel };

function samePosition(a: Vessel, b: Vessel): boolean {
  const p = a.position;
  const q = b.position;
  if (p === null || q === null) return p === q;
  return p.lat === q.lat && p.lon === q.lon && p.sog === q.sog && p.cog === q.cog && p.heading === q.heading && p.rot === q.rot && p.nav_status === q.nav_status;
}

function sameVoyage(a: Vessel, b: Vessel): boolean {
  const d = a.dimensions;
  const e = b.dimensions;
  const sameDimensions = d === null || e === null ? d === e
    : d.to_bow === e.to_bow && d.to_stern === e.to_stern && d.to_port === e.to_port && d.to_starboard === e.to_starboard && d.length === e.length && d.beam === e.beam;
  return sameDimensions && a.name === b.name && a.callsign === b.callsign && a.imo === b.imo && a.ship_type === b.ship_type &&
    a.destination === b.destination && a.eta === b.eta && a.draught === b.draught;
}

/** Per change, one map look-up and, only when another reader's change meets the vessel's last one, a comparison. */
export class RepeatFilter {
  readonly #held = new Map<number, Held>();

  /** True when the change is another reader's copy of what was passed on, or older than it. */
  repeated(change: PublishedChange): boolean {
    const { vessel, reader } = change;
    const held = this.#held.get(vessel.mmsi);
    if (held === undefined) {
      this.#held.set(vessel.mmsi, { reader, vessel });
      return false;
    }
    if (held.reader !== reader) {
      const since = Date.parse(vessel.last_update) - Date.parse(held.vessel.last_update);
      if (since < 0) return true;
      if (since <= REPEAT_MS && (!change.position || samePosition(vessel, held.vessel)) && (!change.static || sameVoyage(vessel, held.vessel))) return true;
    }
    held.reader = reader;
    held.vessel = vessel;
    return false;
  }
}

/** The handler, given each vessel change once (see above); one filter per subscription. */
export function withoutRepeats(handler: (change: PublishedChange) => void): (change: PublishedChange) => void {
  const filter = new RepeatFilter();
  return (change) => {
    if (!filter.repeated(change)) handler(change);
  };
}
