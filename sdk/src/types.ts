// The shapes the client's methods take and answer, all generated from the server's OpenAPI document
// (generated/api.ts): `Operations`, and each shape the API names (`Metar`, `Notam`, `Vessel`,
// `LandingIntelligence`...) under its name. The short names below are views of them, never a
// second definition.
import type { Operations } from './generated/api.ts';

export type * from './generated/api.ts';

/** Every operation by `METHOD /path`, e.g. `GET /v3/maritime/vessels/{mmsi}`. */
export type OperationKey = keyof Operations;
/** What an operation takes: `path`, `query`, `headers` and `body`, as far as it has them. */
export type OperationParams<K extends OperationKey> = Omit<Operations[K], 'response'>;
/** What an operation answers with on success. */
export type OperationResponse<K extends OperationKey> = Operations[K]['response'];

export type VesselSearchQuery = NonNullable<Operations['GET /v3/maritime/vessels']['query']>;
export type VesselPage = Operations['GET /v3/maritime/vessels']['response'];
export type VesselSummary = VesselPage['data'][number];
export type VesselCategory = NonNullable<VesselSearchQuery['category']>;

type TrackAnswer = Operations['GET /v3/maritime/vessels/{mmsi}/track']['response'];
export type TrackQuery = Omit<NonNullable<Operations['GET /v3/maritime/vessels/{mmsi}/track']['query']>, 'format'>;
/** Recorded points in time order. */
export type Track = Exclude<TrackAnswer, { type: 'Feature' }>;
/** The same track as a GeoJSON Feature with a LineString (null geometry for fewer than two points). */
export type TrackFeature = Extract<TrackAnswer, { type: 'Feature' }>;

export type FlagList = Operations['GET /v3/maritime/flags']['response'];
export type NmeaUploadResult = Operations['POST /v3/maritime/ais/nmea']['response'];

export type EventListQuery = NonNullable<Operations['GET /v3/events']['query']>;
export type EventPage = Operations['GET /v3/events']['response'];

export type ZoneListQuery = NonNullable<Operations['GET /v3/zones']['query']>;
export type ZonePage = Operations['GET /v3/zones']['response'];

export type WebhookPage = Operations['GET /v3/webhooks']['response'];
export type WebhookChangesInput = Operations['PATCH /v3/webhooks/{id}']['body'];
export type WebhookDeliveryPage = Operations['GET /v3/webhooks/{id}/deliveries']['response'];
export type WebhookListQuery = NonNullable<Operations['GET /v3/webhooks']['query']>;
