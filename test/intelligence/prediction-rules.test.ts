// The prediction rules on a real server over real storage, for a fleet vessel bound for Brest (the
// World Port Index row gives its 5 m channel depth) and sailing there up the approaches. A reported
// ETA hours before the predicted one opens `vessel.eta_delayed`, a later one sent in new voyage
// data clears it; `weather_hold` with limits below the forecast opens `port.weather_hold` about the
// vessel, switched off it clears; an 11.8 m draught finds no tidal window at the predicted ETA
// (`vessel.tide_restricted`), a 2 m one clears it. A restart raises nothing new.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { formatTagBlock } from '../../src/maritime/ais/index.ts';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import { positionReport, sentences, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { skipRedis } from '../support/backends.ts';
import { startEngine, type EngineServer } from './support.ts';

const MMSI = 227_006_001;
const MINUTE = 60_000;
/** The vessel's events are about its MMSI. */
const SUBJECT = String(MMSI);
/** The prediction rules' kinds (the AIS rules raise others about the vessel, e.g. its voyage changing). */
const KINDS = ['vessel.eta_delayed', 'port.weather_hold', 'vessel.tide_restricted'];

let engine: EngineServer;
let vehicleId: string;

/** Voyage data for Brest with this reported ETA and draught (decimetres). */
function voyage(eta: Date, draught: number): string[] {
  return sentences(staticVoyage(MMSI, {
    shipname: 'IROISE TRADER', shiptype: 70, draught, destination: 'FRBES',
    month: eta.getUTCMonth() + 1, day: eta.getUTCDate(), hour: eta.getUTCHours(), minute: eta.getUTCMinutes(),
  }), 1);
}

const upload = (lines: string[]) => engine.call('POST', '/v3/maritime/ais/nmea', lines.join('\r\n'));
const minuteAfter = (ms: number) => new Date(Math.ceil(ms / MINUTE) * MINUTE);

before(async () => {
  if (skipRedis) return;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-predictions-'));
  await saveImport(dataDir, 'wpi', 'test rows', [
    wpiEntry(29150, { unlocode: 'FRBES', name: 'Brest', country: 'FR', lat: 48.38, lon: -4.49, harbour_size: 'medium', channel_depth_m: 5 }),
  ]);
  engine = await startEngine({ dataDir, predictionIntervalSec: 1 });
  await engine.call('PUT', '/v3/fleet/notification-settings', { thresholds: { eta_delay_minutes_above: 60 } });
  vehicleId = (await engine.call('POST', '/v3/fleet/vehicles', { vehicle_type: 'vessel', mmsi: MMSI })).id;
  await engine.call('PUT', `/v3/fleet/vehicles/${vehicleId}/notification-settings`, { thresholds: { weather_hold: true } });
  await engine.call('PUT', '/v3/maritime/ports/FRBES/weather-thresholds', { wind_kn: 1, gust_kn: 1 });
  // Five reports a minute apart, heading east for Brest at 12 kn some 40 nm out, the ETA reported as the next minute.
  const now = Date.now();
  const lines = voyage(minuteAfter(now + MINUTE), 118);
  for (let i = 0; i < 5; i++) {
    const at = now - (4 - i) * MINUTE;
    lines.push(...sentences(positionReport(MMSI, 48.3, -5.5 + i * 0.0045, { speed: 120, course: 900, heading: 90, status: 0 }))
      .map((line) => formatTagBlock([`c:${Math.round(at / 1000)}`]) + line));
  }
  await upload(lines);
});
after(() => engine?.close());

test('ETA delay, weather hold and tide at the destination open, survive a restart unraised, and clear', { skip: skipRedis }, async () => {
  const delayed = await engine.until('vessel.eta_delayed', SUBJECT, 'open', 'ETA delay');
  assert.deepEqual(delayed.subject, { type: 'vessel', id: SUBJECT, mmsi: MMSI, vehicle_id: vehicleId });
  assert.equal(delayed.severity, 'warning');
  assert.equal(delayed.data.threshold, 60);
  assert.ok(delayed.data.value > 60, JSON.stringify(delayed.data));
  assert.equal(delayed.data.port_id, 'FRBES');
  assert.equal(delayed.data.threshold_source, 'organisation');

  const hold = await engine.until('port.weather_hold', SUBJECT, 'open', 'weather hold at the destination');
  assert.equal(hold.data.port_id, 'FRBES');
  assert.match(hold.summary, /Brest \(FRBES\), where IROISE TRADER is bound/);

  const tide = await engine.until('vessel.tide_restricted', SUBJECT, 'open', 'tide restriction');
  assert.deepEqual([tide.data.draught_m, tide.data.port_id], [11.8, 'FRBES']);

  await engine.restart();
  assert.deepEqual(await engine.settledChanges(SUBJECT, KINDS), ['opened', 'opened', 'opened'], 'evaluated every second and restarted, nothing new is raised or updated');

  // New voyage data: the ETA reported a day after the prediction, and a light draught. (A day, not
  // an hour: the prediction for the new draught moves with the forecast and tides of the hour the
  // test runs, once 2.6 h later than the one for the deep draught.)
  await upload(voyage(minuteAfter(Date.parse(delayed.data.predicted_eta) + 24 * 60 * MINUTE), 20));
  const onTime = await engine.until('vessel.eta_delayed', SUBJECT, 'cleared', 'ETA delay cleared');
  assert.equal(onTime.id, delayed.id);
  assert.equal((await engine.until('vessel.tide_restricted', SUBJECT, 'cleared', 'tide restriction cleared')).id, tide.id);

  await engine.call('PUT', `/v3/fleet/vehicles/${vehicleId}/notification-settings`, { thresholds: {} });
  assert.equal((await engine.until('port.weather_hold', SUBJECT, 'cleared', 'weather hold cleared')).id, hold.id);
  assert.deepEqual((await engine.settledChanges(SUBJECT, KINDS)).filter((change) => change !== 'updated').sort(), ['cleared', 'cleared', 'cleared', 'opened', 'opened', 'opened']);
});
