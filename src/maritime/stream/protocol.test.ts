import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from 'typebox/value';
import { decoded, positionReport, staticVoyage } from '../vessels/fixtures.ts';
import { imoCheckDigit } from '../vessels/reference/index.ts';
import { VesselStore } from '../vessels/store.ts';
import { ClientMessages } from '../../platform/stream/client-messages.ts';
import { LIMITS, normaliseSubscription, positionData, readClientMessage, staticData, type ClientMessage, type Refusal } from './protocol.ts';
import { AIS_STREAM_MESSAGES, PositionData, StaticData, type SubscribeMessage } from './stream.schemas.ts';

const messages = new ClientMessages(AIS_STREAM_MESSAGES);

const refusal = (text: string): Refusal => {
  const result = readClientMessage(text, messages);
  assert.ok('error' in result, `${text} was accepted`);
  return result;
};

const accepted = (text: string): ClientMessage => {
  const result = readClientMessage(text, messages);
  assert.ok(!('error' in result), `${text} was refused: ${JSON.stringify(result)}`);
  return result;
};

const subscription = (message: Omit<SubscribeMessage, 'type'>) => normaliseSubscription({ type: 'subscribe', ...message });

test('messages that are not JSON objects of a known type break the protocol', () => {
  assert.deepEqual(refusal('{"type":'), { error: { code: 'invalid_json', message: 'Messages are JSON objects such as {"type":"subscribe"}.' }, protocol: true });
  assert.equal(refusal('[1,2]').error.code, 'invalid_message');
  assert.equal(refusal('"subscribe"').error.code, 'invalid_message');
  assert.deepEqual(refusal('{"type":"unsubscribe"}').error, { code: 'unknown_type', message: 'type must be auth, subscribe or heartbeat.', field: '/type' });
  assert.equal(refusal('{"type":"heartbeat","extra":1}').protocol, true);
});

test('an invalid subscription names the field and does not break the protocol', () => {
  const cases: [string, string][] = [
    ['{"type":"subscribe","bbox":{"minLat":95,"maxLat":96,"minLon":0,"maxLon":1}}', '/bbox/minLat must be at most 90'],
    ['{"type":"subscribe","bbox":{"minLat":1,"minLon":0,"maxLon":1}}', '/bbox/maxLat is required'],
    ['{"type":"subscribe","bboxs":[]}', '/bboxs is not a known field'],
    ['{"type":"subscribe","bboxes":[{"minLat":1,"maxLat":2,"minLon":0,"maxLon":1,"srid":4326}]}', '/bboxes/0/srid is not a known field'],
    ['{"type":"subscribe","mmsi":[244123456,"244123457"]}', '/mmsi/1 must be an integer'],
    ['{"type":"subscribe","mmsi":[0]}', '/mmsi/0 must be at least 1'],
    ['{"type":"subscribe","vesselTypes":["TANKER","SUBMARINE"]}', `/vesselTypes/1 must be one of ${'TANKER, CARGO, PASSENGER'}`],
    ['{"type":"subscribe","flags":["nl"]}', '/flags/0 must match ^[A-Z]{2}$'],
    ['{"type":"subscribe","updateIntervalSec":0.5}', '/updateIntervalSec must be at least 1'],
    ['{"type":"subscribe","updateIntervalSec":"5"}', '/updateIntervalSec must be a number'],
    [`{"type":"subscribe","mmsi":[${Array.from({ length: LIMITS.maxListItems + 1 }, (_, i) => 200_000_000 + i)}]}`, `/mmsi must have at most ${LIMITS.maxListItems} items`],
  ];
  for (const [text, expected] of cases) {
    const { error, protocol } = refusal(text);
    assert.equal(error.code, 'invalid_subscription', text);
    assert.ok(error.message.startsWith(expected), `${error.message} (expected ${expected})`);
    assert.equal(error.field, expected.split(' ')[0], text);
    assert.equal(protocol, false);
  }
});

test('an auth message is read, and a refused one never repeats the key', () => {
  const message = accepted('{"type":"auth","api_key":"lamis_live_secret"}');
  assert.deepEqual(message, { type: 'auth', message: { type: 'auth', api_key: 'lamis_live_secret' } });
  for (const text of ['{"type":"auth","api_key":"lamis_live_secret","key":"lamis_live_secret"}', '{"type":"auth","api_key":["lamis_live_secret"]}', '{"type":"auth","api_key":"lamis_live_secret"']) {
    assert.doesNotMatch(JSON.stringify(refusal(text)), /secret/);
  }
  assert.deepEqual(refusal('{"type":"auth"}').error, { code: 'invalid_message', message: '/api_key is required', field: '/api_key' });
  const long = refusal(`{"type":"auth","api_key":"lamis_live_secret${'x'.repeat(512)}"}`).error;
  assert.deepEqual(long, { code: 'invalid_message', message: '/api_key must have at most 512 characters', field: '/api_key' });
});

test('the effective filter lists every kind, without duplicates, with the default interval', () => {
  const result = subscription({ bbox: { minLat: 1, maxLat: 2, minLon: 3, maxLon: 4 }, bboxes: [{ minLat: 1, maxLat: 2, minLon: 3, maxLon: 4 }, { minLat: -10, maxLat: 10, minLon: 170, maxLon: -170 }], mmsi: [5, 5, 6], flags: ['NL', 'NL'] });
  assert.deepEqual(result, {
    ok: true,
    filter: {
      bboxes: [{ minLat: 1, maxLat: 2, minLon: 3, maxLon: 4 }, { minLat: -10, maxLat: 10, minLon: 170, maxLon: -170 }],
      vesselTypes: [], mmsi: [5, 6], imo: [], flags: ['NL'], updateIntervalSec: LIMITS.defaultUpdateIntervalSec,
    },
  });
  assert.deepEqual(subscription({}), { ok: true, filter: { bboxes: [], vesselTypes: [], mmsi: [], imo: [], flags: [], updateIntervalSec: 5 } });
  assert.equal((subscription({ updateIntervalSec: 15 }) as { filter: { updateIntervalSec: number } }).filter.updateIntervalSec, 15);
});

test('subscriptions that pass the schema but make no sense name the field', () => {
  const field = (message: Omit<SubscribeMessage, 'type'>) => {
    const result = subscription(message);
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'invalid_subscription');
    return result.error.field;
  };
  assert.equal(field({ bboxes: [{ minLat: 0, maxLat: 1, minLon: 0, maxLon: 1 }, { minLat: 5, maxLat: 4, minLon: 0, maxLon: 1 }] }), '/bboxes/1/minLat');
  assert.equal(field({ flags: ['NL', 'XX'] }), '/flags/1');
  const checkDigit = imoCheckDigit(907_472);
  assert.equal(field({ imo: [907_472 * 10 + checkDigit, 907_472 * 10 + ((checkDigit + 1) % 10)] }), '/imo/1');
  const box = { minLat: 0, maxLat: 1, minLon: 0, maxLon: 1 };
  assert.equal(field({ bbox: box, bboxes: Array.from({ length: LIMITS.maxBoxes }, () => box) }), '/bboxes');
});

test('position and static frames carry the vessel in the shape their schemas publish', () => {
  const store = new VesselStore();
  const at = Date.parse('2026-11-21T12:00:00Z');
  store.apply(decoded(positionReport(244_123_456, 51.95, 4.05)), at, 'live');
  store.apply(decoded(staticVoyage(244_123_456, { shipname: 'NORDIC SPIRIT', shiptype: 80 })), at + 1000, 'live');
  const vessel = store.get(244_123_456)!;
  const position = positionData(vessel)!;
  assert.ok(Value.Check(PositionData, position), JSON.stringify([...Value.Errors(PositionData, position)]));
  assert.deepEqual({ ...position, lat: Math.round(position.lat * 100) / 100, lon: Math.round(position.lon * 100) / 100 }, {
    mmsi: 244_123_456, name: 'NORDIC SPIRIT', lat: 51.95, lon: 4.05, imo: 9074729, sog: 12.3, cog: 271.5, heading: 270,
    nav_status: 0, vessel_type: 'TANKER', flag: 'NL', timestamp: '2026-11-21T12:00:00.000Z', source: 'live',
  });
  const statics = staticData(vessel);
  assert.ok(Value.Check(StaticData, statics), JSON.stringify([...Value.Errors(StaticData, statics)]));
  assert.equal(statics.destination, 'NLRTM');
  assert.equal(statics.timestamp, '2026-11-21T12:00:01.000Z');
  // A vessel heard only through static data has no position to send.
  store.apply(decoded(staticVoyage(244_000_001)), at, 'live');
  assert.equal(positionData(store.get(244_000_001)!), null);
});
