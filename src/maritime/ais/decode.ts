// AIS message decoder: bit layouts from ITU-R M.1371-5 as documented by gpsd ("AIVDM/AIVDO protocol
// decoding"), with gpsd's length tolerances for the short messages real transmitters send.
import { SixBitReader } from './sixbit.ts';
import type { AisRejectReason } from './reasons.ts';
import type {
  AddressedBinaryRaw,
  AidToNavigationRaw,
  AisMessage,
  BaseStationReportRaw,
  BroadcastBinaryRaw,
  ClassBExtendedRaw,
  ClassBPositionRaw,
  Dimensions,
  LongRangeRaw,
  PositionReport,
  PositionReportRaw,
  SarAircraftRaw,
  StaticDataPartARaw,
  StaticDataPartBRaw,
  StaticVoyageRaw,
} from './types.ts';

export type AisDecodeResult =
  | { ok: true; message: AisMessage }
  | { ok: false; reason: AisRejectReason; type: number | null };

/** Fewest bits accepted per type; below these gpsd rejects the message too. */
const MIN_BITS: Record<number, number> = {
  1: 163, // gpsd: some transmitters cut the radio status short
  2: 163,
  3: 163,
  4: 168,
  5: 420, // gpsd: "a lot of transmitters in the wild ship with a length of 420 or 422"
  6: 88,
  8: 56,
  9: 168,
  11: 168,
  18: 168,
  19: 312,
  21: 272, // the name extension is optional
  27: 96,
};
const MIN_BITS_24_PART_A = 160;
const MIN_BITS_24_PART_B = 168;

// Not-available values and conversion factors.
const TENTH_MINUTES_PER_DEGREE = 600;
const TEN_THOUSANDTH_MINUTES_PER_DEGREE = 600_000;
const SPEED_NOT_AVAILABLE = 1023;
const COURSE_NOT_AVAILABLE = 3600;
const HEADING_NOT_AVAILABLE = 511;
const TURN_NOT_AVAILABLE = -128;
const TURN_FAST_NO_INDICATOR = 127;
const NAV_STATUS_NOT_DEFINED = 15;
const ALTITUDE_NOT_AVAILABLE = 4095;
const LONG_RANGE_SPEED_NOT_AVAILABLE = 63;
const LONG_RANGE_COURSE_NOT_AVAILABLE = 511;
const ROT_SCALE = 4.733;

// A single reader is reused: decoding is synchronous and the reader never escapes this module.
const reader = new SixBitReader();

/** True for auxiliary craft MMSIs (98MIDxxxx), whose type 24 part B carries a mothership MMSI. */
export function isAuxiliaryMmsi(mmsi: number): boolean {
  return Math.floor(mmsi / 10_000_000) === 98;
}

function latitude(raw: number, perDegree: number): number | null {
  if (raw === 91 * perDegree) return null;
  const degrees = raw / perDegree;
  return degrees < -90 || degrees > 90 ? null : degrees;
}

function longitude(raw: number, perDegree: number): number | null {
  if (raw === 181 * perDegree) return null;
  const degrees = raw / perDegree;
  return degrees < -180 || degrees > 180 ? null : degrees;
}

function speedTenths(raw: number): number | null {
  return raw === SPEED_NOT_AVAILABLE ? null : raw / 10;
}

function courseTenths(raw: number): number | null {
  return raw >= COURSE_NOT_AVAILABLE ? null : raw / 10;
}

function heading(raw: number): number | null {
  return raw === HEADING_NOT_AVAILABLE || raw > 359 ? null : raw;
}

function second(raw: number): number | null {
  return raw >= 60 ? null : raw;
}

/**
 * ITU-R M.1371 Table 45: ±1..126 is a turn indicator's rate, (ROT/4.733)² with ROT's sign; ±127 says
 * "turning faster than 5° per 30 s" with no indicator, so only the direction is known; -128 is no
 * turn information at all.
 */
function rateOfTurn(raw: number): Pick<PositionReport, 'rot' | 'rot_direction'> {
  if (raw === TURN_NOT_AVAILABLE) return { rot: null, rot_direction: null };
  const rot_direction = raw > 0 ? 'starboard' : raw < 0 ? 'port' : null;
  if (Math.abs(raw) === TURN_FAST_NO_INDICATOR) return { rot: null, rot_direction };
  const root = raw / ROT_SCALE;
  return { rot: raw < 0 ? -(root * root) : root * root, rot_direction };
}

function nonZero(raw: number): number | null {
  return raw === 0 ? null : raw;
}

function nonEmpty(text: string): string | null {
  return text === '' ? null : text;
}

function navStatus(raw: number): number | null {
  return raw === NAV_STATUS_NOT_DEFINED ? null : raw;
}

function dimensions(toBow: number, toStern: number, toPort: number, toStarboard: number): Dimensions {
  const length = toBow + toStern;
  const beam = toPort + toStarboard;
  return {
    to_bow: toBow,
    to_stern: toStern,
    to_port: toPort,
    to_starboard: toStarboard,
    length: length === 0 ? null : length,
    beam: beam === 0 ? null : beam,
  };
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function utcTimestamp(raw: BaseStationReportRaw): string | null {
  const { year, month, day, hour, minute, second: sec } = raw;
  if (year === 0 || month === 0 || month > 12 || day === 0 || hour > 23 || minute > 59 || sec > 59) return null;
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(sec)}Z`;
}

function decodePositionReport(type: 1 | 2 | 3, repeat: number, mmsi: number): AisMessage {
  const r = reader;
  // The radio field shrinks with the message when a transmitter sends fewer than 168 bits.
  const radioBits = Math.min(19, Math.max(0, r.bitLength - 149));
  const raw: PositionReportRaw = {
    type,
    repeat,
    mmsi,
    status: r.uint(38, 4),
    turn: r.int(42, 8),
    speed: r.uint(50, 10),
    accuracy: r.bool(60),
    lon: r.int(61, 28),
    lat: r.int(89, 27),
    course: r.uint(116, 12),
    heading: r.uint(128, 9),
    second: r.uint(137, 6),
    maneuver: r.uint(143, 2),
    raim: r.bool(148),
    radio: r.uint(149, radioBits),
  };
  return {
    type,
    mmsi,
    raw,
    scaled: {
      type,
      repeat,
      mmsi,
      nav_status: navStatus(raw.status),
      ...rateOfTurn(raw.turn),
      sog: speedTenths(raw.speed),
      position_accuracy: raw.accuracy,
      lat: latitude(raw.lat, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      lon: longitude(raw.lon, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      cog: courseTenths(raw.course),
      heading: heading(raw.heading),
      timestamp_second: second(raw.second),
      maneuver: nonZero(raw.maneuver),
      raim: raw.raim,
      radio: raw.radio,
    },
  };
}

function decodeBaseStation(type: 4 | 11, repeat: number, mmsi: number): AisMessage {
  const r = reader;
  const raw: BaseStationReportRaw = {
    type,
    repeat,
    mmsi,
    year: r.uint(38, 14),
    month: r.uint(52, 4),
    day: r.uint(56, 5),
    hour: r.uint(61, 5),
    minute: r.uint(66, 6),
    second: r.uint(72, 6),
    accuracy: r.bool(78),
    lon: r.int(79, 28),
    lat: r.int(107, 27),
    epfd: r.uint(134, 4),
    raim: r.bool(148),
    radio: r.uint(149, 19),
  };
  return {
    type,
    mmsi,
    raw,
    scaled: {
      type,
      repeat,
      mmsi,
      utc: utcTimestamp(raw),
      position_accuracy: raw.accuracy,
      lat: latitude(raw.lat, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      lon: longitude(raw.lon, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      epfd: nonZero(raw.epfd),
      raim: raw.raim,
      radio: raw.radio,
    },
  };
}

function decodeStaticVoyage(repeat: number, mmsi: number): AisMessage {
  const r = reader;
  const raw: StaticVoyageRaw = {
    type: 5,
    repeat,
    mmsi,
    ais_version: r.uint(38, 2),
    imo: r.uint(40, 30),
    callsign: r.text(70, 7),
    shipname: r.text(112, 20),
    shiptype: r.uint(232, 8),
    to_bow: r.uint(240, 9),
    to_stern: r.uint(249, 9),
    to_port: r.uint(258, 6),
    to_starboard: r.uint(264, 6),
    epfd: r.uint(270, 4),
    month: r.uint(274, 4),
    day: r.uint(278, 5),
    hour: r.uint(283, 5),
    minute: r.uint(288, 6),
    draught: r.uint(294, 8),
    destination: r.text(302, 20),
    dte: r.uint(422, 1),
  };
  const month = raw.month === 0 ? null : raw.month;
  const day = raw.day === 0 ? null : raw.day;
  const hour = raw.hour >= 24 ? null : raw.hour;
  const minute = raw.minute >= 60 ? null : raw.minute;
  const etaKnown = month !== null || day !== null || hour !== null || minute !== null;
  return {
    type: 5,
    mmsi,
    raw,
    scaled: {
      type: 5,
      repeat,
      mmsi,
      ais_version: raw.ais_version,
      imo: nonZero(raw.imo),
      callsign: nonEmpty(raw.callsign),
      shipname: nonEmpty(raw.shipname),
      ship_type: nonZero(raw.shiptype),
      ...dimensions(raw.to_bow, raw.to_stern, raw.to_port, raw.to_starboard),
      epfd: nonZero(raw.epfd),
      eta: etaKnown ? { month, day, hour, minute } : null,
      draught: raw.draught === 0 ? null : raw.draught / 10,
      destination: nonEmpty(raw.destination),
      data_terminal_ready: raw.dte === 0,
    },
  };
}

function decodeAddressedBinary(repeat: number, mmsi: number): AisMessage {
  const r = reader;
  const dataBits = r.bitLength - 88;
  const raw: AddressedBinaryRaw = {
    type: 6,
    repeat,
    mmsi,
    seqno: r.uint(38, 2),
    dest_mmsi: r.uint(40, 30),
    retransmit: r.bool(70),
    dac: r.uint(72, 10),
    fid: r.uint(82, 6),
    data: r.hex(88, dataBits),
    data_bits: dataBits,
  };
  return { type: 6, mmsi, raw, scaled: { ...raw } };
}

function decodeBroadcastBinary(repeat: number, mmsi: number): AisMessage {
  const r = reader;
  const dataBits = r.bitLength - 56;
  const raw: BroadcastBinaryRaw = {
    type: 8,
    repeat,
    mmsi,
    dac: r.uint(40, 10),
    fid: r.uint(50, 6),
    data: r.hex(56, dataBits),
    data_bits: dataBits,
  };
  return { type: 8, mmsi, raw, scaled: { ...raw } };
}

function decodeSarAircraft(repeat: number, mmsi: number): AisMessage {
  const r = reader;
  const raw: SarAircraftRaw = {
    type: 9,
    repeat,
    mmsi,
    alt: r.uint(38, 12),
    speed: r.uint(50, 10),
    accuracy: r.bool(60),
    lon: r.int(61, 28),
    lat: r.int(89, 27),
    course: r.uint(116, 12),
    second: r.uint(128, 6),
    regional: r.uint(134, 8),
    dte: r.uint(142, 1),
    assigned: r.bool(146),
    raim: r.bool(147),
    radio: r.uint(148, 20),
  };
  return {
    type: 9,
    mmsi,
    raw,
    scaled: {
      type: 9,
      repeat,
      mmsi,
      altitude: raw.alt === ALTITUDE_NOT_AVAILABLE ? null : raw.alt,
      sog: raw.speed === SPEED_NOT_AVAILABLE ? null : raw.speed,
      position_accuracy: raw.accuracy,
      lat: latitude(raw.lat, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      lon: longitude(raw.lon, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      cog: courseTenths(raw.course),
      timestamp_second: second(raw.second),
      regional: raw.regional,
      data_terminal_ready: raw.dte === 0,
      assigned: raw.assigned,
      raim: raw.raim,
      radio: raw.radio,
    },
  };
}

function decodeClassBPosition(repeat: number, mmsi: number): AisMessage {
  const r = reader;
  const raw: ClassBPositionRaw = {
    type: 18,
    repeat,
    mmsi,
    reserved: r.uint(38, 8),
    speed: r.uint(46, 10),
    accuracy: r.bool(56),
    lon: r.int(57, 28),
    lat: r.int(85, 27),
    course: r.uint(112, 12),
    heading: r.uint(124, 9),
    second: r.uint(133, 6),
    regional: r.uint(139, 2),
    cs: r.bool(141),
    display: r.bool(142),
    dsc: r.bool(143),
    band: r.bool(144),
    msg22: r.bool(145),
    assigned: r.bool(146),
    raim: r.bool(147),
    radio: r.uint(148, 20),
  };
  return {
    type: 18,
    mmsi,
    raw,
    scaled: {
      type: 18,
      repeat,
      mmsi,
      sog: speedTenths(raw.speed),
      position_accuracy: raw.accuracy,
      lat: latitude(raw.lat, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      lon: longitude(raw.lon, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      cog: courseTenths(raw.course),
      heading: heading(raw.heading),
      timestamp_second: second(raw.second),
      cs_unit: raw.cs,
      display: raw.display,
      dsc: raw.dsc,
      band: raw.band,
      msg22: raw.msg22,
      assigned: raw.assigned,
      raim: raw.raim,
      radio: raw.radio,
    },
  };
}

function decodeClassBExtended(repeat: number, mmsi: number): AisMessage {
  const r = reader;
  const raw: ClassBExtendedRaw = {
    type: 19,
    repeat,
    mmsi,
    reserved: r.uint(38, 8),
    speed: r.uint(46, 10),
    accuracy: r.bool(56),
    lon: r.int(57, 28),
    lat: r.int(85, 27),
    course: r.uint(112, 12),
    heading: r.uint(124, 9),
    second: r.uint(133, 6),
    regional: r.uint(139, 4),
    shipname: r.text(143, 20),
    shiptype: r.uint(263, 8),
    to_bow: r.uint(271, 9),
    to_stern: r.uint(280, 9),
    to_port: r.uint(289, 6),
    to_starboard: r.uint(295, 6),
    epfd: r.uint(301, 4),
    raim: r.bool(305),
    dte: r.uint(306, 1),
    assigned: r.bool(307),
  };
  return {
    type: 19,
    mmsi,
    raw,
    scaled: {
      type: 19,
      repeat,
      mmsi,
      sog: speedTenths(raw.speed),
      position_accuracy: raw.accuracy,
      lat: latitude(raw.lat, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      lon: longitude(raw.lon, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      cog: courseTenths(raw.course),
      heading: heading(raw.heading),
      timestamp_second: second(raw.second),
      shipname: nonEmpty(raw.shipname),
      ship_type: nonZero(raw.shiptype),
      ...dimensions(raw.to_bow, raw.to_stern, raw.to_port, raw.to_starboard),
      epfd: nonZero(raw.epfd),
      raim: raw.raim,
      data_terminal_ready: raw.dte === 0,
      assigned: raw.assigned,
    },
  };
}

function decodeAidToNavigation(repeat: number, mmsi: number): AisMessage {
  const r = reader;
  // The extension only continues a name that used all 20 characters (as gpsd reads it).
  let name = r.untrimmedText(43, 20);
  if (name.length === 20 && r.bitLength > 272) name += r.untrimmedText(272, Math.floor((r.bitLength - 272) / 6));
  const raw: AidToNavigationRaw = {
    type: 21,
    repeat,
    mmsi,
    aid_type: r.uint(38, 5),
    name: name.trimEnd(),
    accuracy: r.bool(163),
    lon: r.int(164, 28),
    lat: r.int(192, 27),
    to_bow: r.uint(219, 9),
    to_stern: r.uint(228, 9),
    to_port: r.uint(237, 6),
    to_starboard: r.uint(243, 6),
    epfd: r.uint(249, 4),
    second: r.uint(253, 6),
    off_position: r.bool(259),
    regional: r.uint(260, 8),
    raim: r.bool(268),
    virtual_aid: r.bool(269),
    assigned: r.bool(270),
  };
  return {
    type: 21,
    mmsi,
    raw,
    scaled: {
      type: 21,
      repeat,
      mmsi,
      aid_type: nonZero(raw.aid_type),
      name: nonEmpty(raw.name),
      position_accuracy: raw.accuracy,
      lat: latitude(raw.lat, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      lon: longitude(raw.lon, TEN_THOUSANDTH_MINUTES_PER_DEGREE),
      ...dimensions(raw.to_bow, raw.to_stern, raw.to_port, raw.to_starboard),
      epfd: nonZero(raw.epfd),
      timestamp_second: second(raw.second),
      off_position: raw.off_position,
      virtual_aid: raw.virtual_aid,
      regional: raw.regional,
      raim: raw.raim,
      assigned: raw.assigned,
    },
  };
}

function decodeStaticDataPartA(repeat: number, mmsi: number): AisMessage {
  const raw: StaticDataPartARaw = { type: 24, repeat, mmsi, partno: 0, shipname: reader.text(40, 20) };
  return { type: 24, mmsi, raw, scaled: { type: 24, repeat, mmsi, part: 0, shipname: nonEmpty(raw.shipname) } };
}

function decodeStaticDataPartB(repeat: number, mmsi: number): AisMessage {
  const r = reader;
  const auxiliary = isAuxiliaryMmsi(mmsi);
  const raw: StaticDataPartBRaw = {
    type: 24,
    repeat,
    mmsi,
    partno: 1,
    shiptype: r.uint(40, 8),
    vendorid: r.text(48, 3),
    model: r.uint(66, 4),
    serial: r.uint(70, 20),
    callsign: r.text(90, 7),
    to_bow: auxiliary ? 0 : r.uint(132, 9),
    to_stern: auxiliary ? 0 : r.uint(141, 9),
    to_port: auxiliary ? 0 : r.uint(150, 6),
    to_starboard: auxiliary ? 0 : r.uint(156, 6),
    mothership_mmsi: auxiliary ? r.uint(132, 30) : null,
  };
  return {
    type: 24,
    mmsi,
    raw,
    scaled: {
      type: 24,
      repeat,
      mmsi,
      part: 1,
      ship_type: nonZero(raw.shiptype),
      vendor_id: nonEmpty(raw.vendorid),
      model: raw.model,
      serial: raw.serial,
      callsign: nonEmpty(raw.callsign),
      ...dimensions(raw.to_bow, raw.to_stern, raw.to_port, raw.to_starboard),
      mothership_mmsi: raw.mothership_mmsi,
    },
  };
}

function decodeLongRange(repeat: number, mmsi: number): AisMessage {
  const r = reader;
  const raw: LongRangeRaw = {
    type: 27,
    repeat,
    mmsi,
    accuracy: r.bool(38),
    raim: r.bool(39),
    status: r.uint(40, 4),
    lon: r.int(44, 18),
    lat: r.int(62, 17),
    speed: r.uint(79, 6),
    course: r.uint(85, 9),
    gnss: r.bool(94),
  };
  return {
    type: 27,
    mmsi,
    raw,
    scaled: {
      type: 27,
      repeat,
      mmsi,
      position_accuracy: raw.accuracy,
      raim: raw.raim,
      nav_status: navStatus(raw.status),
      lat: latitude(raw.lat, TENTH_MINUTES_PER_DEGREE),
      lon: longitude(raw.lon, TENTH_MINUTES_PER_DEGREE),
      sog: raw.speed === LONG_RANGE_SPEED_NOT_AVAILABLE ? null : raw.speed,
      cog: raw.course === LONG_RANGE_COURSE_NOT_AVAILABLE || raw.course > 359 ? null : raw.course,
      gnss: raw.gnss,
    },
  };
}

function reject(reason: AisRejectReason, type: number | null): AisDecodeResult {
  return { ok: false, reason, type };
}

/**
 * Decodes one complete (assembled) payload. Never throws: payloads this codec cannot decode come back
 * as `{ ok: false, reason }`.
 */
export function decodeAisPayload(payload: string, fillBits: number): AisDecodeResult {
  if (!reader.reset(payload, fillBits)) return reject('invalid_payload', null);
  const bits = reader.bitLength;
  if (bits < 6) return reject('payload_too_short', null);
  const type = reader.uint(0, 6);
  const minimum = type === 24 ? MIN_BITS_24_PART_A : MIN_BITS[type];
  if (minimum === undefined) return reject('unknown_type', type);
  if (bits < minimum) return reject('payload_too_short', type);
  const repeat = reader.uint(6, 2);
  const mmsi = reader.uint(8, 30);
  switch (type) {
    case 1:
    case 2:
    case 3:
      return { ok: true, message: decodePositionReport(type, repeat, mmsi) };
    case 4:
    case 11:
      return { ok: true, message: decodeBaseStation(type, repeat, mmsi) };
    case 5:
      return { ok: true, message: decodeStaticVoyage(repeat, mmsi) };
    case 6:
      return { ok: true, message: decodeAddressedBinary(repeat, mmsi) };
    case 8:
      return { ok: true, message: decodeBroadcastBinary(repeat, mmsi) };
    case 9:
      return { ok: true, message: decodeSarAircraft(repeat, mmsi) };
    case 18:
      return { ok: true, message: decodeClassBPosition(repeat, mmsi) };
    case 19:
      return { ok: true, message: decodeClassBExtended(repeat, mmsi) };
    case 21:
      return { ok: true, message: decodeAidToNavigation(repeat, mmsi) };
    case 24: {
      const part = reader.uint(38, 2);
      if (part === 0) return { ok: true, message: decodeStaticDataPartA(repeat, mmsi) };
      // Parts 2 and 3 are not defined.
      if (part !== 1) return reject('unknown_type', type);
      if (bits < MIN_BITS_24_PART_B) return reject('payload_too_short', type);
      return { ok: true, message: decodeStaticDataPartB(repeat, mmsi) };
    }
    case 27:
      return { ok: true, message: decodeLongRange(repeat, mmsi) };
    default:
      return reject('unknown_type', type);
  }
}
