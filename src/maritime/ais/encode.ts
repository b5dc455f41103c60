// AIS encoder: the raw view back to an armoured payload and to complete !AIVDM sentences. Used by the
// simulator and by the round-trip tests. Spare bits are written as zero; values wider than their
// field wrap (callers are expected to pass values within the field widths).
import { isAuxiliaryMmsi } from './decode.ts';
import { buildAisSentences } from './nmea.ts';
import type { SentenceOptions } from './nmea.ts';
import { SixBitWriter } from './sixbit.ts';
import type {
  AddressedBinaryRaw,
  AidToNavigationRaw,
  AisRaw,
  BaseStationReportRaw,
  BroadcastBinaryRaw,
  ClassBExtendedRaw,
  ClassBPositionRaw,
  LongRangeRaw,
  PositionReportRaw,
  SarAircraftRaw,
  StaticDataRaw,
  StaticVoyageRaw,
} from './types.ts';

export interface EncodedPayload {
  payload: string;
  fillBits: number;
}

/** AIS text of the 20-character name field plus up to 14 extension characters. */
/** Degrees to the raw position unit of most messages: 1/10,000 minute. */
export function rawPosition(degrees: number): number {
  return Math.round(degrees * 600_000);
}

/** Degrees to the raw position unit of type 27 (long-range): 1/10 minute. */
export function rawLongRangePosition(degrees: number): number {
  return Math.round(degrees * 600);
}

const AID_NAME_CHARS = 20;
const AID_NAME_EXTENSION_CHARS = 14;

function header(writer: SixBitWriter, message: AisRaw): SixBitWriter {
  return writer.uint(message.type, 6).uint(message.repeat, 2).uint(message.mmsi, 30);
}

function dimensions(
  writer: SixBitWriter,
  message: { to_bow: number; to_stern: number; to_port: number; to_starboard: number },
): void {
  writer.uint(message.to_bow, 9).uint(message.to_stern, 9).uint(message.to_port, 6).uint(message.to_starboard, 6);
}

function positionReport(w: SixBitWriter, m: PositionReportRaw): void {
  w.uint(m.status, 4).int(m.turn, 8).uint(m.speed, 10).bool(m.accuracy);
  w.int(m.lon, 28).int(m.lat, 27).uint(m.course, 12).uint(m.heading, 9).uint(m.second, 6);
  w.uint(m.maneuver, 2).uint(0, 3).bool(m.raim).uint(m.radio, 19);
}

function baseStation(w: SixBitWriter, m: BaseStationReportRaw): void {
  w.uint(m.year, 14).uint(m.month, 4).uint(m.day, 5).uint(m.hour, 5).uint(m.minute, 6).uint(m.second, 6);
  w.bool(m.accuracy).int(m.lon, 28).int(m.lat, 27).uint(m.epfd, 4).uint(0, 10).bool(m.raim).uint(m.radio, 19);
}

function staticVoyage(w: SixBitWriter, m: StaticVoyageRaw): void {
  w.uint(m.ais_version, 2).uint(m.imo, 30).text(m.callsign, 7).text(m.shipname, 20).uint(m.shiptype, 8);
  dimensions(w, m);
  w.uint(m.epfd, 4).uint(m.month, 4).uint(m.day, 5).uint(m.hour, 5).uint(m.minute, 6).uint(m.draught, 8);
  w.text(m.destination, 20).uint(m.dte, 1).uint(0, 1);
}

function addressedBinary(w: SixBitWriter, m: AddressedBinaryRaw): void {
  w.uint(m.seqno, 2).uint(m.dest_mmsi, 30).bool(m.retransmit).uint(0, 1).uint(m.dac, 10).uint(m.fid, 6);
  w.hex(m.data, m.data_bits);
}

function broadcastBinary(w: SixBitWriter, m: BroadcastBinaryRaw): void {
  w.uint(0, 2).uint(m.dac, 10).uint(m.fid, 6).hex(m.data, m.data_bits);
}

function sarAircraft(w: SixBitWriter, m: SarAircraftRaw): void {
  w.uint(m.alt, 12).uint(m.speed, 10).bool(m.accuracy).int(m.lon, 28).int(m.lat, 27).uint(m.course, 12);
  w.uint(m.second, 6).uint(m.regional, 8).uint(m.dte, 1).uint(0, 3).bool(m.assigned).bool(m.raim).uint(m.radio, 20);
}

function classBPosition(w: SixBitWriter, m: ClassBPositionRaw): void {
  w.uint(m.reserved, 8).uint(m.speed, 10).bool(m.accuracy).int(m.lon, 28).int(m.lat, 27).uint(m.course, 12);
  w.uint(m.heading, 9).uint(m.second, 6).uint(m.regional, 2).bool(m.cs).bool(m.display).bool(m.dsc);
  w.bool(m.band).bool(m.msg22).bool(m.assigned).bool(m.raim).uint(m.radio, 20);
}

function classBExtended(w: SixBitWriter, m: ClassBExtendedRaw): void {
  w.uint(m.reserved, 8).uint(m.speed, 10).bool(m.accuracy).int(m.lon, 28).int(m.lat, 27).uint(m.course, 12);
  w.uint(m.heading, 9).uint(m.second, 6).uint(m.regional, 4).text(m.shipname, 20).uint(m.shiptype, 8);
  dimensions(w, m);
  w.uint(m.epfd, 4).bool(m.raim).uint(m.dte, 1).bool(m.assigned).uint(0, 4);
}

function aidToNavigation(w: SixBitWriter, m: AidToNavigationRaw): void {
  w.uint(m.aid_type, 5).text(m.name, AID_NAME_CHARS).bool(m.accuracy).int(m.lon, 28).int(m.lat, 27);
  dimensions(w, m);
  w.uint(m.epfd, 4).uint(m.second, 6).bool(m.off_position).uint(m.regional, 8).bool(m.raim);
  w.bool(m.virtual_aid).bool(m.assigned).uint(0, 1);
  const extension = m.name.slice(AID_NAME_CHARS, AID_NAME_CHARS + AID_NAME_EXTENSION_CHARS);
  if (extension.length > 0) w.text(extension, extension.length);
}

function staticData(w: SixBitWriter, m: StaticDataRaw): void {
  w.uint(m.partno, 2);
  if (m.partno === 0) {
    w.text(m.shipname, 20).uint(0, 8);
    return;
  }
  w.uint(m.shiptype, 8).text(m.vendorid, 3).uint(m.model, 4).uint(m.serial, 20).text(m.callsign, 7);
  if (isAuxiliaryMmsi(m.mmsi)) w.uint(m.mothership_mmsi ?? 0, 30);
  else dimensions(w, m);
  w.uint(0, 6);
}

function longRange(w: SixBitWriter, m: LongRangeRaw): void {
  w.bool(m.accuracy).bool(m.raim).uint(m.status, 4).int(m.lon, 18).int(m.lat, 17).uint(m.speed, 6);
  w.uint(m.course, 9).bool(m.gnss).uint(0, 1);
}

/** Encodes a message given in its raw view to an armoured payload with its fill bits. */
export function encodeAisPayload(message: AisRaw): EncodedPayload {
  const writer = header(new SixBitWriter(), message);
  switch (message.type) {
    case 1:
    case 2:
    case 3:
      positionReport(writer, message);
      break;
    case 4:
    case 11:
      baseStation(writer, message);
      break;
    case 5:
      staticVoyage(writer, message);
      break;
    case 6:
      addressedBinary(writer, message);
      break;
    case 8:
      broadcastBinary(writer, message);
      break;
    case 9:
      sarAircraft(writer, message);
      break;
    case 18:
      classBPosition(writer, message);
      break;
    case 19:
      classBExtended(writer, message);
      break;
    case 21:
      aidToNavigation(writer, message);
      break;
    case 24:
      staticData(writer, message);
      break;
    case 27:
      longRange(writer, message);
      break;
  }
  return writer.toPayload();
}

/**
 * Encodes a message to complete NMEA sentences (several when the payload is long, e.g. type 5),
 * with checksums and, when asked, tag blocks.
 */
export function encodeAisSentences(message: AisRaw, options: SentenceOptions = {}): string[] {
  const { payload, fillBits } = encodeAisPayload(message);
  return buildAisSentences(payload, fillBits, options);
}
