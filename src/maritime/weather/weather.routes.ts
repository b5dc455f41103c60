// REST for marine weather at a port: the hourly forecast, the hold periods its weather limits give,
// and the limits themselves (defaults by harbour size, set instance-wide by the instance's
// operators, or by the caller's organisation).
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { invalidField, nullable, Shared } from '../../platform/http/schema.ts';
import { IdParams, portById } from '../ports/ports.routes.ts';
import { HARBOUR_SIZES, type Port, type PortIndex } from '../ports/ports.ts';
import { DEFAULT_THRESHOLDS, HOLD_FACTORS, THRESHOLD_NAMES, weatherHolds, type ThresholdName } from './holds.ts';
import { WEATHER_SOURCE_KINDS, WeatherUnavailableError, type WeatherSource } from './model.ts';
import { portForecast, type PortForecast } from './port-weather.ts';
import { periodQuery, readPeriod, type PeriodRules } from './period.ts';
import { INSTANCE_OWNER, type PortThresholds, type PortWeatherThresholdStore, type StoredOverrides, type ThresholdOverrides } from './thresholds.ts';

const TAG = 'Port weather';

export const weatherUnavailable = problemType({
  code: 'weather_unavailable',
  status: 503,
  title: 'The weather source did not answer',
  description:
    'The configured live weather source (Open-Meteo) failed: no answer in time, a network error, an error answer, an unreadable ' +
    'answer, an answer over its size limit, or it asked LAMIS to slow down. `failure` says which; retry after `Retry-After` seconds when given.',
});

/** Limits a caller may set, with their units. */
const LIMITS: Readonly<Record<ThresholdName, { minimum: number; maximum: number; description: string }>> = {
  wind_kn: { minimum: 1, maximum: 100, description: 'Mean wind above which the port is held, knots' },
  gust_kn: { minimum: 1, maximum: 150, description: 'Gust above which the port is held, knots' },
  wave_height_m: { minimum: 0.1, maximum: 20, description: 'Significant wave height above which the port is held, metres' },
  visibility_m: { minimum: 10, maximum: 20_000, description: 'Visibility below which the port is held, metres' },
};

const defaultsTable = Object.entries(DEFAULT_THRESHOLDS)
  .map(([size, t]) => `${size}: ${t.wind_kn} kn, gust ${t.gust_kn} kn, waves ${t.wave_height_m} m, visibility ${t.visibility_m} m`)
  .join('; ');

const limitNumber = (name: ThresholdName) => Type.Number({ description: LIMITS[name].description });
const ThresholdsSchema = Shared('WeatherThresholds', Type.Object({
  wind_kn: limitNumber('wind_kn'),
  gust_kn: limitNumber('gust_kn'),
  wave_height_m: limitNumber('wave_height_m'),
  visibility_m: limitNumber('visibility_m'),
}));
const OverridesSchema = Shared('WeatherThresholdOverrides', Type.Object({
  values: Type.Object({
    wind_kn: nullable(Type.Number()),
    gust_kn: nullable(Type.Number()),
    wave_height_m: nullable(Type.Number()),
    visibility_m: nullable(Type.Number()),
  }, { description: 'null: not set in this layer' }),
  updated_at: Type.String({ format: 'date-time' }),
}));
const LayerSchema = Type.Enum(['default', 'instance', 'organisation']);
const SourcesSchema = Type.Object({
  wind_kn: LayerSchema,
  gust_kn: LayerSchema,
  wave_height_m: LayerSchema,
  visibility_m: LayerSchema,
}, { description: 'Which layer each effective limit comes from' });

const PortThresholdsSchema = Shared('PortWeatherThresholds', Type.Object({
  port: Type.Object({ id: Type.String(), name: Type.String(), harbour_size: nullable(Type.Enum([...HARBOUR_SIZES])) }),
  scope: Type.Enum(['instance', 'organisation'], {
    description: 'The layer a PUT with your key sets: `organisation` for organisation keys, `instance` for the operators\' keys (no organisation)',
  }),
  defaults: ThresholdsSchema,
  defaults_basis: Type.String({ description: 'What the defaults are for: the harbour size (or `unknown`), and the shelter when the World Port Index gives it (poor or no shelter lowers the wind and gust limits)' }),
  instance: nullable(OverridesSchema),
  organisation: nullable(OverridesSchema),
  effective: ThresholdsSchema,
  sources: SourcesSchema,
}));

/** A limit in a PUT body: a type list rather than anyOf with null, which type coercion would turn into 0. */
const limitOrNull = (name: ThresholdName) => Type.Optional(Type.Unsafe<number | null>({
  type: ['number', 'null'], minimum: LIMITS[name].minimum, maximum: LIMITS[name].maximum, description: `${LIMITS[name].description}; null or absent: not set`,
}));
const ThresholdsBody = Type.Object({
  wind_kn: limitOrNull('wind_kn'),
  gust_kn: limitOrNull('gust_kn'),
  wave_height_m: limitOrNull('wave_height_m'),
  visibility_m: limitOrNull('visibility_m'),
});

const SourceSchema = Type.Object({
  kind: Type.Enum([...WEATHER_SOURCE_KINDS], { description: '`simulated`: the built-in simulation, not a forecast; `open-meteo`: the live Open-Meteo forecast' }),
  attribution: Type.String(),
});

const HourSchema = Type.Object({
  time: Type.String({ format: 'date-time', description: 'Start of the UTC hour' }),
  wind_speed_kn: nullable(Type.Number({ description: 'Mean wind at 10 m' })),
  wind_direction_deg: nullable(Type.Number({ description: 'Where the wind comes from, degrees true' })),
  gust_kn: nullable(Type.Number()),
  wave_height_m: nullable(Type.Number({ description: 'Significant wave height, wind sea and swell' })),
  wave_direction_deg: nullable(Type.Number({ description: 'Where the waves come from, degrees true' })),
  visibility_m: nullable(Type.Number()),
});

const WeatherPortSchema = Type.Object({
  id: Type.String(), name: Type.String(), lat: Type.Number(), lon: Type.Number(), harbour_size: nullable(Type.Enum([...HARBOUR_SIZES])),
});

const SeaStateSchema = Type.Object({
  basis: Type.String({ description: 'What sets the sea state at the port: the World Port Index harbour type and shelter' }),
  fetch_km: nullable(Type.Number({ description: 'Open water the wind blows over inside the harbour; the wind sea is fetch-limited to it. null: the port lies open to the sea and gets open-water values' })),
  transmission: Type.Number({ description: 'Fraction of the open-water wave height that reaches the berths' }),
  marine_point: Type.Object({
    lat: Type.Number(),
    lon: Type.Number(),
    distance_nm: Type.Number({ description: 'From the port position' }),
    basis: Type.Enum(['port_position', 'nearest_open_water', 'no_open_water_found'], {
      description: '`port_position`: the source has no land (the simulation); `nearest_open_water`: a marine model has values over water only, so it is asked at the nearest open water; `no_open_water_found` within 30 nm: asked at the port position',
    }),
  }, { description: 'Where the open-water wave values were taken' }),
}, { description: 'How the wave heights were brought from open water into the harbour: min(open water, √(fetch-limited wind sea² + (transmission × open water)²))' });

/** What both forecast answers open with: the port, the period, the source and how the sea state was found. */
const periodAnswerFields = {
  port: WeatherPortSchema,
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  source: SourceSchema,
  sea_state: SeaStateSchema,
};

function seaState(forecast: PortForecast) {
  const { basis, fetch_km, transmission } = forecast.exposure;
  return { basis, fetch_km, transmission, marine_point: forecast.marine_point };
}

export interface WeatherApiDeps {
  ports: PortIndex;
  weather: WeatherSource;
  thresholds: PortWeatherThresholdStore;
}

export function registerWeatherRoutes(app: App, deps: WeatherApiDeps): void {
  const { weather } = deps;
  const rules: PeriodRules = { defaultHours: 48, maxHours: weather.horizonHours, maxPastHours: 24, maxAheadHours: weather.horizonHours };
  const period = periodQuery(rules);
  const PeriodQuery = Type.Object({ from: Type.Optional(period.from), to: Type.Optional(period.to) });
  const source = { kind: weather.kind, attribution: weather.attribution };
  const periodText = `Period from \`from\` (default now, at most ${rules.maxPastHours} hours ago) to \`to\` (default ${rules.defaultHours} hours later, ` +
    `at most ${weather.horizonHours} hours from now).`;

  const forecastAt = async (port: Port, from: number, to: number): Promise<PortForecast> => {
    try {
      return await portForecast(weather, port, from, to);
    } catch (error) {
      if (!(error instanceof WeatherUnavailableError)) throw error;
      const retry = error.retryAfterMs === null ? null : Math.max(1, Math.ceil(error.retryAfterMs / 1000));
      throw new ProblemError(weatherUnavailable, error.message, {
        extra: { failure: error.failure },
        headers: retry === null ? {} : { 'retry-after': String(retry) },
      });
    }
  };

  app.get('/v3/maritime/ports/:id/weather', {
    schema: {
      summary: 'Hourly marine weather at a port',
      description:
        'Wind, gusts, significant wave height and direction, and visibility for each UTC hour at the port position, from the ' +
        'configured source (`source.kind`: the built-in simulation unless Open-Meteo is configured). ' + periodText +
        ' 400 for a malformed or out-of-range parameter, 404 `port_not_found`, 503 `weather_unavailable`.',
      tags: [TAG],
      params: IdParams,
      querystring: PeriodQuery,
      response: {
        200: Type.Object({
          ...periodAnswerFields,
          hours: Type.Array(HourSchema),
          disclaimer: Type.String(),
        }),
      },
    },
  }, async (request) => {
    const port = portById(deps.ports, request.params.id);
    const { from, to } = readPeriod(request.query, rules);
    const forecast = await forecastAt(port, from, to);
    return { port: weatherPort(port), from: iso(from), to: iso(to), source, sea_state: seaState(forecast), hours: forecast.hours, disclaimer: DISCLAIMER };
  });

  app.get('/v3/maritime/ports/:id/weather-holds', {
    schema: {
      summary: 'When weather will hold a port',
      description:
        'The periods in which the forecast exceeds the port\'s weather limits: mean wind, gust or significant wave height above its ' +
        'limit, or visibility below it. Each hold lists its limiting factors with the limit, the worst value and when it occurs. ' +
        'The limits are the caller\'s (see `/weather-thresholds`): defaults by harbour size, replaced by what the instance\'s operators ' +
        'or your organisation set. ' + periodText + ' 400 for a malformed or out-of-range parameter, 404 `port_not_found`, ' +
        '503 `weather_unavailable`.',
      tags: [TAG],
      params: IdParams,
      querystring: PeriodQuery,
      response: {
        200: Type.Object({
          ...periodAnswerFields,
          thresholds: ThresholdsSchema,
          threshold_sources: SourcesSchema,
          held_hours: Type.Number({ description: 'Hours of the period under a hold' }),
          holds: Type.Array(Type.Object({
            start: Type.String({ format: 'date-time' }),
            end: Type.String({ format: 'date-time' }),
            duration_hours: Type.Number(),
            limiting: Type.Array(Type.Object({
              factor: Type.Enum([...HOLD_FACTORS]),
              threshold: Type.Number(),
              unit: Type.String(),
              worst: Type.Number({ description: 'The value furthest beyond the limit during the hold' }),
              worst_at: Type.String({ format: 'date-time' }),
              hours: Type.Number({ description: 'Hours of the hold (within the period asked for) with this factor beyond its limit; a factor beyond it throughout has the hold\'s `duration_hours`' }),
            }), { description: 'The factors beyond their limits, most hours first' }),
          })),
          disclaimer: Type.String(),
        }),
      },
    },
  }, async (request) => {
    const port = portById(deps.ports, request.params.id);
    const { from, to } = readPeriod(request.query, rules);
    const layers = await deps.thresholds.layers(port, organisationOf(request));
    const forecast = await forecastAt(port, from, to);
    const holds = weatherHolds(forecast.hours, layers.effective.values, from, to);
    return {
      port: weatherPort(port),
      from: iso(from),
      to: iso(to),
      source,
      sea_state: seaState(forecast),
      thresholds: layers.effective.values,
      threshold_sources: layers.effective.sources,
      held_hours: Math.round(holds.reduce((sum, hold) => sum + hold.duration_hours, 0) * 100) / 100,
      holds,
      disclaimer: DISCLAIMER,
    };
  });

  const thresholdsDescription =
    `Defaults by harbour size (${defaultsTable}), replaced limit by limit by the instance-wide values the instance's operators set, ` +
    'then by your organisation\'s. A PUT with an organisation key sets the organisation\'s values (they apply to its keys only); one ' +
    'with an operator key (no organisation) sets the instance-wide values.';

  app.get('/v3/maritime/ports/:id/weather-thresholds', {
    schema: {
      summary: 'The weather limits that hold a port, for your organisation',
      description: `${thresholdsDescription} 400 for a malformed id, 404 \`port_not_found\`.`,
      tags: [TAG],
      params: IdParams,
      response: { 200: PortThresholdsSchema },
    },
  }, async (request) => {
    const port = portById(deps.ports, request.params.id);
    return thresholdsView(port, organisationOf(request), await deps.thresholds.layers(port, organisationOf(request)));
  });

  app.put('/v3/maritime/ports/:id/weather-thresholds', {
    schema: {
      summary: 'Set the weather limits of a port for your organisation (or, as an operator, instance-wide)',
      description:
        `${thresholdsDescription} The body replaces your layer: a limit left out or null is not set there and falls back to the layer ` +
        'below; all of them null removes it. The gust limit may not be below the wind limit. ' +
        '400 for a malformed id or body, 404 `port_not_found`.',
      tags: [TAG],
      params: IdParams,
      body: ThresholdsBody,
      response: { 200: PortThresholdsSchema },
    },
  }, async (request) => {
    const port = portById(deps.ports, request.params.id);
    const body = request.body as Record<string, unknown>;
    const unknown = Object.keys(body).find((key) => !(THRESHOLD_NAMES as readonly string[]).includes(key));
    if (unknown !== undefined) throw invalidField(`/body/${unknown}`, `is not a weather limit; the limits are ${THRESHOLD_NAMES.join(', ')}`);
    const values = Object.fromEntries(THRESHOLD_NAMES.map((name) => [name, request.body[name] ?? null])) as ThresholdOverrides;
    if (values.wind_kn !== null && values.gust_kn !== null && values.gust_kn < values.wind_kn) {
      throw invalidField('/body/gust_kn', `must not be below wind_kn (${values.wind_kn})`);
    }
    const organisation = organisationOf(request);
    await deps.thresholds.write(organisation ?? INSTANCE_OWNER, port.id, values);
    return thresholdsView(port, organisation, await deps.thresholds.layers(port, organisation));
  });
}

/** The caller's organisation; null for the instance's operator keys, which belong to none. */
function organisationOf(request: FastifyRequest): string | null {
  return request.principal?.organisation_id ?? null;
}

function thresholdsView(port: Port, organisation: string | null, layers: PortThresholds) {
  const overrides = (stored: StoredOverrides | null) => (stored === null ? null : { values: stored.values, updated_at: stored.updated_at });
  return {
    port: { id: port.id, name: port.name, harbour_size: port.harbour_size },
    scope: organisation === null ? 'instance' as const : 'organisation' as const,
    defaults: layers.defaults,
    defaults_basis: layers.defaults_basis,
    instance: overrides(layers.instance),
    organisation: overrides(layers.organisation),
    effective: layers.effective.values,
    sources: layers.effective.sources,
  };
}

function weatherPort(port: Port) {
  return { id: port.id, name: port.name, lat: port.lat, lon: port.lon, harbour_size: port.harbour_size };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
