// The maritime feature's rows of the configuration table: AIS feeds and the simulator, vessel
// state, the forecast source, and the AIS stream. A leaf (the feed list's parser aside, itself a
// leaf): the settings are read by every command that takes them, without loading the feature.
import { integer, optionalText, requiredBaseUrl, setting, simulatorSwitch, type Parse, type SettingsOf } from '../platform/config/index.ts';
import { parseFeedSpecs, type FeedSpec } from './feeds/spec.ts';

export const OPEN_METEO_FORECAST_URL = 'https://api.open-meteo.com';
export const OPEN_METEO_MARINE_URL = 'https://marine-api.open-meteo.com';

/** Where port weather, weather holds and arrival predictions take their forecast from. */
export type MaritimeWeatherSource = 'simulated' | 'open-meteo';

const maritimeWeather: Parse<MaritimeWeatherSource> = (raw) => {
  const lower = raw.trim().toLowerCase();
  return lower === 'simulated' || lower === 'open-meteo' ? { value: lower } : { error: 'must be simulated or open-meteo' };
};

/** `auto`, or how many stream processes. */
const streamProcesses: Parse<number | 'auto'> = (raw) => {
  if (raw.trim().toLowerCase() === 'auto') return { value: 'auto' };
  const count = integer(0, 32)(raw);
  return 'error' in count ? { error: 'must be auto or a whole number from 0 to 32' } : count;
};

const feeds: Parse<FeedSpec[]> = (raw) => {
  const parsed = parseFeedSpecs(raw);
  return parsed.ok ? { value: parsed.specs } : { error: parsed.error };
};

export const MARITIME_SETTINGS = [
  setting({ key: 'aisFeeds', env: 'AIS_FEEDS', flag: 'ais-feeds', shown: '(none)', defaultValue: [], parse: feeds,
    description: 'Comma-separated AIS feeds: `udp://HOST:PORT`, `tcp://HOST:PORT`, `tcp-listen://HOST:PORT`, `aisstream+wss://HOST/PATH`, `file:PATH?speed=N` (see "AIS feeds")' }),
  setting({ key: 'aisstreamApiKey', env: 'AISSTREAM_API_KEY', flag: 'aisstream-api-key', shown: '(unset)', defaultValue: undefined,
    parse: optionalText, description: 'API key sent in the subscription of `aisstream+` feeds' }),
  setting({ key: 'aisSimulator', env: 'AIS_SIMULATOR', flag: 'ais-simulator', shown: 'auto', defaultValue: 'auto', parse: simulatorSwitch,
    description: 'The AIS simulator (data labelled `simulated`): auto runs it when `AIS_FEEDS` is empty; on or off force it' }),
  setting({ key: 'aisSimulatorVessels', env: 'AIS_SIMULATOR_VESSELS', flag: 'ais-simulator-vessels', shown: '1000', defaultValue: 1000,
    parse: integer(1, 50000), description: 'How many vessels the AIS simulator sails' }),
  setting({ key: 'aisIngestThread', env: 'AIS_INGEST_THREAD', flag: 'ais-ingest-thread', shown: 'auto', defaultValue: 'auto', parse: simulatorSwitch,
    description: 'AIS ingest (feeds, decoding, vessel state, the track recorder) on a worker thread of its own: auto does when the machine has more than one core; on or off force it (see "Threads")' }),
  setting({ key: 'aisStaleMinutes', env: 'AIS_STALE_MINUTES', flag: 'ais-stale-minutes', shown: '30', defaultValue: 30,
    parse: integer(1, 1440), description: 'A vessel position older than this leaves the live index (area searches, the map); the vessel stays known' }),
  setting({ key: 'aisTrackRetentionHours', env: 'AIS_TRACK_RETENTION_HOURS', flag: 'ais-track-retention-hours', shown: '72',
    defaultValue: 72, parse: integer(1, 87600), description: 'How long recorded vessel track points are kept' }),
  setting({ key: 'maritimeWeather', env: 'MARITIME_WEATHER', flag: 'maritime-weather', shown: 'simulated', defaultValue: 'simulated',
    parse: maritimeWeather,
    description: 'Forecast for port weather, weather holds and arrival predictions: `simulated` (labelled, no network) or `open-meteo` (the live Open-Meteo forecast and marine APIs)' }),
  setting({ key: 'openMeteoForecastUrl', env: 'OPEN_METEO_FORECAST_URL', flag: 'open-meteo-forecast-url', shown: OPEN_METEO_FORECAST_URL,
    defaultValue: OPEN_METEO_FORECAST_URL, parse: requiredBaseUrl,
    description: 'Open-Meteo forecast API base URL (LAMIS adds `/v1/forecast`), used with `MARITIME_WEATHER=open-meteo`' }),
  setting({ key: 'openMeteoMarineUrl', env: 'OPEN_METEO_MARINE_URL', flag: 'open-meteo-marine-url', shown: OPEN_METEO_MARINE_URL,
    defaultValue: OPEN_METEO_MARINE_URL, parse: requiredBaseUrl,
    description: 'Open-Meteo marine API base URL (LAMIS adds `/v1/marine`), used with `MARITIME_WEATHER=open-meteo`' }),
  setting({ key: 'openMeteoApiKey', env: 'OPEN_METEO_API_KEY', flag: 'open-meteo-api-key', shown: '(unset: the free, non-commercial API)',
    defaultValue: undefined, parse: optionalText,
    description: 'Open-Meteo API key for its commercial service, sent as `apikey` (point the two URLs at the customer hosts)' }),
  setting({ key: 'openMeteoTimeoutMs', env: 'OPEN_METEO_TIMEOUT_MS', flag: 'open-meteo-timeout-ms', shown: '10000', defaultValue: 10000,
    parse: integer(100, 600000), description: 'How long LAMIS waits for an Open-Meteo answer (milliseconds)' }),
  setting({ key: 'streamProcesses', env: 'LAMIS_STREAM_PROCESSES', flag: 'stream-processes', shown: 'auto', defaultValue: 'auto', parse: streamProcesses,
    description: 'Processes that serve the AIS streams (their sockets, subscriptions, pacing and fan-out): 0 serves them on the serving thread; auto runs one per core past two, at least one, and none on a single core (see "Threads")' }),
  setting({ key: 'streamBufferKb', env: 'LAMIS_STREAM_BUFFER_KB', flag: 'stream-buffer-kb', shown: '256', defaultValue: 256,
    parse: integer(16, 65536), description: 'KiB waiting to be sent on one AIS stream past which it gets only the latest update per vessel (slow consumer)' }),
  setting({ key: 'streamBufferMaxKb', env: 'LAMIS_STREAM_BUFFER_MAX_KB', flag: 'stream-buffer-max-kb', shown: '2048', defaultValue: 2048,
    parse: integer(16, 1048576), description: 'KiB waiting on one AIS stream (unsent plus held updates; at least `LAMIS_STREAM_BUFFER_KB`) which, sustained for `LAMIS_STREAM_SLOW_CLOSE_SEC`, closes it with 4503' }),
  setting({ key: 'streamSlowCloseSec', env: 'LAMIS_STREAM_SLOW_CLOSE_SEC', flag: 'stream-slow-close-sec', shown: '10', defaultValue: 10,
    parse: integer(1, 600), description: 'How long an AIS stream may stay past `LAMIS_STREAM_BUFFER_MAX_KB` before it is closed as a slow consumer' }),
] as const;

export type MaritimeSettings = SettingsOf<typeof MARITIME_SETTINGS>;
