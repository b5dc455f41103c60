// The fleet feed: for each vehicle of a fleet, what it needs now. An aircraft or helicopter gets its
// next watched planned arrival and the landing answer at its ETA (destination status, safety score,
// runway and approach, the wind against its limits, the slot); a vessel its last position, its
// destination and the port that is, the predicted ETA, the next tidal window for its draught and the
// weather hold there; each its open events. What cannot be answered is null, and `missing` says why.
//
// The entries are kept in memory per owner and recomputed when their inputs change; a request only
// assembles them. An owner's entries are built on its first request, or when it opens an event
// stream, and then follow:
// - `aviation.inputs`: the aircraft whose next arrival is at that airport;
// - `maritime.vessels`: the vessels of that MMSI, at most once every VESSEL_INTERVAL_MS each (a
//   change inside the interval is taken up at its end); the hot path is one map look-up per change;
// - `events.changes`: the open events of the vehicles the event is about, without recomputing;
// - `fleet.vehicles` and `fleet.arrivals`: the vehicle (its profile, arrivals or settings), or the
//   whole fleet for a new vehicle or the organisation's settings;
// - the clock: every REFRESH_MS everything is recomputed (an arrival passes, a tidal window closes).
// Work for one owner runs in order, one piece at a time; a request waits for the work already due.
// An owner neither read for IDLE_MS nor holding a stream is forgotten.
//
// An entry's `updated_at` is when its content last changed. A changed entry goes to the owner's
// event streams as a `feed` frame, at most once per vehicle every FEED_FRAME_INTERVAL_SEC (the
// latest entry then), and only when it differs from the last one sent; a position's age is no
// change, since it grows by itself.
import type { FastifyBaseLogger } from 'fastify';
import type { VehicleType } from '../../common/vehicle-types.ts';
import { TAILWIND_LIMIT_KT, type LandingIntelligence, type LandingWatch } from '../aviation/index.ts';
import { FEED_FRAME_INTERVAL_SEC, type EventChange, type EventStore, type FeedFrames, type FleetFeedEntry, type LamisEvent } from '../events/index.ts';
import { landingProfileFor, type ArrivalStore, type FleetStore, type FleetVehicle, type VehicleListKey } from '../fleet/index.ts';
import type { MaritimeWatch, Missing, VesselChange, WatchedVoyage } from '../maritime/index.ts';

/** A vessel's entry is recomputed at most this often, however often it reports. */
export const VESSEL_INTERVAL_MS = 30_000;
/** Everything is recomputed this often, for what changes with the clock alone. */
export const REFRESH_MS = 5 * 60_000;
/** An owner neither read nor streamed to for this long is forgotten. */
export const IDLE_MS = 30 * 60_000;
const FEED_FRAME_INTERVAL_MS = FEED_FRAME_INTERVAL_SEC * 1000;
/** Rows read at once when loading a fleet or its open events. */
const LOAD_PAGE = 100;

type Voyage = NonNullable<FleetFeedEntry['voyage']>;
type StoredVoyage = Omit<Voyage, 'position'> & { position: Omit<NonNullable<Voyage['position']>, 'age_sec'> | null };

/** What a recomputation finds: the entry but for the vehicle, its events and the position's age. */
interface Findings {
  arrival: FleetFeedEntry['arrival'];
  landing: FleetFeedEntry['landing'];
  voyage: StoredVoyage | null;
  missing: Missing[];
}

interface VehicleState {
  owner: OwnerFeed;
  vehicle: FleetVehicle;
  findings: Findings;
  /** The entry as compared: no `updated_at`, no position age. */
  content: string;
  updated_at: string;
  /** The airport of the next arrival: the `aviation.inputs` that concern it. */
  icao: string | null;
  /** A recomputation is queued and has not started. */
  queued: boolean;
  /** When the entry was last recomputed (0: never). */
  computedAt: number;
  /** When a change of the vessel last led to a recomputation: the throttle. */
  vesselAt: number;
  vesselTimer: NodeJS.Timeout | null;
  /** The content of the last `feed` frame (or the baseline while no stream listens). */
  sent: string | null;
  sentAt: number;
  frameTimer: NodeJS.Timeout | null;
}

interface OwnerFeed {
  owner: string;
  vehicles: Map<string, VehicleState>;
  /** The owner's open events, by id. */
  events: Map<string, LamisEvent>;
  /** The tail of the owner's work. */
  queue: Promise<void>;
  readAt: number;
  /** Events changed while the open events were being read: applied after. */
  early: EventChange[] | null;
  /** The first reading of the fleet is done: entries computed from here on are changes. */
  loaded: boolean;
}

export interface FleetFeedInputs {
  fleet: FleetStore;
  arrivals: ArrivalStore;
  landing: LandingWatch;
  vessels: MaritimeWatch;
  events: EventStore;
  frames: FeedFrames;
  log: FastifyBaseLogger;
  now?: () => number;
}

const UNAVAILABLE = 'LAMIS could not work this out just now; it tries again with the next change.';

export class FleetFeed {
  readonly #inputs: FleetFeedInputs;
  readonly #now: () => number;
  readonly #owners = new Map<string, OwnerFeed>();
  readonly #byIcao = new Map<string, Set<VehicleState>>();
  readonly #byMmsi = new Map<number, Set<VehicleState>>();
  #closed = false;

  constructor(inputs: FleetFeedInputs) {
    this.#inputs = inputs;
    this.#now = inputs.now ?? Date.now;
    inputs.frames.onStreamOpened((owner) => this.#ensure(owner));
  }

  /**
   * A page of the owner's entries in fleet order (creation time, then id; `vehicle_type` narrows
   * it), once the work due for the owner is done; `next` is null on the last page.
   */
  async page(owner: string, options: { vehicle_type?: VehicleType; limit: number; after?: VehicleListKey }): Promise<{ data: FleetFeedEntry[]; next: VehicleListKey | null }> {
    const feed = this.#ensure(owner);
    feed.readAt = this.#now();
    await feed.queue;
    const { after, limit } = options;
    const states = [...feed.vehicles.values()]
      .filter((state) => (options.vehicle_type === undefined || state.vehicle.vehicle_type === options.vehicle_type) && (after === undefined || compareKeys(keyOf(state.vehicle), after) > 0))
      .sort((a, b) => compareKeys(keyOf(a.vehicle), keyOf(b.vehicle)));
    const now = this.#now();
    const page = states.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map((state) => this.#entryOf(state, now)), next: states.length > limit && last !== undefined ? keyOf(last.vehicle) : null };
  }

  /** An airport's METAR, TAF or NOTAMs were stored. */
  airportChanged(icao: string): void {
    for (const state of this.#byIcao.get(icao.toUpperCase()) ?? []) this.#recompute(state);
  }

  /** A vessel reported: the hot path, one look-up for vessels outside every watched fleet. */
  vesselChanged(change: VesselChange): void {
    const states = this.#byMmsi.get(change.vessel.mmsi);
    if (states === undefined) return;
    for (const state of states) {
      if (state.vesselTimer !== null) continue;
      const now = this.#now();
      const wait = state.vesselAt + VESSEL_INTERVAL_MS - now;
      if (wait <= 0) {
        state.vesselAt = now;
        this.#recompute(state);
      } else {
        state.vesselTimer = setTimeout(() => {
          state.vesselTimer = null;
          state.vesselAt = this.#now();
          this.#recompute(state);
        }, wait).unref();
      }
    }
  }

  eventChanged(change: EventChange): void {
    const feed = this.#owners.get(change.org_id);
    if (feed === undefined) return;
    if (feed.early !== null) {
      feed.early.push(change);
      return;
    }
    this.#applyEvent(feed, change.event);
  }

  /** A vehicle of the owner changed (or its arrivals or settings did); null: the whole fleet may have. */
  fleetChanged(owner: string, vehicleId: string | null): void {
    const feed = this.#owners.get(owner);
    if (feed === undefined) return;
    if (vehicleId === null) this.#enqueue(feed, () => this.#loadVehicles(feed));
    else this.#enqueue(feed, () => this.#reloadVehicle(feed, vehicleId));
  }

  /** Recomputes every entry (the clock moved on) and forgets owners no longer in use. */
  refresh(): void {
    const now = this.#now();
    for (const feed of this.#owners.values()) {
      if (now - feed.readAt > IDLE_MS && !this.#inputs.frames.listening(feed.owner)) this.#forget(feed);
      else for (const state of feed.vehicles.values()) this.#recompute(state);
    }
  }

  /** Stops the timers and waits for the work under way. */
  async close(): Promise<void> {
    this.#closed = true;
    const feeds = [...this.#owners.values()];
    for (const feed of feeds) for (const state of feed.vehicles.values()) this.#stopTimers(state);
    await Promise.all(feeds.map((feed) => feed.queue));
  }

  #ensure(owner: string): OwnerFeed {
    let feed = this.#owners.get(owner);
    if (feed !== undefined) return feed;
    feed = { owner, vehicles: new Map(), events: new Map(), queue: Promise.resolve(), readAt: this.#now(), early: [], loaded: false };
    this.#owners.set(owner, feed);
    const loading = feed;
    this.#enqueue(feed, async () => {
      try {
        await this.#loadEvents(loading);
        await this.#loadVehicles(loading);
        loading.loaded = true;
      } catch (error) {
        // The next request or stream starts again.
        this.#forget(loading);
        throw error;
      }
    });
    return feed;
  }

  #enqueue(feed: OwnerFeed, work: () => Promise<void>): void {
    feed.queue = feed.queue.then(async () => {
      if (this.#closed || !this.#live(feed)) return;
      try {
        await work();
      } catch (error) {
        this.#inputs.log.error({ err: error, owner: feed.owner }, 'fleet feed work failed');
      }
    });
  }

  #recompute(state: VehicleState): void {
    if (state.queued) return;
    state.queued = true;
    this.#enqueue(state.owner, async () => {
      state.queued = false;
      if (state.owner.vehicles.get(state.vehicle.id) === state) await this.#compute(state);
    });
  }

  async #loadEvents(feed: OwnerFeed): Promise<void> {
    let after: readonly [string, string] | undefined;
    for (;;) {
      const page = await this.#inputs.events.page(feed.owner, { state: 'open', limit: LOAD_PAGE, after });
      for (const event of page) feed.events.set(event.id, event);
      const last = page[page.length - 1];
      if (page.length < LOAD_PAGE || last === undefined) break;
      after = [last.opened_at, last.id];
    }
    const early = feed.early ?? [];
    feed.early = null;
    for (const change of early) this.#applyEvent(feed, change.event);
  }

  /** Reads the owner's whole fleet: new vehicles join, removed ones leave, every entry is recomputed. */
  async #loadVehicles(feed: OwnerFeed): Promise<void> {
    const seen = new Set<string>();
    let after: VehicleListKey | undefined;
    for (;;) {
      const page = await this.#inputs.fleet.list(feed.owner, { limit: LOAD_PAGE, after });
      if (!this.#live(feed)) return;
      for (const vehicle of page.data) {
        seen.add(vehicle.id);
        await this.#compute(this.#track(feed, vehicle));
      }
      if (page.next === null) break;
      after = page.next;
    }
    for (const state of [...feed.vehicles.values()]) if (!seen.has(state.vehicle.id)) this.#untrack(state);
  }

  async #reloadVehicle(feed: OwnerFeed, vehicleId: string): Promise<void> {
    const vehicle = await this.#inputs.fleet.get(feed.owner, vehicleId);
    if (!this.#live(feed)) return;
    const known = feed.vehicles.get(vehicleId);
    if (vehicle === null) {
      if (known !== undefined) this.#untrack(known);
      return;
    }
    await this.#compute(this.#track(feed, vehicle));
  }

  /** The vehicle's state, indexed by its MMSI; the profile replaced when it changed. */
  #track(feed: OwnerFeed, vehicle: FleetVehicle): VehicleState {
    const known = feed.vehicles.get(vehicle.id);
    if (known !== undefined) {
      if (known.vehicle.mmsi !== vehicle.mmsi) this.#index(this.#byMmsi, known.vehicle.mmsi, known, false);
      known.vehicle = vehicle;
      this.#index(this.#byMmsi, vehicle.mmsi, known, true);
      return known;
    }
    const state: VehicleState = {
      owner: feed, vehicle, findings: { arrival: null, landing: null, voyage: null, missing: [] }, content: '', updated_at: new Date(this.#now()).toISOString(),
      icao: null, queued: false, computedAt: 0, vesselAt: 0, vesselTimer: null, sent: null, sentAt: 0, frameTimer: null,
    };
    feed.vehicles.set(vehicle.id, state);
    this.#index(this.#byMmsi, vehicle.mmsi, state, true);
    return state;
  }

  #untrack(state: VehicleState): void {
    state.owner.vehicles.delete(state.vehicle.id);
    this.#index(this.#byMmsi, state.vehicle.mmsi, state, false);
    this.#index(this.#byIcao, state.icao, state, false);
    this.#stopTimers(state);
  }

  /** Whether the owner's entries are still kept (not forgotten while work for them was under way). */
  #live(feed: OwnerFeed): boolean {
    return this.#owners.get(feed.owner) === feed;
  }

  #forget(feed: OwnerFeed): void {
    for (const state of [...feed.vehicles.values()]) this.#untrack(state);
    this.#owners.delete(feed.owner);
  }

  #stopTimers(state: VehicleState): void {
    if (state.vesselTimer !== null) clearTimeout(state.vesselTimer);
    if (state.frameTimer !== null) clearTimeout(state.frameTimer);
    state.vesselTimer = state.frameTimer = null;
  }

  #index<K>(index: Map<K, Set<VehicleState>>, key: K | null, state: VehicleState, add: boolean): void {
    if (key === null) return;
    const states = index.get(key);
    if (add) {
      if (states === undefined) index.set(key, new Set([state]));
      else states.add(state);
    } else if (states !== undefined) {
      states.delete(state);
      if (states.size === 0) index.delete(key);
    }
  }

  async #compute(state: VehicleState): Promise<void> {
    const now = this.#now();
    state.computedAt = now;
    const { vehicle, owner } = state;
    let findings: Findings;
    try {
      findings = vehicle.vehicle_type === 'vessel' ? await this.#voyageFindings(owner.owner, vehicle, now) : await this.#landingFindings(owner.owner, vehicle, now);
    } catch (error) {
      this.#inputs.log.error({ err: error, owner: owner.owner, vehicle_id: vehicle.id }, 'fleet feed entry not recomputed');
      if (state.content !== '') return;
      findings = { arrival: null, landing: null, voyage: null, missing: [{ field: vehicle.vehicle_type === 'vessel' ? 'voyage' : 'landing', reason: 'unavailable', message: UNAVAILABLE }] };
    }
    // The vehicle left the fleet, or its owner was forgotten, meanwhile: nothing to index.
    if (!this.#live(owner) || owner.vehicles.get(vehicle.id) !== state) return;
    state.findings = findings;
    const icao = findings.arrival?.destination_icao ?? null;
    if (icao !== state.icao) {
      this.#index(this.#byIcao, state.icao, state, false);
      this.#index(this.#byIcao, icao, state, true);
      state.icao = icao;
    }
    this.#settle(state);
  }

  async #landingFindings(owner: string, vehicle: FleetVehicle, now: number): Promise<Findings> {
    const missing: Missing[] = [];
    const [arrival] = (await this.#inputs.arrivals.list(owner, vehicle.id, { state: 'watched', limit: 1, nowMs: now }))?.data ?? [];
    if (arrival === undefined) {
      missing.push({ field: 'arrival', reason: 'no_watched_arrival', message: 'The vehicle has no watched planned arrival.' });
      return { arrival: null, landing: null, voyage: null, missing };
    }
    const planned = { id: arrival.id, destination_icao: arrival.destination_icao, eta_utc: arrival.eta_utc, watched_until: arrival.watched_until };
    const profile = landingProfileFor(vehicle);
    if (profile === null || vehicle.vehicle_type === 'vessel') throw new Error(`vehicle ${vehicle.id} has no landing figures`);
    const answered = await this.#inputs.landing.landingsAt(arrival.destination_icao, [{
      etaMs: Date.parse(arrival.eta_utc), registration: vehicle.registration ?? vehicle.id, vehicleType: vehicle.vehicle_type, profile, reference: arrival.id,
    }], now);
    const bundle = answered?.answers[0]?.bundle ?? null;
    if (bundle === null) {
      missing.push({ field: 'landing', reason: 'airport_not_found', message: `No airport in the reference data has the code ${arrival.destination_icao}.` });
      return { arrival: planned, landing: null, voyage: null, missing };
    }
    return { arrival: planned, landing: landingOf(bundle, missing), voyage: null, missing };
  }

  async #voyageFindings(owner: string, vehicle: FleetVehicle, now: number): Promise<Findings> {
    if (vehicle.mmsi === null) throw new Error(`vessel ${vehicle.id} has no MMSI`);
    const { missing, ...voyage }: WatchedVoyage = await this.#inputs.vessels.voyageFor(vehicle.mmsi, owner, now);
    return { arrival: null, landing: null, voyage, missing: missing.map((entry) => ({ ...entry, field: `voyage.${entry.field}` })) };
  }

  #applyEvent(feed: OwnerFeed, event: LamisEvent): void {
    if (event.state === 'open') feed.events.set(event.id, event);
    else feed.events.delete(event.id);
    // A vehicle not computed yet takes its events when it is.
    for (const state of feed.vehicles.values()) if (state.computedAt > 0 && concerns(event, state.vehicle)) this.#settle(state);
  }

  /** Takes the entry's content as it is now: a change moves `updated_at` and is offered to the streams. */
  #settle(state: VehicleState): void {
    const content = JSON.stringify(this.#entryOf(state, null));
    if (content === state.content) return;
    state.content = content;
    state.updated_at = new Date(this.#now()).toISOString();
    this.#offer(state);
  }

  /**
   * Sends the entry when it differs from the last one sent, at most once per FEED_FRAME_INTERVAL_MS.
   * While no stream listens, and while the fleet is first read, the entry becomes the baseline instead.
   */
  #offer(state: VehicleState): void {
    const owner = state.owner.owner;
    const frames = this.#inputs.frames;
    if (!frames.listening(owner) || !state.owner.loaded) {
      state.sent = state.content;
      return;
    }
    if (state.content === state.sent || state.frameTimer !== null || this.#closed) return;
    const wait = state.sentAt + FEED_FRAME_INTERVAL_MS - this.#now();
    if (wait > 0) {
      state.frameTimer = setTimeout(() => {
        state.frameTimer = null;
        this.#offer(state);
      }, wait).unref();
      return;
    }
    state.sent = state.content;
    state.sentAt = this.#now();
    frames.send(owner, this.#entryOf(state, state.sentAt));
  }

  /** The entry; `now` null leaves the position's age out (for comparing), with `updated_at` too. */
  #entryOf(state: VehicleState, now: number | null): FleetFeedEntry {
    const { vehicle, findings } = state;
    const open = [...state.owner.events.values()].filter((event) => concerns(event, vehicle))
      .sort((a, b) => b.opened_at.localeCompare(a.opened_at) || b.id.localeCompare(a.id));
    const position = findings.voyage?.position ?? null;
    const voyage = findings.voyage === null ? null : {
      ...findings.voyage,
      position: position === null ? null : { ...position, age_sec: now === null ? 0 : Math.max(0, Math.floor((now - Date.parse(position.timestamp)) / 1000)) },
    };
    return {
      vehicle: { id: vehicle.id, vehicle_type: vehicle.vehicle_type, registration: vehicle.registration, icao_type: vehicle.icao_type, mmsi: vehicle.mmsi },
      arrival: findings.arrival,
      landing: findings.landing,
      voyage,
      open_events: open,
      missing: findings.missing,
      updated_at: now === null ? '' : state.updated_at,
    };
  }
}

/** Whether an event is about the vehicle: it names the vehicle, or (a vessel) its MMSI. */
function concerns(event: LamisEvent, vehicle: FleetVehicle): boolean {
  return event.subject.vehicle_id === vehicle.id || (vehicle.mmsi !== null && event.subject.mmsi === vehicle.mmsi);
}

const keyOf = (vehicle: FleetVehicle): VehicleListKey => [vehicle.created_at, vehicle.id];

export function compareKeys(a: VehicleListKey, b: VehicleListKey): number {
  return a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]);
}

/** The landing answer as the feed tells it; what it lacks goes to `missing`. */
function landingOf(bundle: LandingIntelligence, missing: Missing[]): NonNullable<FleetFeedEntry['landing']> {
  const { weather, runway } = bundle;
  const limit = bundle.aircraft.crosswind_limit_kt;
  let wind: NonNullable<FleetFeedEntry['landing']>['wind'] = null;
  if (weather.metar === null) {
    missing.push({ field: 'landing.wind', reason: 'no_metar', message: `LAMIS holds no METAR for ${bundle.destination.icao}.` });
  } else if (weather.basis === 'none') {
    missing.push({ field: 'landing.wind', reason: 'no_forecast', message: `${weather.basis_summary}: the METAR no longer describes it and no TAF covers it.` });
  } else if (runway === null) {
    missing.push({ field: 'landing.wind', reason: 'no_runway', message: bundle.runway_choice.reason });
  } else if (weather.wind === null) {
    missing.push({ field: 'landing.wind', reason: 'wind_unknown', message: `The ${weather.basis === 'forecast' ? 'TAF forecasts' : 'METAR reports'} no wind at the ETA.` });
  } else {
    const { max_crosswind_kt: crosswind, max_tailwind_kt: tailwind } = runway;
    wind = {
      runway: runway.designator,
      speed_kt: weather.wind.speed_kt,
      gust_kt: weather.wind.gust_kt,
      headwind_kt: runway.headwind_kt,
      crosswind_kt: runway.crosswind_kt,
      max_crosswind_kt: crosswind,
      max_tailwind_kt: tailwind,
      crosswind_limit_kt: limit,
      tailwind_limit_kt: TAILWIND_LIMIT_KT,
      crosswind_margin_kt: crosswind === null ? null : Math.round((limit - crosswind) * 10) / 10,
      within_limits: crosswind === null || tailwind === null ? null : crosswind <= limit && tailwind <= TAILWIND_LIMIT_KT,
    };
  }
  if (runway === null) missing.push({ field: 'landing.runway', reason: 'no_runway', message: bundle.runway_choice.reason });
  return {
    destination: { icao: bundle.destination.icao, name: bundle.destination.name, status: bundle.destination.status, status_reasons: bundle.destination.status_reasons },
    safety_score: bundle.safety_score,
    conditions: weather.conditions,
    flight_category: weather.flight_category,
    visibility_nm: weather.visibility_nm,
    metar: weather.metar,
    metar_observed_at: weather.observed_at,
    runway: runway?.designator ?? null,
    approach: bundle.approach.type,
    recommended_approach: bundle.recommended_approach,
    below_minima: bundle.approach.below_minima,
    wind,
    slot: { hour: bundle.slot.hour, capacity: bundle.slot.capacity, booked: bundle.slot.booked, remaining: bundle.slot.remaining, available: bundle.slot_available },
  };
}
