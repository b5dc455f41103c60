// The vehicle profile form: which fields each vehicle type takes, the form's text values, the
// request bodies made from them (create: the fields given; change: the fields that differ), and
// the API's validation errors (`errors[]` with `/body/...` paths) put back under their fields.
// The API is the judge of what is valid: the form only tidies what people type (spaces, case,
// comma lists) and shows what the API says. Pure, so it is tested without a browser.
import type { OperationParams, OperationResponse } from '@lamis/sdk';
import { FIELD_LABELS, fieldLabel, fieldSentence } from '../../app/field-labels.ts';

export type Vehicle = OperationResponse<'GET /v3/organisations/{orgId}/fleet/vehicles/{id}'>;
export type VehicleType = Vehicle['vehicle_type'];
export type CreateBody = NonNullable<OperationParams<'POST /v3/organisations/{orgId}/fleet/vehicles'>['body']>;
export type PatchBody = NonNullable<OperationParams<'PATCH /v3/organisations/{orgId}/fleet/vehicles/{id}'>['body']>;

export const VEHICLE_TYPES: readonly VehicleType[] = ['aircraft', 'helicopter', 'vessel'];

export const VEHICLE_TYPE_NAMES: Record<VehicleType, string> = { aircraft: 'Aircraft', helicopter: 'Helicopter', vessel: 'Vessel' };
export const VEHICLE_TYPE_PLURALS: Record<VehicleType, string> = { aircraft: 'Aircraft', helicopter: 'Helicopters', vessel: 'Vessels' };

export type FieldName =
  | 'registration' | 'icao_type' | 'home_base_icao' | 'operational_regions'
  | 'mmsi' | 'imo' | 'crosswind_limit_kt' | 'min_runway_m';

export const FIELD_NAMES: readonly FieldName[] = [
  'registration', 'icao_type', 'home_base_icao', 'operational_regions', 'mmsi', 'imo', 'crosswind_limit_kt', 'min_runway_m',
];

export interface FieldSpec {
  name: FieldName;
  label: string;
  hint: string;
  required: boolean;
  /** How the text becomes a JSON value. */
  kind: 'text' | 'code' | 'integer' | 'number' | 'list';
  inputMode: 'text' | 'numeric' | 'decimal';
  placeholder: string;
}

const registrationFor = (what: string): FieldSpec => ({
  name: 'registration', label: FIELD_LABELS.registration, hint: `As painted on the ${what}: letters, digits and hyphens.`,
  required: true, kind: 'text', inputMode: 'text', placeholder: 'G-EUPT',
});
const AVIATION: FieldSpec[] = [
  { name: 'icao_type', label: FIELD_LABELS.icao_type, hint: 'ICAO Doc 8643 designator, e.g. A320, B738, EC35.', required: true, kind: 'code', inputMode: 'text', placeholder: 'A320' },
  { name: 'home_base_icao', label: FIELD_LABELS.home_base_icao, hint: 'Airport code of 3 or 4 letters or digits.', required: false, kind: 'code', inputMode: 'text', placeholder: 'EGLL' },
  { name: 'operational_regions', label: FIELD_LABELS.operational_regions, hint: 'FIRs (EGTT) or ICAO regions (K, EG), separated by commas.', required: false, kind: 'list', inputMode: 'text', placeholder: 'EGTT, EGPX' },
  { name: 'crosswind_limit_kt', label: FIELD_LABELS.crosswind_limit_kt, hint: '1–60 kt, replacing the type\'s figure; needed for a type LAMIS does not know.', required: false, kind: 'number', inputMode: 'decimal', placeholder: '25' },
  { name: 'min_runway_m', label: FIELD_LABELS.min_runway_m, hint: '1–6000 m, replacing the type\'s figure; needed for a type LAMIS does not know.', required: false, kind: 'integer', inputMode: 'numeric', placeholder: '1800' },
];

/** The fields each type takes, required ones first. */
export const FIELDS_BY_TYPE: Record<VehicleType, FieldSpec[]> = {
  aircraft: [registrationFor('aircraft'), ...AVIATION],
  helicopter: [registrationFor('helicopter'), ...AVIATION],
  vessel: [
    { name: 'mmsi', label: FIELD_LABELS.mmsi, hint: 'The 9-digit Maritime Mobile Service Identity of the ship station.', required: true, kind: 'integer', inputMode: 'numeric', placeholder: '235012345' },
    { name: 'imo', label: FIELD_LABELS.imo, hint: '7 digits with a valid check digit.', required: false, kind: 'integer', inputMode: 'numeric', placeholder: '9074729' },
    { name: 'registration', label: 'Official number or call sign', hint: 'Optional.', required: false, kind: 'text', inputMode: 'text', placeholder: 'MABC7' },
    { name: 'operational_regions', label: FIELD_LABELS.operational_regions, hint: 'FIRs or ICAO regions, separated by commas or spaces.', required: false, kind: 'list', inputMode: 'text', placeholder: 'EGTT' },
  ],
};

export type FormValues = { vehicle_type: VehicleType } & Record<FieldName, string>;

export function emptyForm(type: VehicleType = 'aircraft'): FormValues {
  return {
    vehicle_type: type, registration: '', icao_type: '', home_base_icao: '', operational_regions: '',
    mmsi: '', imo: '', crosswind_limit_kt: '', min_runway_m: '',
  };
}

export function formFromVehicle(vehicle: Vehicle): FormValues {
  const text = (value: string | number | null) => (value === null ? '' : String(value));
  return {
    vehicle_type: vehicle.vehicle_type,
    registration: text(vehicle.registration),
    icao_type: text(vehicle.icao_type),
    home_base_icao: text(vehicle.home_base_icao),
    operational_regions: vehicle.operational_regions.join(', '),
    mmsi: text(vehicle.mmsi),
    imo: text(vehicle.imo),
    crosswind_limit_kt: text(vehicle.crosswind_limit_kt),
    min_runway_m: text(vehicle.min_runway_m),
  };
}

const specOf = (type: VehicleType, name: FieldName): FieldSpec | undefined => FIELDS_BY_TYPE[type].find((f) => f.name === name);

/**
 * The form for another type: what means the same for both types stays (an aircraft's regions),
 * the rest is emptied (an aircraft's registration is not a vessel's official number).
 */
export function switchType(values: FormValues, type: VehicleType): FormValues {
  const next = { ...emptyForm(type) };
  for (const spec of FIELDS_BY_TYPE[type]) {
    if (specOf(values.vehicle_type, spec.name)?.label === spec.label) next[spec.name] = values[spec.name];
  }
  return next;
}

type JsonValue = string | number | string[] | null;

/**
 * The JSON value of one field: null when empty; numbers when the text is one (spaces and an
 * "IMO" prefix dropped), otherwise the text as typed so that the API names the mistake.
 */
export function fieldValue(spec: FieldSpec, text: string): JsonValue {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  switch (spec.kind) {
    case 'text':
      return trimmed;
    case 'code':
      return trimmed.toUpperCase();
    case 'list':
      return trimmed.split(/[\s,;]+/).filter(Boolean).map((code) => code.toUpperCase());
    case 'integer':
    case 'number': {
      const compact = trimmed.replace(/^IMO\s*/i, '').replace(/[\s_]/g, '');
      const pattern = spec.kind === 'integer' ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/;
      return pattern.test(compact) ? Number(compact) : trimmed;
    }
  }
}

/** The body that adds the vehicle: its type and the fields of that type that are filled in. */
export function createBody(values: FormValues): CreateBody {
  const body: { vehicle_type: VehicleType } & Record<string, JsonValue> = { vehicle_type: values.vehicle_type };
  for (const spec of FIELDS_BY_TYPE[values.vehicle_type]) {
    const value = fieldValue(spec, values[spec.name]);
    if (value !== null) body[spec.name] = value;
  }
  return body as CreateBody;
}

const sameValue = (a: JsonValue, b: JsonValue): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The body that changes `original` into the form's values: the fields that differ, null for one
 * emptied, and null for the fields the new type does not take. Empty when nothing changed.
 */
export function patchBody(values: FormValues, original: Vehicle): PatchBody {
  const body: Record<string, JsonValue> = {};
  if (values.vehicle_type !== original.vehicle_type) body.vehicle_type = values.vehicle_type;
  for (const name of FIELD_NAMES) {
    const spec = specOf(values.vehicle_type, name);
    const was: JsonValue = name === 'operational_regions' ? (original.operational_regions.length ? original.operational_regions : null) : original[name];
    const now = spec ? fieldValue(spec, values[name]) : null;
    if (!sameValue(was, now)) body[name] = now;
  }
  return body as PatchBody;
}

export interface FieldError {
  path: string;
  message: string;
}

export interface MappedErrors {
  /** Messages under their inputs, by field. */
  fields: Partial<Record<FieldName | 'vehicle_type', string>>;
  /** Messages for no input on the form, each starting with the field it names. */
  other: string[];
}

/**
 * The API's `errors[]` under the form's inputs: `/body/registration` under Registration,
 * `/body/operational_regions/2` under the regions as "EGXX: …" (the third code typed). Errors for
 * fields the form does not show for this type go to `other`.
 */
export function mapFieldErrors(errors: readonly FieldError[], values: FormValues): MappedErrors {
  const mapped: MappedErrors = { fields: {}, other: [] };
  const shown = new Set<string>(['vehicle_type', ...FIELDS_BY_TYPE[values.vehicle_type].map((f) => f.name)]);
  for (const error of errors) {
    const [field = '', index] = error.path.replace(/^\/body\/?/, '').split('/');
    if (!shown.has(field)) {
      mapped.other.push(fieldSentence(fieldLabel(error.path), error.message));
      continue;
    }
    let message = error.message;
    if (field === 'operational_regions' && index !== undefined) {
      const codes = fieldValue(specOf(values.vehicle_type, 'operational_regions')!, values.operational_regions);
      const code = Array.isArray(codes) ? codes[Number(index)] : undefined;
      message = `${code ?? `Region ${Number(index) + 1}`}: ${message}`;
    }
    const key = field as FieldName | 'vehicle_type';
    mapped.fields[key] = mapped.fields[key] ? `${mapped.fields[key]} ${message}` : message;
  }
  return mapped;
}

/** The vehicle's name in lists: its registration, else its MMSI. */
export function vehicleName(vehicle: Vehicle): string {
  return vehicle.registration ?? (vehicle.mmsi !== null ? `MMSI ${vehicle.mmsi}` : vehicle.id);
}

/** One line about the vehicle: "A320 · home base EGLL · crosswind limit 25 kt". */
export function vehicleSummary(vehicle: Vehicle): string {
  const parts: string[] = [];
  if (vehicle.icao_type) parts.push(vehicle.icao_type);
  if (vehicle.vehicle_type === 'vessel' && vehicle.mmsi !== null && vehicle.registration) parts.push(`MMSI ${vehicle.mmsi}`);
  if (vehicle.imo !== null) parts.push(`IMO ${vehicle.imo}`);
  if (vehicle.home_base_icao) parts.push(`home base ${vehicle.home_base_icao}`);
  if (vehicle.crosswind_limit_kt !== null) parts.push(`crosswind limit ${vehicle.crosswind_limit_kt} kt`);
  if (vehicle.min_runway_m !== null) parts.push(`runway at least ${vehicle.min_runway_m} m`);
  if (vehicle.operational_regions.length) parts.push(`regions ${vehicle.operational_regions.join(', ')}`);
  return parts.join(' · ');
}
