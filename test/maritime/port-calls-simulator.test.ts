// With the embedded defaults (no AIS feed configured, so the simulator sails its 1,000 vessels),
// the service finds the simulated vessels in port and makes port calls of them, and lists vessels
// under way as expected arrivals at the real ports they are bound for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flatRing, ringHolds } from '../../src/platform/geo/ring.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer } from '../support/server.ts';

interface Vessel {
  mmsi: number;
  destination: string | null;
  source: string;
  position: { lat: number; lon: number; sog: number | null; nav_status: number | null } | null;
}

async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

test('simulated vessels make port calls and are expected at real ports', { timeout: 40_000 }, async () => {
  const server = await startTestServer({ config: { aisSimulator: 'auto' } });
  const get = async (pathname: string) => json(await fetch(server.url + pathname, { headers: AUTH }));
  const vessels = async () => {
    const all: Vessel[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Vessel[]; next_cursor: string | null } = await get(`/v3/maritime/vessels?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return all;
  };
  try {
    // A moored vessel is in a port call at a real port whose area holds it, and the simulated
    // fleet's stops make the port's berth clusters.
    const inPort = await eventually(async () => {
      for (const vessel of (await vessels()).filter((v) => v.position?.nav_status === 5)) {
        const calls = await get(`/v3/maritime/vessels/${vessel.mmsi}/calls?state=in_port`);
        if (calls.data.length > 0) return { vessel, call: calls.data[0] };
      }
      return undefined;
    }, 'a port call of a moored simulated vessel', 15_000);
    assert.equal(inPort.call.source, 'simulated');
    const port = await get(`/v3/maritime/ports/${inPort.call.port_id}`);
    assert.equal(port.id, inPort.call.port_id);
    const { lat, lon } = inPort.vessel.position!;
    assert.ok(ringHolds(flatRing(port.area.polygon.coordinates[0]), lon, lat), 'the vessel lies in the port\'s area');
    assert.ok(port.area.berth_clusters.length > 0, 'its berth is among the port\'s clusters');
    const portCalls = await get(`/v3/maritime/ports/${port.id}/calls?state=in_port&limit=100`);
    assert.ok(portCalls.data.some((call: { id: string }) => call.id === inPort.call.id), 'listed at the port too');
    const availability = await get(`/v3/maritime/ports/${port.id}/availability`);
    assert.ok(availability.vessels.some((v: { mmsi: number }) => v.mmsi === inPort.vessel.mmsi), 'counted in the port\'s availability');

    // A vessel under way whose AIS destination is a UN/LOCODE is expected there, with its ETA.
    const expected = await eventually(async () => {
      for (const vessel of (await vessels()).filter((v) => v.destination !== null && (v.position?.sog ?? 0) > 5)) {
        const code = vessel.destination!.replace(/\s+/g, '');
        if (!/^[A-Z]{5}$/.test(code)) continue;
        const arrivals = await get(`/v3/maritime/ports/${code}/arrivals?limit=100`);
        const listed = arrivals.data?.find((arrival: { mmsi: number }) => arrival.mmsi === vessel.mmsi);
        if (listed !== undefined) return { code, listed };
      }
      return undefined;
    }, 'a simulated vessel expected at its destination', 15_000);
    assert.deepEqual([expected.listed.match, expected.listed.source], ['destination', 'simulated']);
    assert.ok(expected.listed.reported_eta !== null && expected.listed.draught_m > 0);
    assert.equal((await get(`/v3/maritime/ports/${expected.code}`)).id, expected.code, 'a real port of the index');
  } finally {
    await server.close();
  }
});
