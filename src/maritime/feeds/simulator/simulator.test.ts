import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AisPipeline, AIS_REJECT_REASONS } from '../../ais/index.ts';
import type { AisMessage, AisPipelineCounts } from '../../ais/index.ts';
import { loadPorts } from '../../ports/ports.ts';
import { distanceNm, distanceToPathNm } from '../../sea-routes/index.ts';
import type { Position } from '../../sea-routes/index.ts';
import { AisIngest } from '../../vessels/ingest.ts';
import { classifyMmsi, isValidImo } from '../../vessels/reference/index.ts';
import { VesselStore } from '../../vessels/store.ts';
import { createAisSimulator } from './simulator.ts';
import type { AisSimulator, SimulatedLeg, SimulatedVessel } from './simulator.ts';

const START = Date.UTC(2025, 2, 1, 0, 0, 0);
const MINUTE = 60_000;

function simulator(vessels: number, seed: number, extra: { source?: string; maxCatchUpMs?: number } = {}): AisSimulator {
  const result = createAisSimulator({ vessels, seed, startTime: START, ...extra });
  assert.ok(result.ok, JSON.stringify(result));
  return result.simulator;
}

function rejected(counts: AisPipelineCounts): number {
  return AIS_REJECT_REASONS.reduce((sum, reason) => sum + counts.rejected[reason], 0);
}

/** The port index as the service serves it with nothing imported, whose positions the fleet moors at. */
const PORTS = await loadPorts({ dataDir: mkdtempSync(path.join(tmpdir(), 'lamis-simulator-ports-')) });

interface Observation {
  time: number;
  message: AisMessage;
  state: SimulatedVessel['state'];
  leg: SimulatedLeg | null;
  port: string | null;
  destination: string;
  eta: number | null;
}

interface HourRun {
  sim: AisSimulator;
  counts: AisPipelineCounts;
  byMmsi: Map<number, Observation[]>;
  sentences: number;
  positionsPerStepMax: number;
}

let hourRun: HourRun | undefined;

/**
 * One simulated hour of 300 vessels in 2-second steps, every line through the real pipeline. With
 * the shortest reporting interval 2 s, a vessel reports its position at most once per step, so the
 * vessel view read after the step belongs to that report.
 */
function runHour(): HourRun {
  if (hourRun) return hourRun;
  const sim = simulator(300, 2024);
  const pipeline = new AisPipeline();
  const byMmsi = new Map<number, Observation[]>();
  const viewByMmsi = new Map(sim.vessels.map((v) => [v.mmsi, v]));
  let sentences = 0;
  let positionsPerStepMax = 0;
  for (let now = START + 2000; now <= START + 60 * MINUTE; now += 2000) {
    const perVessel = new Map<number, number>();
    for (const report of sim.advanceReports(now)) {
      let decoded: AisMessage | null = null;
      for (const line of report.sentences) {
        sentences++;
        decoded = pipeline.push(line, report.time)?.message ?? decoded;
      }
      if (!decoded) continue;
      const view = viewByMmsi.get(report.mmsi)!;
      if (report.messageType !== 5 && report.messageType !== 24) {
        perVessel.set(report.mmsi, (perVessel.get(report.mmsi) ?? 0) + 1);
      }
      const list = byMmsi.get(report.mmsi) ?? [];
      list.push({
        time: report.time,
        message: decoded,
        state: view.state,
        leg: view.leg,
        port: view.port,
        destination: view.destination,
        eta: view.eta,
      });
      byMmsi.set(report.mmsi, list);
    }
    for (const n of perVessel.values()) positionsPerStepMax = Math.max(positionsPerStepMax, n);
  }
  hourRun = { sim, counts: pipeline.counts, byMmsi, sentences, positionsPerStepMax };
  return hourRun;
}

function positions(list: readonly Observation[]): Observation[] {
  return list.filter((o) => o.message.type === 1 || o.message.type === 3 || o.message.type === 18);
}

function latLonOf(message: AisMessage): Position {
  const scaled = message.scaled as { lat: number | null; lon: number | null };
  return [scaled.lon!, scaled.lat!];
}

test('every sentence of a simulated hour decodes through the AIS pipeline', (t) => {
  const run = runHour();
  const { counts } = run;
  t.diagnostic(`${run.sentences} sentences, ${counts.messages} messages: ${JSON.stringify(counts.messagesByType)}`);
  assert.equal(rejected(counts), 0, JSON.stringify(counts.rejected));
  assert.equal(counts.pending, 0);
  assert.equal(counts.accepted, counts.lines);
  for (const type of [1, 3, 5, 18, 24]) assert.ok((counts.messagesByType[type] ?? 0) > 0, `type ${type}`);
  assert.equal(run.positionsPerStepMax, 1);
  const mmsis = new Set(run.sim.vessels.map((v) => v.mmsi));
  for (const mmsi of run.byMmsi.keys()) assert.ok(mmsis.has(mmsi));
  assert.equal(run.byMmsi.size, run.sim.vessels.length);
});

test('MMSIs map to the vessel flags and IMO numbers carry valid check digits', () => {
  const run = runHour();
  for (const vessel of run.sim.vessels) {
    assert.equal(classifyMmsi(vessel.mmsi).flag?.alpha2, vessel.flag);
    const voyage = run.byMmsi.get(vessel.mmsi)!.find((o) => o.message.type === 5);
    if (vessel.aisClass === 'A') {
      assert.ok(voyage && voyage.message.type === 5);
      if (voyage.message.type === 5) {
        assert.equal(voyage.message.scaled.imo ?? 0, vessel.imo);
        assert.equal(voyage.message.scaled.shipname, vessel.name);
        if (vessel.imo !== 0) assert.ok(isValidImo(vessel.imo));
      }
    }
  }
});

test('positions stay on the route and advance by speed x time', (t) => {
  const run = runHour();
  let checked = 0;
  let worstOffRoute = 0;
  let travelled = 0;
  let expected = 0;
  let speedChecks = 0;
  let turningReports = 0;
  let classAUnderway = 0;
  for (const list of run.byMmsi.values()) {
    const reports = positions(list);
    for (let i = 0; i < reports.length; i++) {
      const current = reports[i]!;
      if (current.state !== 'underway' || !current.leg) continue;
      const position = latLonOf(current.message);
      const off = distanceToPathNm(position, current.leg.path);
      worstOffRoute = Math.max(worstOffRoute, off);
      checked++;
      const scaled = current.message.scaled as { sog: number | null; cog: number | null; heading: number | null; rot?: number | null };
      assert.ok(Math.abs(scaled.sog! - current.leg.speed_kn) <= 0.25, `SOG ${scaled.sog} vs ${current.leg.speed_kn}`);
      speedChecks++;
      if (current.message.type !== 18) {
        // Heading follows the course within a few degrees; the rate of turn is small off the turns.
        const gap = Math.abs(((scaled.heading! - scaled.cog! + 540) % 360) - 180);
        assert.ok(gap <= 3.6, `heading ${scaled.heading} vs COG ${scaled.cog}`);
        if (Math.abs(scaled.rot ?? 0) > 5) turningReports++;
        classAUnderway++;
      }
      const previous = reports[i - 1];
      if (previous && previous.leg?.id === current.leg.id) {
        const hours = (current.time - previous.time) / 3_600_000;
        const along = current.leg.distance_nm - previous.leg.distance_nm;
        // Distance along the leg grows exactly with speed x time ...
        assert.ok(Math.abs(along - current.leg.speed_kn * hours) < 1e-6, `${along} vs ${current.leg.speed_kn * hours}`);
        // ... and so do the transmitted positions (a chord can only cut a corner).
        const moved = distanceNm(latLonOf(previous.message), position);
        assert.ok(moved <= along + 0.001, `moved ${moved} > ${along}`);
        travelled += moved;
        expected += along;
      }
    }
  }
  t.diagnostic(
    `${checked} underway positions, worst ${(worstOffRoute * 1852).toFixed(2)} m off the route; ` +
      `moved ${travelled.toFixed(1)} nm of ${expected.toFixed(1)} nm expected; ` +
      `${turningReports} of ${classAUnderway} class A reports turning faster than 5 deg/min`,
  );
  assert.ok(turningReports > 0 && turningReports < classAUnderway * 0.1);
  assert.ok(checked > 10_000 && speedChecks === checked);
  assert.ok(worstOffRoute < 0.002, `${worstOffRoute} nm off the route`);
  assert.ok(travelled / expected > 0.995 && travelled / expected <= 1.0001);
});

test('reporting intervals follow ITU-R M.1371 over a simulated hour', (t) => {
  const run = runHour();
  const stats = new Map<string, { gaps: number; sum: number }>();
  for (const list of run.byMmsi.values()) {
    const reports = positions(list);
    for (let i = 1; i < reports.length; i++) {
      const before = reports[i - 1]!.message;
      const gap = reports[i]!.time - reports[i - 1]!.time;
      const scaled = before.scaled as { sog: number | null; nav_status?: number | null };
      const sog = scaled.sog ?? 0;
      let allowed: number[];
      let category: string;
      if (before.type === 18) {
        allowed = [sog > 2 ? 30_000 : 180_000];
        category = sog > 2 ? 'B >2 kn' : 'B <=2 kn';
      } else {
        const status = scaled.nav_status;
        if ((status === 1 || status === 5) && sog <= 3) [allowed, category] = [[180_000], 'A moored/anchored'];
        else if (sog > 23) [allowed, category] = [[2_000], 'A >23 kn'];
        else if (sog > 14) [allowed, category] = [[6_000, 2_000], 'A 14-23 kn'];
        else [allowed, category] = [[10_000, 3_333], 'A 0-14 kn'];
      }
      assert.ok(allowed.includes(gap), `${before.mmsi} ${category}: gap ${gap} ms not in ${allowed}`);
      const entry = stats.get(category) ?? { gaps: 0, sum: 0 };
      entry.gaps++;
      entry.sum += gap;
      stats.set(category, entry);
    }
  }
  const summary = [...stats].map(([category, { gaps, sum }]) => `${category}: ${gaps} gaps, mean ${(sum / gaps / 1000).toFixed(2)} s`);
  t.diagnostic(summary.join('; '));
  for (const category of ['A moored/anchored', 'A 0-14 kn', 'A 14-23 kn', 'A >23 kn', 'B >2 kn', 'B <=2 kn']) {
    assert.ok(stats.has(category), `no ${category} vessels`);
  }
  // Turns are short: most class A reports under way come at the straight-course rate.
  const slow = stats.get('A 0-14 kn')!;
  assert.ok(slow.sum / slow.gaps > 9_000);
});

test('static and voyage data go out soon after the first position report, then every 6 minutes', () => {
  const run = runHour();
  for (const vessel of run.sim.vessels) {
    const list = run.byMmsi.get(vessel.mmsi)!;
    const statics = list.filter((o) => o.message.type === (vessel.aisClass === 'A' ? 5 : 24));
    const times = [...new Set(statics.map((o) => o.time))];
    const firstPosition = positions(list)[0]!.time;
    assert.ok(times[0]! > firstPosition && times[0]! - firstPosition <= 20_000, 'first static report within 20 s of the first position report');
    assert.ok(times[0]! - START < MINUTE, 'first static report within the first minute');
    assert.ok(times.length >= 9 && times.length <= 10, `${times.length} static reports`);
    for (let i = 1; i < times.length; i++) assert.equal(times[i]! - times[i - 1]!, 6 * MINUTE);
    if (vessel.aisClass === 'B') {
      // Class B: part A (name) and part B (type, call sign, dimensions) each time.
      assert.equal(statics.length, times.length * 2);
      const partB = statics.find((o) => o.message.type === 24 && o.message.raw.partno === 1)!;
      assert.ok(partB.message.type === 24 && partB.message.scaled.part === 1 && partB.message.scaled.ship_type === vessel.shipType);
    }
  }
});

test('every vessel has its name and type within its first minute on the air', () => {
  // 1,000 vessels coming on air together, as when the feed starts, a second at a time through the
  // ingest that feeds the service's vessel store.
  const sim = simulator(1000, 77);
  const store = new VesselStore();
  const ingest = new AisIngest(store);
  for (let now = START + 1000; now <= START + MINUTE; now += 1000) ingest.lines('simulator', 'simulated', sim.advance(now), now);
  assert.equal(store.size, 1000);
  const missing = [...store.all()].filter((vessel) => vessel.name === null || vessel.ship_type === null).map((vessel) => vessel.mmsi);
  assert.deepEqual(missing, []);
  for (const view of sim.vessels) {
    const vessel = store.get(view.mmsi)!;
    assert.deepEqual([vessel.name, vessel.ship_type], [view.name, view.shipType]);
  }
});

test('voyage data: destination as UN/LOCODE or port name, ETA from distance and speed', () => {
  const run = runHour();
  let withEta = 0;
  for (const list of run.byMmsi.values()) {
    for (const o of list) {
      if (o.message.type !== 5) continue;
      const scaled = o.message.scaled;
      const destination = scaled.destination ?? '';
      const locode = o.destination;
      assert.ok(
        destination === locode || destination === `${locode.slice(0, 2)} ${locode.slice(2)}` || /^[A-Z][A-Z .\-/,]+$/.test(destination),
        `${destination} for ${locode}`,
      );
      assert.ok(scaled.draught !== null && scaled.draught > 0);
      if (o.eta !== null && scaled.eta) {
        const eta = new Date(o.eta);
        assert.equal(scaled.eta.month, eta.getUTCMonth() + 1);
        assert.equal(scaled.eta.day, eta.getUTCDate());
        assert.equal(scaled.eta.hour, eta.getUTCHours());
        assert.equal(scaled.eta.minute, eta.getUTCMinutes());
        withEta++;
      }
      // Under way, the ETA is when the leg ends at the planned speed (or later, via an anchorage).
      if (o.state === 'underway' && o.leg && o.eta !== null) {
        const legEnd = o.leg.departed_at + (o.leg.length_nm / o.leg.speed_kn) * 3_600_000;
        assert.ok(o.eta >= legEnd - 1, `ETA ${o.eta} before the leg ends ${legEnd}`);
      }
    }
  }
  assert.ok(withEta > 100);
});

test('some vessels lie moored or at anchor near a port position the port index serves', (t) => {
  const run = runHour();
  let moored = 0;
  let anchored = 0;
  for (const list of run.byMmsi.values()) {
    for (const o of positions(list)) {
      if (o.state !== 'moored' && o.state !== 'anchored') continue;
      const port = PORTS.get(o.port!)!;
      const distance = distanceNm(latLonOf(o.message), [port.lon, port.lat]);
      const scaled = o.message.scaled as { sog: number | null; nav_status?: number | null };
      assert.ok(scaled.sog! <= 0.3);
      if (o.state === 'moored') {
        assert.ok(distance <= 0.5, `moored ${distance} nm from ${o.port}`);
        if (o.message.type !== 18) assert.equal(scaled.nav_status, 5);
        moored++;
      } else {
        assert.ok(distance <= 6.5, `anchored ${distance} nm from ${o.port}`);
        if (o.message.type !== 18) assert.equal(scaled.nav_status, 1);
        anchored++;
      }
    }
  }
  const states = new Map<string, number>();
  for (const vessel of run.sim.vessels) states.set(vessel.state, (states.get(vessel.state) ?? 0) + 1);
  t.diagnostic(`after one hour: ${JSON.stringify(Object.fromEntries(states))}; ${moored} moored and ${anchored} anchored reports`);
  assert.ok(moored > 100 && anchored > 0);
  assert.ok((states.get('moored') ?? 0) > 30 && (states.get('underway') ?? 0) > 150);
});

test('voyages end, the vessel moors, then sails for a new destination', (t) => {
  // Ferries and harbour craft make several trips in a simulated day.
  const sim = simulator(100, 77);
  const history = new Map<number, { state: string; leg: number | null; destination: string }[]>();
  for (let now = START + MINUTE; now <= START + 12 * 60 * MINUTE; now += MINUTE) {
    sim.advance(now);
    for (const vessel of sim.vessels) {
      const list = history.get(vessel.mmsi) ?? [];
      const last = list[list.length - 1];
      const entry = { state: vessel.state, leg: vessel.leg?.id ?? null, destination: vessel.destination };
      if (!last || last.state !== entry.state || last.leg !== entry.leg) list.push(entry);
      history.set(vessel.mmsi, list);
    }
  }
  let cycles = 0;
  for (const list of history.values()) {
    for (let i = 2; i < list.length; i++) {
      const [a, b, c] = [list[i - 2]!, list[i - 1]!, list[i]!];
      if (a.state === 'underway' && b.state === 'moored' && c.state === 'underway') {
        assert.notEqual(a.leg, c.leg);
        cycles++;
      }
    }
  }
  const ferries = sim.vessels.filter((v) => v.kind === 'ferry' || v.kind === 'high_speed_craft');
  const changedDestination = ferries.filter((v) => new Set(history.get(v.mmsi)!.map((e) => e.destination)).size > 1);
  t.diagnostic(`${cycles} arrive-moor-depart cycles in 12 simulated hours; ${changedDestination.length} of ${ferries.length} ferries changed destination`);
  assert.ok(cycles > 10, `${cycles} arrive-moor-depart cycles`);
  assert.ok(changedDestination.length > 0);
});

test('1,000 vessels: cost per simulated minute', (t) => {
  const sim = simulator(1000, 1);
  const pipeline = new AisPipeline();
  const warm = performance.now();
  for (let now = START + 1000; now <= START + 5 * MINUTE; now += 1000) for (const line of sim.advance(now)) pipeline.push(line, now);
  const warmMs = performance.now() - warm;
  const started = performance.now();
  let sentences = 0;
  for (let now = START + 5 * MINUTE + 1000; now <= START + 15 * MINUTE; now += 1000) sentences += sim.advance(now).length;
  const perMinute = (performance.now() - started) / 10;
  t.diagnostic(
    `1000 vessels: first 5 simulated minutes (routes planned on the way) ${warmMs.toFixed(0)} ms; ` +
      `then ${perMinute.toFixed(1)} ms per simulated minute, ${(sentences / 10).toFixed(0)} sentences per minute`,
  );
  assert.equal(rejected(pipeline.counts), 0);
});

test('the same seed gives the same sentences; another seed does not', () => {
  const a = simulator(50, 3);
  const b = simulator(50, 3);
  const c = simulator(50, 4);
  const first = a.advance(START + 2 * MINUTE);
  assert.deepEqual(first, b.advance(START + 2 * MINUTE));
  assert.notDeepEqual(first, c.advance(START + 2 * MINUTE));
  assert.deepEqual(
    a.vessels.map((v) => [v.mmsi, v.name]),
    b.vessels.map((v) => [v.mmsi, v.name]),
  );
});

test('advance returns reports in time order and never goes back', () => {
  const sim = simulator(100, 8);
  const reports = sim.advanceReports(START + 3 * MINUTE);
  for (let i = 1; i < reports.length; i++) assert.ok(reports[i]!.time >= reports[i - 1]!.time);
  assert.ok(reports.every((r) => r.time > START && r.time <= START + 3 * MINUTE));
  assert.equal(sim.now, START + 3 * MINUTE);
  assert.deepEqual(sim.advance(START + MINUTE), []);
  assert.deepEqual(sim.advance(Number.NaN), []);
  assert.equal(sim.now, START + 3 * MINUTE);
});

test('a long jump replays only the catch-up window', () => {
  const sim = simulator(100, 8, { maxCatchUpMs: 2 * MINUTE });
  sim.advance(START + MINUTE);
  const reports = sim.advanceReports(START + 24 * 60 * MINUTE);
  assert.ok(reports.length > 0);
  assert.ok(reports.every((r) => r.time >= START + 24 * 60 * MINUTE - 2 * MINUTE));
});

test('tag blocks carry the source and time when asked', () => {
  const sim = simulator(20, 5, { source: 'lamis-sim' });
  const pipeline = new AisPipeline();
  let messages = 0;
  for (const report of sim.advanceReports(START + MINUTE)) {
    for (const line of report.sentences) {
      const decoded = pipeline.push(line, report.time + 500);
      if (decoded) {
        assert.equal(decoded.source, 'lamis-sim');
        assert.equal(decoded.tagTime, Math.floor(report.time / 1000) * 1000);
        messages++;
      }
    }
  }
  assert.ok(messages > 20);
  assert.equal(rejected(pipeline.counts), 0);
});

test('bad options are error results', () => {
  for (const options of [
    { vessels: -1 },
    { vessels: 1.5 },
    { vessels: 1e9 },
    { seed: Number.NaN },
    { startTime: Number.POSITIVE_INFINITY },
    { maxCatchUpMs: 0 },
    { source: 'a,b' },
    { source: '' },
  ]) {
    const result = createAisSimulator(options);
    assert.equal(result.ok, false, JSON.stringify(options));
    if (!result.ok) assert.equal(result.error, 'invalid_options');
  }
  const empty = createAisSimulator({ vessels: 0, startTime: START });
  assert.ok(empty.ok && empty.simulator.advance(START + MINUTE).length === 0);
});
