// REST for the weather-aware arrival prediction of one vessel at one port.
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import { ProblemError, Problems, problemType } from '../../platform/http/problems.ts';
import { invalidField, nullable } from '../../platform/http/schema.ts';
import { portById } from '../ports/ports.routes.ts';
import type { PortIndex } from '../ports/ports.ts';
import { noSeaRoute, seaRouteBlockedProblem } from '../sea-routes/routes.routes.ts';
import { MmsiParams, parseMmsi, vesselNotFound } from '../vessels/vessels.routes.ts';
import type { VesselStore } from '../vessels/store.ts';
import { WEATHER_SOURCE_KINDS } from '../weather/model.ts';
import { MAX_LOSS_PERCENT } from './kwon.ts';
import { LEG_NM, MAX_LEGS, MAX_SPEED_KN, MIN_SPEED_KN, type ArrivalRequest, type ArrivalResult } from './predict.ts';
import { UNDER_WAY_MIN_KN } from './speed.ts';

const TAG = 'Arrival prediction';

export const vesselPositionUnknown = problemType({
  code: 'vessel_position_unknown',
  status: 409,
  title: 'The vessel has no position',
  description: 'LAMIS has heard from this MMSI but never a position report, so there is nothing to route from. Try again once it has reported one.',
});

export const vesselSpeedUnknown = problemType({
  code: 'vessel_speed_unknown',
  status: 422,
  title: 'The vessel is not under way',
  description:
    `Its AIS reports of the last hour show no speed over ground of ${UNDER_WAY_MIN_KN} kn or more outside anchorage or moorings, so ` +
    'its passage speed is unknown. Give `speed_kn`.',
});

const SectorSchema = Type.Enum(['head', 'bow', 'beam', 'following'], { description: 'Kwon\'s sectors: head 0–30°, bow 30–60°, beam 60–150°, following 150–180° off the bow' });
const SectorLossSchema = Type.Object({ legs: Type.Integer(), distance_nm: Type.Number(), mean_pct: Type.Number() });
const Coordinates = Type.Array(Type.Number());

const PredictionSchema = Type.Object({
  mmsi: Type.Integer(),
  port: Type.Object({ id: Type.String(), name: Type.String(), lat: Type.Number(), lon: Type.Number() }),
  departure: Type.Object({
    lat: Type.Number(), lon: Type.Number(),
    time: Type.String({ format: 'date-time', description: 'The time of the vessel\'s latest position, where the prediction starts' }),
    age_minutes: Type.Integer(),
  }),
  distance_nm: Type.Number({ description: 'Distance to go along the sea route' }),
  eta: Type.String({ format: 'date-time', description: 'Predicted arrival at the port position' }),
  eta_calm_water: Type.String({ format: 'date-time', description: 'The arrival at the calm-water speed, without weather' }),
  duration_hours: Type.Number(),
  weather_delay_hours: Type.Number({ description: 'What the forecast adds to the calm-water passage' }),
  speed: Type.Object({
    calm_water_kn: Type.Number({ description: 'The speed the legs lose their weather losses from' }),
    source: Type.Enum(['ais_track', 'ais_sog', 'given'], {
      description: '`ais_track`: robust average of the last hour\'s AIS speeds under way; `ais_sog`: the latest one; `given`: `speed_kn`',
    }),
    observed_kn: nullable(Type.Number()),
    samples: Type.Integer(),
    window: nullable(Type.Object({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) })),
    loss_at_position_pct: nullable(Type.Number({ description: 'The weather loss at the reported position, taken back out of the observed speed' })),
  }),
  hull: Type.Object({
    length_m: Type.Number(),
    beam_m: Type.Number(),
    draught_m: Type.Number(),
    block_coefficient: Type.Number(),
    form: Type.Enum(['container', 'other']),
    loading: Type.Enum(['loaded', 'ballast']),
    displacement_m3: Type.Number(),
    froude_number: Type.Number(),
    estimated: Type.Array(Type.String(), { description: 'What AIS did not say and how it was filled in' }),
  }),
  weather: Type.Object({
    source: nullable(Type.Enum([...WEATHER_SOURCE_KINDS])),
    attribution: nullable(Type.String()),
    status: Type.Enum(['used', 'unavailable', 'not_requested'], { description: '`unavailable`: the source failed and every leg assumes calm water' }),
    message: nullable(Type.String()),
    horizon_hours: nullable(Type.Number()),
    legs_with_forecast: Type.Integer(),
    legs_without_forecast: Type.Integer({ description: 'Legs beyond the forecast horizon (or without a forecast): calm water is assumed' }),
  }),
  legs: Type.Array(Type.Object({
    from_nm: Type.Number(),
    to_nm: Type.Number(),
    start: Type.String({ format: 'date-time' }),
    end: Type.String({ format: 'date-time' }),
    midpoint: Type.Object({ lat: Type.Number(), lon: Type.Number() }),
    course_deg: Type.Number(),
    weather: nullable(Type.Object({
      time: Type.String({ format: 'date-time' }),
      wind_speed_kn: nullable(Type.Number()),
      wind_direction_deg: nullable(Type.Number()),
      wave_height_m: nullable(Type.Number()),
      wave_direction_deg: nullable(Type.Number()),
    })),
    beaufort: nullable(Type.Integer()),
    relative_deg: nullable(Type.Number({ description: 'Where the weather comes from relative to the course: 0 dead ahead, 180 astern' })),
    sector: nullable(SectorSchema),
    speed_loss_pct: Type.Number(),
    speed_kn: Type.Number(),
  }), { description: `Legs of about ${LEG_NM} nm (at most ${MAX_LEGS})` }),
  losses: Type.Object({
    mean_pct: Type.Number({ description: 'Mean speed loss weighted by leg length' }),
    max_pct: Type.Number(),
    max_leg: nullable(Type.Integer({ description: 'Index of the leg with the highest loss' })),
    by_sector: Type.Object({ head: SectorLossSchema, bow: SectorLossSchema, beam: SectorLossSchema, following: SectorLossSchema }),
  }),
  ais_eta: Type.Object({
    reported: nullable(Type.String({ format: 'date-time', description: 'The ETA the vessel reports in its AIS voyage data' })),
    destination: nullable(Type.String()),
    difference_hours: nullable(Type.Number({ description: 'Reported minus predicted: positive when the vessel reports a later arrival' })),
  }),
  assumptions: Type.Array(Type.String()),
  route: Type.Object({
    type: Type.Literal('Feature'),
    geometry: Type.Union([
      Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Coordinates) }),
      Type.Object({ type: Type.Literal('MultiLineString'), coordinates: Type.Array(Type.Array(Coordinates)) }),
    ], { description: '[lon, lat]; split into a MultiLineString where it crosses 180°' }),
    properties: Type.Object({
      distance_nm: Type.Number(),
      crosses_antimeridian: Type.Boolean(),
      passages: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), { description: 'The named canals and straits sailed through, in order' }),
    }),
  }, { description: 'The route as a GeoJSON Feature' }),
  disclaimer: Type.String(),
});

export interface EtaApiDeps {
  ports: PortIndex;
  store: VesselStore;
  predict(request: ArrivalRequest): Promise<ArrivalResult>;
}

export function registerEtaRoutes(app: App, deps: EtaApiDeps): void {
  app.get('/v3/maritime/vessels/:mmsi/eta', {
    schema: {
      summary: 'When a vessel will arrive at a port, weather included',
      description:
        'The shortest sea route (marnet) from the vessel\'s latest position to the port, the speed from its AIS speed over ground in the ' +
        'last hour (or `speed_kn`), and on each leg the speed lost to the forecast wind and waves by Kwon\'s method for its ship type ' +
        `and size (capped at ${MAX_LOSS_PERCENT} %), with every assumption, the route as GeoJSON and the vessel's own AIS ETA ` +
        'compared. The route is the one `GET /v3/maritime/routes` gives for the vessel\'s AIS length, beam and draught (when it reports them). ' +
        '400 for a malformed MMSI, port or speed, 404 `vessel_not_found`, 404 `port_not_found`, 409 ' +
        '`vessel_position_unknown`, 422 `vessel_speed_unknown`, 422 `no_sea_route`, 422 `sea_route_blocked`.',
      tags: [TAG],
      params: MmsiParams,
      querystring: Type.Object({
        port: Type.String({ description: 'The port: a UN/LOCODE ("NLRTM") or a World Port Index number ("WPI-31140")' }),
        speed_kn: Type.Optional(Type.Number({
          minimum: MIN_SPEED_KN, maximum: MAX_SPEED_KN,
          description: 'The vessel\'s calm-water speed, instead of the one worked out from its AIS speed over ground',
        })),
      }),
      response: { 200: PredictionSchema },
    },
  }, async (request) => {
    const mmsi = parseMmsi(request.params.mmsi);
    const port = portById(deps.ports, request.query.port, '/querystring/port');
    const vessel = deps.store.get(mmsi);
    if (vessel === undefined) throw new ProblemError(vesselNotFound, `No AIS data from MMSI ${request.params.mmsi}.`);
    const result = await deps.predict({ vessel, port, speed_kn: request.query.speed_kn });
    if (!result.ok) {
      switch (result.error) {
        case 'no_position': throw new ProblemError(vesselPositionUnknown, result.message);
        case 'no_speed': throw new ProblemError(vesselSpeedUnknown, result.message);
        case 'invalid_speed': throw invalidField('/querystring/speed_kn', result.message);
        case 'no_route': throw new ProblemError(noSeaRoute, result.message);
        // The dimensions are the ones the vessel reports over AIS: the field is the vessel asked for.
        case 'blocked': throw seaRouteBlockedProblem(result.message, result.refused ?? [], () => '/params/mmsi');
        case 'network_unavailable': throw new ProblemError(Problems.unavailable, result.message);
      }
    }
    return { ...result.prediction, disclaimer: DISCLAIMER };
  });
}
