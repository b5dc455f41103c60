// Arrival slots as the API serves them: an hour's capacity and bookings (also part of the landing
// answer), a booking, and what the runways give.
import { Type } from 'typebox';
import { nullable, Shared } from '../../platform/http/schema.ts';

export const slotFields = {
  hour: Type.String({ format: 'date-time', description: 'Start of the UTC hour' }),
  capacity: Type.Integer({ description: 'Arrivals per hour' }),
  capacity_source: Type.Enum(['override', 'derived'], { description: '`override`: set by an admin; `derived`: from the runways and NOTAMs' }),
  booked: Type.Integer(),
  remaining: Type.Integer(),
  available: Type.Boolean(),
};
const SlotSchema = Shared('Slot', Type.Object(slotFields));

export const HourSchema = Type.Object({
  ...slotFields,
  derived_capacity: Type.Integer({ description: 'What the runways and the NOTAMs in force in the hour give in visual conditions, override or not' }),
  reasoning: Type.Array(Type.String(), { description: 'How the capacity was found' }),
});

export const BookingSchema = Shared('SlotBooking', Type.Object({
  id: Type.String({ format: 'uuid' }),
  icao: Type.String(),
  hour: Type.String({ format: 'date-time', description: 'The UTC hour booked' }),
  registration: Type.String(),
  status: Type.Enum(['booked', 'cancelled']),
  created_at: Type.String({ format: 'date-time' }),
  cancelled_at: nullable(Type.String({ format: 'date-time' })),
  slot: SlotSchema,
}));

export const DerivedCapacitySchema = Type.Object({
  arrivals_per_hour: Type.Integer(),
  runways: Type.Array(Type.Object({
    runway_id: Type.String(),
    designators: Type.Array(Type.String()),
    landing_ends: Type.Array(Type.String(), { description: 'The ends aircraft land on (into the wind when one was given); empty when the runway is not counted' }),
    arrivals_per_hour: Type.Number({ description: 'This runway alone, arrivals only, in visual conditions; 0 when not counted' }),
    basis: Type.String({ description: 'The class the runway fell in, or why it was not counted' }),
    system: nullable(Type.Integer({ description: 'Index into `systems`; null when the runway is not counted' })),
  })),
  systems: Type.Array(Type.Object({
    runways: Type.Array(Type.String()),
    role: Type.Enum(['arrivals', 'arrivals_and_departures', 'departures']),
    arrivals_per_hour: Type.Number({ description: 'In visual conditions, before the flight category\'s factor' }),
    layout: Type.String({ description: 'How the system is used: which runway lands, which departs, and the factors' }),
  }), { description: 'Runways that depend on each other (close parallels, crossing or converging runways) form one system; systems are independent' }),
  weather_factor: Type.Number({ description: 'The flight category\'s factor (VFR 1, MVFR 0.95, IFR 0.85, LIFR 0.7); 1 when no weather is given' }),
  reasoning: Type.Array(Type.String()),
}, { description: 'What the runways give with no NOTAM in force, in visual conditions with every runway open to the wind' });
