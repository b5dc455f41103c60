// What the watch rules find, without storage: an airport's status and a port's holds turned into
// outcomes with their severity, summary and data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AirportNow } from '../aviation/index.ts';
import type { PortHolds } from '../maritime/index.ts';
import { airportStatusOutcome, portHoldOutcome } from './watch-rules.ts';

const now = (status: AirportNow['status'], reasons: string[] = []): AirportNow =>
  ({ icao: 'EGLL', name: 'London Heathrow Airport', status, reasons, flight_category: 'VFR', metar: 'EGLL 261020Z 27005KT 9999 FEW030 12/05 Q1013' });

test('LIMITED opens a warning, CLOSED a critical event; OPERATIONAL clears; UNKNOWN decides nothing', () => {
  const limited = airportStatusOutcome(now('LIMITED', ['Runway closed: 09L, 27R (NOTAM A0501/26).']), null);
  assert.deepEqual(limited, {
    status: 'categorical', holds: true,
    event: {
      severity: 'warning',
      summary: 'London Heathrow Airport (EGLL) is limited: Runway closed: 09L, 27R (NOTAM A0501/26).',
      data: { status: 'LIMITED', previous_status: 'OPERATIONAL', reasons: ['Runway closed: 09L, 27R (NOTAM A0501/26).'], flight_category: 'VFR', metar: 'EGLL 261020Z 27005KT 9999 FEW030 12/05 Q1013' },
    },
  });
  const closed = airportStatusOutcome(now('CLOSED', ['Aerodrome closed by NOTAM A0502/26.']), { status: 'LIMITED', previous_status: 'OPERATIONAL' });
  assert.ok(closed.status === 'categorical' && closed.event);
  assert.deepEqual([closed.event.severity, closed.event.data.status, closed.event.data.previous_status], ['critical', 'CLOSED', 'LIMITED']);
  const still = airportStatusOutcome(now('CLOSED', ['Aerodrome closed by NOTAM A0502/26.']), { status: 'CLOSED', previous_status: 'LIMITED' });
  assert.ok(still.status === 'categorical' && still.event);
  assert.equal(still.event.data.previous_status, 'LIMITED', 'the status it changed from, kept while it stays');
  assert.deepEqual(airportStatusOutcome(now('OPERATIONAL'), { status: 'CLOSED', previous_status: 'LIMITED' }), { status: 'categorical', holds: false });
  assert.deepEqual(airportStatusOutcome(now('UNKNOWN'), null), { status: 'unknown' });
});

test('a hold in the horizon opens a warning naming the first hold and its factors; none clears', () => {
  const port = { id: 'GBSOU', name: 'Southampton' } as PortHolds['port'];
  const thresholds = { wind_kn: 30, gust_kn: 40, wave_height_m: 2, visibility_m: 1000 };
  const first = {
    start: '2026-11-26T12:00:00.000Z', end: '2026-11-26T15:00:00.000Z', duration_hours: 3,
    limiting: [{ factor: 'wind' as const, threshold: 30, unit: 'kn', worst: 36, worst_at: '2026-11-26T13:00:00.000Z', hours: 3 }],
  };
  const second = { ...first, start: '2026-11-27T12:00:00.000Z', end: '2026-11-27T13:30:00.000Z', duration_hours: 1.5 };
  const found = portHoldOutcome({ port, from: '2026-11-26T10:00:00.000Z', to: '2026-11-30T10:00:00.000Z', thresholds, holds: [first, second] });
  assert.deepEqual(found, {
    status: 'categorical', holds: true,
    event: {
      severity: 'warning',
      summary: 'Weather is forecast to hold Southampton (GBSOU) from 2026-11-26T12:00:00.000Z to 2026-11-26T15:00:00.000Z: wind beyond the port\'s limits.',
      data: { first_hold: first, factors: ['wind'], thresholds, holds: 2, held_hours: 4.5, horizon_hours: 96 },
    },
  });
  assert.deepEqual(portHoldOutcome({ port, from: '', to: '', thresholds, holds: [] }), { status: 'categorical', holds: false });
});
