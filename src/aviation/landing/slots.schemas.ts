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
  derived_capacity: Type.Integer({ description: 'What the runways and the NOTAMs in force in the hour give, override or not' }),
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
    arrivals_per_hour: Type.Integer(),
    basis: Type.String({ description: 'The class the runway fell in, or why it was not counted' }),
  })),
  reasoning: Type.Array(Type.String()),
}, { description: 'What the runways give with no NOTAM in force' });
