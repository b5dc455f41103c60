// The ILS and localizers of an airport as the airport endpoint serves them.
import { Type } from 'typebox';
import { nullable, Shared } from '../../platform/http/schema.ts';
import { ILS_CATEGORIES, LOCALIZER_KINDS } from './navdat.ts';

export const LocalizerSchema = Shared('Localizer', Type.Object({
  ident: Type.String({ description: 'Localizer ident, e.g. "IJFK"' }),
  runway: Type.String({ description: 'The runway end it serves, two-digit form: "04R"' }),
  kind: Type.Enum([...LOCALIZER_KINDS], { description: 'ILS: an ILS of a category; LOC, LDA, SDF: a localizer without glide slope; LOC-GS, LDA-GS, IGS: with a glide slope but not an ILS' }),
  category: nullable(Type.Enum([...ILS_CATEGORIES], { description: 'ILS facility category (CAT III is not split into A/B in the source); null for other kinds' })),
  frequency_mhz: Type.Number(),
  course_true_deg: Type.Number({ description: 'Localizer course, degrees true' }),
  course_magnetic_deg: nullable(Type.Number({ description: 'Published magnetic front course (nav.dat 1150 and later); null when the file does not give it' })),
  glide_slope_deg: nullable(Type.Number({ description: 'Glide path angle; null when the data lists no glide slope' })),
  source: Type.String({ description: 'The imported navigation data: file, format, data cycle, import date' }),
}));

export const AirportIlsSchema = Type.Object({
  status: Type.Enum(['listed', 'unknown'], {
    description: 'listed: imported navigation data covers the airport, and each runway end\'s `ils` is true or false from it; unknown: it does not (or none was imported), and `ils` is null',
  }),
  detail: Type.String({ description: 'Where the list comes from, or why the ILS are unknown' }),
  localizers: Type.Array(LocalizerSchema, { description: 'Every ILS and localizer the data lists for the airport; empty when unknown' }),
}, { description: 'The airport\'s ILS from navigation data imported with `lamis import navdata` (X-Plane nav.dat)' });
