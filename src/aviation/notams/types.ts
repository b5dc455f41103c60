// The normalised NOTAM shape. Field names are snake_case because the object goes out unchanged in
// API responses; the integrator derives the TypeBox schema from these types.

export type NotamResult = { ok: true; notam: Notam } | { ok: false; error: NotamError };

/** Why a NOTAM was rejected. `message` always starts with the code: `bad_time "2313011200": ...`. */
export interface NotamError {
  code: NotamErrorCode;
  message: string;
}

export type NotamErrorCode =
  | 'not_text'
  | 'empty'
  | 'too_long'
  /** Text before the Q) line that is not a `A1234/24 NOTAMN` style header. */
  | 'bad_header'
  /** ICAO format (not starting with `!`) without a Q) item. */
  | 'missing_q_line'
  /** Q) item with the wrong number of fields or a field that cannot be read. */
  | 'bad_q_line'
  /** Q code written but malformed (not Q plus four letters). */
  | 'bad_qcode'
  | 'missing_location'
  | 'missing_start_time'
  | 'missing_text'
  | 'bad_time'
  /** `!` message that does not follow the FAA domestic layout. */
  | 'bad_faa_format'
  /** A bug in the parser, reported instead of thrown. */
  | 'parser_error';

/** Recoverable oddities met while parsing; the NOTAM is still returned. */
export type NotamWarning =
  /** Item D) is present but not in a form the schedule evaluator understands: treated as active
   * for the whole B)–C) validity. */
  | 'schedule_unparsed'
  /** The Q-code field is blank or a placeholder such as `undefined`: subject and condition are null. */
  | 'qcode_missing'
  /** The Q) item has seven fields instead of eight; FIR and Q code were read from the left, the
   * rest from the right, leaving traffic null. */
  | 'q_line_realigned';

export type NotamType = 'NEW' | 'REPLACE' | 'CANCEL';

/** `icao`: ICAO Annex 15 format with Q) and items A)–G); `faa`: FAA domestic `!JFK 01/123 ...`. */
export type NotamFormat = 'icao' | 'faa';

/** Q-line traffic qualifier: IFR, VFR, both, or checklist. */
export type TrafficCode = 'I' | 'V' | 'IV' | 'K';
/** Q-line purpose letters: immediate attention, briefing, flight operations, miscellaneous, checklist. */
export type PurposeCode = 'N' | 'B' | 'O' | 'M' | 'K';
/** Q-line scope letters: aerodrome, en route, navigation warning, checklist. */
export type ScopeCode = 'A' | 'E' | 'W' | 'K';

/** A two-letter part of the Q code and its ICAO Doc 8126 meaning (null when the code is not in the table). */
export interface CodeMeaning {
  code: string;
  meaning: string | null;
}

export interface LatLon {
  lat: number;
  lon: number;
}

export type NotamEffectKind =
  | 'aerodrome_closed'
  | 'runway_closed'
  | 'ils_unserviceable'
  | 'localizer_unserviceable'
  | 'glide_path_unserviceable'
  | 'runway_lighting_unserviceable'
  | 'approach_lighting_unserviceable'
  | 'other';

/** One landing-relevant consequence of a NOTAM. */
export interface NotamEffect {
  kind: NotamEffectKind;
  /** Runway ends concerned, two-digit designators ("09L", "27R"); a closed `09L/27R` lists both
   * ends. Empty when the NOTAM does not name the runway or the effect is not runway-specific. */
  runways: string[];
}

/**
 * One NOTAM, ICAO or FAA domestic. Times are ISO 8601 UTC strings (`2024-01-01T12:00:00Z`).
 * Fields a format does not carry are null (or empty lists), never omitted.
 */
export interface Notam {
  format: NotamFormat;
  /** "A1234/24" (ICAO) or "JFK 01/123" / "FDC 4/1234" (FAA); null when the message has no header. */
  id: string | null;
  /** ICAO series letter ("A"); null for FAA and for US numbers without a letter ("06/171"). */
  series: string | null;
  /** Sequence number: 1234 in "A1234/24", 171 in "06/171", 123 in "!JFK 01/123". */
  number: number | null;
  /** Four-digit year from an ICAO "A1234/24" header; null when the number carries none. */
  year: number | null;
  /** NOTAMN / NOTAMR / NOTAMC; null when an ICAO message has no header. FAA domestic NOTAMs are NEW. */
  type: NotamType | null;
  /** The NOTAM this one replaces (NOTAMR) or cancels (NOTAMC), e.g. "A1233/24". */
  replaces: string | null;
  /** Item A): one or more ICAO location indicators; the FAA location identifier. */
  location: string[];
  fir: string | null;
  /** Five-letter Q code, e.g. "QMRLC". */
  q_code: string | null;
  /** Q-code letters 2–3, e.g. MR = runway. */
  subject: CodeMeaning | null;
  /** Q-code letters 4–5, e.g. LC = closed. */
  condition: CodeMeaning | null;
  traffic: TrafficCode | null;
  /** Purpose letters in written order, e.g. ["N", "B", "O"]; empty when the field is blank. */
  purpose: PurposeCode[];
  /** Scope letters in written order, e.g. ["A", "E"]; empty when the field is blank. */
  scope: ScopeCode[];
  /** Q-line lower limit as a flight level (000 = surface). */
  lower_fl: number | null;
  /** Q-line upper limit as a flight level (999 = unlimited). */
  upper_fl: number | null;
  /** Centre of the area of influence in decimal degrees (south and west negative). */
  center: LatLon | null;
  radius_nm: number | null;
  /** Item B); null only for an FAA `TIL` NOTAM that gives no start. */
  start_time: string | null;
  /** Item C); null when permanent or not given (NOTAMC). With `end_estimated` it is still the end. */
  end_time: string | null;
  /** C) carried EST: the end is an estimate and a replacement or cancellation is expected. */
  end_estimated: boolean;
  /** C) was PERM. */
  permanent: boolean;
  /** Item D) as written (trimmed), or an FAA trailing schedule such as "DLY 0400-1000". */
  schedule: string | null;
  /** Item E) (FAA: the condition text after the location), trimmed, line breaks kept as \n. */
  text: string;
  /** Item F) as written, e.g. "SFC", "2100FT AMSL". */
  lower_limit: string | null;
  /** Item G) as written, e.g. "UNL", "FL100". */
  upper_limit: string | null;
  /** FAA keyword (RWY, TWY, APRON, AD, NAV, COM, SVC, OBST, AIRSPACE ...); null for ICAO. */
  keyword: string | null;
  warnings: NotamWarning[];
  effects: NotamEffect[];
  /** The message as received. */
  raw: string;
}
