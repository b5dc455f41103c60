// The shapes of the events routes: the event itself (named `Event` for the SDK), the list's filters.
import { Type, type TSchema } from 'typebox';
import { PageQuery } from '../platform/http/pagination.ts';
import { DateTime, nullable, Shared } from '../platform/http/schema.ts';
import { EVENT_KINDS, EVENT_STATES, SEVERITIES } from './events.ts';

const SubjectObject = Type.Object({
  type: Type.String({ description: 'What the event is about: `arrival`, `vehicle`, `vessel`, `airport`, `port`, `zone`, `feed`…' }),
  id: Type.String({ description: 'Its id; with `type`, the subject\'s identity' }),
  vehicle_id: Type.Optional(Type.String()),
  arrival_id: Type.Optional(Type.String()),
  mmsi: Type.Optional(Type.Integer()),
  icao: Type.Optional(Type.String()),
  port_id: Type.Optional(Type.String()),
  zone_id: Type.Optional(Type.String()),
}, { description: 'The subject and what it relates to' });
const SubjectSchema = Shared('EventSubject', SubjectObject);

const eventObject = <S extends TSchema>(subject: S) => Type.Object({
  id: Type.String({ description: '`evt_` and 16 letters or digits' }),
  kind: Type.Enum([...EVENT_KINDS]),
  state: Type.Enum([...EVENT_STATES], { description: '`open` until the condition is gone; then `cleared`, for good' }),
  severity: Type.Enum([...SEVERITIES]),
  subject,
  opened_at: Type.String({ format: 'date-time' }),
  cleared_at: nullable(Type.String({ format: 'date-time' })),
  acknowledged_at: nullable(Type.String({ format: 'date-time', description: 'The first acknowledgement; kept when the severity changes' })),
  summary: Type.String({ description: 'One sentence a person reads' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'The value, the threshold and the inputs that decided it' }),
});

export const EventSchema = Shared('Event', eventObject(SubjectSchema));
/** The same shape written out, for documents without the shared schemas (the AsyncAPI document). */
export const EventObject = eventObject(SubjectObject);

export const EventListQuery = Type.Object({
  kind: Type.Optional(Type.Enum([...EVENT_KINDS])),
  state: Type.Optional(Type.Enum([...EVENT_STATES])),
  severity: Type.Optional(Type.Enum([...SEVERITIES])),
  subject_type: Type.Optional(Type.String({ maxLength: 32 })),
  subject_id: Type.Optional(Type.String({ maxLength: 128 })),
  since: Type.Optional(DateTime('Events opened at or after this time')),
  ...PageQuery,
});

export const EventParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The event id' }) });
