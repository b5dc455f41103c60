// The maritime service as a user runs it: the embedded simulator fills the map within seconds and
// its vessels move; a restart keeps static data and tracks; `lamis replay` serves a recording.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { formatTagBlock } from '../../src/maritime/ais/index.ts';
import { positionReport, sentences, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, TEST_API_KEY, testConfig } from '../support/server.ts';

async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface Vessel {
  mmsi: number;
  name: string | null;
  imo: number | null;
  source: string;
  position: { lat: number; lon: number; sog: number | null; timestamp: string } | null;
}

test('with the simulator on, vessels appear within seconds, move, and survive a restart', { timeout: 60_000 }, async () => {
  const config = testConfig({ aisSimulator: 'on', aisSimulatorVessels: 60 });
  const first = await startTestServer({ config });
  const get = async (url: string, pathname: string) => json(await fetch(url + pathname, { headers: AUTH }));

  const page = await eventually(async () => {
    const result: { data: Vessel[] } = await get(first.url, '/v3/maritime/vessels?limit=100');
    return result.data.filter((v) => v.position).length >= 30 ? result : undefined;
  }, 'simulated vessels with positions');
  assert.ok(page.data.every((v) => v.source === 'simulated'));

  // A vessel under way reports every few seconds; its position changes.
  const underWay = page.data.find((v) => (v.position?.sog ?? 0) > 5)!;
  assert.ok(underWay, 'some simulated vessel is under way');
  const moved = await eventually(async () => {
    const now: Vessel = await get(first.url, `/v3/maritime/vessels/${underWay.mmsi}`);
    return now.position!.timestamp !== underWay.position!.timestamp &&
      (now.position!.lat !== underWay.position!.lat || now.position!.lon !== underWay.position!.lon) ? now : undefined;
  }, `vessel ${underWay.mmsi} to move`);
  assert.ok(moved);
  const named = await eventually(async () => {
    const result: { data: Vessel[] } = await get(first.url, '/v3/maritime/vessels?limit=100');
    return result.data.find((v) => v.name && v.imo);
  }, 'static data from a simulated vessel', 30_000);

  await first.app.close(); // flushes the recorder; the data folder stays
  const second = await startTestServer({ config: { ...config, aisSimulator: 'off' } });
  try {
    const restored: Vessel = await get(second.url, `/v3/maritime/vessels/${named.mmsi}`);
    assert.equal(restored.name, named.name);
    assert.equal(restored.imo, named.imo);
    const track = await get(second.url, `/v3/maritime/vessels/${underWay.mmsi}/track`);
    assert.ok(track.points.length >= 1, 'the track was kept');
  } finally {
    await second.close();
  }
});

test('lamis replay serves a recording as the replay source', { timeout: 30_000 }, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-replay-'));
  const file = path.join(dataDir, 'recording.nmea');
  const start = Date.parse('2026-03-01T10:00:00Z');
  const tagged = (line: string, at: number) => formatTagBlock(['s:harbour', `c:${at / 1000}`]) + line;
  writeFileSync(file, [
    ...sentences(staticVoyage(244_000_777, { shipname: 'REPLAYED' }), 3).map((line) => tagged(line, start)),
    ...sentences(positionReport(244_000_777, 52.1, 4.2)).map((line) => tagged(line, start + 60_000)),
  ].join('\r\n'));

  const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'replay', file, '--speed', '1000', '--port', '0'], {
    env: { ...process.env, LAMIS_DATA_DIR: dataDir, LAMIS_API_KEYS: TEST_API_KEY, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let output = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk;
        const match = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      child.on('exit', () => reject(new Error(`replay exited early:\n${output}`)));
    });
    const vessel: Vessel = await eventually(async () => {
      const response = await fetch(`http://127.0.0.1:${port}/v3/maritime/vessels/244000777`, { headers: AUTH });
      const body = response.status === 200 ? await json(response) : undefined;
      return body?.position ? body : undefined;
    }, 'the replayed vessel');
    assert.equal(vessel.name, 'REPLAYED');
    assert.equal(vessel.source, 'replay');
    assert.equal(vessel.position!.lat, 52.1);
    const ready = await json(await fetch(`http://127.0.0.1:${port}/readyz`));
    const feed = ready.checks.ais.detail.feeds.find((f: { kind: string }) => f.kind === 'file');
    assert.equal(feed.source, 'replay');
    assert.ok(!ready.checks.ais.detail.feeds.some((f: { kind: string }) => f.kind === 'simulator'), 'the simulator stays off');
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
