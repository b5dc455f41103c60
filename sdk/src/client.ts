// The REST client. Every `/v3` operation can be called through `request`, typed by the operation's
// `METHOD /path`; landing intelligence, vessels, events, zones and webhooks also have methods of their own. Each answer
// comes back with its status, `Request-Id` and rate limit; error answers throw (see errors.ts).
import {
  apiError,
  LamisConnectionError,
  LamisError,
  LamisTimeoutError,
  problemFrom,
} from './errors.ts';
import { parseRateLimit, type RateLimitInfo } from './rate-limit.ts';
import type {
  Event,
  EventListQuery,
  EventPage,
  FlagList,
  LandingIntelligence,
  LandingRequest,
  NewWebhook,
  NewZone,
  NmeaUploadResult,
  OperationKey,
  OperationParams,
  OperationResponse,
  WebhookListQuery,
  Track,
  TrackFeature,
  TrackQuery,
  Vessel,
  VesselPage,
  VesselSearchQuery,
  VesselSummary,
  Webhook,
  WebhookChangesInput,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookPage,
  WebhookWithSecret,
  Zone,
  ZoneChanges,
  ZoneListQuery,
  ZonePage,
} from './types.ts';

export const DEFAULT_URL = 'http://127.0.0.1:8080';
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface LamisClientOptions {
  /** An API key, sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Where LAMIS answers, e.g. `https://lamis.example.com`; default http://127.0.0.1:8080. */
  url?: string;
  /** How long a request may take, answer body included; default 30 s. `Infinity` waits for ever. */
  timeoutMs?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to use; default the global one. */
  fetch?: typeof globalThis.fetch;
}

export interface RequestOptions {
  /** Aborting it rejects the call with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export interface LamisResponse<T> {
  data: T;
  status: number;
  /** The `Request-Id` LAMIS gave the request: quote it when reporting a problem. */
  requestId: string | null;
  /** The caller's rate limit after this request; null for keys the service does not count. */
  rateLimit: RateLimitInfo | null;
  headers: Headers;
}

type Scalar = string | number | boolean;
interface RequestParts {
  path?: Record<string, Scalar>;
  query?: Record<string, Scalar | readonly Scalar[] | null | undefined>;
  headers?: Record<string, string | undefined>;
  body?: unknown;
}

/** `params` may be left out when the operation needs none. */
type ParamsArgument<K extends OperationKey> = {} extends OperationParams<K>
  ? [params?: OperationParams<K>, options?: RequestOptions]
  : [params: OperationParams<K>, options?: RequestOptions];

export interface VesselsApi {
  /** Everything known about one vessel; LamisNotFoundError when nothing was heard from it. */
  get(mmsi: number | string, options?: RequestOptions): Promise<LamisResponse<Vessel>>;
  /** One page of a search; pass `next_cursor` back as `cursor` for the next. */
  search(query?: VesselSearchQuery, options?: RequestOptions): Promise<LamisResponse<VesselPage>>;
  /** Every vessel the search finds, page after page. */
  searchAll(query?: Omit<VesselSearchQuery, 'cursor'>, options?: RequestOptions): AsyncGenerator<VesselSummary, void, undefined>;
  /** Recorded points between `from` and `to` (default the last 24 hours). */
  track(mmsi: number | string, query?: TrackQuery, options?: RequestOptions): Promise<LamisResponse<Track>>;
  /** The same as a GeoJSON Feature with a LineString. */
  trackFeature(mmsi: number | string, query?: TrackQuery, options?: RequestOptions): Promise<LamisResponse<TrackFeature>>;
  /** The ITU MID table: MID, flag and country. */
  flags(options?: RequestOptions): Promise<LamisResponse<FlagList>>;
  /** Raw `!AIVDM`/`!AIVDO` lines for LAMIS to decode (up to 1 MiB). */
  uploadNmea(lines: string, options?: RequestOptions): Promise<LamisResponse<NmeaUploadResult>>;
}

export interface EventsApi {
  /** One page of your organisation's events, newest opening first; narrowed by kind, state, subject and `since`. */
  list(query?: EventListQuery, options?: RequestOptions): Promise<LamisResponse<EventPage>>;
  /** Every event the list finds, page after page. */
  listAll(query?: Omit<EventListQuery, 'cursor'>, options?: RequestOptions): AsyncGenerator<Event, void, undefined>;
  get(id: string, options?: RequestOptions): Promise<LamisResponse<Event>>;
  /** The first acknowledgement is kept; acknowledging again changes nothing. */
  acknowledge(id: string, options?: RequestOptions): Promise<LamisResponse<Event>>;
}

export interface ZonesApi {
  list(query?: ZoneListQuery, options?: RequestOptions): Promise<LamisResponse<ZonePage>>;
  listAll(query?: Omit<ZoneListQuery, 'cursor'>, options?: RequestOptions): AsyncGenerator<Zone, void, undefined>;
  get(id: string, options?: RequestOptions): Promise<LamisResponse<Zone>>;
  create(zone: NewZone, options?: RequestOptions): Promise<LamisResponse<Zone>>;
  /** Changes the fields sent. */
  update(id: string, changes: ZoneChanges, options?: RequestOptions): Promise<LamisResponse<Zone>>;
  delete(id: string, options?: RequestOptions): Promise<LamisResponse<unknown>>;
}

export interface WebhooksApi {
  /** Adds an endpoint; the answer carries its signing `secret`, shown this once. */
  create(webhook: NewWebhook, options?: RequestOptions): Promise<LamisResponse<WebhookWithSecret>>;
  list(query?: WebhookListQuery, options?: RequestOptions): Promise<LamisResponse<WebhookPage>>;
  get(id: string, options?: RequestOptions): Promise<LamisResponse<Webhook>>;
  update(id: string, changes: WebhookChangesInput, options?: RequestOptions): Promise<LamisResponse<Webhook>>;
  delete(id: string, options?: RequestOptions): Promise<LamisResponse<undefined>>;
  /** A new secret, shown this once; the old one signs beside it for the overlap. */
  rotateSecret(id: string, options?: RequestOptions): Promise<LamisResponse<WebhookWithSecret>>;
  /** Sends a signed `webhook.test` delivery now and answers how it went. */
  test(id: string, options?: RequestOptions): Promise<LamisResponse<WebhookDelivery>>;
  deliveries(id: string, query?: WebhookListQuery, options?: RequestOptions): Promise<LamisResponse<WebhookDeliveryPage>>;
}

/** Every item of a cursor-paginated list: each page's `next_cursor` is passed back as `cursor`. */
async function* everyItem<Q extends { cursor?: string }, T>(
  page: (query: Q) => Promise<LamisResponse<{ data: T[]; next_cursor: string | null }>>,
  query: Omit<Q, 'cursor'>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const answer = await page({ ...query, cursor } as Q);
    yield* answer.data.data;
    cursor = answer.data.next_cursor ?? undefined;
  } while (cursor);
}

export class LamisClient {
  readonly url: string;
  readonly vessels: VesselsApi;
  readonly events: EventsApi;
  readonly zones: ZonesApi;
  readonly webhooks: WebhooksApi;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;
  readonly #fetch: typeof globalThis.fetch;

  constructor(options: LamisClientOptions) {
    if (!options.apiKey) throw new TypeError('LamisClient needs an apiKey');
    this.url = (options.url ?? DEFAULT_URL).replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#headers = options.headers ?? {};
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.vessels = this.#vesselsApi();
    this.events = this.#eventsApi();
    this.zones = this.#zonesApi();
    this.webhooks = this.#webhooksApi();
  }

  /** Landing intelligence for a destination, aircraft and ETA (`POST /v3/intelligence/landing`). */
  landing(request: LandingRequest, options?: RequestOptions): Promise<LamisResponse<LandingIntelligence>> {
    return this.request('POST /v3/intelligence/landing', { body: request }, options);
  }

  /** Calls any `/v3` operation by its `METHOD /path`, with its typed parameters and answer. */
  request<K extends OperationKey>(operation: K, ...[params, options]: ParamsArgument<K>): Promise<LamisResponse<OperationResponse<K>>> {
    const [method, template] = operation.split(' ') as [string, string];
    return this.#send(method, template, (params ?? {}) as RequestParts, options ?? {}) as Promise<LamisResponse<OperationResponse<K>>>;
  }

  async #send(method: string, template: string, parts: RequestParts, options: RequestOptions): Promise<LamisResponse<unknown>> {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = parts.path?.[name];
      if (value === undefined || value === '') throw new TypeError(`${method} ${template} needs the path parameter ${name}`);
      return encodeURIComponent(String(value));
    });
    const url = new URL(this.url + path);
    for (const [name, value] of Object.entries(parts.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
    // Later sources win, whatever the case of the names; the key is always the client's.
    const headers = new Headers({ accept: 'application/json' });
    for (const source of [this.#headers, parts.headers, options.headers]) {
      for (const [name, value] of Object.entries(source ?? {})) if (value !== undefined) headers.set(name, value);
    }
    headers.set('authorization', `Bearer ${this.#apiKey}`);
    let body: string | undefined;
    if (parts.body !== undefined) {
      // Raw text (NMEA, METAR, NOTAM) goes as text/plain, everything else as JSON.
      body = typeof parts.body === 'string' ? parts.body : JSON.stringify(parts.body);
      if (!headers.has('content-type')) headers.set('content-type', typeof parts.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json');
    }

    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const timeout = Number.isFinite(timeoutMs) && timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
    const signals = [options.signal, timeout].filter((signal) => signal !== undefined);
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(url, { method, headers, body, signal: signals.length ? AbortSignal.any(signals) : undefined });
      text = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout?.aborted) throw new LamisTimeoutError(timeoutMs, { cause: error });
      const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new LamisConnectionError(`cannot reach LAMIS at ${this.url}: ${reason}`, { cause: error });
    }

    const rateLimit = parseRateLimit(response.headers);
    const type = response.headers.get('content-type') ?? '';
    let data: unknown = text;
    if (text === '') data = undefined;
    else if (/[/+]json\b/.test(type)) {
      try {
        data = JSON.parse(text);
      } catch (error) {
        if (response.ok) throw new LamisError(`${method} ${path} answered ${response.status} with a body that is not JSON`, { cause: error });
        data = undefined;
      }
    }
    if (!response.ok) {
      const problem = problemFrom(response.status, response.statusText, data, text, path);
      throw apiError({ status: response.status, problem, headers: response.headers, rateLimit });
    }
    return { data, status: response.status, requestId: response.headers.get('request-id'), rateLimit, headers: response.headers };
  }

  #vesselsApi(): VesselsApi {
    const vesselPath = (mmsi: number | string) => ({ mmsi: String(mmsi) });
    const search: VesselsApi['search'] = (query, options) => this.request('GET /v3/maritime/vessels', { query }, options);
    return {
      get: (mmsi, options) => this.request('GET /v3/maritime/vessels/{mmsi}', { path: vesselPath(mmsi) }, options),
      search,
      searchAll: (query, options) => everyItem((page: VesselSearchQuery) => search(page, options), query ?? {}),
      track: async (mmsi, query, options) => {
        const response = await this.request('GET /v3/maritime/vessels/{mmsi}/track', { path: vesselPath(mmsi), query: { ...query, format: 'json' } }, options);
        return response as LamisResponse<Track>;
      },
      trackFeature: async (mmsi, query, options) => {
        const response = await this.request('GET /v3/maritime/vessels/{mmsi}/track', { path: vesselPath(mmsi), query: { ...query, format: 'geojson' } }, options);
        return response as LamisResponse<TrackFeature>;
      },
      flags: (options) => this.request('GET /v3/maritime/flags', {}, options),
      uploadNmea: (lines, options) => this.request('POST /v3/maritime/ais/nmea', { body: lines }, options),
    };
  }

  #eventsApi(): EventsApi {
    const list: EventsApi['list'] = (query, options) => this.request('GET /v3/events', { query }, options);
    return {
      list,
      listAll: (query, options) => everyItem((page: EventListQuery) => list(page, options), query ?? {}),
      get: (id, options) => this.request('GET /v3/events/{id}', { path: { id } }, options),
      acknowledge: (id, options) => this.request('POST /v3/events/{id}/acknowledge', { path: { id } }, options),
    };
  }

  #zonesApi(): ZonesApi {
    const list: ZonesApi['list'] = (query, options) => this.request('GET /v3/zones', { query }, options);
    return {
      list,
      listAll: (query, options) => everyItem((page: ZoneListQuery) => list(page, options), query ?? {}),
      get: (id, options) => this.request('GET /v3/zones/{id}', { path: { id } }, options),
      create: (zone, options) => this.request('POST /v3/zones', { body: zone }, options),
      update: (id, changes, options) => this.request('PATCH /v3/zones/{id}', { path: { id }, body: changes }, options),
      delete: (id, options) => this.request('DELETE /v3/zones/{id}', { path: { id } }, options),
    };
  }

  #webhooksApi(): WebhooksApi {
    const path = (id: string) => ({ id });
    return {
      create: (webhook, options) => this.request('POST /v3/webhooks', { body: webhook }, options),
      list: (query, options) => this.request('GET /v3/webhooks', { query }, options),
      get: (id, options) => this.request('GET /v3/webhooks/{id}', { path: path(id) }, options),
      update: (id, changes, options) => this.request('PATCH /v3/webhooks/{id}', { path: path(id), body: changes }, options),
      delete: (id, options) => this.request('DELETE /v3/webhooks/{id}', { path: path(id) }, options),
      rotateSecret: (id, options) => this.request('POST /v3/webhooks/{id}/rotate-secret', { path: path(id) }, options),
      test: (id, options) => this.request('POST /v3/webhooks/{id}/test', { path: path(id) }, options),
      deliveries: (id, query, options) => this.request('GET /v3/webhooks/{id}/deliveries', { path: path(id), query }, options),
    };
  }
}
