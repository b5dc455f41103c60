// The fleet feed entry: what one vehicle of a fleet needs now, as `GET /v3/fleet/feed` serves it
// and the event stream's `feed` frame carries it. The intelligence engine computes it; the shape is
// here, beside the stream that sends it, so the stream's AsyncAPI document can describe it. Like the
// event, it is declared twice: named (`FleetFeedEntry`, for OpenAPI and the SDK) and written out
// (for the AsyncAPI document, which has no shared schemas).
import { Type, type Static, type TSchema } from 'typebox';
import { VEHICLE_TYPES } from '../../common/vehicle-types.ts';
import { nullable, Shared } from '../platform/http/schema.ts';
import { EventObject, EventSchema } from './events.schemas.ts';

const Time = (description?: string) => Type.String({ format: 'date-time', ...(description === undefined ? {} : { description }) });

const MissingObject = Type.Object({
  field: Type.String({ description: 'The part that is null, e.g. `landing.wind`, `voyage.tidal_window`' }),
  reason: Type.String({ description: 'A stable code: `no_watched_arrival`, `airport_not_found`, `no_metar`, `no_forecast` (no weather known at the ETA: past the METAR\'s hour and the TAF), `no_runway`, `not_heard`, `no_position`, `no_destination`, `for_orders`, `not_a_port`, `unknown`, `no_speed`, `no_route`, `draught_unknown`, `charted_depth_unknown`, `no_tide_station`, `weather_unavailable`…' }),
  message: Type.String({ description: 'One sentence a person reads' }),
});

const ArrivalObject = Type.Object({
  id: Type.String({ description: 'The planned arrival (`arr_…`)' }),
  destination_icao: Type.String(),
  eta_utc: Time(),
  watched_until: Time(),
}, { description: 'The next watched planned arrival: the earliest one still watched' });

const WindObject = Type.Object({
  runway: Type.String({ description: 'The recommended runway end the components are for' }),
  speed_kt: Type.Number(),
  gust_kt: nullable(Type.Number()),
  headwind_kt: nullable(Type.Number({ description: 'Mean wind along the runway; negative is a tailwind; null for VRB wind or an unknown heading' })),
  crosswind_kt: nullable(Type.Number({ description: 'Mean crosswind' })),
  max_crosswind_kt: nullable(Type.Number({ description: 'Gusts and the whole reported direction range included' })),
  max_tailwind_kt: nullable(Type.Number({ description: 'Gusts and the whole reported direction range included' })),
  crosswind_limit_kt: Type.Number({ description: "The aircraft's crosswind limit: the operator's figure, else its type's" }),
  tailwind_limit_kt: Type.Number({ description: 'The tailwind LAMIS allows on any runway it recommends' }),
  crosswind_margin_kt: nullable(Type.Number({ description: 'Limit minus the crosswind with gusts; negative past the limit' })),
  within_limits: nullable(Type.Boolean({ description: 'Crosswind and tailwind, gusts included, within the limits; null when the wind is unknown' })),
}, { description: 'The wind on the recommended runway against the aircraft\'s limits' });

const LandingObject = Type.Object({
  destination: Type.Object({
    icao: Type.String(),
    name: Type.String(),
    status: Type.Enum(['OPERATIONAL', 'LIMITED', 'CLOSED', 'UNKNOWN']),
    status_reasons: Type.Array(Type.String()),
  }),
  safety_score: Type.Integer({ minimum: 0, maximum: 100 }),
  conditions: Type.String({ description: 'The most significant weather condition; UNKNOWN without a usable METAR' }),
  flight_category: nullable(Type.Enum(['VFR', 'MVFR', 'IFR', 'LIFR'])),
  visibility_nm: nullable(Type.Number()),
  metar: nullable(Type.String({ description: 'The METAR the answer used' })),
  metar_observed_at: nullable(Time()),
  runway: nullable(Type.String({ description: 'The recommended runway end, e.g. "27L"' })),
  approach: nullable(Type.Enum(['ILS', 'RNAV', 'VISUAL'])),
  recommended_approach: Type.String({ description: 'e.g. "ILS RWY 27L"' }),
  below_minima: Type.Boolean(),
  wind: nullable(WindObject),
  slot: Type.Object({
    hour: Time('Start of the UTC hour of the ETA'),
    capacity: Type.Integer(),
    booked: Type.Integer(),
    remaining: Type.Integer(),
    available: Type.Boolean(),
  }),
}, { description: 'The landing answer at the arrival\'s ETA for this aircraft, as `GET /v3/aviation/landing` gives it' });

const PortObject = Type.Object({
  id: Type.String(), name: Type.String(), unlocode: nullable(Type.String()), country: nullable(Type.String()), lat: Type.Number(), lon: Type.Number(),
});

const VoyageObject = Type.Object({
  vessel: nullable(Type.Object({
    mmsi: Type.Integer(),
    name: nullable(Type.String()),
    callsign: nullable(Type.String()),
    imo: nullable(Type.Integer()),
    category: Type.String(),
    draught_m: nullable(Type.Number({ description: 'As the vessel reports it in its voyage data' })),
  }, { description: 'What AIS says of the vessel; null when nothing was heard from its MMSI' })),
  position: nullable(Type.Object({
    lat: Type.Number(),
    lon: Type.Number(),
    sog_kn: nullable(Type.Number()),
    cog_deg: nullable(Type.Number()),
    heading_deg: nullable(Type.Number()),
    nav_status: nullable(Type.Integer()),
    timestamp: Time('When the position was received'),
    age_sec: Type.Integer({ description: 'Seconds since `timestamp`, when the entry was served' }),
  }, { description: 'The last position' })),
  destination: Type.Object({
    reported: nullable(Type.String({ description: 'The destination as the crew typed it' })),
    port: nullable(PortObject),
    matched_by: nullable(Type.Enum(['unlocode', 'abbreviation', 'name'])),
    ambiguous: Type.Boolean({ description: 'Other ports fit the text as well' }),
  }),
  eta: nullable(Type.Object({
    predicted: Time('The weather-aware ETA at the destination port'),
    calm_water: Time(),
    distance_nm: Type.Number(),
    weather_delay_hours: Type.Number(),
    speed_kn: Type.Number({ description: 'The calm-water speed the prediction uses' }),
    speed_source: Type.Enum(['ais_track', 'ais_sog', 'given']),
    weather_status: Type.Enum(['used', 'unavailable', 'not_requested']),
    reported: nullable(Time('The ETA the vessel reports')),
  })),
  tidal_window: nullable(Type.Object({
    station: Type.Object({ id: Type.String(), name: Type.String(), distance_nm: Type.Number() }),
    draught_m: Type.Number(),
    required_depth_m: Type.Number(),
    charted_depth_m: Type.Number({ description: "The port's channel depth below the station's chart datum" }),
    from: Time('The predicted ETA, or now without one'),
    to: Time(),
    navigable: Type.Enum(['always', 'partly', 'never']),
    next: nullable(Type.Object({ start: Time(), end: Time(), min_margin_m: Type.Number() }, { description: 'The first window in the period; null when it has none' })),
  }, { description: 'The next tidal window for the vessel\'s draught at the destination' })),
  weather_hold: nullable(Type.Object({
    from: Time(),
    to: Time(),
    active: Type.Boolean({ description: 'A hold covers now' }),
    at_eta: nullable(Type.Boolean({ description: 'A hold covers the predicted ETA; null without one in the period' })),
    next: nullable(Type.Object({
      start: Time(),
      end: Time(),
      limiting: Type.Array(Type.Object({
        factor: Type.String(), threshold: Type.Number(), unit: Type.String(), worst: Type.Number(), worst_at: Time(),
      })),
    }, { description: 'The hold now, or else the next one in the period' })),
    source: Type.String({ description: 'The weather source: `simulated` or `open-meteo`' }),
  }, { description: 'Weather holds at the destination port by your organisation\'s limits' })),
}, { description: 'Where the vessel is and what awaits it at its destination' });

const feedEntryObject = <E extends TSchema>(event: E) => Type.Object({
  vehicle: Type.Object({
    id: Type.String(),
    vehicle_type: Type.Enum([...VEHICLE_TYPES]),
    registration: nullable(Type.String()),
    icao_type: nullable(Type.String()),
    mmsi: nullable(Type.Integer()),
  }),
  arrival: nullable(ArrivalObject),
  landing: nullable(LandingObject),
  voyage: nullable(VoyageObject),
  open_events: Type.Array(event, { description: 'The vehicle\'s open events (about it, its arrivals or its MMSI), newest first' }),
  missing: Type.Array(MissingObject, {
    description: 'Each part that is null for want of data, and why. `arrival` and `landing` are for aircraft and helicopters and `voyage` for vessels; the other kind\'s are null and not listed.',
  }),
  updated_at: Time('When the entry last changed (a position\'s age alone is no change)'),
});

export const FleetFeedEntrySchema = Shared('FleetFeedEntry', feedEntryObject(EventSchema));
/** The same shape written out, for the AsyncAPI document. */
export const FleetFeedEntryObject = feedEntryObject(EventObject);
export type FleetFeedEntry = Static<typeof FleetFeedEntryObject>;
