// What the prediction rules find, without storage: the delay of the predicted ETA behind the
// reported one against the threshold, and the tide at the predicted ETA.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etaDelayOutcome, tideOutcome } from './prediction-rules.ts';

const base = { name: 'EVER GIVEN', portName: 'Brest (FRBES)', distanceNm: 120 };

test('the delay is the predicted ETA after the reported one, in minutes, against the vehicle\'s or organisation\'s threshold', () => {
  const found = etaDelayOutcome({
    ...base, predictedEta: '2026-11-26T14:30:00.000Z', reportedEta: '2026-11-26T12:00:00.000Z',
    thresholds: { own: {}, effective: { eta_delay_minutes_above: 60 } },
  });
  assert.deepEqual(found, {
    status: 'measured', value: 150, threshold: 60,
    event: {
      severity: 'warning',
      summary: 'EVER GIVEN is predicted at Brest (FRBES) at 2026-11-26T14:30:00.000Z, 150 min after its reported ETA, beyond the 60 min threshold.',
      data: { value: 150, threshold: 60, threshold_source: 'organisation', predicted_eta: '2026-11-26T14:30:00.000Z', reported_eta: '2026-11-26T12:00:00.000Z', distance_nm: 120 },
    },
  });
  const own = etaDelayOutcome({ ...base, predictedEta: '2026-11-26T11:00:00.000Z', reportedEta: '2026-11-26T12:00:00.000Z', thresholds: { own: { eta_delay_minutes_above: 30 }, effective: { eta_delay_minutes_above: 30 } } });
  assert.ok(own.status === 'measured');
  assert.deepEqual([own.value, own.event.data.threshold_source], [-60, 'vehicle'], 'early is a negative delay');
  assert.deepEqual(etaDelayOutcome({ ...base, predictedEta: null, reportedEta: '2026-11-26T12:00:00.000Z', thresholds: { own: {}, effective: { eta_delay_minutes_above: 30 } } }), { status: 'unknown' });
  assert.deepEqual(etaDelayOutcome({ ...base, predictedEta: '2026-11-26T12:00:00.000Z', reportedEta: null, thresholds: { own: {}, effective: { eta_delay_minutes_above: 30 } } }), { status: 'unknown' });
  assert.deepEqual(etaDelayOutcome({ ...base, predictedEta: '2026-11-26T12:00:00.000Z', reportedEta: '2026-11-26T10:00:00.000Z', thresholds: { own: {}, effective: {} } }), { status: 'off' });
});

test('restricted when no tidal window is open at the ETA, naming the next one; a window at the ETA clears; no windows decide nothing', () => {
  const etaMs = Date.parse('2026-11-26T12:00:00.000Z');
  const later = { start: '2026-11-26T16:10:00.000Z', end: '2026-11-26T19:40:00.000Z' };
  const restricted = tideOutcome({ ...base, etaMs, draughtM: 12.5, windows: [later], requiredDepthM: 13.75 });
  assert.deepEqual(restricted, {
    status: 'categorical', holds: true,
    event: {
      severity: 'warning',
      summary: 'EVER GIVEN has not enough water at Brest (FRBES) at its predicted ETA 2026-11-26T12:00:00.000Z with a draught of 12.5 m; the next tidal window opens at 2026-11-26T16:10:00.000Z.',
      data: { predicted_eta: '2026-11-26T12:00:00.000Z', draught_m: 12.5, required_depth_m: 13.75, next_window: later },
    },
  });
  const never = tideOutcome({ ...base, etaMs, draughtM: 25, windows: [], requiredDepthM: 27.5 });
  assert.ok(never.status === 'categorical' && never.event);
  assert.match(never.event.summary, /no tidal window opens in the 12 hours after it\.$/);
  assert.deepEqual(tideOutcome({ ...base, etaMs, draughtM: 2, windows: [{ start: '2026-11-26T12:00:00.000Z', end: '2026-11-27T00:00:00.000Z' }], requiredDepthM: 2.5 }), { status: 'categorical', holds: false });
  assert.deepEqual(tideOutcome({ ...base, etaMs, draughtM: 2, windows: null, requiredDepthM: null }), { status: 'unknown' });
});
