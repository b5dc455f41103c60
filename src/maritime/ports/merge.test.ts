import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seaPortEntry, unlocodeEntry, wpiEntry } from './fixtures.ts';
import { mergePorts, PROXIMITY_NM } from './merge.ts';
import type { Port } from './model.ts';

/** Degrees of latitude for a distance in nm (60 nm to the degree, near enough for these tests). */
const north = (nm: number) => nm / 60;

function byId(ports: readonly Port[], id: string): Port {
  const port = ports.find((candidate) => candidate.id === id);
  assert.ok(port, `no port ${id} in ${ports.map((p) => p.id).join(', ')}`);
  return port;
}

test('sea-ports and UN/LOCODE entries with the same code are one port, each field from its source', () => {
  const ports = mergePorts({
    seaPorts: [seaPortEntry('NLAAA', { name: 'Aaa Port', alternate_names: ['Triple A'], lat: 52, lon: 4, timezone: 'Europe/Amsterdam' })],
    unlocode: [unlocodeEntry('NLAAA', { name: 'Aaahaven', lat: 52.01, lon: 4.01 }), unlocodeEntry('NLBBB', { name: 'Beehaven', lat: 53, lon: 5 })],
    wpi: [],
  });
  assert.deepEqual(ports.map((port) => port.id), ['NLAAA', 'NLBBB']);
  const aaa = ports[0]!;
  assert.equal(aaa.name, 'Aaa Port');
  assert.deepEqual(aaa.alternate_names, [{ name: 'Triple A', source: 'sea-ports' }, { name: 'Aaahaven', source: 'unlocode' }]);
  assert.deepEqual([aaa.lat, aaa.lon, aaa.timezone, aaa.wpi_number, aaa.harbour_size], [52, 4, 'Europe/Amsterdam', null, null]);
  assert.deepEqual(aaa.sources, { unlocode: 'unlocode', name: 'sea-ports', country: 'unlocode', lat: 'sea-ports', lon: 'sea-ports', timezone: 'sea-ports' });
  assert.deepEqual(aaa.approach_area, { kind: 'circle', radius_nm: 3 });
  assert.deepEqual(byId(ports, 'NLBBB').sources, { unlocode: 'unlocode', name: 'unlocode', country: 'unlocode', lat: 'unlocode', lon: 'unlocode' });
});

test('a WPI entry joins the port with its UN/LOCODE and brings its position and harbour data; its name is an alternate', () => {
  const ports = mergePorts({
    seaPorts: [seaPortEntry('NLAAA', { name: 'Aaa', lat: 52, lon: 4, timezone: 'Europe/Amsterdam' })],
    unlocode: [],
    wpi: [wpiEntry(100, { unlocode: 'NLAAA', name: 'Aaa Harbour', country: 'NL', lat: 52.2, lon: 4.1, harbour_size: 'large', channel_depth_m: 12.5 })],
  });
  assert.equal(ports.length, 1);
  const port = ports[0]!;
  assert.deepEqual(
    [port.id, port.unlocode, port.wpi_number, port.name, port.lat, port.lon, port.timezone, port.channel_depth_m, port.anchorage_depth_m],
    ['NLAAA', 'NLAAA', 100, 'Aaa', 52.2, 4.1, 'Europe/Amsterdam', 12.5, null],
  );
  assert.deepEqual(port.alternate_names, [{ name: 'Aaa Harbour', source: 'wpi' }]);
  assert.equal(port.sources.name, 'sea-ports');
  assert.equal(port.sources.channel_depth_m, 'wpi');
  assert.equal(port.sources.lat, 'wpi');
  assert.equal(port.sources.timezone, 'sea-ports');
  assert.equal(port.sources.unlocode, 'sea-ports');
  assert.equal('anchorage_depth_m' in port.sources, false);
  assert.deepEqual(port.approach_area, { kind: 'circle', radius_nm: 10 });
});

test('of several WPI entries with one UN/LOCODE, the nearest joins the port; the others keep their WPI id', () => {
  const ports = mergePorts({
    seaPorts: [seaPortEntry('NLAAA', { lat: 52, lon: 4 })],
    unlocode: [],
    wpi: [
      wpiEntry(100, { unlocode: 'NLAAA', lat: 52 + north(20), lon: 4 }),
      wpiEntry(200, { unlocode: 'NLAAA', lat: 52 + north(1), lon: 4 }),
      // No other source has this code: the first by number takes it.
      wpiEntry(300, { unlocode: 'NLZZZ', lat: 10, lon: 10 }),
      wpiEntry(400, { unlocode: 'NLZZZ', lat: 10, lon: 10.1 }),
    ],
  });
  assert.deepEqual(ports.map((port) => [port.id, port.unlocode, port.wpi_number]), [
    ['NLAAA', 'NLAAA', 200],
    ['NLZZZ', 'NLZZZ', 300],
    ['WPI-100', 'NLAAA', 100],
    ['WPI-400', 'NLZZZ', 400],
  ]);
});

test(`a WPI entry without a UN/LOCODE joins a port within ${PROXIMITY_NM} nm whose name matches`, () => {
  const ports = mergePorts({
    seaPorts: [
      seaPortEntry('FRAAA', { name: 'Port-Vendres', lat: 42.5, lon: 3.1 }),
      seaPortEntry('FRBBB', { name: 'Port Vila', lat: 44, lon: -1 }),
      seaPortEntry('FRCCC', { name: 'Lorient', lat: 47.7, lon: -3.4 }),
    ],
    unlocode: [unlocodeEntry('ITDDD', { name: 'Portoferraio', lat: 42.8, lon: 10.3 })],
    wpi: [
      wpiEntry(1, { name: 'Port Vendres Harbor', lat: 42.5 + north(3), lon: 3.1 }), // compact names: "portvendres"
      wpiEntry(2, { name: 'Port Louis', lat: 44 + north(2), lon: -1 }), // only a common word in common
      wpiEntry(3, { name: 'Lorient', lat: 47.7 + north(PROXIMITY_NM + 1), lon: -3.4 }), // too far
      wpiEntry(4, { name: 'Elba', alternate_names: ['Portoferraio'], lat: 42.8 - north(1), lon: 10.3 }), // by an alternate name
    ],
  });
  assert.deepEqual(ports.map((port) => [port.id, port.wpi_number]), [
    ['FRAAA', 1], ['FRBBB', null], ['FRCCC', null], ['ITDDD', 4], ['WPI-2', 2], ['WPI-3', 3],
  ]);
  assert.equal(byId(ports, 'FRAAA').sources.unlocode, 'sea-ports');
});

test('when two WPI entries could join one port, the nearer does', () => {
  const ports = mergePorts({
    seaPorts: [seaPortEntry('GRAAA', { name: 'Kalamata', lat: 37, lon: 22 })],
    unlocode: [],
    wpi: [wpiEntry(1, { name: 'Kalamata', lat: 37 + north(4), lon: 22 }), wpiEntry(2, { name: 'Kalamata Port', lat: 37 + north(2), lon: 22 })],
  });
  assert.deepEqual(ports.map((port) => [port.id, port.wpi_number]), [['GRAAA', 2], ['WPI-1', 1]]);
});

test('ports are ordered by id and each carries the approach radius of its harbour size', () => {
  const ports = mergePorts({
    seaPorts: [seaPortEntry('ZAXXX'), seaPortEntry('AEXXX')],
    unlocode: [],
    wpi: [wpiEntry(5, { harbour_size: 'medium' }), wpiEntry(6, { harbour_size: 'small' }), wpiEntry(7, { harbour_size: 'very_small', lat: 30 })],
  });
  assert.deepEqual(ports.map((port) => port.id), ['AEXXX', 'WPI-5', 'WPI-6', 'WPI-7', 'ZAXXX']);
  assert.deepEqual(ports.slice(1, 4).map((port) => port.approach_area.radius_nm), [6, 4, 2]);
});
