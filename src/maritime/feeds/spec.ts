// The feed list of the configuration: one setting, AIS_FEEDS, with a comma-separated list of URIs.
//
//   udp://HOST:PORT                  listen for UDP datagrams (AIS-catcher, rtl-ais, OpenCPN)
//   tcp://HOST:PORT[?idle=S]         connect to a receiver or aggregator and read lines
//   tcp-listen://HOST:PORT[?max_connections=N&idle=S]
//                                    a TCP server receivers connect to and push lines into
//   aisstream+wss://HOST/PATH[?bbox=minLat,minLon,maxLat,maxLon[;...]&mmsi=N[,N]&types=T[,T]]
//   aisstream+ws://HOST/PATH[...]    an aisstream.io-compatible WebSocket API (key from its own option)
//   file:PATH[?speed=N]              replay of a recorded NMEA file (also file:///abs/path)
//
// A comma separates two entries only when a scheme (`word:`) follows it, so the commas inside
// `bbox=` and `mmsi=` values need no escaping. Port 0 on a listener picks a free port.
// Credentials never belong in an entry: the aisstream API key has its own option, so that feed ids
// (the entries as written) can be logged and shown as they are.
//
// The settings read this list, so it stays a leaf: the adapters it describes are built in
// create-feed.ts.
import { isIP, isIPv4, isIPv6 } from 'node:net';
import { fileURLToPath } from 'node:url';

/** [[lat, lon], [lat, lon]]: two opposite corners, as aisstream's BoundingBoxes take them. */
export type BoundingBox = [[number, number], [number, number]];

interface SpecBase {
  /** The entry as written (scheme lower-cased): unique, safe to log. */
  id: string;
}

export interface UdpFeedSpec extends SpecBase {
  kind: 'udp';
  /** Host name or IP literal, without IPv6 brackets. */
  host: string;
  port: number;
}

export interface TcpFeedSpec extends SpecBase {
  kind: 'tcp';
  host: string;
  port: number;
  /** `idle=` seconds, as ms. */
  idleTimeoutMs?: number;
}

export interface TcpListenFeedSpec extends SpecBase {
  kind: 'tcp-listen';
  host: string;
  port: number;
  maxConnections?: number;
  idleTimeoutMs?: number;
}

export interface AisstreamFeedSpec extends SpecBase {
  kind: 'aisstream';
  /** The WebSocket URL to connect to (ws: or wss:), without the query. */
  url: string;
  /** At least one box; the whole world when the entry names none. */
  boundingBoxes: BoundingBox[];
  /** FiltersShipMMSI: 9-digit strings; empty for no filter. */
  mmsi: string[];
  /** FilterMessageTypes; empty for no filter. */
  messageTypes: string[];
}

export interface FileFeedSpec extends SpecBase {
  kind: 'file';
  path: string;
  /** Replay speed factor, > 0 (1 = as recorded). */
  speed: number;
}

export type FeedSpec = UdpFeedSpec | TcpFeedSpec | TcpListenFeedSpec | AisstreamFeedSpec | FileFeedSpec;


export type FeedSpecsResult = { ok: true; specs: FeedSpec[] } | { ok: false; error: string; errors: string[] };

/** aisstream's message type names (its AisMessageTypes), accepted in `types=`. */
export const AISSTREAM_MESSAGE_TYPES: readonly string[] = [
  'PositionReport',
  'UnknownMessage',
  'AddressedSafetyMessage',
  'AddressedBinaryMessage',
  'AidsToNavigationReport',
  'AssignedModeCommand',
  'BaseStationReport',
  'BinaryAcknowledge',
  'BinaryBroadcastMessage',
  'ChannelManagement',
  'CoordinatedUTCInquiry',
  'DataLinkManagementMessage',
  'DataLinkManagementMessageData',
  'ExtendedClassBPositionReport',
  'GroupAssignmentCommand',
  'GnssBroadcastBinaryMessage',
  'Interrogation',
  'LongRangeAisBroadcastMessage',
  'MultiSlotBinaryMessage',
  'SafetyBroadcastMessage',
  'ShipStaticData',
  'SingleSlotBinaryMessage',
  'StandardClassBPositionReport',
  'StandardSearchAndRescueAircraftReport',
  'StaticDataReport',
];

const WHOLE_WORLD: BoundingBox = [
  [-90, -180],
  [90, 180],
];
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const HOSTNAME = /^(?=.{1,253}\.?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;
/** Listening on these takes the port on every address (and, for ::, both families by default). */
const WILDCARDS = new Set(['0.0.0.0', '::']);
const SECRET_PARAM = /key|token|secret|pass|auth/i;
const MAX_IDLE_SECONDS = 86_400;
const MAX_CONNECTIONS = 10_000;
const MAX_SPEED = 1e9;

class SpecError extends Error {}

function fail(message: string): never {
  throw new SpecError(message);
}

/** The entry with any user:password@ and secret-looking query values masked, for error messages. */
export function redactFeedUri(entry: string): string {
  return entry
    .replace(/(\/\/)[^/?#@]*@/, '$1***@')
    .replace(/([?&;])([^=&;]*)=([^&;]*)/g, (match, lead: string, name: string) => (SECRET_PARAM.test(name) ? `${lead}${name}=***` : match));
}

/** Splits the setting into entries: at commas followed by a scheme, dropping empty ones. */
export function splitFeedList(text: string): string[] {
  const entries: string[] = [];
  for (const piece of text.split(',')) {
    if (entries.length === 0 || SCHEME.test(piece.trim())) entries.push(piece);
    else entries[entries.length - 1] += `,${piece}`;
  }
  return entries.map((entry) => entry.trim().replace(/[\s,]+$/, '')).filter((entry) => entry !== '');
}

/**
 * Parses the feed list. Never throws: the error names every bad entry (by position and, with
 * secrets masked, as written) and what is wrong with it. An empty or blank text is no feeds.
 */
export function parseFeedSpecs(text: string): FeedSpecsResult {
  const specs: FeedSpec[] = [];
  const errors: string[] = [];
  const ids = new Map<string, number>();
  const listeners = new Map<string, { host: string; position: number }[]>();
  splitFeedList(text).forEach((entry, index) => {
    const position = index + 1;
    const label = `feed ${position} "${redactFeedUri(entry)}"`;
    let spec: FeedSpec;
    try {
      spec = parseFeedSpec(entry);
    } catch (error) {
      errors.push(`${label}: ${error instanceof SpecError ? error.message : String(error)}`);
      return;
    }
    const same = ids.get(spec.id);
    if (same !== undefined) {
      errors.push(`${label}: duplicate of feed ${same}`);
      return;
    }
    ids.set(spec.id, position);
    if ((spec.kind === 'udp' || spec.kind === 'tcp-listen') && spec.port !== 0) {
      const protocol = spec.kind === 'udp' ? 'UDP' : 'TCP';
      const bound = listeners.get(`${protocol}:${spec.port}`) ?? [];
      const clash = bound.find((other) => other.host === spec.host || WILDCARDS.has(other.host) || WILDCARDS.has(spec.host));
      if (clash) {
        errors.push(`${label}: ${protocol} port ${spec.port} is already taken by feed ${clash.position}`);
        return;
      }
      bound.push({ host: spec.host, position });
      listeners.set(`${protocol}:${spec.port}`, bound);
    }
    specs.push(spec);
  });
  return errors.length === 0 ? { ok: true, specs } : { ok: false, error: errors.join('; '), errors };
}

/** Parses one entry; throws an Error with a message (no entry prefix) when it is not valid. */
export function parseFeedSpec(entry: string): FeedSpec {
  const text = entry.trim();
  const match = SCHEME.exec(text);
  if (!match) fail('must start with a scheme: udp://, tcp://, tcp-listen://, aisstream+wss://, aisstream+ws:// or file:');
  const scheme = match[1]!.toLowerCase();
  const rest = text.slice(match[0].length);
  switch (scheme) {
    case 'udp':
    case 'tcp':
    case 'tcp-listen':
      return parseNetwork(scheme, rest);
    case 'aisstream+wss':
    case 'aisstream+ws':
      return parseAisstream(scheme, rest);
    case 'file':
      return parseFile(rest);
    case 'aisstream':
      return fail('write aisstream+wss://HOST/PATH (or aisstream+ws:// for an unencrypted server)');
    default:
      return fail(`unknown scheme "${scheme}:"; use udp://, tcp://, tcp-listen://, aisstream+wss://, aisstream+ws:// or file:`);
  }
}

function splitQuery(text: string): [string, URLSearchParams] {
  const mark = text.indexOf('?');
  if (mark < 0) return [text, new URLSearchParams()];
  return [text.slice(0, mark), new URLSearchParams(text.slice(mark + 1))];
}

/** Reads the allowed query parameters, each at most once unless `repeatable`; fails on any other. */
function queryValues(params: URLSearchParams, allowed: readonly string[], repeatable: readonly string[] = []): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const [name, value] of params) {
    if (!allowed.includes(name)) {
      fail(allowed.length === 0 ? `takes no options, found "${name}"` : `unknown option "${name}"; allowed: ${allowed.join(', ')}`);
    }
    const list = values.get(name) ?? [];
    if (list.length > 0 && !repeatable.includes(name)) fail(`option "${name}" given twice`);
    list.push(value);
    values.set(name, list);
  }
  return values;
}

function wholeNumber(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) fail(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

function checkHost(host: string): string {
  if (host === '') fail('host is missing');
  if (host.startsWith('[')) {
    if (!host.endsWith(']') || !isIPv6(host.slice(1, -1))) fail(`"${host}" is not a valid IPv6 address`);
    return host.slice(1, -1);
  }
  if (/^[\d.]+$/.test(host)) {
    if (!isIPv4(host)) fail(`"${host}" is not a valid IPv4 address`);
    return host;
  }
  if (!HOSTNAME.test(host)) fail(`"${host}" is not a valid host name or address`);
  return host;
}

/** Host part as it goes in an id: IPv6 in brackets. */
function hostForId(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host.toLowerCase();
}

function parseNetwork(scheme: 'udp' | 'tcp' | 'tcp-listen', rest: string): FeedSpec {
  if (!rest.startsWith('//')) fail(`write ${scheme}://HOST:PORT`);
  const [address, params] = splitQuery(rest.slice(2).replace(/\/$/, ''));
  if (address.includes('@')) fail('credentials do not belong in a feed URI');
  if (address.includes('/')) fail(`takes no path: write ${scheme}://HOST:PORT`);
  const colon = address.lastIndexOf(':');
  if (colon < 0) fail(`port is missing: write ${scheme}://HOST:PORT`);
  const rawHost = address.slice(0, colon);
  if (!rawHost.startsWith('[') && rawHost.includes(':')) fail(`an IPv6 address goes in brackets: ${scheme}://[${rawHost}]:PORT`);
  const host = checkHost(rawHost);
  const listener = scheme !== 'tcp';
  const port = wholeNumber('port', address.slice(colon + 1), listener ? 0 : 1, 65_535);
  const query = params.toString();
  const id = `${scheme}://${hostForId(host)}:${port}${query === '' ? '' : `?${query}`}`;
  if (scheme === 'udp') {
    queryValues(params, []);
    return { kind: 'udp', id, host, port };
  }
  if (scheme === 'tcp') {
    const values = queryValues(params, ['idle']);
    const idle = values.get('idle')?.[0];
    const spec: TcpFeedSpec = { kind: 'tcp', id, host, port };
    if (idle !== undefined) spec.idleTimeoutMs = wholeNumber('idle (seconds)', idle, 1, MAX_IDLE_SECONDS) * 1000;
    return spec;
  }
  const values = queryValues(params, ['max_connections', 'idle']);
  const spec: TcpListenFeedSpec = { kind: 'tcp-listen', id, host, port };
  const max = values.get('max_connections')?.[0];
  if (max !== undefined) spec.maxConnections = wholeNumber('max_connections', max, 1, MAX_CONNECTIONS);
  const idle = values.get('idle')?.[0];
  if (idle !== undefined) spec.idleTimeoutMs = wholeNumber('idle (seconds)', idle, 1, MAX_IDLE_SECONDS) * 1000;
  return spec;
}

function coordinate(raw: string, limit: number, what: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < -limit || value > limit) fail(`bbox ${what} must be a number from ${-limit} to ${limit}, got "${raw}"`);
  return value;
}

/** `minLat,minLon,maxLat,maxLon`; a box with minLon > maxLon crosses the antimeridian and becomes two. */
function parseBoxes(raw: string): BoundingBox[] {
  const boxes: BoundingBox[] = [];
  for (const part of raw.split(';')) {
    if (part.trim() === '') continue;
    const numbers = part.split(',');
    if (numbers.length !== 4) fail(`bbox takes minLat,minLon,maxLat,maxLon, got "${part}"`);
    const minLat = coordinate(numbers[0]!, 90, 'latitude');
    const minLon = coordinate(numbers[1]!, 180, 'longitude');
    const maxLat = coordinate(numbers[2]!, 90, 'latitude');
    const maxLon = coordinate(numbers[3]!, 180, 'longitude');
    if (minLat > maxLat) fail(`bbox minLat ${minLat} is north of maxLat ${maxLat}`);
    if (minLon <= maxLon) {
      boxes.push([
        [minLat, minLon],
        [maxLat, maxLon],
      ]);
    } else {
      boxes.push(
        [
          [minLat, minLon],
          [maxLat, 180],
        ],
        [
          [minLat, -180],
          [maxLat, maxLon],
        ],
      );
    }
  }
  return boxes;
}

function listOf(raw: string): string[] {
  return raw
    .split(/[;,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseAisstream(scheme: 'aisstream+wss' | 'aisstream+ws', rest: string): FeedSpec {
  if (!rest.startsWith('//')) fail(`write ${scheme}://HOST/PATH`);
  const protocol = scheme === 'aisstream+wss' ? 'wss' : 'ws';
  let url: URL;
  try {
    url = new URL(`${protocol}:${rest}`);
  } catch {
    return fail(`not a valid URL: write ${scheme}://HOST/PATH`);
  }
  if (url.username !== '' || url.password !== '') fail('credentials do not belong in a feed URI: give the API key in its own setting');
  if (url.hash !== '') fail('takes no #fragment');
  checkHost(url.hostname);
  for (const name of url.searchParams.keys()) {
    if (SECRET_PARAM.test(name)) fail(`the API key does not belong in the URI ("${name}"): give it in its own setting`);
  }
  const values = queryValues(url.searchParams, ['bbox', 'mmsi', 'types'], ['bbox', 'mmsi', 'types']);
  const boundingBoxes = (values.get('bbox') ?? []).flatMap(parseBoxes);
  const mmsi = (values.get('mmsi') ?? []).flatMap(listOf);
  for (const value of mmsi) if (!/^\d{9}$/.test(value)) fail(`mmsi must be 9-digit numbers, got "${value}"`);
  const messageTypes = (values.get('types') ?? []).flatMap(listOf);
  for (const type of messageTypes) {
    if (!AISSTREAM_MESSAGE_TYPES.includes(type)) fail(`unknown message type "${type}" in types; known: ${AISSTREAM_MESSAGE_TYPES.join(', ')}`);
  }
  const base = `${url.protocol}//${url.host}${url.pathname}`;
  const query = rest.includes('?') ? rest.slice(rest.indexOf('?')) : '';
  return {
    kind: 'aisstream',
    id: `${scheme}://${url.host}${url.pathname}${query}`,
    url: base,
    boundingBoxes: boundingBoxes.length > 0 ? boundingBoxes : [WHOLE_WORLD],
    mmsi: [...new Set(mmsi)],
    messageTypes: [...new Set(messageTypes)],
  };
}

function parseFile(rest: string): FeedSpec {
  const [location, params] = splitQuery(rest);
  let path: string;
  if (location.startsWith('//')) {
    try {
      path = fileURLToPath(`file:${location}`);
    } catch (error) {
      return fail(`not a valid file URL (${error instanceof Error ? error.message : String(error)}); write file:///absolute/path or file:PATH`);
    }
  } else {
    path = location;
  }
  if (path.trim() === '') fail('path is missing: write file:PATH or file:///absolute/path');
  const values = queryValues(params, ['speed']);
  const rawSpeed = values.get('speed')?.[0];
  let speed = 1;
  if (rawSpeed !== undefined) {
    speed = Number(rawSpeed);
    if (rawSpeed.trim() === '' || !Number.isFinite(speed) || speed <= 0 || speed > MAX_SPEED) fail(`speed must be a number above 0 and at most ${MAX_SPEED}, got "${rawSpeed}"`);
  }
  const query = params.toString();
  return { kind: 'file', id: `file:${location}${query === '' ? '' : `?${query}`}`, path, speed };
}
