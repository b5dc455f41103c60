// The platform's rows of the configuration table: where the service listens, storage, the bus,
// logs, HTTP, operator keys, mail, the master key and the public address. Platform modules take
// these settings (or a part of them) and never the service's whole configuration, which adds
// each feature's rows to these (src/config.ts).
import { baseUrl, boolean, integer, setting, text, url, type Parse, type SettingsOf } from './config/index.ts';
import type { LogFormat } from './log.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export const DEFAULT_MAIL_FROM = 'LAMIS <no-reply@localhost>';
export const DEFAULT_SMTP_TIMEOUT_MS = 10_000;

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const logLevel: Parse<LogLevel> = (raw) => {
  const lower = raw.trim().toLowerCase() as LogLevel;
  return LOG_LEVELS.includes(lower) ? { value: lower } : { error: `must be one of ${LOG_LEVELS.join(', ')}` };
};

const logFormat: Parse<LogFormat> = (raw) => {
  const lower = raw.trim().toLowerCase();
  return lower === 'auto' || lower === 'json' || lower === 'pretty' ? { value: lower } : { error: 'must be auto, json or pretty' };
};

const busName: Parse<string | undefined> = (raw) => (/^[A-Za-z0-9_-]{1,64}$/.test(raw.trim())
  ? { value: raw.trim() }
  : { error: 'must be 1 to 64 letters, digits, "_" or "-"' });

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

const apiKeys: Parse<string[]> = (raw) => {
  const list = raw.split(',').map((k) => k.trim()).filter(Boolean);
  const short = list.find((k) => k.length < 16 || /\s/.test(k));
  return short !== undefined ? { error: 'each key must be at least 16 characters with no spaces' } : { value: list };
};

export const PLATFORM_SETTINGS = [
  setting({ key: 'port', env: 'PORT', flag: 'port', shown: '8080', defaultValue: 8080, parse: integer(0, 65535),
    description: 'TCP port the HTTP and WebSocket server listens on (0 picks a free one)' }),
  setting({ key: 'host', env: 'HOST', flag: 'host', shown: '127.0.0.1', defaultValue: '127.0.0.1', parse: text,
    description: 'Address to listen on; 0.0.0.0 or :: to accept connections from other machines' }),
  setting({ key: 'dataDir', env: 'LAMIS_DATA_DIR', flag: 'data-dir', shown: './data', defaultValue: './data', parse: text,
    description: 'Folder for the embedded SQLite database and other local state' }),
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
    description: 'Redis URL; when set, rate limits, stream slots and webhook hand-over are shared through Redis, and the event bus goes through Redis pub/sub unless NATS_URL is set' }),
  setting({ key: 'natsUrl', env: 'NATS_URL', flag: 'nats-url', shown: '(unset: Redis or in-process)', defaultValue: undefined,
    parse: url(['nats:', 'tls:']),
    description: 'NATS URL (`nats://host:4222`); when set, the event bus (and with it stream fan-out between instances) goes through NATS, taking only the regions each instance\'s streams watch' }),
  setting({ key: 'busName', env: 'LAMIS_BUS_NAME', flag: 'bus-name', shown: '(unset: from the storage address)', defaultValue: undefined,
    parse: busName,
    description: 'Names the deployment\'s bus on NATS or Redis (`lamis:bus:<name>:`): by default a hash of DATABASE_URL (or of the SQLite data folder), so instances on one storage share it and other deployments on the same server stay apart; set the same name on instances that reach one storage by different addresses' }),
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
  setting({ key: 'streamHeartbeatSec', env: 'LAMIS_STREAM_HEARTBEAT_SEC', flag: 'stream-heartbeat-sec', shown: '30', defaultValue: 30,
    parse: integer(1, 600), description: 'Seconds between heartbeats (a `heartbeat` frame and a ping) on the WebSocket streams; a stream that sends nothing and answers no ping for two of them is closed with 4408' }),
  setting({ key: 'overloadStreamCloseSec', env: 'LAMIS_OVERLOAD_STREAM_CLOSE_SEC', flag: 'overload-stream-close-sec', shown: '30', defaultValue: 30,
    parse: integer(1, 3600), description: 'Seconds an overload lasts before the open development-key streams are closed with 1013 (new ones are refused at once)' }),
] as const;

export type PlatformSettings = SettingsOf<typeof PLATFORM_SETTINGS>;
