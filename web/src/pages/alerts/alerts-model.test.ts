import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  countChange, crossingOf, filtersFrom, inboxPath, listQuery, matches, mergeEvent, NO_FILTERS, reasonsOf, subjectLinks, type LamisEvent,
} from './alerts-model.ts';

const event = (id: string, opened_at: string, changes: Partial<LamisEvent> = {}): LamisEvent => ({
  id, kind: 'landing.crosswind_above', state: 'open', severity: 'warning', opened_at, cleared_at: null, acknowledged_at: null,
  subject: { type: 'arrival', id: 'arr_1', vehicle_id: 'veh_1', arrival_id: 'arr_1', icao: 'EGLL' },
  summary: 'Crosswind 25 kt on runway 27L is above the 15 kt limit of G-EUPT.', data: { value: 25, threshold: 15, runway: '27L' },
  ...changes,
});

describe('what an event says', () => {
  it('names the value and the threshold it crossed, in the kind\'s unit', () => {
    assert.equal(crossingOf(event('evt_a', '2026-11-21T10:00:00Z')), 'Crosswind 25 kt, above the limit of 15 kt');
    assert.equal(crossingOf({ kind: 'landing.visibility_below', data: { value: 1.2, threshold: 3 } }), 'Visibility 1.2 NM, below the threshold of 3 NM');
    assert.equal(crossingOf({ kind: 'vessel.eta_delayed', data: { value: 95, threshold: 30 } }), 'Delay 95 min, above the threshold of 30 min');
    assert.equal(crossingOf({ kind: 'airport.status_changed', data: { status: 'CLOSED' } }), null);
    assert.equal(crossingOf({ kind: 'landing.crosswind_above', data: { value: 25 } }), null, 'no threshold, no crossing');
  });

  it('reads the reasons the event gives, and only strings', () => {
    assert.deepEqual(reasonsOf({ data: { reasons: ['Runway 09L/27R closed.', 3] } }), ['Runway 09L/27R closed.']);
    assert.deepEqual(reasonsOf({ data: {} }), []);
  });

  it('links what it is about to the dashboard\'s pages', () => {
    assert.deepEqual(subjectLinks(event('evt_a', '2026-11-21T10:00:00Z').subject).map((link) => link.href), ['/landing?icao=EGLL&vehicle=veh_1', '/fleet/veh_1']);
    assert.deepEqual(subjectLinks({ type: 'vessel', id: '235012345', mmsi: 235012345, vehicle_id: 'veh_2', port_id: 'GBSOU' }).map((link) => link.href),
      ['/fleet/veh_2', '/map?vessel=235012345', '/ports/GBSOU']);
    assert.deepEqual(subjectLinks({ type: 'zone_vessel', id: 'zon_1/235012345', mmsi: 235012345, zone_id: 'zon_1' }).map((link) => link.href),
      ['/map?vessel=235012345', '/zones/zon_1']);
    assert.deepEqual(subjectLinks({ type: 'feed', id: 'metar' }), []);
  });
});

describe('the inbox', () => {
  it('keeps its filters in the address, open events by default', () => {
    assert.deepEqual(filtersFrom(new URLSearchParams('')), NO_FILTERS);
    const filters = filtersFrom(new URLSearchParams('state=all&kind=vessel.eta_delayed&severity=critical&subject_type=vessel&subject_id=%20235012345&extra=1'));
    assert.deepEqual(filters, { state: '', kind: 'vessel.eta_delayed', severity: 'critical', subject_type: 'vessel', subject_id: '235012345' });
    assert.equal(inboxPath(filters), '/alerts?state=all&kind=vessel.eta_delayed&severity=critical&subject_type=vessel&subject_id=235012345');
    assert.deepEqual(filtersFrom(new URLSearchParams(inboxPath(filters).split('?')[1])), filters);
    assert.deepEqual(listQuery(filters), { kind: 'vessel.eta_delayed', severity: 'critical', subject_type: 'vessel', subject_id: '235012345' });
    assert.equal(inboxPath(NO_FILTERS), '/alerts');
    assert.equal(filtersFrom(new URLSearchParams('kind=vessel.teleported&severity=bad')).kind, '', 'unknown words are ignored');
  });

  it('places a changed event where it belongs, newest opening first, and drops one that no longer matches', () => {
    const a = event('evt_a', '2026-11-21T10:00:00Z');
    const c = event('evt_c', '2026-11-21T08:00:00Z');
    const b = event('evt_b', '2026-11-21T09:00:00Z');
    assert.deepEqual(mergeEvent([a, c], b, NO_FILTERS).map((e) => e.id), ['evt_a', 'evt_b', 'evt_c']);
    const newest = event('evt_d', '2026-11-21T11:00:00Z');
    assert.deepEqual(mergeEvent([a, c], newest, NO_FILTERS).map((e) => e.id), ['evt_d', 'evt_a', 'evt_c']);
    const cleared = { ...a, state: 'cleared' as const, cleared_at: '2026-11-21T12:00:00Z' };
    assert.deepEqual(mergeEvent([a, c], cleared, NO_FILTERS).map((e) => e.id), ['evt_c'], 'the open list loses a cleared event');
    assert.deepEqual(mergeEvent([a, c], cleared, { ...NO_FILTERS, state: '' }).map((e) => [e.id, e.state]), [['evt_a', 'cleared'], ['evt_c', 'open']]);
    assert.equal(matches(a, { ...NO_FILTERS, severity: 'critical' }), false);
    assert.equal(matches(a, { ...NO_FILTERS, subject_type: 'arrival', subject_id: 'arr_1' }), true);
  });
});

describe('the header\'s count', () => {
  it('counts open events nobody acknowledged, following each change', () => {
    let ids = countChange(new Set(), event('evt_a', '2026-11-21T10:00:00Z'));
    ids = countChange(ids, event('evt_b', '2026-11-21T10:00:00Z'));
    assert.equal(ids.size, 2);
    ids = countChange(ids, event('evt_a', '2026-11-21T10:00:00Z', { acknowledged_at: '2026-11-21T10:05:00Z' }));
    assert.deepEqual([...ids], ['evt_b']);
    ids = countChange(ids, event('evt_b', '2026-11-21T10:00:00Z', { state: 'cleared', cleared_at: '2026-11-21T10:30:00Z' }));
    assert.equal(ids.size, 0);
  });
});
