// One typed configuration object, read from environment variables and command-line flags (flags
// win) and validated at start. The table below is the single definition: parsing, validation,
// `lamis <cmd> --help` and the README's configuration table all follow it.

import { FAA_NOTAM_DEFAULT_BASE_URL } from './aviation/feeds/faa-notams.ts';
import { parseFeedSpecs, type FeedSpec } from './maritime/feeds/spec.ts';
import { OPEN_METEO_FORECAST_URL, OPEN_METEO_MARINE_URL } from './maritime/weather/open-meteo.ts';
import { DEFAULT_MAIL_FROM, DEFAULT_SMTP_TIMEOUT_MS } from './platform/mail/mailer.ts';
import type { LogFormat } from './platform/log.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  referenceCacheDir: string | undefined;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  databaseTimeoutMs: number;
  redisUrl: string | undefined;
  logLevel: LogLevel;
  logFormat: LogFormat;
  corsOrigins: string[];
  trustProxy: boolean;
  requestTimeoutSec: number;
  shutdownTimeoutSec: number;
  apiKeys: string[];
  aisFeeds: FeedSpec[];
  aisstreamApiKey: string | undefined;
  aisSimulator: SimulatorSwitch;
  aisSimulatorVessels: number;
  aisStaleMinutes: number;
  aisTrackRetentionHours: number;
  maritimeWeather: MaritimeWeatherSource;
  openMeteoForecastUrl: string;
  openMeteoMarineUrl: string;
  openMeteoApiKey: string | undefined;
  openMeteoTimeoutMs: number;
  aviationSimulators: SimulatorSwitch;
  awcBaseUrl: string | undefined;
  faaNotamBaseUrl: string;
  faaNotamClientId: string | undefined;
  faaNotamClientSecret: string | undefined;
  slotFairShare: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  smtpTimeoutMs: number;
  masterKey: string | undefined;
  publicUrl: string | undefined;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  unverifiedAccountDays: number;
  streamHeartbeatSec: number;
  streamBufferKb: number;
  streamBufferMaxKb: number;
  streamSlowCloseSec: number;
}

/** Where port weather, weather holds and arrival predictions take their forecast from. */
export type MaritimeWeatherSource = 'simulated' | 'open-meteo';

/** `auto`: the simulator runs when no live source of its kind is configured. */
export type SimulatorSwitch = 'auto' | 'on' | 'off';

type Parse<T> = (raw: string) => { value: T } | { error: string };

export interface Setting<K extends keyof Config = keyof Config> {
  key: K;
  env: string;
  flag: string;
  description: string;
  /** What `--help` and the README show as the default. */
  shown: string;
  defaultValue: Config[K];
  parse: Parse<Config[K]>;
}

function integer(min: number, max: number): Parse<number> {
  return (raw) => {
    const value = Number(raw);
    return /^-?\d+$/.test(raw.trim()) && value >= min && value <= max
      ? { value }
      : { error: `must be a whole number from ${min} to ${max}` };
  };
}

function url(protocols: string[]): Parse<string | undefined> {
  return (raw) => {
    if (raw === '') return { value: undefined };
    try {
      const parsed = new URL(raw);
      if (protocols.includes(parsed.protocol)) return { value: raw };
    } catch {
      // fall through to the message below
    }
    return { error: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` };
  };
}

function requiredUrl(protocols: string[]): Parse<string> {
  const optional = url(protocols);
  return (raw) => {
    const parsed = optional(raw);
    if ('error' in parsed) return parsed;
    return parsed.value === undefined ? { error: 'must not be empty' } : { value: parsed.value };
  };
}

/** An http(s) URL without query or fragment, kept without its trailing slash. */
const baseUrl: Parse<string | undefined> = (raw) => {
  const parsed = url(['https:', 'http:'])(raw);
  if ('error' in parsed || parsed.value === undefined) return parsed;
  const { search, hash } = new URL(parsed.value);
  return search || hash ? { error: 'must have no query (?) or fragment (#)' } : { value: parsed.value.replace(/\/+$/, '') };
};

/** A base URL that must be given (it has a default). */
const requiredBaseUrl: Parse<string> = (raw) => {
  const parsed = baseUrl(raw);
  if ('error' in parsed) return parsed;
  return parsed.value === undefined ? { error: 'must not be empty' } : { value: parsed.value };
};

const maritimeWeather: Parse<MaritimeWeatherSource> = (raw) => {
  const lower = raw.trim().toLowerCase();
  return lower === 'simulated' || lower === 'open-meteo' ? { value: lower } : { error: 'must be simulated or open-meteo' };
};

/** A fraction from 0 to 1, as a decimal number (also for the operator commands that take one). */
export const fraction: Parse<number> = (raw) => {
  const value = Number(raw);
  return /^\s*[\d.]+\s*$/.test(raw) && value >= 0 && value <= 1 ? { value } : { error: 'must be a fraction from 0 to 1 (e.g. 0.5)' };
};

const text: Parse<string> = (raw) => (raw.trim() === '' ? { error: 'must not be empty' } : { value: raw.trim() });

const boolean: Parse<boolean> = (raw) => {
  const lower = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return { value: true };
  if (['0', 'false', 'no', 'off'].includes(lower)) return { value: false };
  return { error: 'must be true or false' };
};

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const logLevel: Parse<LogLevel> = (raw) => {
  const lower = raw.trim().toLowerCase() as LogLevel;
  return LOG_LEVELS.includes(lower) ? { value: lower } : { error: `must be one of ${LOG_LEVELS.join(', ')}` };
};

const logFormat: Parse<LogFormat> = (raw) => {
  const lower = raw.trim().toLowerCase();
  return lower === 'auto' || lower === 'json' || lower === 'pretty' ? { value: lower } : { error: 'must be auto, json or pretty' };
};

const origins: Parse<string[]> = (raw) => {
  const list = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of list) {
    if (origin === '*') continue;
    try {
      const parsed = new URL(origin);
      if (parsed.origin !== origin) return { error: `"${origin}" is not an origin (scheme://host[:port], no path)` };
    } catch {
      return { error: `"${origin}" is not an origin (scheme://host[:port])` };
    }
  }
  return { value: list };
};

const simulatorSwitch: Parse<SimulatorSwitch> = (raw) => {
  const lower = raw.trim().toLowerCase();
  if (lower === 'auto') return { value: 'auto' };
  const flag = boolean(lower);
  return 'error' in flag ? { error: 'must be auto, on or off' } : { value: flag.value ? 'on' : 'off' };
};

const feeds: Parse<FeedSpec[]> = (raw) => {
  const parsed = parseFeedSpecs(raw);
  return parsed.ok ? { value: parsed.specs } : { error: parsed.error };
};

const optionalText: Parse<string | undefined> = (raw) => ({ value: raw.trim() === '' ? undefined : raw.trim() });

const apiKeys: Parse<string[]> = (raw) => {
  const list = raw.split(',').map((k) => k.trim()).filter(Boolean);
  const short = list.find((k) => k.length < 16 || /\s/.test(k));
  return short !== undefined ? { error: 'each key must be at least 16 characters with no spaces' } : { value: list };
};

function setting<K extends keyof Config>(s: Setting<K>): Setting<K> {
  return s;
}

export const SETTINGS = [
  setting({ key: 'port', env: 'PORT', flag: 'port', shown: '8080', defaultValue: 8080, parse: integer(0, 65535),
    description: 'TCP port the HTTP and WebSocket server listens on (0 picks a free one)' }),
  setting({ key: 'host', env: 'HOST', flag: 'host', shown: '127.0.0.1', defaultValue: '127.0.0.1', parse: text,
    description: 'Address to listen on; 0.0.0.0 or :: to accept connections from other machines' }),
  setting({ key: 'dataDir', env: 'LAMIS_DATA_DIR', flag: 'data-dir', shown: './data', defaultValue: './data', parse: text,
    description: 'Folder for the embedded SQLite database and other local state' }),
  setting({ key: 'referenceCacheDir', env: 'LAMIS_REFERENCE_CACHE_DIR', flag: 'reference-cache-dir', shown: '(data folder)/reference',
    defaultValue: undefined, parse: optionalText,
    description: 'Folder for reference data compiled from npm packages at first start (airports and runways); safe to share between instances' }),
  setting({ key: 'databaseUrl', env: 'DATABASE_URL', flag: 'database-url', shown: '(unset: SQLite)', defaultValue: undefined,
    parse: url(['postgres:', 'postgresql:']),
    description: 'PostgreSQL connection URL; when set, storage moves from SQLite to PostgreSQL' }),
  setting({ key: 'databasePoolMax', env: 'DATABASE_POOL_MAX', flag: 'database-pool-max', shown: '10', defaultValue: 10,
    parse: integer(1, 500), description: 'Most PostgreSQL connections held in the pool' }),
  setting({ key: 'databaseTimeoutMs', env: 'DATABASE_TIMEOUT_MS', flag: 'database-timeout-ms', shown: '10000',
    defaultValue: 10000, parse: integer(100, 600000),
    description: 'Connect and statement timeout for PostgreSQL; busy timeout for SQLite (milliseconds)' }),
  setting({ key: 'redisUrl', env: 'REDIS_URL', flag: 'redis-url', shown: '(unset: in-process)', defaultValue: undefined,
    parse: url(['redis:', 'rediss:']),
    description: 'Redis URL; when set, the event bus (and with it stream fan-out) goes through Redis pub/sub' }),
  setting({ key: 'logLevel', env: 'LOG_LEVEL', flag: 'log-level', shown: 'info', defaultValue: 'info', parse: logLevel,
    description: `Log level: ${LOG_LEVELS.join(', ')}` }),
  setting({ key: 'logFormat', env: 'LOG_FORMAT', flag: 'log-format', shown: 'auto', defaultValue: 'auto', parse: logFormat,
    description: 'Log output: json (one JSON object a line), pretty (readable lines after a start-up banner), or auto: pretty on a terminal, json otherwise' }),
  setting({ key: 'corsOrigins', env: 'LAMIS_CORS_ORIGINS', flag: 'cors-origins', shown: '(none)', defaultValue: [],
    parse: origins,
    description: 'Comma-separated origins allowed to call the API from a browser, or * for any; none by default' }),
  setting({ key: 'trustProxy', env: 'LAMIS_TRUST_PROXY', flag: 'trust-proxy', shown: 'false', defaultValue: false,
    parse: boolean, description: 'Trust X-Forwarded-* headers from a reverse proxy in front of LAMIS' }),
  setting({ key: 'requestTimeoutSec', env: 'LAMIS_REQUEST_TIMEOUT_SEC', flag: 'request-timeout-sec', shown: '30',
    defaultValue: 30, parse: integer(1, 3600), description: 'Longest time a client may take to send one request' }),
  setting({ key: 'shutdownTimeoutSec', env: 'LAMIS_SHUTDOWN_TIMEOUT_SEC', flag: 'shutdown-timeout-sec', shown: '30',
    defaultValue: 30, parse: integer(1, 3600),
    description: 'On SIGTERM/SIGINT, how long in-flight requests may take before connections are cut' }),
  setting({ key: 'apiKeys', env: 'LAMIS_API_KEYS', flag: 'api-keys', shown: '(unset: a development key in the data folder)',
    defaultValue: [], parse: apiKeys,
    description: 'Comma-separated API keys accepted as `Authorization: Bearer <key>`; when unset, a key is made once and kept in `<data folder>/api-key`' }),
  setting({ key: 'aisFeeds', env: 'AIS_FEEDS', flag: 'ais-feeds', shown: '(none)', defaultValue: [], parse: feeds,
    description: 'Comma-separated AIS feeds: `udp://HOST:PORT`, `tcp://HOST:PORT`, `tcp-listen://HOST:PORT`, `aisstream+wss://HOST/PATH`, `file:PATH?speed=N` (see "AIS feeds")' }),
  setting({ key: 'aisstreamApiKey', env: 'AISSTREAM_API_KEY', flag: 'aisstream-api-key', shown: '(unset)', defaultValue: undefined,
    parse: optionalText, description: 'API key sent in the subscription of `aisstream+` feeds' }),
  setting({ key: 'aisSimulator', env: 'AIS_SIMULATOR', flag: 'ais-simulator', shown: 'auto', defaultValue: 'auto', parse: simulatorSwitch,
    description: 'The AIS simulator (data labelled `simulated`): auto runs it when `AIS_FEEDS` is empty; on or off force it' }),
  setting({ key: 'aisSimulatorVessels', env: 'AIS_SIMULATOR_VESSELS', flag: 'ais-simulator-vessels', shown: '1000', defaultValue: 1000,
    parse: integer(1, 50000), description: 'How many vessels the AIS simulator sails' }),
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
  setting({ key: 'aviationSimulators', env: 'AVIATION_SIMULATORS', flag: 'aviation-simulators', shown: 'auto', defaultValue: 'auto',
    parse: simulatorSwitch,
    description: 'METAR/TAF and NOTAM simulators (labelled `simulated`): auto runs each when its live source is not configured; on or off force them' }),
  setting({ key: 'awcBaseUrl', env: 'AWC_BASE_URL', flag: 'awc-base-url', shown: '(unset: no live METAR/TAF)', defaultValue: undefined,
    parse: url(['https:', 'http:']),
    description: 'aviationweather.gov Data API base URL (e.g. https://aviationweather.gov); when set, METAR and TAF come from it' }),
  setting({ key: 'faaNotamBaseUrl', env: 'FAA_NOTAM_BASE_URL', flag: 'faa-notam-base-url', shown: FAA_NOTAM_DEFAULT_BASE_URL,
    defaultValue: FAA_NOTAM_DEFAULT_BASE_URL, parse: requiredUrl(['https:', 'http:']),
    description: 'FAA NOTAM API base URL, used when its client id and secret are set' }),
  setting({ key: 'faaNotamClientId', env: 'FAA_NOTAM_CLIENT_ID', flag: 'faa-notam-client-id', shown: '(unset: no live NOTAMs)',
    defaultValue: undefined, parse: optionalText, description: 'FAA NOTAM API `client_id`' }),
  setting({ key: 'faaNotamClientSecret', env: 'FAA_NOTAM_CLIENT_SECRET', flag: 'faa-notam-client-secret', shown: '(unset)',
    defaultValue: undefined, parse: optionalText, description: 'FAA NOTAM API `client_secret`' }),
  setting({ key: 'slotFairShare', env: 'LAMIS_SLOT_FAIR_SHARE', flag: 'slot-fair-share', shown: '0.5', defaultValue: 0.5, parse: fraction,
    description: 'The most of an airport hour\'s arrival slots one organisation may hold, as a fraction of its capacity (rounded down, at least one); `lamis org set-slot-share` grants an organisation another' }),
  setting({ key: 'smtpUrl', env: 'SMTP_URL', flag: 'smtp-url', shown: '(unset: local outbox)', defaultValue: undefined,
    parse: url(['smtp:', 'smtps:']),
    description: 'SMTP server for outgoing mail (`smtp://user:password@host:587`, `smtps://...`); when unset, mail stays in the local outbox (`lamis mail list`)' }),
  setting({ key: 'mailFrom', env: 'MAIL_FROM', flag: 'mail-from', shown: DEFAULT_MAIL_FROM, defaultValue: DEFAULT_MAIL_FROM, parse: text,
    description: 'From address of outgoing mail' }),
  setting({ key: 'smtpTimeoutMs', env: 'SMTP_TIMEOUT_MS', flag: 'smtp-timeout-ms', shown: String(DEFAULT_SMTP_TIMEOUT_MS),
    defaultValue: DEFAULT_SMTP_TIMEOUT_MS, parse: integer(100, 600000),
    description: 'How long LAMIS waits for the SMTP server to connect, greet and answer each command (milliseconds)' }),
  setting({ key: 'masterKey', env: 'LAMIS_MASTER_KEY', flag: 'master-key', shown: '(unset: a key file in the data folder)',
    defaultValue: undefined, parse: (raw) => (raw === '' ? { error: 'must not be empty; unset it to use the key file in the data folder' } : { value: raw }),
    description: 'Master key (32 bytes as 64 hex digits or base64) sealing data at rest (fleet registrations, identity documents); when unset, one is made once in `<data folder>/master-key` (mode 0600)' }),
  setting({ key: 'publicUrl', env: 'LAMIS_PUBLIC_URL', flag: 'public-url', shown: '(unset: the address the server listens on)', defaultValue: undefined,
    parse: baseUrl,
    description: 'The address users reach LAMIS at (e.g. https://lamis.example.com), which links in mails start with' }),
  setting({ key: 'sessionIdleMinutes', env: 'LAMIS_SESSION_IDLE_MINUTES', flag: 'session-idle-minutes', shown: '30', defaultValue: 30,
    parse: integer(1, 1440), description: 'A dashboard session ends after this many minutes without a request' }),
  setting({ key: 'sessionMaxHours', env: 'LAMIS_SESSION_MAX_HOURS', flag: 'session-max-hours', shown: '12', defaultValue: 12,
    parse: integer(1, 720), description: 'A dashboard session ends this many hours after sign-in, whatever the activity' }),
  setting({ key: 'unverifiedAccountDays', env: 'LAMIS_UNVERIFIED_ACCOUNT_DAYS', flag: 'unverified-account-days', shown: '7', defaultValue: 7,
    parse: integer(1, 365), description: 'Accounts whose e-mail address is still not verified this many days after sign-up are deleted, duplicate sign-ups included' }),
  setting({ key: 'streamHeartbeatSec', env: 'LAMIS_STREAM_HEARTBEAT_SEC', flag: 'stream-heartbeat-sec', shown: '30', defaultValue: 30,
    parse: integer(1, 600), description: 'Seconds between heartbeats (a `heartbeat` frame and a ping) on the AIS stream; a stream that sends nothing and answers no ping for two of them is closed with 4408' }),
  setting({ key: 'streamBufferKb', env: 'LAMIS_STREAM_BUFFER_KB', flag: 'stream-buffer-kb', shown: '256', defaultValue: 256,
    parse: integer(16, 65536), description: 'KiB waiting to be sent on one AIS stream past which it gets only the latest update per vessel (slow consumer)' }),
  setting({ key: 'streamBufferMaxKb', env: 'LAMIS_STREAM_BUFFER_MAX_KB', flag: 'stream-buffer-max-kb', shown: '2048', defaultValue: 2048,
    parse: integer(16, 1048576), description: 'KiB waiting on one AIS stream (unsent plus held updates; at least `LAMIS_STREAM_BUFFER_KB`) which, sustained for `LAMIS_STREAM_SLOW_CLOSE_SEC`, closes it with 4503' }),
  setting({ key: 'streamSlowCloseSec', env: 'LAMIS_STREAM_SLOW_CLOSE_SEC', flag: 'stream-slow-close-sec', shown: '10', defaultValue: 10,
    parse: integer(1, 600), description: 'How long an AIS stream may stay past `LAMIS_STREAM_BUFFER_MAX_KB` before it is closed as a slow consumer' }),
] as const satisfies readonly Setting[];

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/**
 * Builds the config from the environment and flag values (by flag name, without dashes). Every bad
 * value is reported at once, each naming its variable and flag.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Record<string, string | undefined> = {}): Config {
  const config: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const s of SETTINGS as readonly Setting[]) {
    const fromFlag = flags[s.flag];
    const raw = fromFlag ?? env[s.env];
    if (raw === undefined) {
      config[s.key] = s.defaultValue;
      continue;
    }
    const parsed = s.parse(raw);
    if ('error' in parsed) {
      const source = fromFlag !== undefined ? `--${s.flag}` : s.env;
      problems.push(`${source}: ${parsed.error} (got "${raw}")`);
    } else {
      config[s.key] = parsed.value;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config as unknown as Config;
}

/** The config with no environment: the embedded defaults, plus overrides (used by tests). */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), ...overrides };
}
