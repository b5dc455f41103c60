// Normalised METAR/TAF shapes. Field names are snake_case because they go out unchanged in API
// responses; every quantity carries its unit in its name.

export type MetarResult = { ok: true; metar: Metar } | { ok: false; error: WeatherError };
export type TafResult = { ok: true; taf: Taf } | { ok: false; error: WeatherError };

/**
 * Why a report was rejected. `message` always starts with the code and, when one group is to
 * blame, quotes it: `bad_pressure "1006": ...`.
 */
export interface WeatherError {
  code: WeatherErrorCode;
  message: string;
}

export type WeatherErrorCode =
  | 'empty'
  | 'not_text'
  | 'too_long'
  | 'missing_station'
  | 'bad_station'
  | 'missing_time'
  | 'bad_time'
  | 'nil_report'
  | 'cancelled'
  | 'no_observation'
  | 'bad_wind'
  | 'bad_wind_variation'
  | 'bad_visibility'
  | 'bad_runway_visual_range'
  | 'bad_runway_state'
  | 'bad_weather'
  | 'bad_cloud'
  | 'bad_vertical_visibility'
  | 'bad_temperature'
  | 'bad_pressure'
  | 'bad_wind_shear'
  | 'bad_validity'
  | 'duplicate_group'
  | 'unrecognised_group'
  | 'parser_error'
  | 'outside_validity'
  | 'bad_time_argument';

export type SpeedUnit = 'KT' | 'MPS' | 'KMH';

export interface Wind {
  /** Degrees true the wind blows from; null when variable (VRB). 0 only for calm. */
  direction_deg: number | null;
  /** True for VRB (no mean direction). A dddVddd range alone leaves this false. */
  variable: boolean;
  speed_kt: number;
  gust_kt: number | null;
  /** dddVddd range, clockwise from → to; null when not reported. */
  variable_from_deg: number | null;
  variable_to_deg: number | null;
  calm: boolean;
  /** Speeds as written, before conversion to knots. */
  reported: { unit: SpeedUnit; speed: number; gust: number | null; group: string };
}

export interface Visibility {
  statute_mi: number;
  metres: number;
  nm: number;
  /** The true value is at least this (P6SM, 9999, 10SM or more, CAVOK). */
  lower_bound: boolean;
  /** The true value is below this (M1/4SM). */
  upper_bound: boolean;
  unit: 'SM' | 'm';
  /** The group as written: "1 1/2SM", "9999NDV", "CAVOK". */
  reported: string;
  /** NDV: single sensor, no directional variation available. */
  no_directional_variation: boolean;
}

export interface DirectionalVisibility {
  metres: number;
  /** Compass point; null when an automatic station could not tell (0600//). */
  direction: string | null;
}

export type WeatherIntensity = 'light' | 'moderate' | 'heavy';

export interface WeatherPhenomenon {
  intensity: WeatherIntensity;
  in_vicinity: boolean;
  /** MI, PR, BC, DR, BL, SH, TS, FZ or null. */
  descriptor: string | null;
  /** Two-letter codes: RA, SN, FG, BR ... */
  phenomena: string[];
  raw: string;
}

export type CloudCover = 'FEW' | 'SCT' | 'BKN' | 'OVC';

export interface CloudLayer {
  /** null when the amount is not reported (/// from an automatic station). */
  cover: CloudCover | null;
  base_ft: number | null;
  type: 'CB' | 'TCU' | null;
  raw: string;
}

export type SkyClearCode = 'CAVOK' | 'SKC' | 'CLR' | 'NSC' | 'NCD';

export interface Altimeter {
  hpa: number;
  inhg: number;
  reported_unit: 'hPa' | 'inHg';
}

export interface WindShearGroup {
  /** Runway designator ("25L"); null when the group covers all runways or gives a height. */
  runway: string | null;
  all_runways: boolean;
  phase: 'takeoff' | 'landing' | null;
  /** TAF form WShhh/dddffKT: the shear layer top and the wind at that height. */
  height_ft: number | null;
  wind_at_height: { direction_deg: number; speed_kt: number } | null;
  raw: string;
}

export interface RunwayVisualRange {
  runway: string;
  /** In the reported unit; null when not reported (R33////). */
  min: number | null;
  max: number | null;
  unit: 'm' | 'ft';
  below_min: boolean;
  above_max: boolean;
  trend: 'up' | 'down' | 'no_change' | null;
  raw: string;
}

export type BrakingAction = 'poor' | 'medium_poor' | 'medium' | 'medium_good' | 'good' | 'unreliable';

export interface RunwayState {
  /** Designator, or "ALL" (88) / "REPEAT" (99, same as previous report). */
  runway: string;
  /** Contamination cleared (CLRD): deposit fields are then null. */
  cleared: boolean;
  /** Aerodrome closed by snow (SNOCLO). */
  closed_by_snow: boolean;
  deposit: string | null;
  coverage: string | null;
  /** Deposit depth; null when not reported. Code 99 (runway not operational) gives `not_operational`. */
  depth_mm: number | null;
  not_operational: boolean;
  friction_coefficient: number | null;
  braking_action: BrakingAction | null;
  raw: string;
}

export interface PeakWind {
  direction_deg: number;
  speed_kt: number;
  /** "hh:mm" UTC as written (hour omitted in the report means the observation hour). */
  time: string;
  raw: string;
}

export interface WindShift {
  time: string;
  frontal_passage: boolean;
  raw: string;
}

export interface RemarksOfInterest {
  /** Everything after RMK, verbatim; null when there is no RMK section. */
  raw: string | null;
  peak_wind: PeakWind | null;
  wind_shift: WindShift | null;
  /** "LLWS RWY 27" style remark, verbatim; null when absent. */
  low_level_wind_shear: string | null;
  /** metar-taf-parser's plain-language decode of the remarks it knows. */
  decoded: string[];
}

export interface MetarTrend {
  type: 'NOSIG' | 'BECMG' | 'TEMPO' | 'INTER';
  raw: string;
  /**
   * A BECMG, TEMPO or INTER trend as a forecast group (its period within the two hours after the
   * observation, its groups decoded as a TAF's); null for NOSIG, and for a trend whose time or
   * groups cannot be read, of which nothing is then assumed.
   */
  forecast: TafForecast | null;
}

/** The sky and visibility fields that METAR observations and TAF forecasts share. */
export interface SkyConditions {
  wind: Wind | null;
  visibility: Visibility | null;
  weather: WeatherPhenomenon[];
  clouds: CloudLayer[];
  sky_clear_code: SkyClearCode | null;
  /** VV height; null when VV is absent or VV///. */
  vertical_visibility_ft: number | null;
  /** A VV group was reported (sky obscured), even VV///. */
  sky_obscured: boolean;
  /** Lowest BKN/OVC base or VV height; null when there is none with a known height. */
  ceiling_ft: number | null;
  /** A BKN/OVC layer or VV of unknown height (BKN///, VV///) was reported: the true ceiling may be lower. */
  ceiling_uncertain: boolean;
  wind_shear: WindShearGroup[];
}

export interface Metar extends SkyConditions {
  raw: string;
  type: 'METAR' | 'SPECI';
  station: string;
  observed_at: string;
  auto: boolean;
  corrected: boolean;
  visibility_minimum: DirectionalVisibility | null;
  runway_visual_ranges: RunwayVisualRange[];
  recent_weather: WeatherPhenomenon[];
  temperature_c: number | null;
  dewpoint_c: number | null;
  altimeter: Altimeter | null;
  runway_states: RunwayState[];
  /**
   * false when the report has no sky group at all (no cloud layer, clear-sky code or vertical
   * visibility): the ceiling is then unknown, and a null ceiling_ft does not mean there is none.
   */
  sky_reported: boolean;
  remarks: RemarksOfInterest;
  /** Each trend keyword with the groups up to the next keyword or RMK (NOSIG takes none). */
  trends: MetarTrend[];
  /** All-slash groups (////, /////KT, Q////): elements the station could not measure. */
  missing_groups: string[];
  /**
   * Groups LAMIS does not decode: after the temperature group (QFE, colour states, sea state) and
   * after NOSIG, which forecasts no change and so takes no groups.
   */
  unparsed_groups: string[];
  /** Malformed groups skipped because parseMetar was called with `lenient: true`. */
  invalid_groups: WeatherError[];
}

export type TafChange = 'BASE' | 'FM' | 'BECMG' | 'TEMPO' | 'INTER' | 'PROB';

export interface TafForecast extends SkyConditions {
  change: TafChange;
  /** PROB30/PROB40; null otherwise. */
  probability: number | null;
  /** ISO UTC. FM and BASE run until the next FM (or the end of validity); BECMG gives its transition period. */
  from: string;
  to: string;
  no_significant_weather: boolean;
  raw: string;
}

export interface Taf {
  raw: string;
  station: string;
  issued_at: string;
  valid_from: string;
  valid_to: string;
  amended: boolean;
  corrected: boolean;
  /** forecasts[0] is the BASE forecast, then the change groups in report order. */
  forecasts: TafForecast[];
  /** LLWS mentioned in the TAF remarks, verbatim. */
  low_level_wind_shear: string | null;
  unparsed_groups: string[];
}
