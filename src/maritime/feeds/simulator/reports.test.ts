import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aisText, destinationText, positionIntervalMs, rotCode } from './reports.ts';
import type { SimPort } from './ports.ts';

test('class A reporting intervals follow ITU-R M.1371 table 1', () => {
  assert.equal(positionIntervalMs('A', 5, 0, false), 180_000); // moored
  assert.equal(positionIntervalMs('A', 1, 3, false), 180_000); // at anchor, 3 kn
  assert.equal(positionIntervalMs('A', 1, 3.1, false), 10_000); // at anchor but moving faster
  assert.equal(positionIntervalMs('A', 0, 0, false), 10_000);
  assert.equal(positionIntervalMs('A', 0, 14, false), 10_000);
  assert.equal(positionIntervalMs('A', 0, 12, true), 3_333);
  assert.equal(positionIntervalMs('A', 0, 14.1, false), 6_000);
  assert.equal(positionIntervalMs('A', 0, 23, true), 2_000);
  assert.equal(positionIntervalMs('A', 0, 23.1, false), 2_000);
});

test('class B CS reporting intervals: 30 s above 2 kn, 3 min otherwise', () => {
  assert.equal(positionIntervalMs('B', 0, 2, false), 180_000);
  assert.equal(positionIntervalMs('B', 0, 2.1, false), 30_000);
  assert.equal(positionIntervalMs('B', 0, 30, true), 30_000);
});

test('rate of turn codes', () => {
  assert.equal(rotCode(0), 0);
  assert.equal(rotCode(0.01), 0);
  assert.equal(rotCode(1), 5);
  assert.equal(rotCode(-1), -5);
  assert.equal(rotCode(10), 15);
  assert.equal(rotCode(10_000), 126);
  assert.equal(rotCode(Number.NaN), 0);
});

test('AIS text and destinations', () => {
  assert.equal(aisText('Göteborg', 20), 'GOTEBORG');
  assert.equal(aisText('  São   Paulo!  ', 20), 'SAO PAULO');
  assert.equal(aisText('a'.repeat(30), 20).length, 20);
  const port: SimPort = { locode: 'FIHEL', name: 'Helsingfors (Helsinki)', country: 'FI', lat: 60.17, lon: 24.94, weight: 1, snapNm: 3 };
  assert.equal(destinationText(port, 'locode'), 'FIHEL');
  assert.equal(destinationText(port, 'spaced'), 'FI HEL');
  assert.equal(destinationText(port, 'name'), 'HELSINGFORS');
});
