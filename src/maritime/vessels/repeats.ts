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

type Held = { reader: string; at: number; position: string | null; voyage: string | null };

const positionOf = (vessel: Vessel): string => {
  const p = vessel.position!;
  return `${p.lat} ${p.lon} ${p.sog} ${p.cog} ${p.heading} ${p.rot} ${p.nav_status}`;
};
const voyageOf = (vessel: Vessel): string => JSON.stringify([
  vessel.name, vessel.callsign, vessel.imo, vessel.ship_type, vessel.dimensions, vessel.destination, vessel.eta, vessel.draught,
]);

export class RepeatFilter {
  readonly #held = new Map<number, Held>();

  /** True when the change is another reader's copy of what was passed on, or older than it. */
  repeated(change: PublishedChange): boolean {
    const { vessel, reader } = change;
    const at = Date.parse(vessel.last_update);
    const held = this.#held.get(vessel.mmsi);
    const position = change.position && vessel.position !== null ? positionOf(vessel) : null;
    const voyage = change.static ? voyageOf(vessel) : null;
    if (held !== undefined && held.reader !== reader) {
      if (at < held.at) return true;
      if (at - held.at <= REPEAT_MS && (position === null || position === held.position) && (voyage === null || voyage === held.voyage)) return true;
    }
    this.#held.set(vessel.mmsi, { reader, at, position: position ?? held?.position ?? null, voyage: voyage ?? held?.voyage ?? null });
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
