// The simulated fleet against port-call detection and expected arrivals, on the simulator's own
// clock: hours of sailing in a second, every report through the real decoder and vessel state.
// The simulator knows where each vessel is and where it is bound, so the answers can be checked.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { haversineNm } from '../../platform/geo/great-circle.ts';
import { createAisSimulator, type AisSimulator } from '../feeds/simulator/simulator.ts';
import { AisIngest } from '../vessels/ingest.ts';
import { VesselStore } from '../vessels/store.ts';
import { ExpectedArrivals } from './arrivals.ts';
import { PortCallDetector, type PortCallEvent } from './calls.ts';
import { createDestinationMatcher } from './destination.ts';
import { loadPorts } from './ports.ts';
import type { PortIndex } from './model.ts';

const START = Date.parse('2026-05-04T00:00:00Z');
const HOURS = 8;
const VESSELS = 60;

describe('the simulated fleet makes port calls and is expected at real ports', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-simulated-calls-'));
  let index: PortIndex;
  let simulator: AisSimulator;
  const store = new VesselStore();
  const events: PortCallEvent[] = [];
  let detector: PortCallDetector;
  let arrivals: ExpectedArrivals;

  before(async () => {
    index = await loadPorts({ dataDir });
    detector = new PortCallDetector(index);
    arrivals = new ExpectedArrivals(store, detector, createDestinationMatcher(index));
    const created = createAisSimulator({ vessels: VESSELS, seed: 7, startTime: START });
    assert.ok(created.ok);
    simulator = created.simulator;
    const ingest = new AisIngest(store);
    ingest.onChange((change) => {
      if (change.position) events.push(...detector.observe(change.vessel));
      arrivals.observe(change);
    });
    for (let t = START + 1000; t <= START + HOURS * 3_600_000; t += 60_000) {
      for (const report of simulator.advanceReports(t)) ingest.lines('simulator', 'simulated', report.sentences, report.time);
    }
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('observed arrivals and departures, at the port the simulator put the vessel in', () => {
    const observedArrivals = events.filter((event) => event.kind === 'arrival' && event.call.arrival_observed);
    const departures = events.filter((event) => event.kind === 'departure' && event.call.departure_observed);
    assert.ok(observedArrivals.length >= 8, `${observedArrivals.length} observed arrivals`);
    assert.ok(departures.length >= 8, `${departures.length} observed departures`);
    assert.ok(events.every((event) => event.call.source === 'simulated'));
    // Every call is at a real port of the index; a vessel in port now is at the simulator's port, or
    // at a neighbouring port nearer to its berth (Parkeston Quay beside Harwich).
    assert.ok(events.every((event) => index.get(event.call.port_id) !== null));
    const distance = (port: { lat: number; lon: number }, vessel: { lat: number; lon: number }) => haversineNm(port.lat, port.lon, vessel.lat, vessel.lon);
    let checked = 0;
    for (const vessel of simulator.vessels) {
      const open = detector.openFor(vessel.mmsi);
      if (vessel.state !== 'moored' || open === null) continue;
      const port = index.get(open.call.port_id)!;
      assert.ok(port.id === vessel.port || distance(port, vessel) <= distance(index.get(vessel.port!)!, vessel), `vessel ${vessel.mmsi} at ${port.id}, simulated at ${vessel.port}`);
      checked++;
    }
    assert.ok(checked >= 10, `${checked} moored vessels checked`);
  });

  test('each call lasts from arrival to departure, and anchorage waits become berthings', () => {
    const ended = events.filter((event) => event.kind === 'departure').map((event) => event.call);
    assert.ok(ended.every((call) => call.departed_at! >= call.arrived_at));
    const berthedLater = events.filter((event) => event.kind === 'berthed');
    assert.ok(berthedLater.every((event) => event.call.arrival_status === 'anchored' || event.call.arrival_status === 'stopped'));
  });

  test('vessels under way are expected at the port they are bound for', () => {
    const now = simulator.now;
    let expected = 0;
    let underWay = 0;
    for (const vessel of simulator.vessels) {
      if (vessel.state !== 'underway' || vessel.aisClass !== 'A' || store.get(vessel.mmsi)?.destination == null) continue;
      // A vessel moving inside its destination's approach area (up from the anchorage) has arrived.
      if (detector.openFor(vessel.mmsi)?.call.port_id === vessel.destination) continue;
      underWay++;
      const port = index.get(vessel.destination)!;
      if (arrivals.at(port, now).some((arrival) => arrival.vessel.mmsi === vessel.mmsi && arrival.match === 'destination')) expected++;
    }
    assert.ok(underWay >= 10, `${underWay} vessels under way with voyage data`);
    assert.equal(expected, underWay, 'every one of them is expected at its destination');
  });
});
