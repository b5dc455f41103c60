// aisstream.io JSON messages to the codec's AisMessage.
//
// aisstream decodes with go-ais and sends `{ MessageType, MetaData, Message: { [MessageType]: {...} } }`
// with go-ais's field names. Units (go-ais field types): Latitude/Longitude in degrees; Sog, Cog and
// MaximumStaticDraught divided by 10 (knots, degrees, metres), except the SAR aircraft report's Sog
// and the long-range report's Sog and Cog, which are whole knots and degrees as transmitted; every
// other number is the transmitted integer (RateOfTurn is the ROT code, TrueHeading 511 is "not
// available", ...). Binary data is base64.
//
// The conversion builds the codec's raw view from those fields, encodes it with the codec's encoder
// and decodes it back, so the scaled view and its "not available" rules come from the codec alone.
// A field that is missing takes its "not available" value; one that is present but of the wrong type
// or outside its field's range rejects the message (the encoder would otherwise wrap it silently).
import { decodeAisPayload, encodeAisPayload, isAuxiliaryMmsi, rawLongRangePosition, rawPosition } from '../ais/index.ts';
import type {
  AddressedBinaryRaw,
  AidToNavigationRaw,
  AisMessage,
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
} from '../ais/index.ts';
import type { FeedRejectReason } from './types.ts';

export type AisstreamFrame =
  | { kind: 'message'; message: AisMessage; messageType: string }
  /** The service's `{"error": "..."}`: a bad key or subscription. */
  | { kind: 'error'; error: string }
  | { kind: 'rejected'; reason: FeedRejectReason; detail: string };

type Json = Record<string, unknown>;

class Invalid extends Error {}

const MAX_MMSI = 2 ** 30 - 1;
const RADIO_19 = 2 ** 19 - 1;
/** Type 6 and 8 carry at most 5 slots of data; anything much longer is not a real message. */
const MAX_BINARY_BYTES = 128;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one message's fields; a bad value throws Invalid naming the field. */
class Fields {
  readonly #data: Json;
  readonly #path: string;

  constructor(data: Json, path: string) {
    this.#data = data;
    this.#path = path;
  }

  #present(key: string): unknown {
    const value = this.#data[key];
    return value === null ? undefined : value;
  }

  #bad(key: string, why: string): never {
    throw new Invalid(`${this.#path}.${key} ${why}`);
  }

  /** The first of `keys` that is present (go-ais and aisstream spell a few fields differently). */
  #pick(keys: readonly string[]): [string, unknown] {
    for (const key of keys) {
      const value = this.#present(key);
      if (value !== undefined) return [key, value];
    }
    return [keys[0]!, undefined];
  }

  number(keys: string | readonly string[], min: number, max: number, fallback?: number): number {
    const [key, value] = this.#pick(typeof keys === 'string' ? [keys] : keys);
    if (value === undefined) {
      if (fallback === undefined) this.#bad(key, 'is missing');
      return fallback;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) this.#bad(key, `is not a number: ${JSON.stringify(value)}`);
    if (value < min || value > max) this.#bad(key, `${value} is outside ${min}..${max}`);
    return value;
  }

  int(keys: string | readonly string[], min: number, max: number, fallback?: number): number {
    return Math.round(this.number(keys, min, max, fallback));
  }

  /** A value sent divided by 10, back to the transmitted tenths. */
  tenths(key: string, max: number, fallback: number): number {
    const value = this.#present(key);
    if (value === undefined) return fallback;
    return Math.round(this.number(key, 0, max) * 10);
  }

  bool(key: string): boolean {
    const value = this.#present(key);
    if (value === undefined) return false;
    if (typeof value === 'boolean') return value;
    if (value === 0 || value === 1) return value === 1;
    return this.#bad(key, `is not a boolean: ${JSON.stringify(value)}`);
  }

  text(key: string): string {
    const value = this.#present(key);
    if (value === undefined) return '';
    if (typeof value !== 'string') this.#bad(key, `is not a string: ${JSON.stringify(value)}`);
    return value.replace(/[@\s]+$/, '');
  }

  object(keys: string | readonly string[]): Fields {
    const [key, value] = this.#pick(typeof keys === 'string' ? [keys] : keys);
    if (value === undefined) return new Fields({}, `${this.#path}.${key}`);
    if (!isObject(value)) this.#bad(key, 'is not an object');
    return new Fields(value, `${this.#path}.${key}`);
  }

  has(key: string): boolean {
    return this.#present(key) !== undefined;
  }

  /** Latitude in degrees to 1/10 000 minute; 91 is "not available". */
  lat(): number {
    return rawPosition(this.number('Latitude', -90, 91, 91));
  }

  lon(): number {
    return rawPosition(this.number('Longitude', -180, 181, 181));
  }

  dimensions(key = 'Dimension'): { to_bow: number; to_stern: number; to_port: number; to_starboard: number } {
    const d = this.object(key);
    return { to_bow: d.int('A', 0, 511, 0), to_stern: d.int('B', 0, 511, 0), to_port: d.int('C', 0, 63, 0), to_starboard: d.int('D', 0, 63, 0) };
  }

  /** CommunicationStateIsItdma and the 19-bit CommunicationState as the codec's 20-bit radio field. */
  radio20(): number {
    return (this.bool('CommunicationStateIsItdma') ? 2 ** 19 : 0) + this.int('CommunicationState', 0, RADIO_19, 0);
  }

  /** Base64 binary data as the codec's hex and bit count. */
  binary(key: string): { data: string; data_bits: number } {
    const value = this.#present(key);
    if (value === undefined) return { data: '', data_bits: 0 };
    if (typeof value !== 'string' || !BASE64.test(value) || value.length % 4 === 1) this.#bad(key, 'is not base64 text');
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length > MAX_BINARY_BYTES) this.#bad(key, `holds ${bytes.length} bytes, more than ${MAX_BINARY_BYTES}`);
    return { data: bytes.toString('hex'), data_bits: bytes.length * 8 };
  }
}

interface Header {
  type: number;
  repeat: number;
  mmsi: number;
}

type Builder = (f: Fields, h: Header) => AisRaw;

/** The motion fields class A and class B position reports share, in the codec's raw units. */
function vesselMotion(f: Fields) {
  return {
    speed: f.tenths('Sog', 102.3, 1023),
    accuracy: f.bool('PositionAccuracy'),
    lon: f.lon(),
    lat: f.lat(),
    course: f.tenths('Cog', 409.5, 3600),
    heading: f.int('TrueHeading', 0, 511, 511),
    second: f.int('Timestamp', 0, 63, 60),
  };
}

const positionReport: Builder = (f, h): PositionReportRaw => ({
  type: h.type as PositionReportRaw['type'],
  repeat: h.repeat,
  mmsi: h.mmsi,
  status: f.int('NavigationalStatus', 0, 15, 15),
  turn: f.int('RateOfTurn', -128, 127, -128),
  ...vesselMotion(f),
  maneuver: f.int('SpecialManoeuvreIndicator', 0, 3, 0),
  raim: f.bool('Raim'),
  radio: f.int('CommunicationState', 0, RADIO_19, 0),
});

const baseStationReport: Builder = (f, h): BaseStationReportRaw => ({
  type: h.type as BaseStationReportRaw['type'],
  repeat: h.repeat,
  mmsi: h.mmsi,
  year: f.int('UtcYear', 0, 16_383, 0),
  month: f.int('UtcMonth', 0, 15, 0),
  day: f.int('UtcDay', 0, 31, 0),
  hour: f.int('UtcHour', 0, 31, 24),
  minute: f.int('UtcMinute', 0, 63, 60),
  second: f.int('UtcSecond', 0, 63, 60),
  accuracy: f.bool('PositionAccuracy'),
  lon: f.lon(),
  lat: f.lat(),
  epfd: f.int('FixType', 0, 15, 0),
  raim: f.bool('Raim'),
  radio: f.int('CommunicationState', 0, RADIO_19, 0),
});

const shipStaticData: Builder = (f, h): StaticVoyageRaw => {
  const eta = f.object('Eta');
  return {
    type: 5,
    repeat: h.repeat,
    mmsi: h.mmsi,
    ais_version: f.int('AisVersion', 0, 3, 0),
    imo: f.int('ImoNumber', 0, MAX_MMSI, 0),
    callsign: f.text('CallSign'),
    shipname: f.text('Name'),
    shiptype: f.int('Type', 0, 255, 0),
    ...f.dimensions(),
    epfd: f.int('FixType', 0, 15, 0),
    month: eta.int('Month', 0, 15, 0),
    day: eta.int('Day', 0, 31, 0),
    hour: eta.int('Hour', 0, 31, 24),
    minute: eta.int('Minute', 0, 63, 60),
    draught: f.tenths('MaximumStaticDraught', 25.5, 0),
    destination: f.text('Destination'),
    dte: f.bool('Dte') ? 1 : 0,
  };
};

const addressedBinary: Builder = (f, h): AddressedBinaryRaw => {
  const application = f.object('ApplicationID');
  return {
    type: 6,
    repeat: h.repeat,
    mmsi: h.mmsi,
    seqno: f.int(['Sequenceinteger', 'SequenceNumber'], 0, 3, 0),
    dest_mmsi: f.int('DestinationID', 0, MAX_MMSI, 0),
    retransmit: f.bool('Retransmission'),
    dac: application.int('DesignatedAreaCode', 0, 1023, 0),
    fid: application.int('FunctionIdentifier', 0, 63, 0),
    ...f.binary('BinaryData'),
  };
};

const binaryBroadcast: Builder = (f, h): BroadcastBinaryRaw => {
  const application = f.object('ApplicationID');
  return {
    type: 8,
    repeat: h.repeat,
    mmsi: h.mmsi,
    dac: application.int('DesignatedAreaCode', 0, 1023, 0),
    fid: application.int('FunctionIdentifier', 0, 63, 0),
    ...f.binary('BinaryData'),
  };
};

const sarAircraft: Builder = (f, h): SarAircraftRaw => ({
  type: 9,
  repeat: h.repeat,
  mmsi: h.mmsi,
  alt: f.int('Altitude', 0, 4095, 4095),
  // Whole knots here (go-ais: uint16), unlike the other position reports.
  speed: f.int('Sog', 0, 1023, 1023),
  accuracy: f.bool('PositionAccuracy'),
  lon: f.lon(),
  lat: f.lat(),
  course: f.tenths('Cog', 409.5, 3600),
  second: f.int('Timestamp', 0, 63, 60),
  // The codec's 8 "regional" bits are go-ais's AltFromBaro flag and 7 spare bits.
  regional: (f.bool('AltFromBaro') ? 128 : 0) + f.int('Spare1', 0, 127, 0),
  dte: f.bool('Dte') ? 1 : 0,
  assigned: f.bool('AssignedMode'),
  raim: f.bool('Raim'),
  radio: f.radio20(),
});

const classBPosition: Builder = (f, h): ClassBPositionRaw => ({
  type: 18,
  repeat: h.repeat,
  mmsi: h.mmsi,
  reserved: f.int('Spare1', 0, 255, 0),
  ...vesselMotion(f),
  regional: f.int('Spare2', 0, 3, 0),
  cs: f.bool('ClassBUnit'),
  display: f.bool('ClassBDisplay'),
  dsc: f.bool('ClassBDsc'),
  band: f.bool('ClassBBand'),
  msg22: f.bool('ClassBMsg22'),
  assigned: f.bool('AssignedMode'),
  raim: f.bool('Raim'),
  radio: f.radio20(),
});

const classBExtended: Builder = (f, h): ClassBExtendedRaw => ({
  type: 19,
  repeat: h.repeat,
  mmsi: h.mmsi,
  reserved: f.int('Spare1', 0, 255, 0),
  ...vesselMotion(f),
  regional: f.int('Spare2', 0, 15, 0),
  shipname: f.text('Name'),
  shiptype: f.int('Type', 0, 255, 0),
  ...f.dimensions(),
  epfd: f.int('FixType', 0, 15, 0),
  raim: f.bool('Raim'),
  dte: f.bool('Dte') ? 1 : 0,
  assigned: f.bool('AssignedMode'),
});

const aidToNavigation: Builder = (f, h): AidToNavigationRaw => {
  const name = f.text('Name');
  const extension = f.text('NameExtension');
  return {
    type: 21,
    repeat: h.repeat,
    mmsi: h.mmsi,
    aid_type: f.int('Type', 0, 31, 0),
    // The extension continues a name that fills its 20 characters.
    name: extension === '' ? name : name.padEnd(20, ' ') + extension,
    accuracy: f.bool('PositionAccuracy'),
    lon: f.lon(),
    lat: f.lat(),
    ...f.dimensions(),
    epfd: f.int(['Fixtype', 'FixType'], 0, 15, 0),
    second: f.int('Timestamp', 0, 63, 60),
    off_position: f.bool('OffPosition'),
    regional: f.int('AtoN', 0, 255, 0),
    raim: f.bool('Raim'),
    virtual_aid: f.bool('VirtualAtoN'),
    assigned: f.bool('AssignedMode'),
  };
};

const staticDataReport: Builder = (f, h): StaticDataRaw => {
  const partB = f.bool('PartNumber');
  if (!partB) {
    const report = f.object('ReportA');
    if (report.has('Valid') && !report.bool('Valid')) throw new Invalid('StaticDataReport.ReportA is marked not valid');
    return { type: 24, repeat: h.repeat, mmsi: h.mmsi, partno: 0, shipname: report.text('Name') };
  }
  const report = f.object('ReportB');
  if (report.has('Valid') && !report.bool('Valid')) throw new Invalid('StaticDataReport.ReportB is marked not valid');
  const dimensions = report.dimensions();
  const auxiliary = isAuxiliaryMmsi(h.mmsi);
  // For an auxiliary craft the 30 dimension bits carry the mothership's MMSI.
  const { to_bow: a, to_stern: b, to_port: c, to_starboard: d } = dimensions;
  return {
    type: 24,
    repeat: h.repeat,
    mmsi: h.mmsi,
    partno: 1,
    shiptype: report.int('ShipType', 0, 255, 0),
    vendorid: report.text('VendorIDName'),
    model: report.int(['VenderIDModel', 'VendorIDModel'], 0, 15, 0),
    serial: report.int(['VenderIDSerial', 'VendorIDSerial'], 0, 2 ** 20 - 1, 0),
    callsign: report.text('CallSign'),
    ...(auxiliary ? { to_bow: 0, to_stern: 0, to_port: 0, to_starboard: 0 } : dimensions),
    mothership_mmsi: auxiliary ? ((a * 512 + b) * 64 + c) * 64 + d : null,
  };
};

const longRange: Builder = (f, h): LongRangeRaw => ({
  type: 27,
  repeat: h.repeat,
  mmsi: h.mmsi,
  accuracy: f.bool('PositionAccuracy'),
  raim: f.bool('Raim'),
  status: f.int('NavigationalStatus', 0, 15, 15),
  lon: rawLongRangePosition(f.number('Longitude', -180, 181, 181)),
  lat: rawLongRangePosition(f.number('Latitude', -90, 91, 91)),
  // Whole knots and degrees as transmitted (go-ais: uint8 Sog, uint16 "Cos").
  speed: f.int('Sog', 0, 63, 63),
  course: f.int(['Cog', 'Cos'], 0, 511, 511),
  gnss: f.bool('PositionLatency'),
});

/** aisstream MessageType to its builder and the AIS message ids it may carry (the first is the default). */
const BUILDERS: Readonly<Record<string, { ids: readonly number[]; build: Builder }>> = {
  PositionReport: { ids: [1, 2, 3], build: positionReport },
  BaseStationReport: { ids: [4, 11], build: baseStationReport },
  ShipStaticData: { ids: [5], build: shipStaticData },
  AddressedBinaryMessage: { ids: [6], build: addressedBinary },
  BinaryBroadcastMessage: { ids: [8], build: binaryBroadcast },
  StandardSearchAndRescueAircraftReport: { ids: [9], build: sarAircraft },
  StandardClassBPositionReport: { ids: [18], build: classBPosition },
  ExtendedClassBPositionReport: { ids: [19], build: classBExtended },
  AidsToNavigationReport: { ids: [21], build: aidToNavigation },
  StaticDataReport: { ids: [24], build: staticDataReport },
  LongRangeAisBroadcastMessage: { ids: [27], build: longRange },
};

/** aisstream message types this conversion carries into the codec. */
export const CONVERTED_AISSTREAM_TYPES: readonly string[] = Object.keys(BUILDERS);

function rejected(reason: FeedRejectReason, detail: string): AisstreamFrame {
  return { kind: 'rejected', reason, detail };
}

/** Converts one parsed aisstream message (the envelope). Never throws. */
export function convertAisstreamMessage(envelope: unknown): AisstreamFrame {
  if (!isObject(envelope)) return rejected('malformed', 'not a JSON object');
  if (typeof envelope.error === 'string') return { kind: 'error', error: envelope.error };
  const messageType = envelope.MessageType;
  if (typeof messageType !== 'string' || !isObject(envelope.Message)) return rejected('malformed', 'no MessageType and Message');
  const entry = BUILDERS[messageType];
  if (entry === undefined) return rejected('unsupported', `message type ${messageType}`);
  const body = envelope.Message[messageType];
  if (!isObject(body)) return rejected('malformed', `Message.${messageType} is missing`);
  try {
    const fields = new Fields(body, messageType);
    if (body.Valid === false) throw new Invalid(`${messageType} is marked not valid`);
    const metadata = isObject(envelope.MetaData) ? new Fields(envelope.MetaData, 'MetaData') : null;
    const type = fields.int('MessageID', 1, 27, entry.ids[0]);
    if (!entry.ids.includes(type)) throw new Invalid(`${messageType}.MessageID ${type} is not one of ${entry.ids.join(', ')}`);
    const mmsi = fields.has('UserID') || metadata === null ? fields.int('UserID', 0, MAX_MMSI) : metadata.int('MMSI', 0, MAX_MMSI);
    const header: Header = { type, repeat: fields.int('RepeatIndicator', 0, 3, 0), mmsi };
    const raw = entry.build(fields, header);
    const encoded = encodeAisPayload(raw);
    const decoded = decodeAisPayload(encoded.payload, encoded.fillBits);
    if (!decoded.ok) return rejected('invalid', `${messageType} does not decode: ${decoded.reason}`);
    return { kind: 'message', message: decoded.message, messageType };
  } catch (error) {
    if (error instanceof Invalid) return rejected('invalid', error.message);
    return rejected('invalid', `${messageType}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Parses and converts one WebSocket text frame. Never throws. */
export function parseAisstreamFrame(text: string): AisstreamFrame {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    return rejected('malformed', 'not JSON');
  }
  return convertAisstreamMessage(envelope);
}
