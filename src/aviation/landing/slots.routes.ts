// Arrival slots over REST: availability per UTC hour, bookings (with an Idempotency-Key) and
// cancellations, and the admin's capacity override. Capacity is derived from the runways and the
// NOTAMs in force in each hour (deriveCapacity), unless an admin has set it. An organisation books
// at most its fair share of an hour; operator keys have no share.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/app.ts';
import { operatorsOnly } from '../../platform/http/operators.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import { DateTime, instant, invalidField as invalid, nullable } from '../../platform/http/schema.ts';
import { activeInWindow } from '../notams/index.ts';
import type { StoredNotam } from '../notams/store.ts';
import { airportFor, IcaoParams } from '../reference/airports.routes.ts';
import type { Airport } from '../reference/airports.ts';
import { TAG, type AviationServices } from '../services.ts';
import { deriveCapacity } from './capacity.ts';
import { BookingSchema, DerivedCapacitySchema, HourSchema } from './slots.schemas.ts';
import { MS_PER_HOUR, type SlotAvailability, type SlotBooking } from './slots.ts';

const DEFAULT_HOURS = 24;
const MAX_HOURS = 48;
const MAX_ARRIVALS_PER_HOUR = 1000;

export const slotFull = problemType({
  code: 'slot_full',
  status: 409,
  title: 'The hour is fully booked',
  description: 'Every arrival slot of that UTC hour at the airport is booked; `slot` gives the hour\'s capacity. Try another hour.',
});

export const slotFairShareExceeded = problemType({
  code: 'slot_fair_share_exceeded',
  status: 409,
  title: 'Your organisation holds its fair share of the hour',
  description:
    'An organisation may hold at most its fair share of the arrival slots of an airport hour, so that no one organisation can book them all: ' +
    'half of the hour\'s capacity unless the instance sets another share (`LAMIS_SLOT_FAIR_SHARE`) or an operator granted the organisation another, ' +
    'rounded down and at least one. `fair_share` is how many it may hold, `held` how many it holds, `capacity` the hour\'s capacity and `share` the fraction. ' +
    'Cancel one of its bookings, choose another hour, or ask an operator of the instance.',
});

export const idempotencyKeyReused = problemType({
  code: 'idempotency_key_reused',
  status: 422,
  title: 'The Idempotency-Key was used for another request',
  description: 'The key already made a booking for another airport, hour or registration; send a new key for a new booking.',
});

export const bookingNotFound = problemType({
  code: 'booking_not_found',
  status: 404,
  title: 'No such booking',
  description: 'No booking with this id was made by your organisation (or API key).',
});

function slotView(availability: SlotAvailability) {
  const { icao: _icao, ...slot } = availability;
  return slot;
}

function bookingView(booking: SlotBooking, availability: SlotAvailability) {
  return {
    id: booking.id,
    icao: booking.icao,
    hour: booking.hour,
    registration: booking.registration,
    status: booking.cancelled_at === null ? 'booked' as const : 'cancelled' as const,
    created_at: booking.created_at,
    cancelled_at: booking.cancelled_at,
    slot: slotView(availability),
  };
}

/** Bookings belong to the organisation, or to the key itself for keys outside any organisation. */
function ownerOf(request: FastifyRequest): string {
  const principal = request.principal!;
  return principal.organisation_id ?? principal.key_id;
}

/** "half", or the share in per cent. */
function shareText(share: number): string {
  return share === 0.5 ? 'half' : `${Math.round(share * 1000) / 10} %`;
}

/** In force at some moment of [fromMs, toMs), up to its real end: before item C) when a NOTAMR or NOTAMC ended it. */
function activeIn(notam: StoredNotam, fromMs: number, toMs: number): boolean {
  return activeInWindow({ ...notam, end_time: notam.ended_at ?? notam.end_time }, fromMs, toMs);
}

export function registerSlotRoutes(app: App, services: AviationServices): void {
  const { slots, notams } = services;

  /** Capacity of each hour from `fromMs` on, with the NOTAMs in force in that hour. */
  async function capacities(airport: Airport, fromMs: number, hours: number) {
    const inForce = (await notams.forAirport(airport.icao, { from: fromMs, to: fromMs + hours * MS_PER_HOUR })).notams;
    return Array.from({ length: hours }, (_, index) => {
      const start = fromMs + index * MS_PER_HOUR;
      return { start, derived: deriveCapacity(airport, inForce.filter((notam) => activeIn(notam, start, start + MS_PER_HOUR))) };
    });
  }

  app.get('/v3/aviation/airports/:icao/slots', {
    schema: {
      summary: 'Arrival slot availability per UTC hour',
      description:
        `Hours from \`from\` (default the next whole hour) to \`to\` (exclusive; default ${DEFAULT_HOURS} hours later), at most ${MAX_HOURS}. ` +
        'Each with its capacity, bookings and what remains, and how the capacity was found: derived from the runways and the NOTAMs ' +
        'in force in that hour (see the landing RULES), or set by an admin.',
      tags: [TAG],
      params: IcaoParams,
      querystring: Type.Object({
        from: Type.Optional(DateTime('First hour (the hour containing this time)')),
        to: Type.Optional(DateTime('End, exclusive: every hour that starts before it is listed')),
      }),
      response: {
        200: Type.Object({
          icao: Type.String(),
          from: Type.String({ format: 'date-time' }),
          to: Type.String({ format: 'date-time' }),
          data: Type.Array(HourSchema),
          disclaimer: Type.String(),
        }),
      },
    },
  }, async (request) => {
    const airport = airportFor(services, request.params.icao);
    const query = request.query;
    const from = query.from === undefined
      ? Math.ceil(Date.now() / MS_PER_HOUR) * MS_PER_HOUR
      : Math.floor(instant(query.from, '/querystring/from') / MS_PER_HOUR) * MS_PER_HOUR;
    const to = query.to === undefined ? from + DEFAULT_HOURS * MS_PER_HOUR : instant(query.to, '/querystring/to');
    if (to <= from) throw invalid('/querystring/to', `must be after the first hour, ${new Date(from).toISOString()}`);
    const hours = Math.ceil((to - from) / MS_PER_HOUR);
    if (hours > MAX_HOURS) throw invalid('/querystring/to', `must be at most ${MAX_HOURS} hours after the first hour (asked for ${hours})`);

    const data = [];
    for (const { start, derived } of await capacities(airport, from, hours)) {
      const availability = await slots.availability(airport.icao, start, derived.arrivals_per_hour);
      const reasoning = availability.capacity_source === 'override'
        ? [`Set by an admin: ${availability.capacity} arrivals/h, instead of the ${derived.arrivals_per_hour}/h derived as follows.`, ...derived.reasoning]
        : derived.reasoning;
      data.push({ ...slotView(availability), derived_capacity: derived.arrivals_per_hour, reasoning });
    }
    return { icao: airport.icao, from: new Date(from).toISOString(), to: new Date(from + hours * MS_PER_HOUR).toISOString(), data, disclaimer: DISCLAIMER };
  });

  app.post('/v3/aviation/airports/:icao/slots/bookings', {
    schema: {
      summary: 'Book an arrival slot',
      description:
        'Books one place in the UTC hour of `eta_utc`. `Idempotency-Key` is required: the same key returns the booking it first made (200), ' +
        'a key already used for another airport, hour or registration is refused (422 `idempotency_key_reused`). ' +
        '201 with the booking; 409 `slot_full` when the hour has no place left, 409 `slot_fair_share_exceeded` when your organisation ' +
        'already holds its fair share of the hour (half of its capacity unless the instance or an operator says otherwise; operator keys have none).',
      tags: [TAG],
      params: IcaoParams,
      headers: Type.Object({
        'idempotency-key': Type.String({ minLength: 1, maxLength: 255, description: 'Unique per booking you mean to make; retries send the same key' }),
      }),
      body: Type.Object({
        eta_utc: DateTime('Estimated time of arrival'),
        registration: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]{1,9}$', description: 'Aircraft registration ("G-EUPT", "N12345")' }),
      }, { additionalProperties: false }),
      response: { 200: BookingSchema, 201: BookingSchema },
    },
  }, async (request, reply) => {
    const airport = airportFor(services, request.params.icao);
    const eta = instant(request.body.eta_utc, '/body/eta_utc');
    const start = Math.floor(eta / MS_PER_HOUR) * MS_PER_HOUR;
    if (start + MS_PER_HOUR <= Date.now()) throw invalid('/body/eta_utc', 'is in an hour that is already over');
    const derived = (await capacities(airport, start, 1))[0]!.derived;
    const orgId = ownerOf(request);
    const fairShare = request.principal!.admin ? null : await services.slotShareOf(orgId);
    const result = await slots.book({
      icao: airport.icao,
      etaMs: eta,
      orgId,
      registration: request.body.registration,
      idempotencyKey: request.headers['idempotency-key'],
      derivedCapacity: derived.arrivals_per_hour,
      fairShare,
    });
    switch (result.status) {
      case 'created':
        reply.code(201);
        return bookingView(result.booking, result.availability);
      case 'existing': {
        const availability = await slots.availability(result.booking.icao, Date.parse(result.booking.hour), derived.arrivals_per_hour);
        return bookingView(result.booking, availability);
      }
      case 'key_reused': {
        const { booking } = result;
        throw new ProblemError(idempotencyKeyReused,
          `This Idempotency-Key already booked ${booking.registration} at ${booking.icao} for the hour from ${booking.hour} (booking ${booking.id}).`);
      }
      case 'full':
        throw new ProblemError(slotFull,
          `All ${result.availability.capacity} arrival slots at ${airport.icao} for the hour from ${result.availability.hour} are booked.`,
          { extra: { slot: slotView(result.availability) } });
      case 'over_share': {
        const { availability, held, allowed } = result;
        throw new ProblemError(slotFairShareExceeded,
          `Your organisation holds ${held} of the ${availability.capacity} arrival slots at ${airport.icao} for the hour from ${availability.hour}; ` +
          `an organisation may hold at most ${shareText(fairShare!)} (${allowed}), so that others can book too. ` +
          'Cancel one of your bookings, choose another hour, or ask an operator of this instance for a larger share.',
          { extra: { fair_share: allowed, held, capacity: availability.capacity, share: fairShare } });
      }
    }
  });

  app.delete('/v3/aviation/airports/:icao/slots/bookings/:id', {
    schema: {
      summary: 'Cancel a slot booking',
      description: 'Frees the place. Cancelling again answers 204 as well. 404 `booking_not_found` for an id your organisation (or key) did not book.',
      tags: [TAG],
      params: Type.Object({ ...IcaoParams.properties, id: Type.String({ format: 'uuid', description: 'The booking id' }) }),
      response: { 204: Type.Null({ description: 'Cancelled' }) },
    },
  }, async (request, reply) => {
    const airport = airportFor(services, request.params.icao);
    const result = await slots.cancel(request.params.icao, request.params.id, ownerOf(request));
    if (result.status === 'not_found') throw new ProblemError(bookingNotFound, `No booking ${request.params.id} of yours at ${airport.icao}.`);
    return reply.code(204).send(null);
  });

  app.put('/v3/aviation/airports/:icao/slots/capacity', {
    preValidation: operatorsOnly('Only an operator of this instance may set slot capacity.'),
    schema: {
      summary: 'Set or remove the hourly arrival capacity of an airport (admin)',
      description:
        'An integer replaces the capacity derived from the runways in every hour; null removes the override. ' +
        `For operators of this instance only (403 \`forbidden\` otherwise). Answers the override and what the runways alone give.`,
      tags: [TAG],
      params: IcaoParams,
      body: Type.Object({
        // A type list rather than anyOf: with type coercion on, ajv would turn null into 0 for the integer branch.
        arrivals_per_hour: Type.Unsafe<number | null>({
          type: ['integer', 'null'], minimum: 0, maximum: MAX_ARRIVALS_PER_HOUR, description: 'Arrivals per hour; null removes the override',
        }),
      }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          icao: Type.String(),
          override: nullable(Type.Integer({ description: 'The admin\'s capacity; null when none is set' })),
          derived: DerivedCapacitySchema,
        }),
      },
    },
  }, async (request) => {
    const airport = airportFor(services, request.params.icao);
    await slots.setCapacity(airport.icao, request.body.arrivals_per_hour);
    return { icao: airport.icao, override: request.body.arrivals_per_hour, derived: deriveCapacity(airport) };
  });
}
