import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFeedSpec, parseFeedSpecs, redactFeedUri, splitFeedList } from './spec.ts';
import type { FeedSpec } from './spec.ts';

function specs(text: string): FeedSpec[] {
  const result = parseFeedSpecs(text);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.specs;
}

function error(text: string): string {
  const result = parseFeedSpecs(text);
  assert.ok(!result.ok, `expected an error for ${text}`);
  return result.error;
}

test('empty or blank settings mean no feeds', () => {
  assert.deepEqual(specs(''), []);
  assert.deepEqual(specs('  '), []);
  assert.deepEqual(specs(' , '), []);
});

test('the network schemes', () => {
  assert.deepEqual(specs('udp://0.0.0.0:10110'), [{ kind: 'udp', id: 'udp://0.0.0.0:10110', host: '0.0.0.0', port: 10110 }]);
  assert.deepEqual(specs('TCP://Receiver.Local:5631'), [{ kind: 'tcp', id: 'tcp://receiver.local:5631', host: 'Receiver.Local', port: 5631 }]);
  assert.deepEqual(specs('tcp://10.0.0.5:5631?idle=90'), [{ kind: 'tcp', id: 'tcp://10.0.0.5:5631?idle=90', host: '10.0.0.5', port: 5631, idleTimeoutMs: 90_000 }]);
  assert.deepEqual(specs('tcp-listen://[::]:5000?max_connections=4&idle=60'), [
    { kind: 'tcp-listen', id: 'tcp-listen://[::]:5000?max_connections=4&idle=60', host: '::', port: 5000, maxConnections: 4, idleTimeoutMs: 60_000 },
  ]);
  // Port 0 on a listener: any free port.
  assert.equal((specs('udp://127.0.0.1:0')[0] as { port: number }).port, 0);
});

test('aisstream entries: boxes, MMSI and type filters in the URI; commas inside values need no escaping', () => {
  const list = specs(
    'udp://0.0.0.0:10110, aisstream+wss://stream.aisstream.io/v0/stream?bbox=50,-5,60,10;40,170,45,-170&mmsi=244660000,211281610&types=PositionReport;ShipStaticData,tcp://h:1',
  );
  assert.equal(list.length, 3);
  const aisstream = list[1]!;
  assert.equal(aisstream.kind, 'aisstream');
  if (aisstream.kind !== 'aisstream') return;
  assert.equal(aisstream.url, 'wss://stream.aisstream.io/v0/stream');
  assert.equal(aisstream.id, 'aisstream+wss://stream.aisstream.io/v0/stream?bbox=50,-5,60,10;40,170,45,-170&mmsi=244660000,211281610&types=PositionReport;ShipStaticData');
  assert.deepEqual(aisstream.boundingBoxes, [
    [[50, -5], [60, 10]],
    // Across the antimeridian: two boxes.
    [[40, 170], [45, 180]],
    [[40, -180], [45, -170]],
  ]);
  assert.deepEqual(aisstream.mmsi, ['244660000', '211281610']);
  assert.deepEqual(aisstream.messageTypes, ['PositionReport', 'ShipStaticData']);

  const plain = parseFeedSpec('aisstream+ws://127.0.0.1:8080/stream');
  assert.ok(plain.kind === 'aisstream');
  assert.equal(plain.url, 'ws://127.0.0.1:8080/stream');
  assert.deepEqual(plain.boundingBoxes, [[[-90, -180], [90, 180]]]);
  assert.deepEqual(plain.mmsi, []);
  // Repeated bbox parameters add up.
  const repeated = parseFeedSpec('aisstream+wss://x.example/s?bbox=1,2,3,4&bbox=5,6,7,8');
  assert.ok(repeated.kind === 'aisstream');
  assert.equal(repeated.boundingBoxes.length, 2);
});

test('file entries: relative, absolute and file:/// forms, with speed', () => {
  assert.deepEqual(specs('file:data/recording.nmea'), [{ kind: 'file', id: 'file:data/recording.nmea', path: 'data/recording.nmea', speed: 1 }]);
  assert.deepEqual(specs('file:/var/log/ais.nmea?speed=10'), [{ kind: 'file', id: 'file:/var/log/ais.nmea?speed=10', path: '/var/log/ais.nmea', speed: 10 }]);
  assert.deepEqual(specs('file:///srv/ais%20log.txt?speed=0.5'), [{ kind: 'file', id: 'file:///srv/ais%20log.txt?speed=0.5', path: '/srv/ais log.txt', speed: 0.5 }]);
  assert.equal((specs('file:x.nmea?speed=1e6')[0] as { speed: number }).speed, 1e6);
});

test('bad entries: each error names the entry and what is wrong', () => {
  const cases: [string, RegExp][] = [
    ['ftp://host:21', /feed 1 "ftp:\/\/host:21": unknown scheme "ftp:"/],
    ['localhost:10110', /must start with a scheme|unknown scheme/],
    ['udp://0.0.0.0', /port is missing/],
    ['udp://0.0.0.0:70000', /port must be a whole number from 0 to 65535, got "70000"/],
    ['tcp://host:0', /port must be a whole number from 1 to 65535/],
    ['tcp://host:abc', /port must be/],
    ['tcp://:5631', /host is missing/],
    ['tcp://bad_host!:5631', /"bad_host!" is not a valid host name/],
    ['tcp://300.1.1.1:5631', /not a valid IPv4 address/],
    ['udp://::1:10110', /IPv6 address goes in brackets/],
    ['tcp://[zz::1]:5631', /not a valid IPv6 address/],
    ['tcp://host:5631/path', /takes no path/],
    ['tcp://host:5631?idle=0', /idle \(seconds\) must be a whole number/],
    ['tcp://host:5631?sped=1', /unknown option "sped"; allowed: idle/],
    ['udp://0.0.0.0:1?x=1', /takes no options/],
    ['tcp-listen://0.0.0.0:5000?max_connections=0', /max_connections must be/],
    ['udp:0.0.0.0:10110', /write udp:\/\/HOST:PORT/],
    ['aisstream://stream.aisstream.io/v0/stream', /aisstream\+wss:\/\//],
    ['aisstream+wss://s.example/x?bbox=1,2,3', /bbox takes minLat,minLon,maxLat,maxLon/],
    ['aisstream+wss://s.example/x?bbox=95,0,96,1', /latitude must be a number from -90 to 90/],
    ['aisstream+wss://s.example/x?bbox=10,0,5,1', /minLat 10 is north of maxLat 5/],
    ['aisstream+wss://s.example/x?mmsi=1234', /mmsi must be 9-digit numbers/],
    ['aisstream+wss://s.example/x?types=Foo', /unknown message type "Foo"/],
    ['aisstream+wss://s.example/x?region=eu', /unknown option "region"/],
    ['file:', /path is missing/],
    ['file:x.nmea?speed=0', /speed must be a number above 0/],
    ['file:x.nmea?speed=fast', /speed must be/],
    ['file://otherhost/x.nmea', /not a valid file URL/],
  ];
  for (const [entry, expected] of cases) assert.match(error(entry), expected, entry);
});

test('every bad entry is reported, by position, in one error', () => {
  const result = parseFeedSpecs('udp://0.0.0.0:10110,tcp://h:0,file:x?speed=-1');
  assert.ok(!result.ok);
  assert.equal(result.errors.length, 2);
  assert.match(result.errors[0]!, /^feed 2 "tcp:\/\/h:0"/);
  assert.match(result.errors[1]!, /^feed 3 "file:x\?speed=-1"/);
  assert.equal(result.error, result.errors.join('; '));
});

test('duplicates and clashing listener ports are errors', () => {
  assert.match(error('udp://0.0.0.0:10110,UDP://0.0.0.0:10110'), /feed 2 .*duplicate of feed 1/);
  assert.match(error('udp://0.0.0.0:10110,udp://127.0.0.1:10110'), /feed 2 .*UDP port 10110 is already taken by feed 1/);
  assert.match(error('tcp-listen://127.0.0.1:5000,tcp-listen://[::]:5000'), /TCP port 5000 is already taken/);
  // Different protocols, or different specific addresses, may share a port.
  assert.equal(specs('udp://0.0.0.0:10110,tcp-listen://0.0.0.0:10110').length, 2);
  assert.equal(specs('udp://127.0.0.1:10110,udp://127.0.0.2:10110').length, 2);
});

test('credentials never belong in an entry and never show in the error', () => {
  const withKey = error('aisstream+wss://stream.aisstream.io/v0/stream?apikey=SECRET123');
  assert.match(withKey, /API key does not belong in the URI/);
  assert.doesNotMatch(withKey, /SECRET123/);
  const withUser = error('aisstream+wss://user:SECRET123@stream.aisstream.io/v0/stream');
  assert.match(withUser, /credentials do not belong/);
  assert.doesNotMatch(withUser, /SECRET123/);
  const tcp = error('tcp://me:SECRET123@host:5631');
  assert.doesNotMatch(tcp, /SECRET123/);
  assert.equal(redactFeedUri('aisstream+wss://a:b@h/p?token=x&bbox=1,2,3,4'), 'aisstream+wss://***@h/p?token=***&bbox=1,2,3,4');
});

test('the list splits only at commas followed by a scheme', () => {
  assert.deepEqual(splitFeedList('udp://a:1, tcp://b:2 ,aisstream+ws://c/s?bbox=1,2,3,4;5,6,7,8&mmsi=1,2,'), [
    'udp://a:1',
    'tcp://b:2',
    'aisstream+ws://c/s?bbox=1,2,3,4;5,6,7,8&mmsi=1,2',
  ]);
});
