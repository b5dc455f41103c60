// Maritime answers for watchers outside an HTTP request (the intelligence engine): vessels by MMSI
// or in a box, the port whose area holds a position, the port an AIS destination names, weather holds at a port for an organisation's limits, the
// weather-aware arrival prediction, tidal windows for a draught, a fleet vessel's whole voyage
// (voyage.ts), voyage data changes and the AIS feeds' states. The service creates one before its
// features start; the maritime feature attaches its services to it when it starts.
import type { ArrivalRequest, ArrivalResult } from './eta/index.ts';
import type { FeedStatus } from './feeds/index.ts';
import type { PortAreas } from './ports/areas.ts';
import type { DestinationMatcher } from './ports/destination.ts';
import type { Port, PortIndex } from './ports/ports.ts';
import { tidalWindows, type TidalWindows, type TideStationIndex } from './tides/index.ts';
import type { LatLon } from '../platform/geo/great-circle.ts';
import type { BBox, Vessel, VesselStore } from './vessels/store.ts';
import { voyageOf, type WatchedVoyage } from './voyage.ts';
import { HOUR_MS, portForecast, weatherHolds, type PortWeatherThresholdStore, type WeatherHold, type WeatherSource, type WeatherThresholds } from './weather/index.ts';

export interface MaritimeServices {
  ports: PortIndex;
  /** The ports' areas, as port calls read them. */
  areas: Pick<PortAreas, 'portAt'>;
  destinations: DestinationMatcher;
  vessels: VesselStore;
  weather: WeatherSource;
  thresholds: PortWeatherThresholdStore;
  predict(request: ArrivalRequest): Promise<ArrivalResult>;
  stations(): Promise<TideStationIndex>;
  feeds(): FeedStatus[];
}

/** The holds of a port's forecast from now to the source's horizon, for an organisation's limits. */
export interface PortHolds {
  port: Port;
  from: string;
  to: string;
  thresholds: WeatherThresholds;
  holds: WeatherHold[];
}

export class MaritimeWatch {
  #services: MaritimeServices | null = null;
  #loaded: Promise<unknown> = Promise.resolve();
  readonly #voyageListeners = new Set<(vessel: Vessel) => void>();

  /** `loaded`: settles once the reference data the services read (ports, port areas, sea lanes) has loaded (they start before it). */
  attach(services: MaritimeServices, loaded: Promise<unknown> = Promise.resolve()): void {
    this.#services = services;
    // A failed load (the service closing while it ran) is the loads' own to report: kept for
    // `loaded`, it is never an unhandled rejection, whether a watcher asks or not.
    loaded.catch(() => {});
    this.#loaded = loaded;
  }

  /**
   * Settles once the port data has loaded: a watcher that reads ports right after the start waits
   * for it (until then `port`, `portAreaAt` and `destinationOf` are a 503 problem). After a failed
   * load it settles too, and those answer the 503 of the failure.
   */
  async loaded(): Promise<void> {
    await this.#loaded.catch(() => {});
  }

  /** Whether the maritime feature has started (a service built without it has no vessels). */
  get attached(): boolean {
    return this.#services !== null;
  }

  #attached(): MaritimeServices {
    if (this.#services === null) throw new Error('maritime answers need the maritime feature, which has not started');
    return this.#services;
  }

  /** The port with this id (a UN/LOCODE, any case, or WPI-<number>); null for one the port data does not hold. */
  port(id: string): Port | null {
    return this.#attached().ports.get(id);
  }

  vessel(mmsi: number): Vessel | null {
    return this.#attached().vessels.get(mmsi) ?? null;
  }

  /** Every vessel LAMIS knows, with or without a position. */
  vessels(): Iterable<Vessel> {
    return this.#attached().vessels.all();
  }

  /** Live vessels whose position lies in the box. */
  inBox(box: BBox): Iterable<Vessel> {
    return this.#attached().vessels.inBox(box);
  }

  /** The port whose area holds the position (ports/areas.ts says which where areas overlap), or null. */
  portAreaAt(position: LatLon): Port | null {
    return this.#attached().areas.portAt(position);
  }

  /** The port the vessel's AIS destination names, chosen by its position where names are shared; null when it names none. */
  destinationOf(vessel: Vessel): Port | null {
    const position = vessel.position;
    const match = this.#attached().destinations.match(vessel.destination, position === null ? undefined : { lat: position.lat, lon: position.lon });
    return match.status === 'port' ? match.port : null;
  }

  /** How far ahead the weather source forecasts. */
  get horizonHours(): number {
    return this.#attached().weather.horizonHours;
  }

  /**
   * From the start of the current hour, so that the answer stays the same within the hour (a hold on
   * now starts at the hour, not at the instant asked). Throws WeatherUnavailableError when the
   * weather source fails. `owner`: the organisation whose limits apply (an API key outside any has
   * the instance's).
   */
  async holdsAt(port: Port, owner: string, nowMs = Date.now()): Promise<PortHolds> {
    const { weather, thresholds } = this.#attached();
    const from = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
    const to = from + weather.horizonHours * HOUR_MS;
    const layers = await thresholds.layers(port, owner);
    const { hours } = await portForecast(weather, port, from, to);
    const values = layers.effective.values;
    return { port, from: new Date(from).toISOString(), to: new Date(to).toISOString(), thresholds: values, holds: weatherHolds(hours, values, from, to) };
  }

  /** The voyage of the vessel with this MMSI now, by the owner's port weather limits. */
  async voyageFor(mmsi: number, owner: string, nowMs = Date.now()): Promise<WatchedVoyage> {
    const services = this.#attached();
    await this.loaded();
    return voyageOf(services, mmsi, owner, nowMs);
  }

  predict(vessel: Vessel, port: Port): Promise<ArrivalResult> {
    return this.#attached().predict({ vessel, port });
  }

  /**
   * The tidal windows at the port for the draught in [fromMs, toMs], on the nearest suitable tide
   * station's chart datum with the port's channel depth; null when the port has no channel depth
   * or no station lies within the default radius.
   */
  async tidalWindowsAt(port: Port, draughtM: number, fromMs: number, toMs: number): Promise<TidalWindows | null> {
    if (port.channel_depth_m === null) return null;
    const match = await (await this.#attached().stations()).nearest(port);
    if (match === null) return null;
    const datum = match.station.chart_datum;
    return tidalWindows({
      station: match.station, distance_nm: match.distance_nm, from: new Date(fromMs), to: new Date(toMs), datum,
      draught_m: draughtM, charted_depth_m: port.channel_depth_m + (match.station.datums[datum] ?? 0),
    });
  }

  /** Called by the maritime feature when a vessel's static or voyage data changed in this instance (never for a position alone). */
  voyageChanged(vessel: Vessel): void {
    for (const listener of this.#voyageListeners) listener(vessel);
  }

  /** Hears each voyage data change ingested by this instance; answers the function that stops it. Keep the listener O(1): AIS ingest calls it. */
  onVoyageChange(listener: (vessel: Vessel) => void): () => void {
    this.#voyageListeners.add(listener);
    return () => this.#voyageListeners.delete(listener);
  }

  feeds(): FeedStatus[] {
    return this.#attached().feeds();
  }
}
