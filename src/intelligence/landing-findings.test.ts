// Each landing rule's finding, from answers built by the landing rules themselves over a one-runway
// airport (09/27, ILS both ways), a real METAR and real NOTAMs: the crosswind when no runway is
// within limits, slots, runway and status changes, and the NOTAMs that bear on the landing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { aircraftType } from '../aviation/index.ts';
import { composeLandingBundle } from '../aviation/landing/bundle.ts';
import { notam } from '../aviation/landing/fixtures.ts';
import type { SlotAvailability } from '../aviation/landing/slots.ts';
import type { ActiveNotam } from '../aviation/landing/types.ts';
import type { Notam } from '../aviation/notams/index.ts';
import { fixtureAirport, fixtureRunway } from '../aviation/reference/airports-fixtures.ts';
import { parseMetar } from '../aviation/weather/index.ts';
import type { LamisEvent } from '../events/index.ts';
import { edgeOf, landingFindings, writeFor, type ArrivalFacts, type Finding } from './landing-rules.ts';

const NOW = Date.parse('2025-06-21T12:00:00Z');
/** Within the hour the METAR describes. */
const ETA = NOW + 30 * 60_000;
const A320 = aircraftType('A320')!;
const AIRPORT = fixtureAirport('EGLL', {
  type: 'large_airport', lat: 51.47, lon: -0.46,
  runways: [fixtureRunway({
    length_ft: 10_000,
    ends: [
      { ident: '09', true_heading_deg: 90, heading_source: 'data', lat: null, lon: null, elevation_ft: null, displaced_threshold_ft: null, ils: true },
      { ident: '27', true_heading_deg: 270, heading_source: 'data', lat: null, lon: null, elevation_ft: null, displaced_threshold_ft: null, ils: true },
    ],
  })],
});
const OPEN_SLOT: SlotAvailability = { icao: 'EGLL', hour: '2025-06-21T12:00:00.000Z', capacity: 40, capacity_source: 'derived', booked: 3, remaining: 37, available: true };

function answer(options: { wind?: string; notams?: ActiveNotam[]; slot?: SlotAvailability } = {}) {
  const raw = `METAR EGLL 211150Z ${options.wind ?? '27010KT'} 9999 FEW030 15/08 Q1015`;
  const parsed = parseMetar(raw, { now: new Date(NOW) });
  assert.ok(parsed.ok);
  const stamp = '2025-06-21T11:50:00.000Z';
  return composeLandingBundle({
    request: { airport: AIRPORT, etaMs: ETA, registration: 'G-EUPT', vehicleType: 'aircraft', profile: A320, profileSource: 'fleet' },
    weather: {
      metarReport: { icao: 'EGLL', kind: 'metar', source: 'operator', raw, observed_at: stamp, received_at: stamp, checked_at: stamp, age_s: 600, freshness: 'stale' },
      tafReport: null, metar: parsed.metar, taf: undefined,
    },
    notamSet: {
      location: 'EGLL',
      // The fixture's NOTAMs are whole parsed NOTAMs, typed down to what the runway rules read.
      notams: (options.notams ?? []).map((active) => ({ ...(active as Notam), source: 'operator' as const, received_at: stamp, ended_by: null, ended_at: null })),
      feeds: [],
    },
    slot: options.slot ?? OPEN_SLOT,
    alternates: { radius_nm: 150, assessed_for: new Date(ETA + 30 * 60_000).toISOString(), airports: [], reasoning: [] },
  }, 'arr_test', NOW);
}

const FACTS: ArrivalFacts = { thresholds: { own: {}, effective: {} }, name: 'G-EUPT', holdsSlot: false, previous: null };

function finding(kind: Finding['kind'], from: ReturnType<typeof answer>, facts: Partial<ArrivalFacts> = {}): Finding {
  const found = landingFindings(from, { ...FACTS, ...facts }).find((each) => each.kind === kind);
  assert.ok(found, `no ${kind} finding`);
  return found;
}

describe('crosswind', () => {
  test('a crosswind that rules out every runway raises the least crosswind, critical, though there is no runway', () => {
    const gale = answer({ wind: '36040G50KT' });
    assert.equal(gale.bundle.runway, null);
    const found = finding('landing.crosswind_above', gale);
    assert.equal(found.status, 'measured');
    assert.ok(found.status === 'measured');
    assert.equal(found.value, 50);
    assert.equal(found.threshold, A320.crosswind_limit_kt);
    assert.equal(found.event.severity, 'critical');
    assert.equal(found.event.data.no_runway_within_limits, true);
    assert.equal(found.event.data.runway, null);
    assert.match(found.event.summary, /^No runway at EGLL is within the crosswind limit of G-EUPT: the least crosswind is 50 kt, above the \d+ kt limit\.$/);
    assert.equal(edgeOf(found, false), 'open');
  });

  test('an alert threshold above the aircraft\'s limit does not hide it: the limit applies', () => {
    const found = finding('landing.crosswind_above', answer({ wind: '36040G50KT' }), { thresholds: { own: { crosswind_kt_above: 60 }, effective: { crosswind_kt_above: 60 } } });
    assert.ok(found.status === 'measured');
    assert.equal(found.threshold, A320.crosswind_limit_kt);
    assert.equal(found.event.data.threshold_source, 'aircraft_limit');
  });

  test('with the runway closed there is no crosswind to blame: unknown', () => {
    const closed = answer({ wind: '36040G50KT', notams: [notam('A0001/25', 'QMRLC', 'RWY 09/27 CLSD')] });
    assert.equal(finding('landing.crosswind_above', closed).status, 'unknown');
  });

  test('on the recommended runway the crosswind is measured as before', () => {
    const found = finding('landing.crosswind_above', answer({ wind: '36020KT' }), { thresholds: { own: { crosswind_kt_above: 15 }, effective: { crosswind_kt_above: 15 } } });
    assert.ok(found.status === 'measured');
    // A wind across the runway favours neither end: the tie goes to the designator.
    assert.deepEqual([found.value, found.threshold, found.event.severity, found.event.data.runway], [20, 15, 'warning', '09']);
  });
});

describe('slots', () => {
  const full = { ...OPEN_SLOT, booked: 40, remaining: 0, available: false };

  test('no slot left in the hour holds, a warning with the hour\'s figures', () => {
    const found = finding('landing.slot_unavailable', answer({ slot: full }));
    assert.ok(found.status === 'categorical');
    assert.equal(found.holds, true);
    assert.equal(found.event.severity, 'warning');
    assert.deepEqual([found.event.data.booked, found.event.data.capacity, found.event.data.hour], [40, 40, OPEN_SLOT.hour]);
  });

  test('a slot left, or one the arrival holds, does not', () => {
    assert.ok(!(finding('landing.slot_unavailable', answer()) as { holds: boolean }).holds);
    assert.ok(!(finding('landing.slot_unavailable', answer({ slot: full }), { holdsSlot: true }) as { holds: boolean }).holds);
  });
});

describe('runway changes', () => {
  test('the first look is no change; another runway or approach than last seen is one, info', () => {
    const west = answer({ wind: '27015KT' });
    assert.equal(west.bundle.recommended_approach, 'VISUAL RWY 27');
    assert.equal(edgeOf(finding('landing.runway_changed', west), false), 'hold');
    const found = finding('landing.runway_changed', west, { previous: { runway: '09', approach: 'VISUAL RWY 09', status: 'OPERATIONAL' } });
    assert.ok(found.status === 'change' && found.changed);
    assert.equal(found.event.severity, 'info');
    assert.deepEqual(found.event.data.previous, { runway: '09', approach: 'VISUAL RWY 09' });
    assert.deepEqual(found.event.data.current, { runway: '27', approach: 'VISUAL RWY 27' });
    assert.equal(edgeOf(found, false), 'open');
    assert.equal(edgeOf(found, true), 'hold', 'an open one is updated, not opened again');
    const same = finding('landing.runway_changed', west, { previous: { runway: '27', approach: 'VISUAL RWY 27', status: 'OPERATIONAL' } });
    assert.ok(same.status === 'change' && !same.changed);
    // Last seen before any METAR: the wind had not decided the runway, so the first METAR's choice is no change.
    const unseen = finding('landing.runway_changed', west, { previous: { runway: null, approach: null, status: 'OPERATIONAL' } });
    assert.ok(unseen.status === 'change' && !unseen.changed);
  });
});

describe('status changes', () => {
  const was = (status: string) => ({ previous: { runway: '27', approach: 'VISUAL RWY 27', status } });

  test('LIMITED is a warning, CLOSED critical, back to OPERATIONAL info, with old, new and the reasons', () => {
    const limited = finding('airport.status_changed', answer({ notams: [notam('A0002/25', 'QICAS', 'ILS RWY 27 U/S')] }), was('OPERATIONAL'));
    assert.ok(limited.status === 'change' && limited.changed);
    assert.equal(limited.event.severity, 'warning');
    assert.deepEqual([limited.event.data.old, limited.event.data.new], ['OPERATIONAL', 'LIMITED']);
    assert.match(String((limited.event.data.reasons as string[])[0]), /ILS out of service: 27/);

    const closed = finding('airport.status_changed', answer({ notams: [notam('A0003/25', 'QFALC', 'AD CLSD')] }), was('LIMITED'));
    assert.ok(closed.status === 'change' && closed.changed);
    assert.equal(closed.event.severity, 'critical');

    const back = finding('airport.status_changed', answer(), was('CLOSED'));
    assert.ok(back.status === 'change' && back.changed);
    assert.deepEqual([back.event.severity, back.event.data.new], ['info', 'OPERATIONAL']);
  });

  test('the same status, the first look or UNKNOWN before is no change', () => {
    for (const previous of [was('OPERATIONAL'), was('UNKNOWN'), { previous: null }]) {
      const found = finding('airport.status_changed', answer(), previous);
      assert.ok(found.status === 'change' && !found.changed, JSON.stringify(previous));
    }
  });
});

describe('NOTAMs', () => {
  test('a NOTAM on the recommended runway\'s equipment, a closure or a restriction bears on the landing', () => {
    const ils = notam('A0004/25', 'QICAS', 'ILS RWY 27 U/S');
    const found = finding('airport.notam_issued', answer({ notams: [ils] }));
    assert.ok(found.status === 'categorical' && found.holds);
    assert.equal(found.event.severity, 'warning');
    assert.deepEqual((found.event.data.notams as { id: string }[]).map((each) => each.id), ['A0004/25']);
    assert.match(found.event.summary, /^A NOTAM in force at EGLL at the ETA of G-EUPT bears on the landing: A0004\/25\.$/);

    const closing = finding('airport.notam_issued', answer({ notams: [notam('A0005/25', 'QFALC', 'AD CLSD'), ils] }));
    assert.ok(closing.status === 'categorical' && closing.holds);
    assert.equal(closing.event.severity, 'critical');
    assert.match(closing.event.summary, /^2 NOTAMs /);

    const restricted = finding('airport.notam_issued', answer({ notams: [notam('A0006/25', 'QFAAH', 'AD HR OF SER 0600-2200')] }));
    assert.ok(restricted.status === 'categorical' && restricted.holds);
  });

  test('equipment of the other end, or a taxiway, does not; none clears', () => {
    const other = finding('airport.notam_issued', answer({ wind: '27015KT', notams: [notam('A0007/25', 'QICAS', 'ILS RWY 09 U/S'), notam('A0008/25', 'QMXLC', 'TWY A CLSD')] }));
    assert.ok(other.status === 'categorical' && !other.holds);
    assert.equal(edgeOf(other, true), 'clear');
  });
});

describe('what a finding writes', () => {
  const eventOf = (found: Finding, extra: Partial<LamisEvent> = {}): LamisEvent => {
    assert.ok('event' in found);
    return {
      id: 'evt_1', kind: found.kind, state: 'open', subject: { type: 'arrival', id: 'arr_test' }, opened_at: '', cleared_at: null, acknowledged_at: null,
      ...found.event, ...extra,
    };
  };

  test('an open event that says the same, or differs by the METAR text alone, is left as it is', () => {
    const found = finding('landing.crosswind_above', answer({ wind: '36040G50KT' }));
    const open = eventOf(found);
    assert.equal(writeFor(found, open), null);
    assert.equal(writeFor(found, { ...open, data: { ...open.data, metar: 'METAR EGLL 211120Z 36040G50KT 9999 Q1015' } }), null);
    assert.equal(writeFor(found, { ...open, severity: 'warning' }), 'update');
    assert.equal(writeFor(found, null), 'open');
  });

  test('a change told in an acknowledged event replaces it; in one not yet acknowledged, updates it', () => {
    const found = finding('landing.runway_changed', answer({ wind: '27015KT' }), { previous: { runway: '09', approach: 'VISUAL RWY 09', status: 'OPERATIONAL' } });
    const earlier = eventOf(found, { summary: 'An earlier change.' });
    assert.equal(writeFor(found, earlier), 'update');
    assert.equal(writeFor(found, { ...earlier, acknowledged_at: '2025-06-21T11:00:00.000Z' }), 'replace');
  });
});
