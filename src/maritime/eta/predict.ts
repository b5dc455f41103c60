// Weather-aware arrival prediction: the sea route from a vessel's reported position to a port, cut
// into legs; the vessel's calm-water speed from its recent AIS speed (or a given one); on each leg
// the speed lost to the forecast wind and waves by Kwon's method; the ETA is the sum of the legs'
// times from the position's time. See KWON.md for the method and the choices made.
import { backgroundTurn } from '../../platform/background-turns.ts';
import { passageById, pointAlong, routeBetween, type RefusedPassage, type RouteGeometry, type VesselDimensions } from '../sea-routes/index.ts';
import type { Port } from '../ports/ports.ts';
import type { Vessel } from '../vessels/store.ts';
import { HOUR_MS, WeatherUnavailableError, type PointWeather, type WeatherHour, type WeatherRequest, type WeatherSource, type WeatherSourceKind } from '../weather/model.ts';
import {
  beaufortFromWaveHeight,
  beaufortFromWind,
  froudeNumber,
  MAX_LOSS_PERCENT,
  relativeWeatherAngle,
  speedLoss,
  type HullForm,
  type LoadingCondition,
  type SpeedLoss,
  type WeatherSector,
} from './kwon.ts';
import { hullModel, type HullModel } from './ship.ts';
import { observedSpeed, SPEED_WINDOW_MS, UNDER_WAY_MIN_KN, type SpeedSample } from './speed.ts';

/** Legs are about this long, and no more than MAX_LEGS. */
export const LEG_NM = 50;
export const MAX_LEGS = 40;
export const MIN_SPEED_KN = 0.5;
export const MAX_SPEED_KN = 50;
const TRACK_LIMIT = 1000;

export interface ArrivalRequest {
  vessel: Vessel;
  port: Port;
  /** The vessel's calm-water speed, instead of the one its AIS speed gives. */
  speed_kn?: number;
}

export interface ArrivalDeps {
  /** null: predict without weather. */
  weather: WeatherSource | null;
  /** Recorded track points of the vessel in [from, to], time order. */
  track(mmsi: number, from: number, to: number, limit: number): Promise<SpeedSample[]>;
  now?: () => number;
}

/** `blocked`: every route to the port needs a passage the vessel's AIS dimensions do not fit. */
export type ArrivalErrorCode = 'no_position' | 'no_speed' | 'invalid_speed' | 'no_route' | 'blocked' | 'network_unavailable';

export type ArrivalResult =
  | { ok: true; prediction: ArrivalPrediction }
  | { ok: false; error: ArrivalErrorCode; message: string; /** For `blocked`: the passages the vessel does not fit. */ refused?: RefusedPassage[] };

export interface LegWeather {
  time: string;
  wind_speed_kn: number | null;
  wind_direction_deg: number | null;
  wave_height_m: number | null;
  wave_direction_deg: number | null;
}

export interface ArrivalLeg {
  from_nm: number;
  to_nm: number;
  start: string;
  end: string;
  /** The leg's middle, where its weather is taken, and the course there. */
  midpoint: { lat: number; lon: number };
  course_deg: number;
  /** null beyond the forecast or when the source failed: calm water is assumed. */
  weather: LegWeather | null;
  beaufort: number | null;
  relative_deg: number | null;
  sector: WeatherSector | null;
  speed_loss_pct: number;
  speed_kn: number;
}

export interface ArrivalPrediction {
  mmsi: number;
  port: { id: string; name: string; lat: number; lon: number };
  departure: { lat: number; lon: number; time: string; age_minutes: number };
  distance_nm: number;
  eta: string;
  /** The ETA at the calm-water speed, without weather. */
  eta_calm_water: string;
  duration_hours: number;
  weather_delay_hours: number;
  speed: {
    calm_water_kn: number;
    source: 'ais_track' | 'ais_sog' | 'given';
    /** The AIS speed over ground the calm-water speed was worked back from; null for a given speed. */
    observed_kn: number | null;
    samples: number;
    window: { from: string; to: string } | null;
    /** The weather loss at the reported position that the observed speed already carried. */
    loss_at_position_pct: number | null;
  };
  hull: {
    length_m: number;
    beam_m: number;
    draught_m: number;
    block_coefficient: number;
    form: HullForm;
    loading: LoadingCondition;
    displacement_m3: number;
    froude_number: number;
    estimated: string[];
  };
  weather: {
    source: WeatherSourceKind | null;
    attribution: string | null;
    status: 'used' | 'unavailable' | 'not_requested';
    message: string | null;
    horizon_hours: number | null;
    legs_with_forecast: number;
    legs_without_forecast: number;
  };
  legs: ArrivalLeg[];
  losses: {
    /** Weighted by leg length. */
    mean_pct: number;
    max_pct: number;
    max_leg: number | null;
    by_sector: Record<WeatherSector, { legs: number; distance_nm: number; mean_pct: number }>;
  };
  ais_eta: {
    reported: string | null;
    destination: string | null;
    /** Reported minus predicted, hours: positive when the vessel reports a later arrival. */
    difference_hours: number | null;
  };
  assumptions: string[];
  route: {
    type: 'Feature';
    geometry: RouteGeometry;
    properties: { distance_nm: number; crosses_antimeridian: boolean; passages: { id: string; name: string }[] };
  };
}

interface LegPlan {
  from: number;
  to: number;
  mid: { lat: number; lon: number };
  course: number;
}

/** The predicted arrival of the vessel at the port; never throws for the expected failures (it answers them). */
export async function predictArrival(request: ArrivalRequest, deps: ArrivalDeps): Promise<ArrivalResult> {
  const { vessel, port } = request;
  const now = (deps.now ?? Date.now)();
  const position = vessel.position;
  if (position === null) return { ok: false, error: 'no_position', message: `MMSI ${vessel.mmsi} has reported no position yet.` };
  if (request.speed_kn !== undefined && !(request.speed_kn >= MIN_SPEED_KN && request.speed_kn <= MAX_SPEED_KN)) {
    return { ok: false, error: 'invalid_speed', message: `speed_kn must be from ${MIN_SPEED_KN} to ${MAX_SPEED_KN} knots` };
  }
  const departure = Date.parse(position.timestamp);

  let observed: { speed_kn: number; source: 'ais_track' | 'ais_sog'; samples: number; window: { from: string; to: string } } | null = null;
  if (request.speed_kn === undefined) {
    const track = await deps.track(vessel.mmsi, departure - SPEED_WINDOW_MS, departure, TRACK_LIMIT);
    observed = observedSpeed(track, position);
    if (observed === null) {
      return {
        ok: false,
        error: 'no_speed',
        message: `MMSI ${vessel.mmsi} has not been under way (${UNDER_WAY_MIN_KN} kn or more, not at anchor or moored) in the hour to its last position; give speed_kn.`,
      };
    }
  }

  // The route and the weather along it take up to a few tens of milliseconds each: each takes its
  // own turn of the event loop, so a port's arrivals predicted at once let requests through between
  // vessels, and a long voyage's route and weather do not hold the thread together.
  await backgroundTurn();
  const fitted = reportedDimensions(vessel);
  const route = routeBetween({ lat: position.lat, lon: position.lon }, { lat: port.lat, lon: port.lon }, { vessel: fitted });
  if (!route.ok) {
    const error = route.error === 'network_unavailable' || route.error === 'blocked' ? route.error : 'no_route';
    return { ok: false, error, message: `${route.message}.`, refused: route.refused };
  }

  const legCount = Math.min(MAX_LEGS, Math.max(1, Math.ceil(route.distance_nm / LEG_NM)));
  const legLength = route.distance_nm / legCount;
  const plans: LegPlan[] = [];
  let hint = 0;
  for (let k = 0; k < legCount; k++) {
    const along = pointAlong(route.path, route.cumulative_nm, (k + 0.5) * legLength, hint);
    hint = along.segment;
    plans.push({ from: k * legLength, to: (k + 1) * legLength, mid: { lat: along.position[1], lon: along.position[0] }, course: along.course });
  }
  const startCourse = position.cog ?? plans[0]!.course;

  const firstGuess = request.speed_kn ?? observed!.speed_kn;
  const hull = hullModel(vessel, firstGuess);

  // Weather for the position now and for each leg over the hours the vessel may pass its middle:
  // the calm-water speed lies between the observed speed and twice it (losses stop at 50 %).
  const fastest = request.speed_kn ?? firstGuess / (1 - MAX_LOSS_PERCENT / 100);
  const slowest = (request.speed_kn ?? firstGuess) * (1 - MAX_LOSS_PERCENT / 100);
  const weather = deps.weather;
  const horizonEnd = weather === null ? 0 : now + weather.horizonHours * HOUR_MS;
  const windows: (WeatherRequest | null)[] = [
    observed === null ? null : { lat: position.lat, lon: position.lon, from: departure, to: departure },
    ...plans.map((plan) => {
      const mid = (plan.from + plan.to) / 2;
      const from = departure + (mid / fastest) * HOUR_MS;
      // An hour more, so the hour nearest any passing time is in the answer.
      const to = Math.min(horizonEnd, departure + (mid / slowest) * HOUR_MS + HOUR_MS);
      return from > horizonEnd ? null : { lat: plan.mid.lat, lon: plan.mid.lon, from, to };
    }),
  ];
  let forecasts: (PointWeather | null)[] = windows.map(() => null);
  let weatherStatus: ArrivalPrediction['weather']['status'] = weather === null ? 'not_requested' : 'used';
  let weatherMessage: string | null = null;
  if (weather !== null) {
    const asked = windows.filter((window): window is WeatherRequest => window !== null);
    await backgroundTurn();
    try {
      const answers = asked.length === 0 ? [] : await weather.hourly(asked);
      let next = 0;
      forecasts = windows.map((window) => (window === null ? null : answers[next++] ?? null));
    } catch (error) {
      if (!(error instanceof WeatherUnavailableError)) throw error;
      weatherStatus = 'unavailable';
      weatherMessage = error.message;
    }
  }

  // An observed speed was made in the weather at the position: work back to the calm-water speed.
  let calm = firstGuess;
  let lossAtPosition: number | null = null;
  if (observed !== null) {
    const here = hourAt(forecasts[0] ?? null, departure);
    for (let i = 0; i < 3; i++) {
      const loss = lossIn(here, startCourse, hull, calm);
      lossAtPosition = loss?.percent ?? 0;
      calm = observed.speed_kn / (1 - lossAtPosition / 100);
    }
  }

  const legs: ArrivalLeg[] = [];
  let time = departure;
  plans.forEach((plan, k) => {
    const length = plan.to - plan.from;
    const midTime = time + (length / 2 / calm) * HOUR_MS;
    const hour = hourAt(forecasts[k + 1] ?? null, midTime);
    const conditions = conditionsOf(hour, plan.course);
    const loss = hour === null ? null : lossIn(hour, plan.course, hull, calm);
    const percent = loss?.percent ?? 0;
    const speed = calm * (1 - percent / 100);
    const end = time + (length / speed) * HOUR_MS;
    legs.push({
      from_nm: round(plan.from, 1),
      to_nm: round(plan.to, 1),
      start: iso(time),
      end: iso(end),
      midpoint: { lat: round(plan.mid.lat, 4), lon: round(plan.mid.lon, 4) },
      course_deg: Math.round(plan.course) % 360,
      weather: hour === null ? null : {
        time: hour.time,
        wind_speed_kn: hour.wind_speed_kn,
        wind_direction_deg: hour.wind_direction_deg,
        wave_height_m: hour.wave_height_m,
        wave_direction_deg: hour.wave_direction_deg,
      },
      beaufort: conditions?.beaufort ?? null,
      relative_deg: conditions === null ? null : Math.round(conditions.relative),
      sector: loss?.sector ?? null,
      speed_loss_pct: round(percent, 2),
      speed_kn: round(speed, 2),
    });
    time = end;
  });

  const calmHours = route.distance_nm / calm;
  const durationHours = (time - departure) / HOUR_MS;
  const withForecast = legs.filter((leg) => leg.weather !== null).length;
  const eta = iso(time);
  const prediction: ArrivalPrediction = {
    mmsi: vessel.mmsi,
    port: { id: port.id, name: port.name, lat: port.lat, lon: port.lon },
    departure: { lat: position.lat, lon: position.lon, time: position.timestamp, age_minutes: Math.max(0, Math.round((now - departure) / 60_000)) },
    distance_nm: round(route.distance_nm, 1),
    eta,
    eta_calm_water: iso(departure + calmHours * HOUR_MS),
    duration_hours: round(durationHours, 2),
    weather_delay_hours: round(durationHours - calmHours, 2),
    speed: {
      calm_water_kn: round(calm, 2),
      source: observed?.source ?? 'given',
      observed_kn: observed?.speed_kn ?? null,
      samples: observed?.samples ?? 0,
      window: observed?.window ?? null,
      loss_at_position_pct: lossAtPosition === null ? null : round(lossAtPosition, 2),
    },
    hull: {
      length_m: hull.length_m,
      beam_m: hull.beam_m,
      draught_m: hull.draught_m,
      block_coefficient: hull.block_coefficient,
      form: hull.form,
      loading: hull.loading,
      displacement_m3: hull.displacement_m3,
      froude_number: round(froudeNumber(calm, hull.lpp_m), 3),
      estimated: hull.estimated,
    },
    weather: {
      source: weather?.kind ?? null,
      attribution: weather?.attribution ?? null,
      status: weatherStatus,
      message: weatherMessage,
      horizon_hours: weather?.horizonHours ?? null,
      legs_with_forecast: withForecast,
      legs_without_forecast: legs.length - withForecast,
    },
    legs,
    losses: summariseLosses(legs),
    ais_eta: {
      reported: vessel.eta,
      destination: vessel.destination,
      // From the ETA as answered (to the second), so the two figures the answer gives agree.
      difference_hours: vessel.eta === null ? null : round((Date.parse(vessel.eta) - Date.parse(eta)) / HOUR_MS, 1),
    },
    assumptions: [],
    route: {
      type: 'Feature',
      geometry: route.geojson,
      properties: {
        distance_nm: round(route.distance_nm, 1),
        crosses_antimeridian: route.crosses_antimeridian,
        passages: route.passages.map((id) => ({ id, name: passageById(id)?.name ?? id })),
      },
    },
  };
  prediction.assumptions = assumptionsOf(prediction, route.snap.from.distance_nm, fitted, route.refused.map((refused) => refused.id));
  return { ok: true, prediction };
}

/**
 * The dimensions the vessel reports over AIS, for fitting the route to the canals and straits. Only
 * reported ones: a typical size filled in for Kwon's method would close passages on a guess.
 */
function reportedDimensions(vessel: Vessel): VesselDimensions {
  const dimensions: VesselDimensions = {};
  const { length, beam } = vessel.dimensions ?? { length: null, beam: null };
  if (length !== null && length > 0) dimensions.length_m = length;
  if (beam !== null && beam > 0) dimensions.beam_m = beam;
  if (vessel.draught !== null && vessel.draught > 0) dimensions.draught_m = vessel.draught;
  return dimensions;
}

/** The forecast hour nearest the time, when the point's forecast covers it. */
function hourAt(point: PointWeather | null, time: number): WeatherHour | null {
  if (point === null || point.hours.length === 0) return null;
  const index = Math.round((time - Date.parse(point.hours[0]!.time)) / HOUR_MS);
  return point.hours[index] ?? null;
}

interface Conditions {
  beaufort: number;
  from: number;
  relative: number;
}

/** The Beaufort number (the higher of wind and sea state) and where that weather comes from, relative to the course. */
function conditionsOf(hour: WeatherHour | null, courseDeg: number): Conditions | null {
  if (hour === null) return null;
  const windForce = hour.wind_speed_kn === null ? null : beaufortFromWind(hour.wind_speed_kn);
  const seaForce = hour.wave_height_m === null ? null : beaufortFromWaveHeight(hour.wave_height_m);
  if (windForce === null && seaForce === null) return null;
  const seaLeads = seaForce !== null && (windForce === null || seaForce > windForce);
  const from = seaLeads ? hour.wave_direction_deg ?? hour.wind_direction_deg : hour.wind_direction_deg ?? hour.wave_direction_deg;
  if (from === null) return null;
  return { beaufort: Math.max(windForce ?? 0, seaForce ?? 0), from, relative: relativeWeatherAngle(courseDeg, from) };
}

function lossIn(hour: WeatherHour | null, courseDeg: number, hull: HullModel, calmKn: number): SpeedLoss | null {
  const conditions = conditionsOf(hour, courseDeg);
  if (conditions === null) return null;
  return speedLoss({
    beaufort: conditions.beaufort,
    relative_deg: conditions.relative,
    block_coefficient: hull.block_coefficient,
    froude: froudeNumber(calmKn, hull.lpp_m),
    loading: hull.loading,
    form: hull.form,
    displacement_m3: hull.displacement_m3,
  });
}

function summariseLosses(legs: readonly ArrivalLeg[]): ArrivalPrediction['losses'] {
  const sectors: WeatherSector[] = ['head', 'bow', 'beam', 'following'];
  const bySector = Object.fromEntries(sectors.map((sector) => [sector, { legs: 0, distance_nm: 0, weighted: 0 }])) as
    Record<WeatherSector, { legs: number; distance_nm: number; weighted: number }>;
  let distance = 0;
  let weighted = 0;
  let max = 0;
  let maxLeg: number | null = null;
  legs.forEach((leg, i) => {
    const length = leg.to_nm - leg.from_nm;
    distance += length;
    weighted += length * leg.speed_loss_pct;
    if (leg.speed_loss_pct > max) {
      max = leg.speed_loss_pct;
      maxLeg = i;
    }
    if (leg.sector !== null) {
      const sector = bySector[leg.sector];
      sector.legs += 1;
      sector.distance_nm += length;
      sector.weighted += length * leg.speed_loss_pct;
    }
  });
  return {
    mean_pct: distance > 0 ? round(weighted / distance, 2) : 0,
    max_pct: max,
    max_leg: maxLeg,
    by_sector: Object.fromEntries(sectors.map((sector) => {
      const { legs: count, distance_nm: length, weighted: sum } = bySector[sector];
      return [sector, { legs: count, distance_nm: round(length, 1), mean_pct: length > 0 ? round(sum / length, 2) : 0 }];
    })) as ArrivalPrediction['losses']['by_sector'],
  };
}

function assumptionsOf(prediction: ArrivalPrediction, connectorNm: number, fitted: VesselDimensions, refused: readonly string[]): string[] {
  const { speed, weather, hull } = prediction;
  const lines: string[] = [];
  if (speed.source === 'given') {
    lines.push(`Calm-water speed ${speed.calm_water_kn} kn, as given.`);
  } else {
    const from = speed.source === 'ais_track'
      ? `the 20 % trimmed mean of ${speed.samples} AIS speeds over ground reported under way in the hour to ${speed.window!.to}`
      : `the latest AIS speed over ground (fewer than 3 reports under way in the last hour)`;
    lines.push(`Observed speed ${speed.observed_kn} kn: ${from}. Calm-water speed ${speed.calm_water_kn} kn: the observed speed ` +
      `with the ${speed.loss_at_position_pct ?? 0} % weather loss at the reported position taken back out.`);
  }
  lines.push('The vessel holds its calm-water speed to the port, losing only what the weather takes: no slow steaming, waiting, ' +
    'pilotage or berthing time. Currents and tidal streams are not modelled; speed over ground stands in for speed through the water.');
  lines.push(`Route: the shortest sea route over the marnet network from the reported position (${round(connectorNm, 1)} nm from the ` +
    `network) to the port position, ${prediction.distance_nm} nm, in ${prediction.legs.length} legs of about ` +
    `${prediction.legs.length > 0 ? round(prediction.distance_nm / prediction.legs.length, 1) : 0} nm; each leg's weather is taken at its middle ` +
    'at the hour the vessel passes it.');
  const passages = prediction.route.properties.passages;
  const reported = Object.entries(fitted).map(([dimension, metres]) => `${dimension.replace('_m', '').replace('_', ' ')} ${metres} m`);
  lines.push(`Passages: the route takes only canals and straits that the vessel's AIS ${reported.length > 0 ? reported.join(', ') : 'dimensions (none reported)'} fit` +
    (passages.length > 0 ? `; it passes ${passages.map((passage) => passage.name).join(', ')}` : '') +
    (refused.length > 0 ? `; it is too large for ${refused.map((id) => passageById(id)?.name ?? id).join(', ')}, which a shorter route would take` : '') + '.');
  lines.push(`Speed loss by Kwon's method (see the documentation): block coefficient ${hull.block_coefficient}, ${hull.form === 'container' ? 'container ship' : 'non-container'} form, ` +
    `${hull.loading}, displacement about ${hull.displacement_m3} m³, Froude number ${hull.froude_number}; the Beaufort number is the ` +
    `higher of the wind's and the sea state's. Losses are capped at ${MAX_LOSS_PERCENT} %.`);
  if (weather.status === 'used') {
    lines.push(`Weather: ${weather.source === 'simulated' ? 'the simulated forecast (not a real forecast)' : 'the Open-Meteo forecast'}; ` +
      `${weather.legs_with_forecast} of ${prediction.legs.length} legs had a forecast` +
      (weather.legs_without_forecast > 0 ? `, the others lie beyond its ${weather.horizon_hours}-hour horizon and assume calm water.` : '.'));
  } else if (weather.status === 'unavailable') {
    lines.push(`Weather: the forecast source failed (${weather.message}); every leg assumes calm water.`);
  } else {
    lines.push('Weather: not requested; every leg assumes calm water.');
  }
  if (prediction.departure.age_minutes > 30) lines.push(`The reported position is ${prediction.departure.age_minutes} minutes old; the ETA counts from its time.`);
  return lines;
}

function iso(ms: number): string {
  return new Date(Math.round(ms / 1000) * 1000).toISOString();
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  const rounded = Math.round(value * scale) / scale;
  return rounded === 0 ? 0 : rounded; // never -0
}
