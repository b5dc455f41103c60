// The two views of a decoded AIS message.
//
// `raw`: the integers exactly as transmitted, named like gpsd's unscaled JSON (lat/lon in 1/10 000
// minute, speed and course x10, turn as the ROT code, ...). The encoder takes this view back.
// `scaled`: the same message in working units (degrees, knots, metres) with the protocol's
// "not available" values turned into null.

// ---------------------------------------------------------------- raw views

export interface PositionReportRaw {
  type: 1 | 2 | 3;
  repeat: number;
  mmsi: number;
  status: number;
  /** ROT code, -128..127 (-128: not available). */
  turn: number;
  /** 1/10 knot, 1023: not available. */
  speed: number;
  accuracy: boolean;
  /** 1/10 000 minute, 181 degrees: not available. */
  lon: number;
  /** 1/10 000 minute, 91 degrees: not available. */
  lat: number;
  /** 1/10 degree, 3600: not available. */
  course: number;
  /** Degrees, 511: not available. */
  heading: number;
  /** UTC second of the fix; 60..63 are status codes. */
  second: number;
  maneuver: number;
  raim: boolean;
  radio: number;
}

export interface BaseStationReportRaw {
  type: 4 | 11;
  repeat: number;
  mmsi: number;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  accuracy: boolean;
  lon: number;
  lat: number;
  epfd: number;
  raim: boolean;
  radio: number;
}

export interface StaticVoyageRaw {
  type: 5;
  repeat: number;
  mmsi: number;
  ais_version: number;
  imo: number;
  callsign: string;
  shipname: string;
  shiptype: number;
  to_bow: number;
  to_stern: number;
  to_port: number;
  to_starboard: number;
  epfd: number;
  /** ETA parts; 0 / 0 / 24 / 60: not available. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 1/10 metre, 0: not available. */
  draught: number;
  destination: string;
  dte: number;
}

export interface AddressedBinaryRaw {
  type: 6;
  repeat: number;
  mmsi: number;
  seqno: number;
  dest_mmsi: number;
  retransmit: boolean;
  dac: number;
  fid: number;
  /** Application data as hex, the last byte padded with zero bits. */
  data: string;
  data_bits: number;
}

export interface BroadcastBinaryRaw {
  type: 8;
  repeat: number;
  mmsi: number;
  dac: number;
  fid: number;
  data: string;
  data_bits: number;
}

export interface SarAircraftRaw {
  type: 9;
  repeat: number;
  mmsi: number;
  /** Metres, 4095: not available. */
  alt: number;
  /** Whole knots, 1023: not available. */
  speed: number;
  accuracy: boolean;
  lon: number;
  lat: number;
  course: number;
  second: number;
  regional: number;
  dte: number;
  assigned: boolean;
  raim: boolean;
  radio: number;
}

export interface ClassBPositionRaw {
  type: 18;
  repeat: number;
  mmsi: number;
  reserved: number;
  speed: number;
  accuracy: boolean;
  lon: number;
  lat: number;
  course: number;
  heading: number;
  second: number;
  regional: number;
  cs: boolean;
  display: boolean;
  dsc: boolean;
  band: boolean;
  msg22: boolean;
  assigned: boolean;
  raim: boolean;
  radio: number;
}

export interface ClassBExtendedRaw {
  type: 19;
  repeat: number;
  mmsi: number;
  reserved: number;
  speed: number;
  accuracy: boolean;
  lon: number;
  lat: number;
  course: number;
  heading: number;
  second: number;
  regional: number;
  shipname: string;
  shiptype: number;
  to_bow: number;
  to_stern: number;
  to_port: number;
  to_starboard: number;
  epfd: number;
  raim: boolean;
  dte: number;
  assigned: boolean;
}

export interface AidToNavigationRaw {
  type: 21;
  repeat: number;
  mmsi: number;
  aid_type: number;
  /** Name with the name extension appended. */
  name: string;
  accuracy: boolean;
  lon: number;
  lat: number;
  to_bow: number;
  to_stern: number;
  to_port: number;
  to_starboard: number;
  epfd: number;
  second: number;
  off_position: boolean;
  regional: number;
  raim: boolean;
  virtual_aid: boolean;
  assigned: boolean;
}

export interface StaticDataPartARaw {
  type: 24;
  repeat: number;
  mmsi: number;
  partno: 0;
  shipname: string;
}

export interface StaticDataPartBRaw {
  type: 24;
  repeat: number;
  mmsi: number;
  partno: 1;
  shiptype: number;
  /** Manufacturer id, three characters (ITU-R M.1371-4 onwards). */
  vendorid: string;
  model: number;
  serial: number;
  callsign: string;
  /** Dimensions; zero for auxiliary craft (MMSI 98xxxxxxx), which send `mothership_mmsi` instead. */
  to_bow: number;
  to_stern: number;
  to_port: number;
  to_starboard: number;
  mothership_mmsi: number | null;
}

export interface LongRangeRaw {
  type: 27;
  repeat: number;
  mmsi: number;
  accuracy: boolean;
  raim: boolean;
  status: number;
  /** 1/10 minute, 181 degrees: not available. */
  lon: number;
  /** 1/10 minute, 91 degrees: not available. */
  lat: number;
  /** Knots, 63: not available. */
  speed: number;
  /** Degrees, 511: not available. */
  course: number;
  /** Position latency flag: false when the position is current (under 5 s old). */
  gnss: boolean;
}

export type StaticDataRaw = StaticDataPartARaw | StaticDataPartBRaw;

export type AisRaw =
  | PositionReportRaw
  | BaseStationReportRaw
  | StaticVoyageRaw
  | AddressedBinaryRaw
  | BroadcastBinaryRaw
  | SarAircraftRaw
  | ClassBPositionRaw
  | ClassBExtendedRaw
  | AidToNavigationRaw
  | StaticDataRaw
  | LongRangeRaw;

/** Message types this codec decodes and encodes. */
export const SUPPORTED_AIS_TYPES: readonly number[] = [1, 2, 3, 4, 5, 6, 8, 9, 11, 18, 19, 21, 24, 27];

// ---------------------------------------------------------------- scaled views

export interface Dimensions {
  /** Metres from the position reference point. */
  to_bow: number;
  to_stern: number;
  to_port: number;
  to_starboard: number;
  /** to_bow + to_stern; null when both are 0 (not available). */
  length: number | null;
  /** to_port + to_starboard; null when both are 0. */
  beam: number | null;
}

export type TurnDirection = 'port' | 'starboard';

export interface PositionReport {
  type: 1 | 2 | 3;
  repeat: number;
  mmsi: number;
  nav_status: number | null;
  /**
   * Degrees per minute from a turn indicator, (ROT/4.733)^2 with the sign of ROT (at most ±708);
   * null when ROT is ±127 (turning faster than 5° per 30 s, no indicator) or -128 (not available).
   */
  rot: number | null;
  /** The side the vessel turns to, whenever ROT tells it (with or without a rate); null when not turning or unknown. */
  rot_direction: TurnDirection | null;
  /** Knots; 102.2 means 102.2 or more. */
  sog: number | null;
  position_accuracy: boolean;
  lat: number | null;
  lon: number | null;
  cog: number | null;
  heading: number | null;
  timestamp_second: number | null;
  maneuver: number | null;
  raim: boolean;
  radio: number;
}

export interface BaseStationReport {
  type: 4 | 11;
  repeat: number;
  mmsi: number;
  /** ISO 8601 UTC time, null when any part is not available. */
  utc: string | null;
  position_accuracy: boolean;
  lat: number | null;
  lon: number | null;
  epfd: number | null;
  raim: boolean;
  radio: number;
}

export interface Eta {
  month: number | null;
  day: number | null;
  hour: number | null;
  minute: number | null;
}

export interface StaticVoyage extends Dimensions {
  type: 5;
  repeat: number;
  mmsi: number;
  ais_version: number;
  imo: number | null;
  callsign: string | null;
  shipname: string | null;
  ship_type: number | null;
  epfd: number | null;
  /** Null when no part of the ETA is available. */
  eta: Eta | null;
  /** Metres. */
  draught: number | null;
  destination: string | null;
  data_terminal_ready: boolean;
}

export interface AddressedBinary {
  type: 6;
  repeat: number;
  mmsi: number;
  seqno: number;
  dest_mmsi: number;
  retransmit: boolean;
  dac: number;
  fid: number;
  data: string;
  data_bits: number;
}

export interface BroadcastBinary {
  type: 8;
  repeat: number;
  mmsi: number;
  dac: number;
  fid: number;
  data: string;
  data_bits: number;
}

export interface SarAircraft {
  type: 9;
  repeat: number;
  mmsi: number;
  /** Metres; 4094 means 4094 or more. */
  altitude: number | null;
  /** Knots; 1022 means 1022 or more. */
  sog: number | null;
  position_accuracy: boolean;
  lat: number | null;
  lon: number | null;
  cog: number | null;
  timestamp_second: number | null;
  regional: number;
  data_terminal_ready: boolean;
  assigned: boolean;
  raim: boolean;
  radio: number;
}

export interface ClassBPosition {
  type: 18;
  repeat: number;
  mmsi: number;
  sog: number | null;
  position_accuracy: boolean;
  lat: number | null;
  lon: number | null;
  cog: number | null;
  heading: number | null;
  timestamp_second: number | null;
  /** Carrier-sense (CS) unit rather than SOTDMA. */
  cs_unit: boolean;
  display: boolean;
  dsc: boolean;
  band: boolean;
  msg22: boolean;
  assigned: boolean;
  raim: boolean;
  radio: number;
}

export interface ClassBExtended extends Dimensions {
  type: 19;
  repeat: number;
  mmsi: number;
  sog: number | null;
  position_accuracy: boolean;
  lat: number | null;
  lon: number | null;
  cog: number | null;
  heading: number | null;
  timestamp_second: number | null;
  shipname: string | null;
  ship_type: number | null;
  epfd: number | null;
  raim: boolean;
  data_terminal_ready: boolean;
  assigned: boolean;
}

export interface AidToNavigation extends Dimensions {
  type: 21;
  repeat: number;
  mmsi: number;
  aid_type: number | null;
  name: string | null;
  position_accuracy: boolean;
  lat: number | null;
  lon: number | null;
  epfd: number | null;
  timestamp_second: number | null;
  off_position: boolean;
  virtual_aid: boolean;
  regional: number;
  raim: boolean;
  assigned: boolean;
}

export interface StaticDataPartA {
  type: 24;
  repeat: number;
  mmsi: number;
  part: 0;
  shipname: string | null;
}

export interface StaticDataPartB extends Dimensions {
  type: 24;
  repeat: number;
  mmsi: number;
  part: 1;
  ship_type: number | null;
  vendor_id: string | null;
  model: number;
  serial: number;
  callsign: string | null;
  mothership_mmsi: number | null;
}

export interface LongRange {
  type: 27;
  repeat: number;
  mmsi: number;
  position_accuracy: boolean;
  raim: boolean;
  nav_status: number | null;
  lat: number | null;
  lon: number | null;
  sog: number | null;
  cog: number | null;
  gnss: boolean;
}

interface Views<R extends AisRaw, S> {
  type: R['type'];
  mmsi: number;
  raw: R;
  scaled: S;
}

/** One decoded message: the transmitted integers and the working-unit view of the same decode. */
export type AisMessage =
  | Views<PositionReportRaw, PositionReport>
  | Views<BaseStationReportRaw, BaseStationReport>
  | Views<StaticVoyageRaw, StaticVoyage>
  | Views<AddressedBinaryRaw, AddressedBinary>
  | Views<BroadcastBinaryRaw, BroadcastBinary>
  | Views<SarAircraftRaw, SarAircraft>
  | Views<ClassBPositionRaw, ClassBPosition>
  | Views<ClassBExtendedRaw, ClassBExtended>
  | Views<AidToNavigationRaw, AidToNavigation>
  | Views<StaticDataRaw, StaticDataPartA | StaticDataPartB>
  | Views<LongRangeRaw, LongRange>;
