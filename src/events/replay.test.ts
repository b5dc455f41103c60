// The seam between a resumed stream's replay and its live changes: in order, nothing twice, nothing lost.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LamisEvent, LoggedChange } from './events.ts';
import { ReplaySeam } from './replay.ts';

const change = (seq: number, id: string, severity: LamisEvent['severity'], state: LamisEvent['state'] = 'open'): LoggedChange => ({
  seq,
  event: {
    id, kind: 'vessel.zone_entered', state, severity, subject: { type: 'vessel', id: '235000001' },
    opened_at: '2026-05-04T06:00:00.000Z', cleared_at: state === 'cleared' ? '2026-05-04T07:00:00.000Z' : null, acknowledged_at: null,
    summary: 'Vessel 235000001 entered the Solent zone.', data: {},
  },
});

function seam(): { seam: ReplaySeam; sent: string[] } {
  const sent: string[] = [];
  return { seam: new ReplaySeam(({ seq, event: e }) => sent.push(`${seq} ${e.id} ${e.severity} ${e.state}`)), sent };
}

test('changes announced during the replay wait behind it; those the replay read already are not sent again', () => {
  const { seam: s, sent } = seam();
  s.begin();
  // evt_a changed to warning (5) then critical (7) before the replay read it, then cleared (8) after.
  s.live(change(5, 'evt_a', 'warning'));
  s.live(change(6, 'evt_b', 'info'));
  s.live(change(7, 'evt_a', 'critical'));
  s.replayed(change(7, 'evt_a', 'critical'));
  s.live(change(8, 'evt_a', 'critical', 'cleared'));
  assert.deepEqual(sent, ['7 evt_a critical open']);
  s.end();
  assert.deepEqual(sent, ['7 evt_a critical open', '6 evt_b info open', '8 evt_a critical cleared']);
});

test('a change the replay showed, announced after the replay ended, is skipped; the next one goes out', () => {
  const { seam: s, sent } = seam();
  s.begin();
  s.replayed(change(3, 'evt_a', 'warning'));
  s.end();
  s.live(change(3, 'evt_a', 'warning'));
  // The same content again is a change of its own (e.g. an update back and forth): it goes out.
  s.live(change(4, 'evt_a', 'warning'));
  s.live(change(5, 'evt_c', 'info'));
  assert.deepEqual(sent, ['3 evt_a warning open', '4 evt_a warning open', '5 evt_c info open']);
});

test('without a replay, every live change goes out as it comes', () => {
  const { seam: s, sent } = seam();
  s.live(change(1, 'evt_a', 'info'));
  s.live(change(2, 'evt_a', 'info', 'cleared'));
  assert.deepEqual(sent, ['1 evt_a info open', '2 evt_a info cleared']);
});
