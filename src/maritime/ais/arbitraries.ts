// Test support (not used by the service): fast-check generators of raw AIS messages with every field
// inside its bit width, in the canonical form the decoder returns (text without trailing spaces or
// '@', hex data with zero padding bits), so that decode(encode(raw)) must equal raw.
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
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
  StaticDataPartARaw,
  StaticDataPartBRaw,
  StaticVoyageRaw,
} from './types.ts';

/** Characters AIS six-bit text carries, without '@' (it ends a text field). */
const TEXT_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_ !"#$%&\'()*+,-./0123456789:;<=>?';

export const uint = (width: number): Arbitrary<number> => fc.integer({ min: 0, max: 2 ** width - 1 });
export const int = (width: number): Arbitrary<number> => fc.integer({ min: -(2 ** (width - 1)), max: 2 ** (width - 1) - 1 });
export const text = (chars: number): Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...TEXT_CHARS), maxLength: chars }).map((value) => value.trimEnd());

const mmsi = uint(30);
const repeat = uint(2);
const bool = fc.boolean();

/** Hex data of `bits` bits: whole bytes, the bits past the end of the last one zero. */
function binaryData(maxBits: number): Arbitrary<{ data: string; data_bits: number }> {
  return fc.integer({ min: 0, max: maxBits }).chain((bits) =>
    fc.uint8Array({ minLength: Math.ceil(bits / 8), maxLength: Math.ceil(bits / 8) }).map((bytes) => {
      const rest = bits % 8;
      if (rest > 0) bytes[bytes.length - 1]! &= (0xff << (8 - rest)) & 0xff;
      return { data: Buffer.from(bytes).toString('hex'), data_bits: bits };
    }),
  );
}

export const positionReport: Arbitrary<PositionReportRaw> = fc.record({
  type: fc.constantFrom(1 as const, 2 as const, 3 as const),
  repeat,
  mmsi,
  status: uint(4),
  turn: int(8),
  speed: uint(10),
  accuracy: bool,
  lon: int(28),
  lat: int(27),
  course: uint(12),
  heading: uint(9),
  second: uint(6),
  maneuver: uint(2),
  raim: bool,
  radio: uint(19),
});

export const baseStation: Arbitrary<BaseStationReportRaw> = fc.record({
  type: fc.constantFrom(4 as const, 11 as const),
  repeat,
  mmsi,
  year: uint(14),
  month: uint(4),
  day: uint(5),
  hour: uint(5),
  minute: uint(6),
  second: uint(6),
  accuracy: bool,
  lon: int(28),
  lat: int(27),
  epfd: uint(4),
  raim: bool,
  radio: uint(19),
});

export const staticVoyage: Arbitrary<StaticVoyageRaw> = fc.record({
  type: fc.constant(5 as const),
  repeat,
  mmsi,
  ais_version: uint(2),
  imo: uint(30),
  callsign: text(7),
  shipname: text(20),
  shiptype: uint(8),
  to_bow: uint(9),
  to_stern: uint(9),
  to_port: uint(6),
  to_starboard: uint(6),
  epfd: uint(4),
  month: uint(4),
  day: uint(5),
  hour: uint(5),
  minute: uint(6),
  draught: uint(8),
  destination: text(20),
  dte: uint(1),
});

export const addressedBinary: Arbitrary<AddressedBinaryRaw> = fc
  .record({ repeat, mmsi, seqno: uint(2), dest_mmsi: mmsi, retransmit: bool, dac: uint(10), fid: uint(6), payload: binaryData(920) })
  .map(({ payload, ...fields }) => ({ type: 6 as const, ...fields, ...payload }));

export const broadcastBinary: Arbitrary<BroadcastBinaryRaw> = fc
  .record({ repeat, mmsi, dac: uint(10), fid: uint(6), payload: binaryData(952) })
  .map(({ payload, ...fields }) => ({ type: 8 as const, ...fields, ...payload }));

export const sarAircraft: Arbitrary<SarAircraftRaw> = fc.record({
  type: fc.constant(9 as const),
  repeat,
  mmsi,
  alt: uint(12),
  speed: uint(10),
  accuracy: bool,
  lon: int(28),
  lat: int(27),
  course: uint(12),
  second: uint(6),
  regional: uint(8),
  dte: uint(1),
  assigned: bool,
  raim: bool,
  radio: uint(20),
});

export const classBPosition: Arbitrary<ClassBPositionRaw> = fc.record({
  type: fc.constant(18 as const),
  repeat,
  mmsi,
  reserved: uint(8),
  speed: uint(10),
  accuracy: bool,
  lon: int(28),
  lat: int(27),
  course: uint(12),
  heading: uint(9),
  second: uint(6),
  regional: uint(2),
  cs: bool,
  display: bool,
  dsc: bool,
  band: bool,
  msg22: bool,
  assigned: bool,
  raim: bool,
  radio: uint(20),
});

export const classBExtended: Arbitrary<ClassBExtendedRaw> = fc.record({
  type: fc.constant(19 as const),
  repeat,
  mmsi,
  reserved: uint(8),
  speed: uint(10),
  accuracy: bool,
  lon: int(28),
  lat: int(27),
  course: uint(12),
  heading: uint(9),
  second: uint(6),
  regional: uint(4),
  shipname: text(20),
  shiptype: uint(8),
  to_bow: uint(9),
  to_stern: uint(9),
  to_port: uint(6),
  to_starboard: uint(6),
  epfd: uint(4),
  raim: bool,
  dte: uint(1),
  assigned: bool,
});

export const aidToNavigation: Arbitrary<AidToNavigationRaw> = fc.record({
  type: fc.constant(21 as const),
  repeat,
  mmsi,
  aid_type: uint(5),
  // 20 characters plus up to 14 in the name extension.
  name: text(34),
  accuracy: bool,
  lon: int(28),
  lat: int(27),
  to_bow: uint(9),
  to_stern: uint(9),
  to_port: uint(6),
  to_starboard: uint(6),
  epfd: uint(4),
  second: uint(6),
  off_position: bool,
  regional: uint(8),
  raim: bool,
  virtual_aid: bool,
  assigned: bool,
});

export const staticDataPartA: Arbitrary<StaticDataPartARaw> = fc.record({
  type: fc.constant(24 as const),
  repeat,
  mmsi,
  partno: fc.constant(0 as const),
  shipname: text(20),
});

const auxiliaryMmsi = fc.integer({ min: 980_000_000, max: 989_999_999 });

export const staticDataPartB: Arbitrary<StaticDataPartBRaw> = fc
  .record({
    repeat,
    mmsi: fc.oneof(mmsi, auxiliaryMmsi),
    shiptype: uint(8),
    vendorid: text(3),
    model: uint(4),
    serial: uint(20),
    callsign: text(7),
    to_bow: uint(9),
    to_stern: uint(9),
    to_port: uint(6),
    to_starboard: uint(6),
    mothership: mmsi,
  })
  .map(({ mothership, ...fields }) => {
    const auxiliary = Math.floor(fields.mmsi / 10_000_000) === 98;
    return {
      type: 24 as const,
      partno: 1 as const,
      ...fields,
      // Auxiliary craft send a mothership MMSI where others send dimensions.
      ...(auxiliary ? { to_bow: 0, to_stern: 0, to_port: 0, to_starboard: 0 } : {}),
      mothership_mmsi: auxiliary ? mothership : null,
    };
  });

export const longRange: Arbitrary<LongRangeRaw> = fc.record({
  type: fc.constant(27 as const),
  repeat,
  mmsi,
  accuracy: bool,
  raim: bool,
  status: uint(4),
  lon: int(18),
  lat: int(17),
  speed: uint(6),
  course: uint(9),
  gnss: bool,
});

/** One generator per supported message kind, keyed for test names. */
export const RAW_MESSAGE_ARBITRARIES: Record<string, Arbitrary<AisRaw>> = {
  'types 1-3': positionReport,
  'types 4 and 11': baseStation,
  'type 5': staticVoyage,
  'type 6': addressedBinary,
  'type 8': broadcastBinary,
  'type 9': sarAircraft,
  'type 18': classBPosition,
  'type 19': classBExtended,
  'type 21': aidToNavigation,
  'type 24 part A': staticDataPartA,
  'type 24 part B': staticDataPartB,
  'type 27': longRange,
};

/** Any supported raw message. */
export const anyRawMessage: Arbitrary<AisRaw> = fc.oneof(...Object.values(RAW_MESSAGE_ARBITRARIES));
