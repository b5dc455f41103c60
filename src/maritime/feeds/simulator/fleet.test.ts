import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashUnit, Prng } from '../../../platform/random.ts';
import { classifyMmsi, isValidImo } from '../../vessels/reference/index.ts';
import { createIdentity, IdentityRegistry, PROFILES } from './fleet.ts';
import type { VesselIdentity } from './fleet.ts';
import { simulatorPorts } from './ports.ts';

const AIS_TEXT = /^[A-Z0-9 ,.\-/]*$/;

function fleet(count: number, seed: number): VesselIdentity[] {
  const ports = simulatorPorts();
  const random = new Prng(seed);
  const registry = new IdentityRegistry();
  return Array.from({ length: count }, () => createIdentity(random, ports, ports, registry));
}

test('the PRNG is deterministic per seed and uniform enough', () => {
  const a = new Prng(123);
  const b = new Prng(123);
  const c = new Prng(124);
  const first = Array.from({ length: 5 }, () => a.next());
  assert.deepEqual(first, Array.from({ length: 5 }, () => b.next()));
  assert.notDeepEqual(first, Array.from({ length: 5 }, () => c.next()));
  const random = new Prng(9);
  const buckets = new Array<number>(10).fill(0);
  for (let i = 0; i < 100_000; i++) buckets[Math.floor(random.next() * 10)]!++;
  for (const bucket of buckets) assert.ok(bucket > 9_500 && bucket < 10_500, String(bucket));
  for (let i = 0; i < 1000; i++) {
    const value = random.int(3, 5);
    assert.ok(value >= 3 && value <= 5 && Number.isInteger(value));
  }
  assert.equal(hashUnit(1, 2), hashUnit(1, 2));
  assert.notEqual(hashUnit(1, 2), hashUnit(2, 1));
});

test('the curated ports load from sea-ports and lie near the sea-lane network', (t) => {
  const ports = simulatorPorts();
  t.diagnostic(`${ports.length} usable ports`);
  assert.ok(ports.length > 120);
  const rotterdam = ports.find((port) => port.locode === 'NLRTM');
  assert.ok(rotterdam && Math.abs(rotterdam.lat - 51.92) < 0.1 && rotterdam.country === 'NL');
  for (const port of ports) assert.ok(port.snapNm <= 50 && /^[A-Z]{5}$/.test(port.locode));
});

test('identities validate: MMSI flag MIDs, IMO check digits, AIS text, dimensions', () => {
  const vessels = fleet(2000, 5);
  const mmsis = new Set<number>();
  const imos = new Set<number>();
  for (const v of vessels) {
    const mmsi = classifyMmsi(v.mmsi);
    assert.equal(mmsi.kind, 'ship', String(v.mmsi));
    assert.equal(mmsi.flag?.alpha2, v.flag, `${v.mmsi} flag ${v.flag}`);
    assert.ok(!mmsis.has(v.mmsi), 'unique MMSI');
    mmsis.add(v.mmsi);
    if (v.imo !== 0) {
      assert.ok(isValidImo(v.imo), String(v.imo));
      assert.ok(!imos.has(v.imo), 'unique IMO');
      imos.add(v.imo);
    }
    if (v.aisClass === 'A' && v.profile.imo) assert.notEqual(v.imo, 0);
    if (v.aisClass === 'B') assert.equal(v.imo, 0);
    assert.ok(v.name.length > 0 && v.name.length <= 20 && AIS_TEXT.test(v.name), v.name);
    assert.ok(v.callsign.length <= 7 && AIS_TEXT.test(v.callsign), v.callsign);
    assert.equal(v.toBow + v.toStern, v.length);
    assert.equal(v.toPort + v.toStarboard, v.beam);
    assert.ok(v.length >= v.profile.length[0] && v.length <= v.profile.length[1]);
    assert.ok(v.designDraught >= v.profile.draught[0] && v.designDraught <= v.profile.draught[1]);
    assert.ok(v.profile.shipTypes.some(([code]) => code === v.shipType));
    // Small craft only are class B.
    if (v.aisClass === 'B') assert.ok(['fishing', 'pleasure', 'sailing'].includes(v.kind) && v.length <= 30);
    // Local craft fly the flag of their home port.
    if (['fishing', 'tug', 'pleasure', 'sailing'].includes(v.kind)) assert.equal(v.flag, v.homePort.country);
  }
});

test('the fleet mix follows the profile shares', (t) => {
  const vessels = fleet(5000, 11);
  const total = PROFILES.reduce((sum, p) => sum + p.share, 0);
  const lines: string[] = [];
  for (const profile of PROFILES) {
    const share = vessels.filter((v) => v.kind === profile.kind).length / vessels.length;
    lines.push(`${profile.kind} ${(share * 100).toFixed(1)}%`);
    assert.ok(Math.abs(share - profile.share / total) < 0.02, `${profile.kind}: ${share}`);
  }
  const classB = vessels.filter((v) => v.aisClass === 'B').length / vessels.length;
  t.diagnostic(`${lines.join(', ')}; class B ${(classB * 100).toFixed(1)}%`);
  const cargo = vessels.filter((v) => v.shipType >= 70 && v.shipType <= 79).length / vessels.length;
  const tankers = vessels.filter((v) => v.shipType >= 80 && v.shipType <= 89).length / vessels.length;
  assert.ok(cargo > 0.35 && cargo < 0.48 && tankers > 0.1 && tankers < 0.18);
});
