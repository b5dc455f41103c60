// What the live map knows about vessels, fed by the stream. Updates only change records and bump
// `version`; the map hands them to MapLibre a few times a second at most when the version moved,
// however many updates came in between. While paused, updates are held (the latest per vessel)
// and applied on resume.
import type { PositionUpdate, StaticUpdate, SubscribeFilters } from '@lamis/sdk';
import { boxContains, type Box } from './area.ts';
import type { VesselCategory } from './categories.ts';

export interface VesselRecord {
  mmsi: number;
  name: string | null;
  imo: number | null;
  flag: string | null;
  category: VesselCategory;
  lat: number;
  lon: number;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  navStatus: number | null;
  /** When the position was received, in epoch milliseconds. */
  time: number;
  source: string | null;
  destination: string | null;
}

export interface MapFilter {
  /** Empty: every category. */
  vesselTypes: ReadonlySet<VesselCategory>;
  /** ISO alpha-2 in upper case; empty: every flag. */
  flags: ReadonlySet<string>;
  mmsi: ReadonlySet<number>;
  imo: ReadonlySet<number>;
  /** The area to watch, or null for the whole world. */
  box: Box | null;
}

export const NO_FILTER: MapFilter = { vesselTypes: new Set(), flags: new Set(), mmsi: new Set(), imo: new Set(), box: null };

/** The stream's rule: kinds combine with AND, values of one kind with OR, an empty kind passes. */
export function matchesFilter(vessel: Pick<VesselRecord, 'category' | 'flag' | 'mmsi' | 'imo' | 'lat' | 'lon'>, filter: MapFilter): boolean {
  if (filter.vesselTypes.size > 0 && !filter.vesselTypes.has(vessel.category)) return false;
  if (filter.flags.size > 0 && (vessel.flag === null || !filter.flags.has(vessel.flag))) return false;
  if (filter.mmsi.size > 0 && !filter.mmsi.has(vessel.mmsi)) return false;
  if (filter.imo.size > 0 && (vessel.imo === null || !filter.imo.has(vessel.imo))) return false;
  if (filter.box && !boxContains(filter.box, vessel.lat, vessel.lon)) return false;
  return true;
}

/** The subscribe message for a filter: empty kinds are left out, so `{}` means every vessel. */
export function subscribeFilters(filter: MapFilter, updateIntervalSec?: number): SubscribeFilters {
  const filters: SubscribeFilters = {};
  if (filter.box) filters.bbox = filter.box;
  if (filter.vesselTypes.size > 0) filters.vesselTypes = [...filter.vesselTypes];
  if (filter.flags.size > 0) filters.flags = [...filter.flags];
  if (filter.mmsi.size > 0) filters.mmsi = [...filter.mmsi];
  if (filter.imo.size > 0) filters.imo = [...filter.imo];
  if (updateIntervalSec !== undefined) filters.updateIntervalSec = updateIntervalSec;
  return filters;
}

export class VesselStore {
  readonly #vessels = new Map<number, VesselRecord>();
  readonly #held = new Map<number, PositionUpdate>();
  readonly #heldStatic = new Map<number, StaticUpdate>();
  #paused = false;
  /** Bumped by every change the map would show. */
  version = 0;

  get size(): number {
    return this.#vessels.size;
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Updates held while paused (one per vessel). */
  get held(): number {
    return this.#held.size;
  }

  get(mmsi: number): VesselRecord | undefined {
    return this.#vessels.get(mmsi);
  }

  values(): IterableIterator<VesselRecord> {
    return this.#vessels.values();
  }

  applyPosition(update: PositionUpdate): void {
    if (this.#paused) {
      this.#held.set(update.mmsi, update);
      return;
    }
    const time = Date.parse(update.timestamp);
    const known = this.#vessels.get(update.mmsi);
    // Frames can overtake each other across a reconnect; an older position never replaces a newer one.
    if (known && time < known.time) return;
    const record: VesselRecord = known ?? {
      mmsi: update.mmsi,
      name: null,
      imo: null,
      flag: null,
      category: 'OTHER',
      lat: 0,
      lon: 0,
      sog: null,
      cog: null,
      heading: null,
      navStatus: null,
      time,
      source: null,
      destination: null,
    };
    record.name = update.name ?? record.name;
    record.imo = update.imo ?? record.imo;
    record.flag = update.flag ?? record.flag;
    record.category = update.vessel_type;
    record.lat = update.lat;
    record.lon = update.lon;
    record.sog = update.sog;
    record.cog = update.cog;
    record.heading = update.heading;
    record.navStatus = update.nav_status;
    record.time = time;
    record.source = update.source ?? null;
    if (!known) this.#vessels.set(update.mmsi, record);
    this.version++;
  }

  /** Static and voyage data of a vessel already on the map (a new one comes with its position). */
  applyStatic(update: StaticUpdate): void {
    if (this.#paused) {
      this.#heldStatic.set(update.mmsi, update);
      return;
    }
    const known = this.#vessels.get(update.mmsi);
    if (!known) return;
    known.name = update.name ?? known.name;
    known.imo = update.imo ?? known.imo;
    known.flag = update.flag ?? known.flag;
    known.category = update.vessel_type;
    known.destination = update.destination ?? known.destination;
    this.version++;
  }

  pause(): void {
    this.#paused = true;
  }

  /** Applies what was held, each vessel's latest position once. */
  resume(): void {
    this.#paused = false;
    const held = [...this.#held.values()];
    const heldStatic = [...this.#heldStatic.values()];
    this.#held.clear();
    this.#heldStatic.clear();
    for (const update of held) this.applyPosition(update);
    for (const update of heldStatic) this.applyStatic(update);
    this.version++;
  }

  /** Drops the vessels (and held updates) a new filter no longer takes in. */
  retain(filter: MapFilter): number {
    let removed = 0;
    for (const [mmsi, vessel] of this.#vessels) {
      if (matchesFilter(vessel, filter)) continue;
      this.#vessels.delete(mmsi);
      removed++;
    }
    for (const [mmsi, update] of this.#held) {
      const vessel = { category: update.vessel_type, flag: update.flag, mmsi, imo: update.imo, lat: update.lat, lon: update.lon };
      if (!matchesFilter(vessel, filter)) this.#held.delete(mmsi);
    }
    if (removed > 0) this.version++;
    return removed;
  }

  /** Drops vessels not heard from since `before` (epoch ms), as the server drops stale positions. */
  expire(before: number): number {
    let removed = 0;
    for (const [mmsi, vessel] of this.#vessels) {
      if (vessel.time >= before) continue;
      this.#vessels.delete(mmsi);
      removed++;
    }
    if (removed > 0) this.version++;
    return removed;
  }

  clear(): void {
    this.#vessels.clear();
    this.#held.clear();
    this.#heldStatic.clear();
    this.version++;
  }
}

/** Updates per second over a sliding window of whole seconds. */
export class RateMeter {
  readonly #windowSec: number;
  readonly #buckets: number[];
  #bucketSecond = 0;

  constructor(windowSec = 5) {
    this.#windowSec = windowSec;
    this.#buckets = new Array<number>(windowSec).fill(0);
  }

  record(now: number, count = 1): void {
    this.#advance(now);
    this.#buckets[this.#bucketSecond % this.#windowSec]! += count;
  }

  /** The mean over the last full seconds of the window (the current second is still filling). */
  perSecond(now: number): number {
    this.#advance(now);
    let total = 0;
    for (let index = 0; index < this.#windowSec; index++) {
      if (index !== this.#bucketSecond % this.#windowSec) total += this.#buckets[index]!;
    }
    return total / (this.#windowSec - 1);
  }

  #advance(now: number): void {
    const second = Math.floor(now / 1000);
    if (second - this.#bucketSecond >= this.#windowSec) this.#buckets.fill(0);
    else for (let next = this.#bucketSecond + 1; next <= second; next++) this.#buckets[next % this.#windowSec] = 0;
    if (second > this.#bucketSecond) this.#bucketSecond = second;
  }
}
