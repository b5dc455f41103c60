// Turns the groups of one METAR body or one TAF forecast into a SkyConditions record, enforcing
// the few ordering rules that tell a misplaced or malformed group from a valid one.
import { readGroup, weatherError } from './groups.ts';
import type { Group, GroupRead } from './groups.ts';
import type {
  Altimeter,
  CloudLayer,
  DirectionalVisibility,
  RunwayState,
  RunwayVisualRange,
  SkyClearCode,
  SkyConditions,
  Visibility,
  WeatherError,
  WeatherErrorCode,
  WeatherPhenomenon,
  Wind,
  WindShearGroup,
} from './types.ts';

export interface DecodedSection {
  conditions: SkyConditions;
  visibility_minimum: DirectionalVisibility | null;
  runway_visual_ranges: RunwayVisualRange[];
  recent_weather: WeatherPhenomenon[];
  no_significant_weather: boolean;
  temperature_c: number | null;
  dewpoint_c: number | null;
  altimeter: Altimeter | null;
  runway_states: RunwayState[];
  missing_groups: string[];
  unparsed_groups: string[];
  /** Malformed groups skipped in lenient mode (always empty otherwise). */
  invalid_groups: WeatherError[];
  /** Number of groups read, missing ones included. */
  group_count: number;
}

/**
 * `metar`: an unknown group before the temperature group rejects the report (it could hide the
 * visibility or a cloud layer); after it, unknown groups (QFE, colour states, sea state) are
 * kept in unparsed_groups. `taf`: unknown groups (TX/TN, QNH, icing) are kept unless they look
 * like a malformed wind, visibility, cloud, temperature or pressure group.
 * `lenient`: a malformed group that cannot change the visibility or the ceiling (wind,
 * temperature, pressure, runway groups, wind shear) is skipped and listed in invalid_groups
 * instead of rejecting the report; its element then reads as unknown.
 */
export interface SectionOptions {
  mode: 'metar' | 'taf';
  lenient: boolean;
}

/** Error codes lenient mode may skip: none of them feeds the visibility or the ceiling. */
const SKIPPABLE_IN_LENIENT_MODE: ReadonlySet<WeatherErrorCode> = new Set([
  'bad_wind',
  'bad_wind_variation',
  'bad_temperature',
  'bad_pressure',
  'bad_runway_visual_range',
  'bad_runway_state',
  'bad_wind_shear',
]);

export type SectionResult = { ok: true; section: DecodedSection } | { ok: false; error: WeatherError };

/** Groups that describe the sky and cannot come after the temperature group of a METAR. */
const BEFORE_TEMPERATURE: ReadonlySet<Group['kind']> = new Set([
  'wind',
  'wind_variation',
  'visibility',
  'visibility_minimum',
  'runway_visual_range',
  'cloud',
  'sky_clear',
  'vertical_visibility',
]);

const ERROR_CODE_BY_KIND: Partial<Record<Group['kind'], WeatherErrorCode>> = {
  wind: 'bad_wind',
  wind_variation: 'bad_wind_variation',
  visibility: 'bad_visibility',
  visibility_minimum: 'bad_visibility',
  runway_visual_range: 'bad_runway_visual_range',
  weather: 'bad_weather',
  cloud: 'bad_cloud',
  sky_clear: 'bad_cloud',
  vertical_visibility: 'bad_vertical_visibility',
  temperature: 'bad_temperature',
  altimeter: 'bad_pressure',
};

export function decodeSection(tokens: readonly string[], options: SectionOptions): SectionResult {
  const { mode, lenient } = options;
  let wind: Wind | null = null;
  let variation: { from_deg: number; to_deg: number } | null = null;
  let visibility: Visibility | null = null;
  let cavok = false;
  let skyClearCode: SkyClearCode | null = null;
  let verticalVisibilityFt: number | null = null;
  let skyObscured = false;
  const seen = new Set<Group['kind']>();
  const section: DecodedSection = {
    conditions: emptyConditions(),
    visibility_minimum: null,
    runway_visual_ranges: [],
    recent_weather: [],
    no_significant_weather: false,
    temperature_c: null,
    dewpoint_c: null,
    altimeter: null,
    runway_states: [],
    missing_groups: [],
    unparsed_groups: [],
    invalid_groups: [],
    group_count: 0,
  };
  const weather: WeatherPhenomenon[] = [];
  const clouds: CloudLayer[] = [];
  const windShear: WindShearGroup[] = [];

  for (let index = 0; index < tokens.length; ) {
    const read = readGroup(tokens, index);
    const outcome = judge(read, tokens[index] ?? '', seen, mode);
    index += read.status === 'group' ? read.consumed : 1;
    if (outcome.status === 'unparsed') {
      section.unparsed_groups.push(outcome.token);
      continue;
    }
    if (outcome.status === 'error') {
      if (!lenient || !SKIPPABLE_IN_LENIENT_MODE.has(outcome.error.code)) return { ok: false, error: outcome.error };
      section.invalid_groups.push(outcome.error);
      continue;
    }
    const { group, raw } = outcome;
    section.group_count += 1;
    seen.add(group.kind);
    switch (group.kind) {
      case 'wind':
        wind = group.wind;
        break;
      case 'wind_variation':
        variation = group;
        break;
      case 'visibility':
        visibility = group.visibility;
        cavok = group.cavok;
        break;
      case 'visibility_minimum':
        section.visibility_minimum = group.minimum;
        break;
      case 'runway_visual_range':
        section.runway_visual_ranges.push(group.rvr);
        break;
      case 'weather':
        (group.recent ? section.recent_weather : weather).push(group.weather);
        break;
      case 'no_significant_weather':
        section.no_significant_weather = true;
        break;
      case 'cloud':
        clouds.push(...group.clouds);
        break;
      case 'sky_clear':
        skyClearCode = group.code;
        break;
      case 'vertical_visibility':
        verticalVisibilityFt = group.ft;
        skyObscured = true;
        break;
      case 'temperature':
        section.temperature_c = group.temperature_c;
        section.dewpoint_c = group.dewpoint_c;
        break;
      case 'altimeter':
        // Some stations send both Q and A; the first is the one the station is set to.
        section.altimeter ??= group.altimeter;
        break;
      case 'wind_shear':
        windShear.push(group.shear);
        break;
      case 'runway_state':
        section.runway_states.push(group.state);
        break;
      case 'missing':
        section.missing_groups.push(raw);
        break;
    }
  }

  if (wind !== null && variation !== null) {
    wind = { ...wind, variable_from_deg: variation.from_deg, variable_to_deg: variation.to_deg };
  }
  section.conditions = {
    wind,
    visibility,
    weather,
    clouds,
    sky_clear_code: cavok ? 'CAVOK' : skyClearCode,
    vertical_visibility_ft: verticalVisibilityFt,
    sky_obscured: skyObscured,
    ceiling_ft: ceilingFt(clouds, verticalVisibilityFt),
    ceiling_uncertain: ceilingUncertain(clouds, skyObscured, verticalVisibilityFt),
    wind_shear: windShear,
  };
  return { ok: true, section };
}

function emptyConditions(): SkyConditions {
  return {
    wind: null,
    visibility: null,
    weather: [],
    clouds: [],
    sky_clear_code: null,
    vertical_visibility_ft: null,
    sky_obscured: false,
    ceiling_ft: null,
    ceiling_uncertain: false,
    wind_shear: [],
  };
}

type Outcome =
  | { status: 'group'; group: Group; raw: string }
  | { status: 'unparsed'; token: string }
  | { status: 'error'; error: WeatherError };

/** Whether a group read at this point of the section is accepted, kept as unparsed, or an error. */
function judge(read: GroupRead, token: string, seen: ReadonlySet<Group['kind']>, mode: SectionOptions['mode']): Outcome {
  if (read.status === 'invalid') return { status: 'error', error: read.error };
  if (read.status === 'unknown') {
    const error = unknownGroupError(token, seen, mode);
    return error === null ? { status: 'unparsed', token } : { status: 'error', error };
  }
  const { group, raw } = read;
  if (mode === 'metar' && seen.has('temperature') && BEFORE_TEMPERATURE.has(group.kind)) {
    return { status: 'error', error: misplacedGroupError(group, raw) };
  }
  if (isSingleton(group) && seen.has(group.kind)) {
    return { status: 'error', error: weatherError('duplicate_group', raw, `a second ${group.kind.replace('_', ' ')} group`) };
  }
  return { status: 'group', group, raw };
}

/** A sky group after the temperature; a bare four-digit number there is a pressure missing its Q or A. */
function misplacedGroupError(group: Group, raw: string): WeatherError {
  if (/^\d{4}$/.test(raw)) return weatherError('bad_pressure', raw, MALFORMED_HINTS.bad_pressure);
  return weatherError(ERROR_CODE_BY_KIND[group.kind] ?? 'unrecognised_group', raw, 'out of place after the temperature group');
}

function isSingleton(group: Group): boolean {
  return group.kind === 'wind' || group.kind === 'visibility' || group.kind === 'temperature';
}

/** Ceiling: the lowest broken or overcast layer, or the vertical visibility into an obscured sky. */
export function ceilingFt(clouds: readonly CloudLayer[], verticalVisibilityFt: number | null): number | null {
  const bases = clouds
    .filter((cloud) => (cloud.cover === 'BKN' || cloud.cover === 'OVC') && cloud.base_ft !== null)
    .map((cloud) => cloud.base_ft ?? 0);
  if (verticalVisibilityFt !== null) bases.push(verticalVisibilityFt);
  return bases.length === 0 ? null : Math.min(...bases);
}

/** Whether the groups say anything about the sky: a cloud layer, a clear-sky code or a vertical visibility. */
export function skyReported(sky: Pick<SkyConditions, 'clouds' | 'sky_clear_code' | 'sky_obscured'>): boolean {
  return sky.clouds.length > 0 || sky.sky_clear_code !== null || sky.sky_obscured;
}

type MalformedCode = 'bad_wind' | 'bad_visibility' | 'bad_temperature' | 'bad_pressure';

/** A broken/overcast layer or an obscured sky whose height was not measured. */
export function ceilingUncertain(clouds: readonly CloudLayer[], skyObscured: boolean, verticalVisibilityFt: number | null): boolean {
  const unmeasuredLayer = clouds.some((cloud) => (cloud.cover === 'BKN' || cloud.cover === 'OVC') && cloud.base_ft === null);
  return unmeasuredLayer || (skyObscured && verticalVisibilityFt === null);
}

const MALFORMED_HINTS: Record<MalformedCode, string> = {
  bad_wind: 'expected dddffKT, dddffGggKT, VRBffKT, or the same in MPS/KMH',
  bad_visibility: 'expected four-digit metres (0800, 9999) or statute miles (10SM, 1 1/2SM, 3/4SM)',
  bad_temperature: 'expected two-digit temperature/dew point in °C, M for minus (12/07, M02/M05)',
  bad_pressure: 'expected Q and four digits in hPa (Q1013) or A and four digits in hundredths of inHg (A2992)',
};

/**
 * The error for a token no decoder recognised, or null when it may be kept as unparsed: in a
 * METAR after the temperature group (supplementary groups, QFE), in a TAF anywhere, unless it
 * looks like a malformed wind, visibility, temperature or pressure group.
 */
function unknownGroupError(token: string, seen: ReadonlySet<Group['kind']>, mode: SectionOptions['mode']): WeatherError | null {
  const code = mode === 'taf' ? malformedTafGroupCode(token) : malformedMetarGroupCode(token, seen);
  if (code !== null) return weatherError(code, token, MALFORMED_HINTS[code]);
  if (mode === 'taf' || seen.has('temperature') || seen.has('altimeter')) return null;
  return weatherError('unrecognised_group', token, 'not a METAR group');
}

/** Which METAR group an unreadable token was most likely meant to be, from its shape and position. */
function malformedMetarGroupCode(token: string, seen: ReadonlySet<Group['kind']>): MalformedCode | null {
  const pastTemperature = seen.has('temperature') || seen.has('altimeter');
  if (/^[QA][0-9/]*$/.test(token) && !seen.has('altimeter')) return 'bad_pressure';
  if (pastTemperature) {
    // 1006 where the pressure belongs; anything else here is supplementary information.
    return /^\d+$/.test(token) && !seen.has('altimeter') ? 'bad_pressure' : null;
  }
  if (/\d.*(KT|MPS|KMH)/.test(token)) return 'bad_wind';
  if (/^[PM]?[0-9/ ]+SM$/.test(token)) return 'bad_visibility';
  const pastVisibility = seen.has('visibility') || seen.has('cloud') || seen.has('weather') || seen.has('sky_clear');
  if (/^M?\d+\/M?\d*$/.test(token)) return pastVisibility ? 'bad_temperature' : 'bad_visibility';
  if (/^\d+$/.test(token) && !seen.has('visibility')) return 'bad_visibility';
  return null;
}

/** TAFs hold other digit groups (TX/TN, icing 6xxxxx, turbulence 5xxxxx): only wind and SM shapes are telling. */
function malformedTafGroupCode(token: string): MalformedCode | null {
  if (/\d.*(KT|MPS|KMH)/.test(token)) return 'bad_wind';
  if (/^[PM]?[0-9/ ]+SM$/.test(token)) return 'bad_visibility';
  return null;
}
