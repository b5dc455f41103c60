import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decoded, positionReport, staticVoyage } from '../vessels/fixtures.ts';
import { VesselStore } from '../vessels/store.ts';
import { LOST_AFTER_MS, motionOf, PortCallDetector, STOP_CONFIRM_MS, type PortCallEvent } from './calls.ts';
import { rotterdamPorts } from './fixtures.ts';

const T0 = Date.parse('2026-05-04T06:00:00Z');
const MINUTE = 60_000;
const ROTTERDAM = { lat: 51.9, lon: 4.4833 };
/** Inside Rotterdam's 10 nm area, nearer Rotterdam than Botlek. */
const MAAS = { lat: 51.905, lon: 4.45 };
/** North Sea, 25 nm out. */
const SEA = { lat: 52.05, lon: 3.8 };
const BOTLEK = { lat: 51.882, lon: 4.3 };

type Report = { lat: number; lon: number; sog: number; status?: number; at: number };

function harbour() {
  const store = new VesselStore();
  const detector = new PortCallDetector(rotterdamPorts());
  const report = (mmsi: number, r: Report): PortCallEvent[] => {
    const change = store.apply(decoded(positionReport(mmsi, r.lat, r.lon, { speed: Math.round(r.sog * 10), status: r.status ?? 0 })), r.at, 'live');
    return detector.observe(change!.vessel);
  };
  const voyage = (mmsi: number, draught: number, shiptype = 70) =>
    store.apply(decoded(staticVoyage(mmsi, { shiptype, draught: Math.round(draught * 10) })), T0 - 60 * MINUTE, 'live');
  return { store, detector, report, voyage };
}

const kinds = (events: PortCallEvent[]) => events.map((event) => event.kind);

describe('port call detection', () => {
  test('what a report says about motion', () => {
    assert.equal(motionOf({ nav_status: 5, sog: 0 }), 'moored');
    assert.equal(motionOf({ nav_status: 5, sog: null }), 'moored');
    assert.equal(motionOf({ nav_status: 1, sog: 0.3 }), 'anchored');
    assert.equal(motionOf({ nav_status: 0, sog: 0.2 }), 'stopped');
    assert.equal(motionOf({ nav_status: 5, sog: 9 }), 'under_way', 'a moored status at 9 kn is not believed');
    assert.equal(motionOf({ nav_status: 0, sog: 12 }), 'under_way');
    assert.equal(motionOf({ nav_status: 0, sog: 0.7 }), 'unclear');
    assert.equal(motionOf({ nav_status: 15, sog: null }), 'unclear');
  });

  test('a vessel sails in, moors, gets under way and leaves: one call with both events', () => {
    const { report, voyage, detector } = harbour();
    voyage(244_000_001, 12.1);
    assert.deepEqual(report(244_000_001, { ...SEA, sog: 14, at: T0 }), []);
    assert.deepEqual(report(244_000_001, { ...MAAS, sog: 8, at: T0 + 90 * MINUTE }), [], 'under way in the area is no arrival');
    const arrival = report(244_000_001, { ...ROTTERDAM, sog: 0, status: 5, at: T0 + 120 * MINUTE });
    assert.deepEqual(kinds(arrival), ['arrival']);
    const call = arrival[0]!.call;
    assert.deepEqual(
      [call.port_id, call.arrived_at, call.arrival_observed, call.arrival_status, call.berthed_at, call.draught_arrival_m, call.source],
      ['NLRTM', new Date(T0 + 120 * MINUTE).toISOString(), true, 'moored', call.arrived_at, 12.1, 'live'],
    );
    assert.deepEqual(report(244_000_001, { ...ROTTERDAM, sog: 0.1, status: 5, at: T0 + 123 * MINUTE }), []);
    assert.equal(detector.openFor(244_000_001)?.call.id, call.id);

    voyage(244_000_001, 8.4);
    assert.deepEqual(report(244_000_001, { ...ROTTERDAM, sog: 6, at: T0 + 30 * 60 * MINUTE }), [], 'under way in port: not yet gone');
    assert.equal(detector.openFor(244_000_001)?.status, 'under_way');
    assert.deepEqual(report(244_000_001, { ...MAAS, sog: 10, at: T0 + 30 * 60 * MINUTE + 20 * MINUTE }), []);
    const departure = report(244_000_001, { ...SEA, sog: 14, at: T0 + 30 * 60 * MINUTE + 50 * MINUTE });
    assert.deepEqual(kinds(departure), ['departure']);
    const done = departure[0]!.call;
    assert.equal(done.id, call.id);
    assert.equal(done.departed_at, new Date(T0 + 30 * 60 * MINUTE).toISOString(), 'departed when it got under way');
    assert.deepEqual([done.departure_observed, done.draught_departure_m], [true, 8.4]);
    assert.equal(detector.openFor(244_000_001), null);
    assert.equal(detector.calledSince(244_000_001, 'NLRTM', T0 + 120 * MINUTE), true);
    assert.equal(detector.calledSince(244_000_001, 'NLRTM', T0 + 121 * MINUTE), false, 'not since a destination set after it arrived');
  });

  test('anchorage, then a berth in the same port: one call that berths later', () => {
    const { report, voyage } = harbour();
    voyage(244_000_002, 14);
    report(244_000_002, { ...SEA, sog: 12, at: T0 });
    const [arrival] = report(244_000_002, { ...MAAS, sog: 0.2, status: 1, at: T0 + 60 * MINUTE });
    assert.deepEqual([arrival?.kind, arrival?.call.arrival_status, arrival?.call.berthed_at], ['arrival', 'anchored', null]);
    assert.deepEqual(report(244_000_002, { ...MAAS, sog: 0.3, status: 1, at: T0 + 10 * 60 * MINUTE }), []);
    assert.deepEqual(report(244_000_002, { ...MAAS, sog: 7, at: T0 + 12 * 60 * MINUTE }), [], 'heaving anchor, moving up the river');
    const [berthed] = report(244_000_002, { ...ROTTERDAM, sog: 0, status: 5, at: T0 + 13 * 60 * MINUTE });
    assert.equal(berthed?.kind, 'berthed');
    assert.equal(berthed?.call.id, arrival?.call.id);
    assert.equal(berthed?.call.berthed_at, new Date(T0 + 13 * 60 * MINUTE).toISOString());
    assert.ok(Math.abs(berthed!.call.berth_lat! - ROTTERDAM.lat) < 1e-4);
  });

  test('already in port when first heard: the arrival is marked as not observed', () => {
    const { report } = harbour();
    const [arrival] = report(244_000_003, { ...ROTTERDAM, sog: 0, status: 5, at: T0 });
    assert.deepEqual([arrival?.kind, arrival?.call.arrival_observed], ['arrival', false]);
  });

  test('a stop told by speed alone counts only once it has lasted', () => {
    const { report, detector } = harbour();
    report(244_000_004, { ...SEA, sog: 12, at: T0 });
    assert.deepEqual(report(244_000_004, { ...MAAS, sog: 0.2, at: T0 + 60 * MINUTE }), []);
    assert.deepEqual(report(244_000_004, { ...MAAS, sog: 6, at: T0 + 62 * MINUTE }), [], 'slowed for the pilot, then on');
    assert.deepEqual(report(244_000_004, { ...ROTTERDAM, sog: 0.1, at: T0 + 90 * MINUTE }), []);
    assert.equal(detector.openFor(244_000_004), null);
    const [arrival] = report(244_000_004, { ...ROTTERDAM, sog: 0, at: T0 + 90 * MINUTE + STOP_CONFIRM_MS });
    assert.deepEqual([arrival?.kind, arrival?.call.arrival_status], ['arrival', 'stopped']);
    assert.equal(arrival?.call.arrived_at, new Date(T0 + 90 * MINUTE).toISOString(), 'arrived when the stop began');
  });

  test('where approach areas overlap, the nearest port takes the call', () => {
    const { report } = harbour();
    const [arrival] = report(244_000_005, { ...BOTLEK, sog: 0, status: 5, at: T0 });
    assert.equal(arrival?.call.port_id, 'WPI-31150');
  });

  test('harbour craft and stations that are not ships make no calls', () => {
    const { report, voyage } = harbour();
    voyage(244_000_006, 4, 52);
    assert.deepEqual(report(244_000_006, { ...ROTTERDAM, sog: 0, status: 5, at: T0 }), [], 'a tug');
    assert.deepEqual(report(2_442_001, { ...ROTTERDAM, sog: 0, status: 5, at: T0 }), [], 'a coast station');
    assert.deepEqual(report(244_000_007, { ...SEA, sog: 0, status: 1, at: T0 }), [], 'at anchor outside every area');
  });

  test('a silent vessel: its call ends after a day at its last report in port, unobserved', () => {
    const { report, detector } = harbour();
    report(244_000_008, { ...ROTTERDAM, sog: 0, status: 5, at: T0 });
    report(244_000_008, { ...ROTTERDAM, sog: 0, status: 5, at: T0 + 30 * MINUTE });
    assert.deepEqual(detector.closeLost(T0 + 30 * MINUTE + LOST_AFTER_MS - 1), []);
    const [lost] = detector.closeLost(T0 + 30 * MINUTE + LOST_AFTER_MS + 1);
    assert.deepEqual([lost?.kind, lost?.call.departed_at, lost?.call.departure_observed], ['departure', new Date(T0 + 30 * MINUTE).toISOString(), false]);
  });

  test('a vessel heard again far away after a silence: departure and the next arrival are both unobserved', () => {
    const { report } = harbour();
    report(244_000_009, { ...ROTTERDAM, sog: 0, status: 5, at: T0 });
    const events = report(244_000_009, { lat: 53.55, lon: 9.97, sog: 0, status: 5, at: T0 + 20 * 60 * MINUTE });
    assert.deepEqual(kinds(events), ['departure', 'arrival']);
    assert.deepEqual([events[0]!.call.departed_at, events[0]!.call.departure_observed], [new Date(T0).toISOString(), false]);
    assert.deepEqual([events[1]!.call.port_id, events[1]!.call.arrival_observed], ['DEHAM', false]);
  });

  test('an older report than the last one changes nothing', () => {
    const { report } = harbour();
    report(244_000_010, { ...SEA, sog: 12, at: T0 + 10 * MINUTE });
    assert.deepEqual(report(244_000_010, { ...ROTTERDAM, sog: 0, status: 5, at: T0 }), []);
  });

  test('open calls survive a restart and are closed by the next departure', () => {
    const first = harbour();
    const [arrival] = first.report(244_000_011, { ...ROTTERDAM, sog: 0, status: 5, at: T0 });
    const second = harbour();
    const orphans = second.detector.restore([arrival!.call, { ...arrival!.call, id: 'call_gone', mmsi: 244_000_012, port_id: 'XXAAA' }], () => T0 + MINUTE);
    assert.deepEqual(orphans.map((call) => call.id), ['call_gone']);
    second.report(244_000_011, { ...ROTTERDAM, sog: 9, at: T0 + 5 * MINUTE });
    const [departure] = second.report(244_000_011, { ...SEA, sog: 14, at: T0 + 60 * MINUTE });
    assert.deepEqual([departure?.kind, departure?.call.id, departure?.call.departed_at], ['departure', arrival!.call.id, new Date(T0 + 5 * MINUTE).toISOString()]);
  });
});
