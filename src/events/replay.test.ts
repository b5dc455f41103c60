// The seam between a resumed stream's replay and its live changes: in order, nothing twice, nothing lost.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LamisEvent } from './events.ts';
import { ReplaySeam } from './replay.ts';

const event = (id: string, severity: LamisEvent['severity'], state: LamisEvent['state'] = 'open'): LamisEvent => ({
  id, kind: 'vessel.zone_entered', state, severity, subject: { type: 'vessel', id: '235000001' },
  opened_at: '2026-05-04T06:00:00.000Z', cleared_at: state === 'cleared' ? '2026-05-04T07:00:00.000Z' : null, acknowledged_at: null,
  summary: 'Vessel 235000001 entered the Solent zone.', data: {},
});

function seam(): { seam: ReplaySeam; sent: string[] } {
  const sent: string[] = [];
  return { seam: new ReplaySeam((e) => sent.push(`${e.id} ${e.severity} ${e.state}`)), sent };
}

test('changes announced during the replay wait behind it; those the replay read already are not sent again', () => {
  const { seam: s, sent } = seam();
  s.begin();
  // evt_a changed to warning then critical before the replay read it (critical), then cleared after.
  s.live(event('evt_a', 'warning'));
  s.live(event('evt_b', 'info'));
  s.live(event('evt_a', 'critical'));
  s.replayed(event('evt_a', 'critical'));
  s.live(event('evt_a', 'critical', 'cleared'));
  assert.deepEqual(sent, ['evt_a critical open']);
  s.end();
  assert.deepEqual(sent, ['evt_a critical open', 'evt_b info open', 'evt_a critical cleared']);
});

test('a change the replay showed, announced after the replay ended, is skipped once; the next one goes out', () => {
  const { seam: s, sent } = seam();
  s.begin();
  s.replayed(event('evt_a', 'warning'));
  s.end();
  s.live(event('evt_a', 'warning'));
  s.live(event('evt_a', 'warning'));
  s.live(event('evt_c', 'info'));
  assert.deepEqual(sent, ['evt_a warning open', 'evt_a warning open', 'evt_c info open']);
});

test('without a replay, every live change goes out as it comes', () => {
  const { seam: s, sent } = seam();
  s.live(event('evt_a', 'info'));
  s.live(event('evt_a', 'info', 'cleared'));
  assert.deepEqual(sent, ['evt_a info open', 'evt_a info cleared']);
});
