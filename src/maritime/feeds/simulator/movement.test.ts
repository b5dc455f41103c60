import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../platform/random.ts';
import { distanceNm, distanceToPathNm } from '../../sea-routes/index.ts';
import type { Position } from '../../sea-routes/index.ts';
import { createIdentity, IdentityRegistry } from './fleet.ts';
import { NAV_MOORED, NAV_UNDER_WAY_ENGINE, reverseTrack, sliceTrack, VesselRuntime, World } from './movement.ts';
import type { Track } from './movement.ts';
import { simulatorPorts } from './ports.ts';

const HOUR = 3_600_000;

function track(path: Position[]): Track {
  const cumulative = [0];
  for (let i = 1; i < path.length; i++) cumulative.push(cumulative[i - 1]! + distanceNm(path[i - 1]!, path[i]!));
  return { path, cumulative, length: cumulative[cumulative.length - 1]! };
}

const L_SHAPE = track([[0, 0], [1, 0], [1, 1]]);

function runtime(): { vessel: VesselRuntime; world: World } {
  const ports = simulatorPorts();
  const identity = createIdentity(new Prng(1), ports, ports, new IdentityRegistry());
  return { vessel: new VesselRuntime(identity, 99, 0), world: new World(ports) };
}

const angleGap = (a: number, b: number): number => Math.abs(((a - b + 540) % 360) - 180);

test('sliceTrack and reverseTrack keep geometry and distances', () => {
  const part = sliceTrack(L_SHAPE, 30, 90);
  assert.ok(Math.abs(part.length - 60) < 1e-9);
  assert.equal(part.path.length, 3);
  assert.ok(Math.abs(distanceNm(part.path[1]!, [1, 0])) < 1e-9);
  assert.ok(Math.abs(part.cumulative[2]! - 60) < 1e-9);
  for (const point of part.path) assert.ok(distanceToPathNm(point, L_SHAPE.path) < 1e-6);
  const back = reverseTrack(part);
  assert.deepEqual(back.path[0], part.path[2]);
  assert.equal(back.cumulative[0], 0);
  assert.ok(Math.abs(back.cumulative[1]! - (part.length - part.cumulative[1]!)) < 1e-9);
  const clamped = sliceTrack(L_SHAPE, -5, 1e6);
  assert.ok(Math.abs(clamped.length - L_SHAPE.length) < 1e-9);
});

test('turns are spread over the vertex: continuous COG, ROT and the turning flag', () => {
  const { vessel } = runtime();
  const speed = 12;
  const destination = simulatorPorts()[0]!;
  vessel.phase = { kind: 'underway', start: 0, end: (L_SHAPE.length / speed) * HOUR, legId: 1, track: L_SHAPE, speedKn: speed, navStatus: NAV_UNDER_WAY_ENGINE, destination };
  const at = (nm: number) => vessel.kinematicsAt((nm / speed) * HOUR);
  const vertex = L_SHAPE.cumulative[1]!;

  const straight = at(20);
  assert.ok(angleGap(straight.cog, 90) < 1e-6 && !straight.turning);
  assert.ok(angleGap(straight.heading, straight.cog) <= 3);
  const apex = at(vertex);
  assert.ok(angleGap(apex.cog, 45) < 0.5 && apex.turning, `apex ${apex.cog}`);
  // 90 degrees to port over 0.5 nm at 12 kn (2.5 minutes): -36 degrees a minute.
  assert.ok(Math.abs(apex.rot + 36) < 1, String(apex.rot));
  const after = at(vertex + 1);
  assert.ok(angleGap(after.cog, 0) < 1e-3 && !after.turning);

  let previous = at(vertex - 0.3).cog;
  for (let d = vertex - 0.3; d <= vertex + 0.3; d += 0.01) {
    const cog = at(d).cog;
    assert.ok(angleGap(cog, previous) < 2, `jump at ${d}`);
    previous = cog;
  }
});

test('phases run on: moored at home, then a planned trip, positions on its track', () => {
  const { vessel, world } = runtime();
  vessel.advanceTo(0, world);
  const first = vessel.phase;
  if (first.kind !== 'underway') {
    const still = vessel.kinematicsAt(first.start);
    assert.equal(still.navStatus, first.kind === 'moored' ? NAV_MOORED : 1);
    assert.ok(still.sog <= 0.3);
  }
  // Within a simulated month the vessel sails at least one leg and every position is on its track.
  let legs = 0;
  let lastLeg = -1;
  for (let t = 0; t < 30 * 24 * HOUR; t += HOUR / 4) {
    vessel.advanceTo(t, world);
    const phase = vessel.phase;
    if (phase.kind !== 'underway') continue;
    if (phase.legId !== lastLeg) legs++;
    lastLeg = phase.legId;
    const k = vessel.kinematicsAt(t);
    assert.ok(distanceToPathNm([k.lon, k.lat], phase.track.path) < 1e-3);
  }
  assert.ok(legs >= 1);
});
