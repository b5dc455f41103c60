import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { haversineNm } from '../../platform/geo/great-circle.ts';
import type { StaticVoyageRaw } from '../ais/index.ts';
import { decoded, positionReport, staticVoyage } from '../vessels/fixtures.ts';
import { VesselStore } from '../vessels/store.ts';
import { boxAround, cachedPredictor, ExpectedArrivals, fitOf, PREDICTION_TTL_MS, type PredictedEta } from './arrivals.ts';
import { PortCallDetector } from './calls.ts';
import { createDestinationMatcher } from './destination.ts';
import { rotterdamPorts } from './fixtures.ts';

const T0 = Date.parse('2026-05-04T06:00:00Z');
const MINUTE = 60_000;
const ports = rotterdamPorts();
const rotterdam = ports.get('NLRTM')!;
const hamburg = ports.get('DEHAM')!;

function world() {
  const store = new VesselStore();
  const detector = new PortCallDetector(ports);
  const arrivals = new ExpectedArrivals(store, detector, createDestinationMatcher(ports));
  const apply = (raw: Parameters<typeof decoded>[0], at: number) => {
    const change = store.apply(decoded(raw), at, 'live')!;
    if (change.position) detector.observe(change.vessel);
    arrivals.observe(change);
  };
  const voyage = (mmsi: number, fields: Partial<StaticVoyageRaw>, at = T0) => apply(staticVoyage(mmsi, { shiptype: 70, ...fields }), at);
  const position = (mmsi: number, lat: number, lon: number, sog: number, cog: number, at = T0, status = 0) =>
    apply(positionReport(mmsi, lat, lon, { speed: Math.round(sog * 10), course: Math.round(cog * 10), status }), at);
  const expected = (port = rotterdam, now = T0 + MINUTE) => arrivals.at(port, now).map((arrival) => arrival.vessel.mmsi);
  return { store, arrivals, voyage, position, expected };
}

describe('expected arrivals', () => {
  test('vessels bound for the port by destination, soonest reported ETA first, with their fit', () => {
    const { arrivals, voyage, position, expected } = world();
    voyage(244_000_001, { destination: 'NL RTM', month: 5, day: 6, hour: 4, minute: 0, draught: 105 });
    position(244_000_001, 55.5, 3.0, 13, 190);
    voyage(244_000_002, { destination: 'ROTTERDAM', month: 5, day: 5, hour: 12, minute: 30, draught: 145 });
    position(244_000_002, 50.5, 0.5, 14, 60);
    voyage(244_000_003, { destination: 'DEHAM', month: 5, day: 5, hour: 1, minute: 0 });
    assert.deepEqual(expected(), [244_000_002, 244_000_001]);
    assert.deepEqual(expected(hamburg), [244_000_003]);

    const [deep, fitting] = arrivals.at(rotterdam, T0 + MINUTE);
    assert.equal(deep!.match, 'destination');
    assert.deepEqual([deep!.destination?.matched_by, deep!.destination?.leg], ['name', 'ROTTERDAM']);
    assert.equal(deep!.fit.verdict, 'exceeds');
    assert.deepEqual(deep!.fit.checks.find((check) => check.limit === 'channel_depth'), { limit: 'channel_depth', port_m: 11, vessel_m: 14.5, fits: false });
    assert.equal(fitting!.fit.verdict, 'fits');
    assert.deepEqual(fitting!.fit.checks.map((check) => check.limit), ['max_draught', 'channel_depth', 'max_length', 'max_beam']);
    assert.ok(Math.abs(fitting!.distance_nm! - haversineNm(55.5, 3.0, rotterdam.lat, rotterdam.lon)) < 0.01, `${fitting!.distance_nm} nm`);
    assert.equal(fitOf({ draught: 9, dimensions: null }, hamburg).verdict, 'unknown', 'no limits known for Hamburg here');
  });

  test('a changed destination moves the vessel to its new port', () => {
    const { voyage, position, expected } = world();
    voyage(244_000_004, { destination: 'NLRTM' });
    position(244_000_004, 53.0, 4.0, 12, 180);
    assert.deepEqual(expected(), [244_000_004]);
    voyage(244_000_004, { destination: 'NLRTM>DEHAM' }, T0 + 10 * MINUTE);
    assert.deepEqual(expected(rotterdam, T0 + 11 * MINUTE), []);
    assert.deepEqual(expected(hamburg, T0 + 11 * MINUTE), [244_000_004]);
  });

  test('without a usable destination, a course that leads to the port within reach', () => {
    const { arrivals, voyage, position, expected } = world();
    voyage(244_000_005, { destination: 'FOR ORDERS' });
    position(244_000_005, 51.95, 3.7, 12, 92); // 29 nm west, heading east
    voyage(244_000_006, { destination: '' });
    position(244_000_006, 51.95, 3.7, 12, 270); // heading away
    voyage(244_000_007, { destination: 'DEHAM' });
    position(244_000_007, 51.95, 3.7, 12, 92); // towards Rotterdam, but bound elsewhere
    position(244_000_008, 52.0, 4.4, 12, 180); // inside the approach area already
    position(244_000_009, 51.95, 2.0, 12, 90); // too far out
    assert.deepEqual(expected(), [244_000_005]);
    const [byCourse] = arrivals.at(rotterdam, T0 + MINUTE);
    assert.equal(byCourse!.match, 'course');
    const hours = byCourse!.distance_nm! / 12;
    assert.ok(Math.abs(Date.parse(byCourse!.course_eta!) - (T0 + hours * 3_600_000)) < 1000);
  });

  test('left out: vessels in port there, gone since they set the destination, or not heard for a day', () => {
    const { voyage, position, expected } = world();
    voyage(244_000_010, { destination: 'NLRTM' });
    position(244_000_010, 51.9, 4.4833, 0, 0, T0, 5);
    voyage(244_000_011, { destination: 'NLRTM' }, T0 - 60 * MINUTE);
    position(244_000_011, 51.9, 4.4833, 0, 0, T0 - 50 * MINUTE, 5);
    position(244_000_011, 52.05, 3.8, 14, 280, T0 - 10 * MINUTE);
    voyage(244_000_012, { destination: 'NLRTM' }, T0 - 25 * 60 * MINUTE);
    assert.deepEqual(expected(), []);
    // Once the vessel that left sets its destination again, it is expected again.
    voyage(244_000_011, { destination: 'ROTTERDAM' }, T0);
    assert.deepEqual(expected(), [244_000_011]);
  });

  test('boxes round a port cross the antimeridian where the circle does', () => {
    const box = boxAround(-17.7, 179.9, 60);
    assert.ok(box.minLon > box.maxLon && box.minLon > 178 && box.maxLon < -178, JSON.stringify(box));
    const plain = boxAround(51.9, 4.5, 60);
    assert.ok(plain.minLon < 4.5 && plain.maxLon > 4.5 && Math.abs(plain.maxLat - 52.9) < 1e-9);
  });

  test('predictions are reused for a while per vessel and port; failures are not kept', async () => {
    let now = T0;
    let calls = 0;
    let fail = false;
    const predict = cachedPredictor(async (vessel, port): Promise<PredictedEta> => {
      calls++;
      if (fail) throw new Error('no route');
      return { eta: new Date(T0 + vessel.mmsi).toISOString(), distance_nm: port.id.length };
    }, () => now);
    const vessel = { mmsi: 1 } as Parameters<typeof predict>[0];
    await predict(vessel, rotterdam);
    await predict(vessel, rotterdam);
    await predict(vessel, hamburg);
    assert.equal(calls, 2);
    now += PREDICTION_TTL_MS;
    fail = true;
    await assert.rejects(predict(vessel, rotterdam));
    await assert.rejects(predict(vessel, rotterdam));
    assert.equal(calls, 4);
  });
});
