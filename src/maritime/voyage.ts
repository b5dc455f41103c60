// A vessel's voyage as the fleet feed shows it: its last position, where it says it is bound and
// the port that is, the weather-aware ETA there, the next tidal window for its draught and the
// weather hold at the port. The same services answer as the vessel, ETA, tide and weather
// endpoints; MaritimeWatch (watch.ts) hands them over.
//
// Nothing is invented: a part that cannot be answered is null and `missing` says why.
import type { LatLon } from '../platform/geo/great-circle.ts';
import type { ArrivalResult, ArrivalRequest } from './eta/index.ts';
import type { DestinationMatcher } from './ports/destination.ts';
import type { Port } from './ports/ports.ts';
import { MAX_DRAUGHT_M, tidalWindows, TideInputError, type TideStationIndex } from './tides/index.ts';
import type { Vessel, VesselStore } from './vessels/store.ts';
import { HOUR_MS, portForecast, weatherHolds, WeatherUnavailableError, type PortWeatherThresholdStore, type WeatherSource } from './weather/index.ts';

/** How far the tidal window and the weather hold look ahead. */
export const TIDAL_WINDOW_HOURS = 24;
export const WEATHER_HOLD_HOURS = 48;

export interface VoyageServices {
  vessels: VesselStore;
  destinations: DestinationMatcher;
  predict(request: ArrivalRequest): Promise<ArrivalResult>;
  stations(): Promise<TideStationIndex>;
  weather: WeatherSource;
  thresholds: PortWeatherThresholdStore;
}

export interface VoyagePort {
  id: string;
  name: string;
  unlocode: string | null;
  country: string | null;
  lat: number;
  lon: number;
}

/** A part of the answer LAMIS could not give, and why (a code) in one sentence. */
export interface Missing {
  field: string;
  reason: string;
  message: string;
}

export interface WatchedVoyage {
  vessel: { mmsi: number; name: string | null; callsign: string | null; imo: number | null; category: string; draught_m: number | null } | null;
  position: { lat: number; lon: number; sog_kn: number | null; cog_deg: number | null; heading_deg: number | null; nav_status: number | null; timestamp: string } | null;
  destination: {
    reported: string | null;
    /** The port the reported destination names. */
    port: VoyagePort | null;
    matched_by: 'unlocode' | 'abbreviation' | 'name' | null;
    ambiguous: boolean;
  };
  eta: {
    predicted: string;
    calm_water: string;
    distance_nm: number;
    weather_delay_hours: number;
    speed_kn: number;
    speed_source: 'ais_track' | 'ais_sog' | 'given';
    weather_status: 'used' | 'unavailable' | 'not_requested';
    reported: string | null;
  } | null;
  tidal_window: {
    station: { id: string; name: string; distance_nm: number };
    draught_m: number;
    required_depth_m: number;
    charted_depth_m: number;
    from: string;
    to: string;
    navigable: 'always' | 'partly' | 'never';
    /** The first window at or after `from`; null when the period has none. */
    next: { start: string; end: string; min_margin_m: number } | null;
  } | null;
  weather_hold: {
    from: string;
    to: string;
    /** A hold covers now. */
    active: boolean;
    /** A hold covers the predicted ETA; null without one. */
    at_eta: boolean | null;
    /** The hold now, or else the next one in the period. */
    next: { start: string; end: string; limiting: { factor: string; threshold: number; unit: string; worst: number; worst_at: string }[] } | null;
    source: string;
  } | null;
  missing: Missing[];
}

const portOf = (port: Port): VoyagePort => ({ id: port.id, name: port.name, unlocode: port.unlocode, country: port.country, lat: port.lat, lon: port.lon });

/**
 * The voyage of the vessel with this MMSI now. `owner` chooses the port weather limits (its
 * organisation's layer).
 */
export async function voyageOf(services: VoyageServices, mmsi: number, owner: string, nowMs = Date.now()): Promise<WatchedVoyage> {
  const missing: Missing[] = [];
  const absent = (field: string, reason: string, message: string) => missing.push({ field, reason, message });
  const voyage: WatchedVoyage = {
    vessel: null, position: null, destination: { reported: null, port: null, matched_by: null, ambiguous: false }, eta: null, tidal_window: null, weather_hold: null, missing,
  };
  const vessel = services.vessels.get(mmsi);
  if (vessel === undefined) {
    absent('vessel', 'not_heard', `Nothing has been heard from MMSI ${mmsi}.`);
    return voyage;
  }
  voyage.vessel = { mmsi, name: vessel.name, callsign: vessel.callsign, imo: vessel.imo, category: vessel.category, draught_m: vessel.draught };
  const position = vessel.position;
  if (position === null) absent('position', 'no_position', `MMSI ${mmsi} has reported no position yet.`);
  else {
    voyage.position = {
      lat: position.lat, lon: position.lon, sog_kn: position.sog, cog_deg: position.cog, heading_deg: position.heading, nav_status: position.nav_status, timestamp: position.timestamp,
    };
  }

  voyage.destination.reported = vessel.destination;
  const near: LatLon | undefined = position === null ? undefined : { lat: position.lat, lon: position.lon };
  const match = services.destinations.match(vessel.destination, near);
  if (match.status === 'no_port') {
    const why = {
      empty: 'The vessel reports no destination.',
      for_orders: `The reported destination "${vessel.destination}" awaits orders.`,
      not_a_port: `The reported destination "${vessel.destination}" names no port.`,
      unknown: `The reported destination "${vessel.destination}" is no port LAMIS holds.`,
    }[match.reason];
    absent('destination.port', match.reason === 'empty' ? 'no_destination' : match.reason, why);
    for (const field of ['eta', 'tidal_window', 'weather_hold']) absent(field, 'no_destination_port', 'The destination port is unknown.');
    return voyage;
  }
  const port = match.port;
  voyage.destination = { reported: vessel.destination, port: portOf(port), matched_by: match.matched_by, ambiguous: match.ambiguous };

  const predicted = await services.predict({ vessel, port });
  if (predicted.ok) {
    const p = predicted.prediction;
    voyage.eta = {
      predicted: p.eta, calm_water: p.eta_calm_water, distance_nm: p.distance_nm, weather_delay_hours: p.weather_delay_hours,
      speed_kn: p.speed.calm_water_kn, speed_source: p.speed.source, weather_status: p.weather.status, reported: p.ais_eta.reported,
    };
  } else absent('eta', predicted.error, predicted.message);
  const etaMs = voyage.eta === null ? null : Date.parse(voyage.eta.predicted);

  voyage.tidal_window = await tidalWindowOf(services, vessel, port, etaMs !== null && etaMs > nowMs ? etaMs : nowMs, absent);
  voyage.weather_hold = await weatherHoldOf(services, port, owner, nowMs, etaMs, absent);
  return voyage;
}

/** The first window for the vessel's draught in the TIDAL_WINDOW_HOURS from `fromMs`. */
async function tidalWindowOf(services: VoyageServices, vessel: Vessel, port: Port, fromMs: number, absent: (field: string, reason: string, message: string) => void) {
  const draught = vessel.draught;
  if (draught === null || !(draught > 0 && draught <= MAX_DRAUGHT_M)) {
    absent('tidal_window', 'draught_unknown', 'The vessel reports no draught.');
    return null;
  }
  if (port.channel_depth_m === null) {
    absent('tidal_window', 'charted_depth_unknown', `The port data has no channel depth for ${port.name} (${port.id}).`);
    return null;
  }
  const match = await (await services.stations()).nearest(port);
  if (match === null) {
    absent('tidal_window', 'no_tide_station', `No suitable tide station lies within reach of ${port.name} (${port.id}).`);
    return null;
  }
  // The channel depth is read as below the station's chart datum, as the tidal-windows endpoint reads it.
  const datum = match.station.chart_datum;
  const charted = port.channel_depth_m;
  try {
    const answer = tidalWindows({
      station: match.station, distance_nm: match.distance_nm, datum, draught_m: draught, charted_depth_m: charted,
      from: new Date(fromMs), to: new Date(fromMs + TIDAL_WINDOW_HOURS * HOUR_MS),
    });
    const first = answer.windows[0];
    return {
      station: { id: match.station.id, name: match.station.name, distance_nm: Math.round(match.distance_nm * 10) / 10 },
      draught_m: answer.draught_m, required_depth_m: answer.required_depth_m, charted_depth_m: charted,
      from: answer.from, to: answer.to, navigable: answer.navigable,
      next: first === undefined ? null : { start: first.start, end: first.end, min_margin_m: first.min_margin_m },
    };
  } catch (error) {
    if (!(error instanceof TideInputError)) throw error;
    absent('tidal_window', 'tide_unpredictable', error.message);
    return null;
  }
}

/** The hold at the port now, or the next one in the WEATHER_HOLD_HOURS ahead, by the owner's limits. */
async function weatherHoldOf(services: VoyageServices, port: Port, owner: string, nowMs: number, etaMs: number | null, absent: (field: string, reason: string, message: string) => void) {
  const { weather } = services;
  const to = nowMs + Math.min(WEATHER_HOLD_HOURS, weather.horizonHours) * HOUR_MS;
  let forecast;
  try {
    forecast = await portForecast(weather, port, nowMs, to);
  } catch (error) {
    if (!(error instanceof WeatherUnavailableError)) throw error;
    absent('weather_hold', 'weather_unavailable', error.message);
    return null;
  }
  const limits = (await services.thresholds.layers(port, owner)).effective.values;
  const holds = weatherHolds(forecast.hours, limits, nowMs, to);
  const covers = (ms: number) => holds.some((hold) => Date.parse(hold.start) <= ms && ms < Date.parse(hold.end));
  const next = holds[0];
  return {
    from: new Date(nowMs).toISOString(),
    to: new Date(to).toISOString(),
    active: covers(nowMs),
    at_eta: etaMs === null || etaMs < nowMs || etaMs >= to ? null : covers(etaMs),
    next: next === undefined ? null : { start: next.start, end: next.end, limiting: next.limiting.map(({ hours: _hours, ...factor }) => factor) },
    source: weather.kind,
  };
}
