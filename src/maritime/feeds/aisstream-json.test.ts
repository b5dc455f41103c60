import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AisMessage } from '../ais/index.ts';
import { convertAisstreamMessage, CONVERTED_AISSTREAM_TYPES, parseAisstreamFrame } from './aisstream-json.ts';
import { AISSTREAM_MESSAGE_TYPES } from './spec.ts';

/** aisstream's envelope around one message body. */
export function envelope(messageType: string, body: Record<string, unknown>): Record<string, unknown> {
  return {
    MessageType: messageType,
    MetaData: { MMSI: body.UserID, MMSI_String: body.UserID, ShipName: 'X', latitude: 0, longitude: 0, time_utc: '2025-03-01 12:00:00.123456 +0000 UTC' },
    Message: { [messageType]: body },
  };
}

function convert(messageType: string, body: Record<string, unknown>): AisMessage {
  const frame = convertAisstreamMessage(envelope(messageType, body));
  assert.equal(frame.kind, 'message', JSON.stringify(frame));
  assert.ok(frame.kind === 'message');
  assert.equal(frame.messageType, messageType);
  return frame.message;
}

function close(actual: number | null | undefined, expected: number, tolerance = 1e-6): void {
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) <= tolerance, `${actual} != ${expected}`);
}

test('PositionReport: degrees stay degrees, Sog and Cog come scaled, RateOfTurn is the ROT code', () => {
  // Shaped like aisstream's documented example.
  const message = convert('PositionReport', {
    Cog: 308, CommunicationState: 81982, Latitude: 66.02695, Longitude: 12.253821666666665, MessageID: 1,
    NavigationalStatus: 15, PositionAccuracy: true, Raim: false, RateOfTurn: 4, RepeatIndicator: 0, Sog: 12.3,
    Spare: 0, SpecialManoeuvreIndicator: 0, Timestamp: 31, TrueHeading: 235, UserID: 259000420, Valid: true,
  });
  assert.equal(message.type, 1);
  assert.equal(message.mmsi, 259000420);
  assert.ok(message.type === 1 || message.type === 2 || message.type === 3);
  const s = message.scaled as Extract<AisMessage, { type: 1 | 2 | 3 }>['scaled'];
  close(s.lat, 66.02695);
  close(s.lon, 12.253821666666665, 1e-6);
  close(s.sog, 12.3);
  close(s.cog, 308);
  assert.equal(s.heading, 235);
  assert.equal(s.nav_status, null); // 15: not defined
  close(s.rot, (4 / 4.733) ** 2, 1e-9);
  assert.equal(s.timestamp_second, 31);
  assert.equal(s.position_accuracy, true);
  assert.equal(s.radio, 81982);
  assert.equal(message.raw.type === 1 && message.raw.speed, 123);
});

test('PositionReport: "not available" values come out null, as from the codec', () => {
  const message = convert('PositionReport', {
    MessageID: 3, UserID: 211281610, Sog: 102.3, Cog: 360, TrueHeading: 511, Latitude: 91, Longitude: 181, RateOfTurn: -128, Timestamp: 60, NavigationalStatus: 5,
  });
  assert.equal(message.type, 3);
  const s = message.scaled as Extract<AisMessage, { type: 1 | 2 | 3 }>['scaled'];
  assert.deepEqual([s.sog, s.cog, s.heading, s.lat, s.lon, s.rot, s.timestamp_second, s.nav_status], [null, null, null, null, null, null, null, 5]);
  // Missing fields take their "not available" values too.
  const sparse = convert('PositionReport', { UserID: 211281610 });
  const t = sparse.scaled as Extract<AisMessage, { type: 1 | 2 | 3 }>['scaled'];
  assert.deepEqual([sparse.type, t.sog, t.cog, t.heading, t.lat, t.lon], [1, null, null, null, null, null]);
});

test('ShipStaticData: names, voyage data, dimensions, draught in metres', () => {
  const message = convert('ShipStaticData', {
    AisVersion: 1, CallSign: 'PDGS   ', Destination: 'NL RTM@@@@', Dimension: { A: 150, B: 30, C: 15, D: 17 }, Dte: false,
    Eta: { Day: 3, Hour: 14, Minute: 30, Month: 12 }, FixType: 1, ImoNumber: 9074729, MaximumStaticDraught: 11.8, MessageID: 5,
    Name: 'NORDIC SPIRIT', RepeatIndicator: 0, Spare: false, Type: 80, UserID: 244660000, Valid: true,
  });
  assert.equal(message.type, 5);
  assert.ok(message.type === 5);
  const s = message.scaled;
  assert.equal(s.shipname, 'NORDIC SPIRIT');
  assert.equal(s.callsign, 'PDGS');
  assert.equal(s.destination, 'NL RTM');
  assert.equal(s.imo, 9074729);
  assert.equal(s.ship_type, 80);
  close(s.draught, 11.8);
  assert.deepEqual(s.eta, { month: 12, day: 3, hour: 14, minute: 30 });
  assert.deepEqual([s.length, s.beam, s.to_bow], [180, 32, 150]);
  assert.equal(s.data_terminal_ready, true);
  assert.equal(s.ais_version, 1);
});

test('Class B position and extended reports', () => {
  const b = convert('StandardClassBPositionReport', {
    AssignedMode: false, ClassBBand: true, ClassBDisplay: false, ClassBDsc: true, ClassBMsg22: true, ClassBUnit: true, Cog: 45.5,
    CommunicationState: 393222, CommunicationStateIsItdma: true, Latitude: -33.856, Longitude: 151.215, MessageID: 18, PositionAccuracy: false,
    Raim: true, RepeatIndicator: 0, Sog: 5.4, Spare1: 0, Spare2: 0, Timestamp: 12, TrueHeading: 511, UserID: 503123456, Valid: true,
  });
  assert.ok(b.type === 18);
  close(b.scaled.lat, -33.856);
  close(b.scaled.lon, 151.215);
  close(b.scaled.sog, 5.4);
  close(b.scaled.cog, 45.5);
  assert.equal(b.scaled.heading, null);
  assert.equal(b.scaled.cs_unit, true);
  assert.equal(b.scaled.raim, true);
  assert.equal(b.scaled.radio, 2 ** 19 + 393222);

  const x = convert('ExtendedClassBPositionReport', {
    MessageID: 19, UserID: 367000001, Sog: 8, Cog: 90, Latitude: 47.6, Longitude: -122.3, TrueHeading: 88, Timestamp: 5,
    Name: 'SEA BREEZE', Type: 37, Dimension: { A: 10, B: 5, C: 2, D: 3 }, FixType: 1, Dte: true,
  });
  assert.ok(x.type === 19);
  assert.equal(x.scaled.shipname, 'SEA BREEZE');
  assert.equal(x.scaled.ship_type, 37);
  assert.equal(x.scaled.length, 15);
  assert.equal(x.scaled.heading, 88);
  assert.equal(x.scaled.data_terminal_ready, false);
});

test('StaticDataReport parts A and B, with the mothership of an auxiliary craft', () => {
  const a = convert('StaticDataReport', { MessageID: 24, UserID: 338123456, PartNumber: false, ReportA: { Valid: true, Name: 'SALTY DOG' }, ReportB: { Valid: false } });
  assert.ok(a.type === 24 && a.scaled.part === 0);
  assert.equal(a.scaled.shipname, 'SALTY DOG');

  const b = convert('StaticDataReport', {
    MessageID: 24, UserID: 338123456, PartNumber: true, ReportA: { Valid: false, Name: '' },
    ReportB: { Valid: true, ShipType: 36, VendorIDName: 'SRT', VenderIDModel: 3, VenderIDSerial: 12345, CallSign: 'WDA1234', Dimension: { A: 8, B: 4, C: 2, D: 2 }, FixType: 1 },
  });
  assert.ok(b.type === 24 && b.scaled.part === 1);
  assert.equal(b.scaled.ship_type, 36);
  assert.equal(b.scaled.vendor_id, 'SRT');
  assert.equal(b.scaled.model, 3);
  assert.equal(b.scaled.serial, 12345);
  assert.equal(b.scaled.callsign, 'WDA1234');
  assert.equal(b.scaled.length, 12);
  assert.equal(b.scaled.mothership_mmsi, null);

  // 98MIDxxxx: the dimension bits carry the mothership MMSI (as go-ais hands them over).
  const mother = 244660000;
  const dimension = { A: Math.floor(mother / 2 ** 21), B: Math.floor(mother / 2 ** 12) % 512, C: Math.floor(mother / 64) % 64, D: mother % 64 };
  const aux = convert('StaticDataReport', { MessageID: 24, UserID: 982440001, PartNumber: true, ReportB: { Valid: true, ShipType: 0, Dimension: dimension } });
  assert.ok(aux.type === 24 && aux.scaled.part === 1);
  assert.equal(aux.scaled.mothership_mmsi, mother);
  assert.equal(aux.scaled.length, null);
});

test('base station, aid to navigation, long range, SAR aircraft and binary messages', () => {
  const base = convert('BaseStationReport', {
    MessageID: 4, UserID: 2442000, UtcYear: 2025, UtcMonth: 3, UtcDay: 1, UtcHour: 12, UtcMinute: 5, UtcSecond: 9, Latitude: 51.9, Longitude: 4.1,
    FixType: 7, LongRangeEnable: false, PositionAccuracy: true, Raim: false, CommunicationState: 0, Valid: true,
  });
  assert.ok(base.type === 4);
  assert.equal(base.scaled.utc, '2025-03-01T12:05:09Z');
  close(base.scaled.lat, 51.9);
  assert.equal(base.scaled.epfd, 7);

  const aton = convert('AidsToNavigationReport', {
    MessageID: 21, UserID: 992446001, Type: 14, Name: 'MAASVLAKTE NORTH BUO', NameExtension: 'Y 3', Latitude: 51.98, Longitude: 3.99,
    Dimension: { A: 1, B: 1, C: 1, D: 1 }, Fixtype: 1, Timestamp: 60, OffPosition: false, AtoN: 0, Raim: false, VirtualAtoN: true, AssignedMode: false,
  });
  assert.ok(aton.type === 21);
  assert.equal(aton.scaled.name, 'MAASVLAKTE NORTH BUOY 3');
  assert.equal(aton.scaled.aid_type, 14);
  assert.equal(aton.scaled.virtual_aid, true);
  assert.equal(aton.scaled.epfd, 1);

  const longRange = convert('LongRangeAisBroadcastMessage', {
    MessageID: 27, UserID: 636012345, PositionAccuracy: false, Raim: false, NavigationalStatus: 0, Latitude: 12.3, Longitude: -45.6, Sog: 14, Cog: 271, PositionLatency: false,
  });
  assert.ok(longRange.type === 27);
  close(longRange.scaled.lat, 12.3);
  close(longRange.scaled.lon, -45.6);
  assert.equal(longRange.scaled.sog, 14);
  assert.equal(longRange.scaled.cog, 271);
  assert.equal(longRange.scaled.nav_status, 0);

  const sar = convert('StandardSearchAndRescueAircraftReport', {
    MessageID: 9, UserID: 111232511, Altitude: 300, Sog: 120, Cog: 180.5, Latitude: 60.1, Longitude: 5.2, Timestamp: 10, AltFromBaro: true,
    Dte: false, AssignedMode: false, Raim: false, CommunicationStateIsItdma: false, CommunicationState: 5,
  });
  assert.ok(sar.type === 9);
  assert.equal(sar.scaled.altitude, 300);
  assert.equal(sar.scaled.sog, 120); // whole knots
  close(sar.scaled.cog, 180.5);
  assert.equal(sar.scaled.regional, 128);

  const data = Buffer.from([0x12, 0x34, 0xab]);
  const broadcast = convert('BinaryBroadcastMessage', {
    MessageID: 8, UserID: 2655619, ApplicationID: { Valid: true, DesignatedAreaCode: 1, FunctionIdentifier: 31 }, BinaryData: data.toString('base64'),
  });
  assert.ok(broadcast.type === 8);
  assert.deepEqual([broadcast.scaled.dac, broadcast.scaled.fid, broadcast.scaled.data, broadcast.scaled.data_bits], [1, 31, '1234ab', 24]);

  const addressed = convert('AddressedBinaryMessage', {
    MessageID: 6, UserID: 2655619, Sequenceinteger: 2, DestinationID: 244660000, Retransmission: true,
    ApplicationID: { Valid: true, DesignatedAreaCode: 235, FunctionIdentifier: 10 }, BinaryData: data.toString('base64'),
  });
  assert.ok(addressed.type === 6);
  assert.deepEqual([addressed.scaled.seqno, addressed.scaled.dest_mmsi, addressed.scaled.retransmit, addressed.scaled.data], [2, 244660000, true, '1234ab']);
});

test('frames that are not messages are classified, never thrown', () => {
  assert.deepEqual(parseAisstreamFrame('{"error": "Api Key Is Not Valid"}'), { kind: 'error', error: 'Api Key Is Not Valid' });
  const reasons = [
    parseAisstreamFrame('not json'),
    parseAisstreamFrame('[1,2]'),
    parseAisstreamFrame('{"MessageType": "PositionReport"}'),
    parseAisstreamFrame('{"MessageType": "PositionReport", "Message": {}}'),
    parseAisstreamFrame(JSON.stringify(envelope('SafetyBroadcastMessage', { MessageID: 14, UserID: 1, Text: 'HELLO' }))),
    parseAisstreamFrame(JSON.stringify(envelope('SomethingNew', { UserID: 1 }))),
    parseAisstreamFrame(JSON.stringify(envelope('PositionReport', { UserID: 1, Valid: false }))),
    parseAisstreamFrame(JSON.stringify(envelope('PositionReport', { UserID: 1, Sog: 150 }))),
    parseAisstreamFrame(JSON.stringify(envelope('PositionReport', { UserID: 1, Latitude: '52.1' }))),
    parseAisstreamFrame(JSON.stringify(envelope('PositionReport', { UserID: 1, MessageID: 5 }))),
    parseAisstreamFrame(JSON.stringify({ MessageType: 'PositionReport', Message: { PositionReport: { Sog: 1 } } })),
    parseAisstreamFrame(JSON.stringify(envelope('BinaryBroadcastMessage', { UserID: 1, BinaryData: '***' }))),
  ].map((frame) => (frame.kind === 'rejected' ? frame.reason : frame.kind));
  assert.deepEqual(reasons, [
    'malformed', 'malformed', 'malformed', 'malformed',
    'unsupported', 'unsupported',
    'invalid', 'invalid', 'invalid', 'invalid', 'invalid', 'invalid',
  ]);
  const detail = parseAisstreamFrame(JSON.stringify(envelope('PositionReport', { UserID: 1, Sog: 150 })));
  assert.ok(detail.kind === 'rejected');
  assert.match(detail.detail, /PositionReport\.Sog 150 is outside 0\.\.102\.3/);
  // The MMSI may come from MetaData when the body lacks UserID.
  const fromMeta = convertAisstreamMessage({ MessageType: 'PositionReport', MetaData: { MMSI: 244660000 }, Message: { PositionReport: { Sog: 1 } } });
  assert.ok(fromMeta.kind === 'message' && fromMeta.message.mmsi === 244660000);
});

test('every converted type is one of aisstream\'s message types', () => {
  for (const type of CONVERTED_AISSTREAM_TYPES) assert.ok(AISSTREAM_MESSAGE_TYPES.includes(type), type);
});
