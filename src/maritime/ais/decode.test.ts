import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeAisPayload, isAuxiliaryMmsi } from './decode.ts';
import type { AisDecodeResult } from './decode.ts';
import { encodeAisPayload } from './encode.ts';
import { AisPipeline } from './pipeline.ts';
import { SixBitReader, SixBitWriter } from './sixbit.ts';
import type {
  AisMessage,
  AisRaw,
  BaseStationReportRaw,
  ClassBPositionRaw,
  LongRangeRaw,
  PositionReportRaw,
  StaticDataPartBRaw,
  StaticVoyageRaw,
} from './types.ts';

function decodeLines(...lines: string[]): AisMessage {
  const pipeline = new AisPipeline();
  let message: AisMessage | undefined;
  for (const line of lines) message = pipeline.push(line, 0)?.message ?? message;
  assert.ok(message, `not decoded: ${JSON.stringify(pipeline.counts.rejected)}`);
  return message;
}

function roundTrip(raw: AisRaw): AisMessage {
  const { payload, fillBits } = encodeAisPayload(raw);
  const result = decodeAisPayload(payload, fillBits);
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result.message;
}

/** The message's payload cut (or zero-extended) to exactly `bits` bits. */
function withBitLength(raw: AisRaw, bits: number): { payload: string; fillBits: number } {
  const encoded = encodeAisPayload(raw);
  const reader = new SixBitReader();
  reader.reset(encoded.payload, encoded.fillBits);
  const writer = new SixBitWriter();
  for (let bit = 0; bit < bits; bit++) writer.uint(reader.uint(bit, 1), 1);
  return writer.toPayload();
}

function decodeCut(raw: AisRaw, bits: number): AisDecodeResult {
  const { payload, fillBits } = withBitLength(raw, bits);
  return decodeAisPayload(payload, fillBits);
}

function rejection(result: AisDecodeResult): string {
  assert.equal(result.ok, false);
  return result.ok ? '' : result.reason;
}

const POSITION: PositionReportRaw = {
  type: 1,
  repeat: 0,
  mmsi: 244123456,
  status: 0,
  turn: 0,
  speed: 123,
  accuracy: true,
  lon: 2_520_000, // 4.2 degrees
  lat: 31_500_000, // 52.5 degrees
  course: 2705,
  heading: 270,
  second: 30,
  maneuver: 1,
  raim: false,
  radio: 12345,
};

const STATIC: StaticVoyageRaw = {
  type: 5,
  repeat: 0,
  mmsi: 244123456,
  ais_version: 2,
  imo: 9876543,
  callsign: 'PD1234',
  shipname: 'NORTH SEA TRADER',
  shiptype: 70,
  to_bow: 100,
  to_stern: 20,
  to_port: 8,
  to_starboard: 7,
  epfd: 1,
  month: 12,
  day: 24,
  hour: 18,
  minute: 30,
  draught: 85,
  destination: 'ROTTERDAM',
  dte: 0,
};

test('type 1: the well-known Seattle sample', () => {
  const message = decodeLines('!AIVDM,1,1,,B,177KQJ5000G?tO`K>RA1wUbN0TKH,0*5C');
  assert.equal(message.type, 1);
  assert.equal(message.mmsi, 477553000);
  assert.deepEqual(message.raw, {
    type: 1,
    repeat: 0,
    mmsi: 477553000,
    status: 5,
    turn: 0,
    speed: 0,
    accuracy: false,
    lon: -73407500,
    lat: 28549700,
    course: 510,
    heading: 181,
    second: 15,
    maneuver: 0,
    raim: false,
    radio: 149208,
  });
  assert.deepEqual(message.scaled, {
    type: 1,
    repeat: 0,
    mmsi: 477553000,
    nav_status: 5,
    rot: 0,
    rot_direction: null,
    sog: 0,
    position_accuracy: false,
    lat: 28549700 / 600000,
    lon: -73407500 / 600000,
    cog: 51,
    heading: 181,
    timestamp_second: 15,
    maneuver: null,
    raim: false,
    radio: 149208,
  });
});

test('types 1-3: scaling, signed fields and not-available values', () => {
  const moving = roundTrip({ ...POSITION, type: 3, turn: -20, lon: -2_520_000, lat: -31_500_000 });
  assert.equal(moving.type, 3);
  const scaled = moving.scaled as { rot: number; sog: number; cog: number; lat: number; lon: number; heading: number };
  assert.ok(Math.abs(scaled.rot - -((20 / 4.733) ** 2)) < 1e-9);
  assert.equal(scaled.sog, 12.3);
  assert.equal(scaled.cog, 270.5);
  assert.equal(scaled.lat, -52.5);
  assert.equal(scaled.lon, -4.2);
  assert.equal(scaled.heading, 270);

  const unknown = roundTrip({
    ...POSITION,
    type: 2,
    status: 15,
    turn: -128,
    speed: 1023,
    lon: 181 * 600_000,
    lat: 91 * 600_000,
    course: 3600,
    heading: 511,
    second: 60,
    maneuver: 0,
  });
  assert.deepEqual(
    (({ nav_status, rot, sog, lat, lon, cog, heading, timestamp_second, maneuver }) => ({ nav_status, rot, sog, lat, lon, cog, heading, timestamp_second, maneuver }))(
      unknown.scaled as unknown as Record<string, unknown>,
    ),
    { nav_status: null, rot: null, sog: null, lat: null, lon: null, cog: null, heading: null, timestamp_second: null, maneuver: null },
  );
  const fast = roundTrip({ ...POSITION, speed: 1022 }).scaled as { sog: number };
  assert.equal(fast.sog, 102.2);
});

test('types 1-3: ROT ±127 is a fast turn of unknown rate, -128 no turn information (ITU-R M.1371 Table 45)', () => {
  const turn = (code: number) => {
    const { rot, rot_direction } = roundTrip({ ...POSITION, turn: code }).scaled as { rot: number | null; rot_direction: string | null };
    return { rot, rot_direction };
  };
  assert.deepEqual(turn(127), { rot: null, rot_direction: 'starboard' });
  assert.deepEqual(turn(-127), { rot: null, rot_direction: 'port' });
  assert.deepEqual(turn(-128), { rot: null, rot_direction: null });
  assert.deepEqual(turn(0), { rot: 0, rot_direction: null });
  assert.deepEqual(turn(126), { rot: (126 / 4.733) ** 2, rot_direction: 'starboard' });
  assert.deepEqual(turn(-1), { rot: -((1 / 4.733) ** 2), rot_direction: 'port' });
  // Every code: a rate only from the sensor's range, within ±708°/min, and a direction with its sign.
  fc.assert(
    fc.property(fc.integer({ min: -128, max: 127 }), (code) => {
      const { rot, rot_direction } = turn(code);
      assert.equal(rot === null, Math.abs(code) >= 127);
      assert.ok(rot === null || Math.abs(rot) < 709);
      assert.equal(rot_direction, code === -128 || code === 0 ? null : code > 0 ? 'starboard' : 'port');
    }),
  );
});

test('types 1-3: short transmissions down to 163 bits are accepted like gpsd does, shorter rejected', () => {
  const short = decodeCut(POSITION, 163);
  assert.ok(short.ok);
  assert.equal((short.message.raw as PositionReportRaw).radio, POSITION.radio >>> 5);
  assert.equal((short.message.raw as PositionReportRaw).heading, POSITION.heading);
  assert.equal(rejection(decodeCut(POSITION, 162)), 'payload_too_short');
  const long = decodeCut(POSITION, 204);
  assert.ok(long.ok);
  assert.deepEqual(long.message.raw, POSITION);
});

test('types 4 and 11: UTC and position', () => {
  const raw: BaseStationReportRaw = {
    type: 4,
    repeat: 0,
    mmsi: 2442000,
    year: 2024,
    month: 3,
    day: 7,
    hour: 9,
    minute: 5,
    second: 1,
    accuracy: true,
    lon: 3_000_000,
    lat: 31_200_000,
    epfd: 7,
    raim: true,
    radio: 81921,
  };
  const base = roundTrip(raw);
  assert.equal(base.type, 4);
  assert.deepEqual(base.scaled, {
    type: 4,
    repeat: 0,
    mmsi: 2442000,
    utc: '2024-03-07T09:05:01Z',
    position_accuracy: true,
    lat: 52,
    lon: 5,
    epfd: 7,
    raim: true,
    radio: 81921,
  });
  const response = roundTrip({ ...raw, type: 11, year: 0, hour: 24, minute: 60, second: 60, epfd: 0 });
  assert.equal(response.type, 11);
  assert.equal((response.scaled as { utc: string | null }).utc, null);
  assert.equal((response.scaled as { epfd: number | null }).epfd, null);
  assert.equal(rejection(decodeCut(raw, 167)), 'payload_too_short');
});

test('type 5: the well-known two-sentence EVER DIADEM sample', () => {
  const message = decodeLines(
    '!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C',
    '!AIVDM,2,2,1,A,88888888880,2*25',
  );
  assert.equal(message.type, 5);
  assert.deepEqual(message.scaled, {
    type: 5,
    repeat: 0,
    mmsi: 351759000,
    ais_version: 0,
    imo: 9134270,
    callsign: '3FOF8',
    shipname: 'EVER DIADEM',
    ship_type: 70,
    to_bow: 225,
    to_stern: 70,
    to_port: 1,
    to_starboard: 31,
    length: 295,
    beam: 32,
    epfd: 1,
    eta: { month: 5, day: 15, hour: 14, minute: 0 },
    draught: 12.2,
    destination: 'NEW YORK',
    data_terminal_ready: true,
  });
});

test('type 5: not-available values, and the 420-bit variant gpsd accepts', () => {
  const empty = roundTrip({
    ...STATIC,
    imo: 0,
    callsign: '',
    shipname: '',
    shiptype: 0,
    to_bow: 0,
    to_stern: 0,
    to_port: 0,
    to_starboard: 0,
    epfd: 0,
    month: 0,
    day: 0,
    hour: 24,
    minute: 60,
    draught: 0,
    destination: '',
    dte: 1,
  }).scaled as unknown as Record<string, unknown>;
  for (const field of ['imo', 'callsign', 'shipname', 'ship_type', 'length', 'beam', 'epfd', 'eta', 'draught', 'destination']) {
    assert.equal(empty[field], null, field);
  }
  assert.equal(empty.data_terminal_ready, false);
  const partialEta = roundTrip({ ...STATIC, month: 0, day: 0, hour: 10, minute: 60 }).scaled as { eta: unknown };
  assert.deepEqual(partialEta.eta, { month: null, day: null, hour: 10, minute: null });

  const short = decodeCut(STATIC, 420);
  assert.ok(short.ok);
  assert.deepEqual(short.message.raw, STATIC);
  assert.equal(rejection(decodeCut(STATIC, 419)), 'payload_too_short');
});

test('type 6: envelope with sequence number, destination, retransmit flag and raw data', () => {
  const message = roundTrip({
    type: 6,
    repeat: 1,
    mmsi: 2268402,
    seqno: 1,
    dest_mmsi: 211169650,
    retransmit: true,
    dac: 1,
    fid: 2,
    data: '3237a0',
    data_bits: 19,
  });
  assert.deepEqual(message.scaled, {
    type: 6,
    repeat: 1,
    mmsi: 2268402,
    seqno: 1,
    dest_mmsi: 211169650,
    retransmit: true,
    dac: 1,
    fid: 2,
    data: '3237a0',
    data_bits: 19,
  });
  assert.equal(rejection(decodeCut(message.raw, 87)), 'payload_too_short');
});

test('type 8: envelope with DAC, FID and raw data', () => {
  const message = roundTrip({ type: 8, repeat: 0, mmsi: 2320061, dac: 1, fid: 31, data: 'ffee', data_bits: 16 });
  assert.deepEqual(message.raw, { type: 8, repeat: 0, mmsi: 2320061, dac: 1, fid: 31, data: 'ffee', data_bits: 16 });
  const bare = roundTrip({ type: 8, repeat: 0, mmsi: 1, dac: 200, fid: 10, data: '', data_bits: 0 });
  assert.equal((bare.raw as { data: string }).data, '');
  assert.equal(rejection(decodeCut(bare.raw, 55)), 'payload_too_short');
});

test('type 9: SAR aircraft with altitude and whole-knot speed', () => {
  const message = decodeLines('!AIVDM,1,1,,B,91b55wi;hbOS@OdQAC062Ch2089h,0*30');
  assert.equal(message.type, 9);
  const scaled = message.scaled as unknown as Record<string, unknown>;
  assert.equal(scaled.mmsi, 111232511);
  assert.equal(scaled.altitude, 303);
  assert.equal(scaled.sog, 42);
  assert.equal(scaled.cog, 154.5);
  assert.equal(scaled.lat, 58.144);
  assert.equal(scaled.timestamp_second, 15);
  const unknown = roundTrip({ ...(message.raw as AisRaw & { type: 9 }), alt: 4095, speed: 1023 }).scaled as unknown as Record<string, unknown>;
  assert.equal(unknown.altitude, null);
  assert.equal(unknown.sog, null);
});

test('type 18: Class B position report', () => {
  const raw: ClassBPositionRaw = {
    type: 18,
    repeat: 0,
    mmsi: 230108610,
    reserved: 0,
    speed: 73,
    accuracy: false,
    lon: 14978829,
    lat: 36098238,
    course: 2980,
    heading: 298,
    second: 0,
    regional: 0,
    cs: true,
    display: true,
    dsc: false,
    band: false,
    msg22: false,
    assigned: false,
    raim: false,
    radio: 917510,
  };
  const message = roundTrip(raw);
  assert.equal(message.type, 18);
  const scaled = message.scaled as unknown as Record<string, unknown>;
  assert.equal(scaled.sog, 7.3);
  assert.equal(scaled.cog, 298);
  assert.equal(scaled.heading, 298);
  assert.equal(scaled.cs_unit, true);
  assert.ok(Math.abs((scaled.lat as number) - 60.16373) < 1e-5);
  assert.equal(rejection(decodeCut(raw, 167)), 'payload_too_short');
});

test('type 19: extended Class B report with name and dimensions', () => {
  const message = roundTrip({
    type: 19,
    repeat: 0,
    mmsi: 412440345,
    reserved: 0,
    speed: 0,
    accuracy: false,
    lon: 70752726,
    lat: 14473870,
    course: 3367,
    heading: 0,
    second: 0,
    regional: 0,
    shipname: 'MIN ZHANG YU 03066',
    shiptype: 92,
    to_bow: 5,
    to_stern: 4,
    to_port: 2,
    to_starboard: 1,
    epfd: 1,
    raim: false,
    dte: 0,
    assigned: false,
  });
  const scaled = message.scaled as unknown as Record<string, unknown>;
  assert.equal(scaled.shipname, 'MIN ZHANG YU 03066');
  assert.equal(scaled.ship_type, 92);
  assert.equal(scaled.length, 9);
  assert.equal(scaled.beam, 3);
  assert.equal(scaled.cog, 336.7);
  assert.equal(rejection(decodeCut(message.raw, 311)), 'payload_too_short');
});

test('type 21: aid to navigation, with and without a name extension', () => {
  const base = {
    type: 21 as const,
    repeat: 1,
    mmsi: 993672028,
    aid_type: 13,
    accuracy: false,
    lon: -49468323,
    lat: 16698197,
    to_bow: 0,
    to_stern: 0,
    to_port: 0,
    to_starboard: 0,
    epfd: 7,
    second: 61,
    off_position: false,
    regional: 0,
    raim: false,
    virtual_aid: true,
    assigned: false,
  };
  const long = roundTrip({ ...base, name: 'HILLSBRGH CUT C CH LB 17' });
  assert.equal((long.raw as { name: string }).name, 'HILLSBRGH CUT C CH LB 17');
  const scaled = long.scaled as unknown as Record<string, unknown>;
  assert.equal(scaled.aid_type, 13);
  assert.equal(scaled.timestamp_second, null);
  assert.equal(scaled.virtual_aid, true);
  assert.equal(scaled.length, null);
  const short = roundTrip({ ...base, name: 'BUOY 7' });
  assert.equal((short.raw as { name: string }).name, 'BUOY 7');
  assert.equal(rejection(decodeCut(short.raw, 271)), 'payload_too_short');
});

test('type 24: part A and part B keep their part number', () => {
  const partA = decodeLines('!AIVDM,1,1,,A,H42O55i18tMET00000000000000,2*6D');
  assert.deepEqual(partA.raw, { type: 24, repeat: 0, mmsi: 271041815, partno: 0, shipname: 'PROGUY' });
  assert.deepEqual(partA.scaled, { type: 24, repeat: 0, mmsi: 271041815, part: 0, shipname: 'PROGUY' });
  const sampleB = decodeLines('!AIVDM,1,1,,A,H52KMeDU653hhhi0000000000000,0*1A').raw;
  assert.deepEqual([sampleB.mmsi, (sampleB as StaticDataPartBRaw).partno, (sampleB as StaticDataPartBRaw).shiptype], [338091445, 1, 37]);

  const raw: StaticDataPartBRaw = {
    type: 24,
    repeat: 0,
    mmsi: 265611350,
    partno: 1,
    shiptype: 37,
    vendorid: 'THA',
    model: 1,
    serial: 467783,
    callsign: 'SLGJ',
    to_bow: 9,
    to_stern: 10,
    to_port: 3,
    to_starboard: 3,
    mothership_mmsi: null,
  };
  const partB = roundTrip(raw);
  assert.deepEqual(partB.scaled, {
    type: 24,
    repeat: 0,
    mmsi: 265611350,
    part: 1,
    ship_type: 37,
    vendor_id: 'THA',
    model: 1,
    serial: 467783,
    callsign: 'SLGJ',
    to_bow: 9,
    to_stern: 10,
    to_port: 3,
    to_starboard: 3,
    length: 19,
    beam: 6,
    mothership_mmsi: null,
  });
  const auxiliary = roundTrip({ ...raw, mmsi: 982651234, to_bow: 0, to_stern: 0, to_port: 0, to_starboard: 0, mothership_mmsi: 265611350 });
  assert.equal((auxiliary.scaled as { mothership_mmsi: number | null }).mothership_mmsi, 265611350);
  assert.equal(isAuxiliaryMmsi(982651234), true);
  assert.equal(isAuxiliaryMmsi(265611350), false);

  assert.equal(rejection(decodeCut(raw, 167)), 'payload_too_short');
  // Part number 2 is not defined.
  const valid = withBitLength(raw, 168);
  const reader = new SixBitReader();
  reader.reset(valid.payload, valid.fillBits);
  const writer = new SixBitWriter().uint(reader.uint(0, 38), 38).uint(2, 2);
  for (let bit = 40; bit < 168; bit++) writer.uint(reader.uint(bit, 1), 1);
  const undefinedPart = writer.toPayload();
  assert.equal(rejection(decodeAisPayload(undefinedPart.payload, undefinedPart.fillBits)), 'unknown_type');
});

test('type 27: long-range broadcast in 1/10 minute with its own not-available values', () => {
  const raw: LongRangeRaw = {
    type: 27,
    repeat: 0,
    mmsi: 230108610,
    accuracy: false,
    raim: false,
    status: 0,
    lon: 14978,
    lat: 36098,
    speed: 1,
    course: 30,
    gnss: true,
  };
  const message = roundTrip(raw);
  const scaled = message.scaled as unknown as Record<string, unknown>;
  assert.ok(Math.abs((scaled.lat as number) - 36098 / 600) < 1e-12);
  assert.ok(Math.abs((scaled.lon as number) - 14978 / 600) < 1e-12);
  assert.equal(scaled.sog, 1);
  assert.equal(scaled.cog, 30);
  assert.equal(scaled.nav_status, 0);
  const unknown = roundTrip({ ...raw, lon: 181 * 600, lat: 91 * 600, speed: 63, course: 511, status: 15 }).scaled as unknown as Record<string, unknown>;
  assert.deepEqual([unknown.lat, unknown.lon, unknown.sog, unknown.cog, unknown.nav_status], [null, null, null, null, null]);
  const south = roundTrip({ ...raw, lat: -36098, lon: -14978 }).scaled as unknown as Record<string, unknown>;
  assert.ok((south.lat as number) < 0 && (south.lon as number) < 0);
  assert.ok(decodeCut(raw, 168).ok);
  assert.equal(rejection(decodeCut(raw, 95)), 'payload_too_short');
});

test('unsupported types, empty and invalid payloads are rejected, never thrown', () => {
  for (const type of [0, 7, 10, 12, 13, 14, 15, 16, 17, 20, 22, 23, 25, 26, 28, 63]) {
    const { payload, fillBits } = new SixBitWriter().uint(type, 6).uint(0, 162).toPayload();
    const result = decodeAisPayload(payload, fillBits);
    assert.equal(rejection(result), 'unknown_type', `type ${type}`);
    assert.equal(result.ok ? -1 : result.type, type);
  }
  assert.equal(rejection(decodeAisPayload('', 0)), 'payload_too_short');
  assert.equal(rejection(decodeAisPayload('1', 1)), 'payload_too_short');
  assert.equal(rejection(decodeAisPayload('1', 0)), 'payload_too_short');
  assert.equal(rejection(decodeAisPayload('1xyz', 0)), 'invalid_payload');
  assert.equal(rejection(decodeAisPayload('15M67FC000G?ufbE', 6)), 'invalid_payload');
});
