// What the dashboard calls each field the API may name in a problem's `errors[]`: the label its form
// shows. Forms take their labels from here, so an error reads "Destination airport: must be 4
// letters or digits" beside the field labelled so, and the same words wherever it is summed up.

export const FIELD_LABELS = {
  // Accounts: sign-up, sign-in, passwords, onboarding, team.
  email: 'E-mail address',
  password: 'Password',
  current_password: 'Current password',
  new_password: 'New password',
  full_name: 'Full name',
  vehicle_category: 'Vehicle type',
  country: 'Country of operation',
  role: 'Role',
  plan: 'Plan',
  // API keys.
  name: 'Name',
  environment: 'Environment',
  expires_at: 'Expires',
  overlap_hours: 'Old key keeps working for (hours)',
  // Fleet vehicle profiles (a vessel's registration is labelled as vessels know it: see the fleet form).
  vehicle_type: 'Vehicle type',
  registration: 'Registration',
  icao_type: 'ICAO type designator',
  home_base_icao: 'Home base',
  operational_regions: 'Operational regions',
  mmsi: 'MMSI',
  imo: 'IMO number',
  crosswind_limit_kt: 'Crosswind limit (kt)',
  min_runway_m: 'Shortest usable runway (m)',
  // Notification thresholds.
  'thresholds/safety_score_below': 'Safety score',
  'thresholds/crosswind_kt_above': 'Crosswind',
  'thresholds/wind_shear_at_least': 'Wind shear',
  'thresholds/visibility_nm_below': 'Visibility',
  'thresholds/weather_hold': 'Weather hold',
  'thresholds/eta_delay_minutes_above': 'Arrival delay',
  // Landing briefings.
  destination_icao: 'Destination airport',
  eta_utc: 'ETA (UTC)',
  aircraft_type: 'ICAO type',
  // Webhooks (a description is labelled so on zones too).
  url: 'Endpoint URL',
  kinds: 'Events sent',
  description: 'Description',
  enabled: 'Deliveries',
  // Zones.
  geometry: 'Area',
  'geometry/center/lat': 'Centre latitude',
  'geometry/center/lon': 'Centre longitude',
  'geometry/radius_nm': 'Radius (nm)',
  applies_to: 'Applies to',
  'applies_to/categories': 'Other vessels of these types',
  'applies_to/flags': 'Other vessels under these flags',
} as const;

export type FieldKey = keyof typeof FIELD_LABELS;

/**
 * A validation error's field path without its location: `/body/email` → `email`,
 * `/body/thresholds/crosswind_kt_above` → `thresholds/crosswind_kt_above`, `/querystring/from` → `from`.
 */
export function fieldKey(path: string): string {
  return path.replace(/^\/(body|querystring|query|params|headers)\/?/, '');
}

/**
 * The label of the field a path names: `/body/destination_icao` → `Destination airport`; an item of
 * a list is its list's (`/body/operational_regions/2`); a field no form shows reads as its words.
 */
export function fieldLabel(path: string): string {
  const parts = fieldKey(path).split('/').filter((part) => part && !/^\d+$/.test(part));
  const known = [parts.join('/'), parts[0] ?? ''].find((key): key is FieldKey => Object.hasOwn(FIELD_LABELS, key));
  if (known) return FIELD_LABELS[known];
  const words = (parts.at(-1) ?? '').replace(/_/g, ' ');
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'The request';
}

/**
 * An error beside its field: `Destination airport: must be 4 letters or digits`. A message that is a
 * sentence of its own (a capital first) stands alone.
 */
export function fieldSentence(label: string, message: string): string {
  return /^[a-z]/.test(message) ? `${label}: ${message}` : message;
}
