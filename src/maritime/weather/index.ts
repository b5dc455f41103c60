// Public surface of the weather module: the configured source, the forecast at a port, port
// weather limits and holds.
import type { OutboundLogger } from '../../platform/http/outbound.ts';
import type { MaritimeSettings } from '../settings.ts';
import type { WeatherSource } from './model.ts';
import { OPEN_METEO_HORIZON_HOURS, OpenMeteoWeather } from './open-meteo.ts';
import { createSimulatedWeather } from './simulated.ts';

export { registerWeatherRoutes, weatherUnavailable } from './weather.routes.ts';
export type { WeatherApiDeps } from './weather.routes.ts';
export { DEFAULT_THRESHOLDS, defaultThresholds, exceeded, HOLD_FACTORS, THRESHOLD_NAMES, weatherHolds } from './holds.ts';
export { portForecast } from './port-weather.ts';

export type { HoldFactor, LimitingFactor, ThresholdName, WeatherHold, WeatherThresholds } from './holds.ts';
export { HOUR_MS, hoursOf, WEATHER_SOURCE_KINDS, WeatherUnavailableError } from './model.ts';
export type { PointWeather, WeatherHour, WeatherRequest, WeatherSource, WeatherSourceKind } from './model.ts';
export { OPEN_METEO_ATTRIBUTION, OpenMeteoWeather } from './open-meteo.ts';
export { periodQuery, readPeriod } from './period.ts';
export type { Period, PeriodRules } from './period.ts';
export { createSimulatedWeather, SIMULATED_ATTRIBUTION, simulateHours } from './simulated.ts';
export { INSTANCE_OWNER, PortWeatherThresholdStore } from './thresholds.ts';
export type { EffectiveThresholds, PortThresholds, ThresholdLayer, ThresholdOverrides } from './thresholds.ts';

/** The weather source the configuration asks for: the simulation unless `MARITIME_WEATHER=open-meteo`. */
export function createWeatherSource(config: MaritimeSettings, logger: OutboundLogger): WeatherSource {
  if (config.maritimeWeather === 'open-meteo') {
    return new OpenMeteoWeather({
      forecastBaseUrl: config.openMeteoForecastUrl,
      marineBaseUrl: config.openMeteoMarineUrl,
      apiKey: config.openMeteoApiKey,
      timeoutMs: config.openMeteoTimeoutMs,
      logger,
    });
  }
  // The same horizon as the live source, so the routes take the same periods either way.
  return createSimulatedWeather(OPEN_METEO_HORIZON_HOURS);
}
