// NOTAMs as the API serves them: parsed, with their landing effects and source; the state of the
// NOTAM feeds; the query of the NOTAMs in force and the answer to a pushed NOTAM.
import { Type } from 'typebox';
import { DateTime, nullable, Shared } from '../../platform/http/schema.ts';

const NotamCodeSchema = Shared('NotamCode', Type.Object({ code: Type.String(), meaning: nullable(Type.String({ description: 'ICAO Doc 8126 meaning' })) }));

const NotamEffectSchema = Shared('NotamEffect', Type.Object({
  kind: Type.Enum([
    'aerodrome_closed', 'runway_closed', 'ils_unserviceable', 'localizer_unserviceable', 'glide_path_unserviceable',
    'runway_lighting_unserviceable', 'approach_lighting_unserviceable', 'other',
  ]),
  runways: Type.Array(Type.String(), { description: 'Runway ends concerned, two-digit designators' }),
}));

const notamFields = {
  format: Type.Enum(['icao', 'faa']),
  id: nullable(Type.String({ description: '"A1234/24" (ICAO) or "JFK 01/123" (FAA)' })),
  series: nullable(Type.String()),
  number: nullable(Type.Integer()),
  year: nullable(Type.Integer()),
  type: nullable(Type.Enum(['NEW', 'REPLACE', 'CANCEL'])),
  replaces: nullable(Type.String({ description: 'The NOTAM this one replaces or cancels' })),
  location: Type.Array(Type.String(), { description: 'Item A)' }),
  fir: nullable(Type.String()),
  q_code: nullable(Type.String()),
  subject: nullable(NotamCodeSchema),
  condition: nullable(NotamCodeSchema),
  traffic: nullable(Type.Enum(['I', 'V', 'IV', 'K'])),
  purpose: Type.Array(Type.Enum(['N', 'B', 'O', 'M', 'K'])),
  scope: Type.Array(Type.Enum(['A', 'E', 'W', 'K'])),
  lower_fl: nullable(Type.Integer()),
  upper_fl: nullable(Type.Integer()),
  center: nullable(Type.Object({ lat: Type.Number(), lon: Type.Number() })),
  radius_nm: nullable(Type.Number()),
  start_time: nullable(Type.String({ format: 'date-time', description: 'Item B)' })),
  end_time: nullable(Type.String({ format: 'date-time', description: 'Item C); null when permanent or not given' })),
  end_estimated: Type.Boolean(),
  permanent: Type.Boolean(),
  schedule: nullable(Type.String({ description: 'Item D) as written: when within B)-C) the NOTAM is in force' })),
  text: Type.String({ description: 'Item E)' }),
  lower_limit: nullable(Type.String()),
  upper_limit: nullable(Type.String()),
  keyword: nullable(Type.String({ description: 'FAA keyword (RWY, TWY, AD...); null for ICAO' })),
  warnings: Type.Array(Type.Enum(['schedule_unparsed', 'qcode_missing', 'q_line_realigned'])),
  effects: Type.Array(NotamEffectSchema, { description: 'What the NOTAM means for landing' }),
  raw: Type.String(),
  source: Type.Enum(['live', 'simulated', 'operator'], { description: 'FAA NOTAM API, simulator, or pushed by an operator' }),
  received_at: Type.String({ format: 'date-time' }),
  ended_by: nullable(Type.String({ description: 'The NOTAMR or NOTAMC that ended this NOTAM' })),
  ended_at: nullable(Type.String({ format: 'date-time' })),
};

export const NotamSchema = Shared('Notam', Type.Object(notamFields));

/** What a landing briefing shows of a NOTAM in force. */
export const NotamSummarySchema = Shared('NotamSummary', Type.Pick(Type.Object(notamFields), [
  'id', 'type', 'q_code', 'subject', 'condition', 'start_time', 'end_time', 'end_estimated', 'permanent', 'schedule', 'text', 'effects', 'source',
]));

export const FeedStatusSchema = Shared('NotamFeed', Type.Object({
  source: Type.Enum(['live', 'simulated']),
  fetched_at: nullable(Type.String({ format: 'date-time', description: 'Last successful fetch for the airport' })),
  error: nullable(Type.String({ description: 'Why the last attempt failed; the previous set is still served' })),
}));

export const NotamQuery = Type.Object({
  at: Type.Optional(DateTime('The instant to ask about; default now')),
  from: Type.Optional(DateTime('Start of a window (with `to`) instead of an instant')),
  to: Type.Optional(DateTime('End of the window, exclusive')),
});

export const SubmitResultSchema = Shared('NotamSubmission', Type.Object({
  notam: NotamSchema,
  created: Type.Boolean({ description: 'false when the identical NOTAM was already on file' }),
  ended: Type.Array(Type.String(), { description: 'The NOTAMs this NOTAMR or NOTAMC ended' }),
}));
