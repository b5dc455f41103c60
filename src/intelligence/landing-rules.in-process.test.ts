// The landing rules in process over real storage (aviation, fleet, events and the engine; no
// simulator): each kind of event opens, changes and clears on the input that should move it — an
// operator's METAR or NOTAM, a slot capacity or booking, an arrival planned, moved or removed, a
// vehicle or its settings changed — and the events of an archived arrival clear in the sweep.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EventStore } from '../events/index.ts';
import { ArrivalStore, openFleetStore } from '../fleet/index.ts';
import { LandingWatch } from '../aviation/index.ts';
import { openBus } from '../platform/bus/index.ts';
import { masterKey } from '../platform/crypto/index.ts';
import { openDatabase, type Database } from '../platform/db/database.ts';
import { featureApp, type InProcess } from '../../test/support/in-process.ts';
import { ArrivalStateStore } from './arrival-state.ts';
import { LandingRules } from './landing-rules.ts';

const HOUR = 3_600_000;
let service: InProcess;

before(async () => {
  service = await featureApp(['aviation', 'fleet', 'events', 'intelligence']);
});
after(() => service.close());

const two = (n: number) => String(n).padStart(2, '0');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  const headers: Record<string, string> = typeof payload === 'string' ? { 'content-type': 'text/plain' } : {};
  if (url.endsWith('/slots/bookings')) headers['idempotency-key'] = `booking-${Date.now()}`;
  const response = await service.call(method, url, payload, headers);
  assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** An operator's METAR at EGLL observed five minutes ago, then the engine given time to evaluate it. */
async function metar(wind: string) {
  const at = new Date(Date.now() - 5 * 60_000);
  await call('POST', '/v3/aviation/airports/EGLL/metar', `METAR EGLL ${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}Z ${wind} 9999 FEW030 12/05 Q1013`);
}

const notamTime = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
};

/** An operator's NOTAM at EGLL in force from an hour ago for a day; `header` e.g. "A0101/26 NOTAMN". */
const notam = (header: string, qCode: string, text: string) => call('POST', '/v3/aviation/notams',
  `${header}\nQ) EGTT/${qCode}/IV/NBO/A/000/999/5129N00028W005\nA) EGLL B) ${notamTime(Date.now() - HOUR)} C) ${notamTime(Date.now() + 24 * HOUR)}\nE) ${text}`);

let vehicles = 0;
/**
 * A fresh A320 of the operator's fleet with an arrival at EGLL (evaluated on creation), by default
 * in half an hour: within the hour the METAR describes.
 */
async function plan(settings?: Record<string, unknown>, etaMs = Date.now() + HOUR / 2) {
  const vehicle = await call('POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: `G-TST${String.fromCharCode(65 + vehicles++)}`, icao_type: 'A320' });
  if (settings) await call('PUT', `/v3/fleet/vehicles/${vehicle.id}/notification-settings`, { thresholds: settings });
  const arrival = await call('POST', `/v3/fleet/vehicles/${vehicle.id}/arrivals`, { destination_icao: 'EGLL', eta_utc: iso(etaMs) });
  return { vehicle, arrival, path: `/v3/fleet/vehicles/${vehicle.id}/arrivals/${arrival.id}` };
}

interface Listed { id: string; kind: string; state: string; severity: string; summary: string; data: Record<string, unknown>; acknowledged_at: string | null }

const eventsOf = async (arrivalId: string): Promise<Listed[]> => (await call('GET', `/v3/events?subject_id=${arrivalId}&limit=100`)).data;

/** Waits (5 s at most) until the arrival's events of `kind` satisfy `until`, and answers them, newest first. */
async function settle(arrivalId: string, kind: string, until: (events: Listed[]) => boolean): Promise<Listed[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = (await eventsOf(arrivalId)).filter((event) => event.kind === kind);
    if (until(found)) return found;
    if (Date.now() > deadline) assert.fail(`the ${kind} events of ${arrivalId} never settled: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const openOne = (events: Listed[]) => events.length > 0 && events[0]!.state === 'open';
const cleared = (events: Listed[]) => events.length > 0 && events.every((event) => event.state === 'cleared');

describe('arrivals', () => {
  test('planned, the arrival is evaluated at once: a gale across every runway opens the crosswind event; removed, it clears', async () => {
    await metar('36045G55KT');
    const { arrival, path } = await plan();
    const [event] = await settle(arrival.id, 'landing.crosswind_above', openOne);
    assert.equal(event!.severity, 'critical');
    assert.equal(event!.data.no_runway_within_limits, true);
    assert.equal(event!.data.value, 55);
    assert.equal(event!.data.runway, null);

    // Moved, the same event follows the new ETA.
    const moved = Date.parse(iso(Date.now() + HOUR * 0.75));
    await call('PATCH', path, { eta_utc: iso(moved) });
    const [followed] = await settle(arrival.id, 'landing.crosswind_above', (events) => events[0]?.data.eta_utc === new Date(moved).toISOString());
    assert.equal(followed!.id, event!.id);

    await call('DELETE', path);
    const after = await settle(arrival.id, 'landing.crosswind_above', cleared);
    assert.equal(after.length, 1, 'cleared once, no new event');
  });

  test('a vehicle\'s settings and figures are applied when they change, with no new input', async () => {
    await metar('36020KT');
    const { vehicle, arrival } = await plan();
    assert.deepEqual((await eventsOf(arrival.id)).filter((event) => event.kind === 'landing.crosswind_above'), []);
    await call('PUT', `/v3/fleet/vehicles/${vehicle.id}/notification-settings`, { thresholds: { crosswind_kt_above: 15 } });
    const [opened] = await settle(arrival.id, 'landing.crosswind_above', openOne);
    assert.deepEqual([opened!.severity, opened!.data.value, opened!.data.threshold], ['warning', 20, 15]);
    // Its own limit under the crosswind rules every runway out: critical, on the least crosswind.
    await call('PATCH', `/v3/fleet/vehicles/${vehicle.id}`, { crosswind_limit_kt: 18 });
    const [escalated] = await settle(arrival.id, 'landing.crosswind_above', (events) => events[0]?.severity === 'critical');
    assert.equal(escalated!.id, opened!.id);
    assert.equal(escalated!.data.no_runway_within_limits, true);
  });
});

test('a change of the recommended runway opens an info event, a further one updates it, and once acknowledged the next one is a new event', async () => {
  await metar('27015KT');
  const { arrival } = await plan();
  await metar('09015KT');
  const [opened] = await settle(arrival.id, 'landing.runway_changed', openOne);
  assert.equal(opened!.severity, 'info');
  assert.match(String((opened!.data.previous as { approach: string }).approach), /RWY 27/);
  assert.match(String((opened!.data.current as { approach: string }).approach), /RWY 09/);

  await metar('27015KT');
  const [updated] = await settle(arrival.id, 'landing.runway_changed', (events) => /RWY 27/.test(String((events[0]?.data.current as { approach?: string } | undefined)?.approach)));
  assert.equal(updated!.id, opened!.id);

  await call('POST', `/v3/events/${opened!.id}/acknowledge`);
  await metar('09015KT');
  const events = await settle(arrival.id, 'landing.runway_changed', (found) => found.length === 2);
  assert.deepEqual(events.map((event) => event.state), ['open', 'cleared']);
});

test('no slot left in the hour opens a warning; a slot the vehicle holds, or capacity back, clears it', async () => {
  await metar('27010KT');
  const { arrival, vehicle } = await plan();
  await call('PUT', '/v3/aviation/airports/EGLL/slots/capacity', { arrivals_per_hour: 0 });
  const [opened] = await settle(arrival.id, 'landing.slot_unavailable', openOne);
  assert.equal(opened!.severity, 'warning');
  assert.equal(opened!.data.capacity, 0);

  await call('PUT', '/v3/aviation/airports/EGLL/slots/capacity', { arrivals_per_hour: 1 });
  await call('POST', '/v3/aviation/airports/EGLL/slots/bookings', { eta_utc: arrival.eta_utc, registration: vehicle.registration });
  // The hour is full, with the vehicle's own booking: nothing is missing.
  await settle(arrival.id, 'landing.slot_unavailable', cleared);
  await call('PUT', '/v3/aviation/airports/EGLL/slots/capacity', { arrivals_per_hour: null });
});

test('NOTAMs at the ETA open the NOTAM event and move the destination\'s status; cancelled, the status is back and the NOTAM event clears', async () => {
  await metar('27010KT');
  const { arrival } = await plan();
  await notam('A0701/26 NOTAMN', 'QMRLC', 'RWY 09L/27R CLSD DUE TO MAINT');
  const [status] = await settle(arrival.id, 'airport.status_changed', openOne);
  assert.deepEqual([status!.severity, status!.data.old, status!.data.new], ['warning', 'OPERATIONAL', 'LIMITED']);
  const [issued] = await settle(arrival.id, 'airport.notam_issued', openOne);
  assert.deepEqual((issued!.data.notams as { id: string }[]).map((each) => each.id), ['A0701/26']);

  await notam('A0702/26 NOTAMN', 'QFALC', 'AD CLSD');
  const [closed] = await settle(arrival.id, 'airport.status_changed', (events) => events[0]?.data.new === 'CLOSED');
  assert.deepEqual([closed!.id, closed!.severity], [status!.id, 'critical']);
  await settle(arrival.id, 'airport.notam_issued', (events) => events[0]?.severity === 'critical' && (events[0].data.notams as unknown[]).length === 2);

  await notam('A0703/26 NOTAMC A0701/26', 'QMRLC', 'RWY 09L/27R CLSD CANCELLED');
  await notam('A0704/26 NOTAMC A0702/26', 'QFALC', 'AD CLSD CANCELLED');
  const [back] = await settle(arrival.id, 'airport.status_changed', (events) => events[0]?.data.new === 'OPERATIONAL');
  assert.deepEqual([back!.id, back!.severity, back!.data.old], [status!.id, 'info', 'CLOSED']);
  const notams = await settle(arrival.id, 'airport.notam_issued', cleared);
  assert.equal(notams.length, 1);
});

test('the events of an arrival archived an hour past its ETA clear in the sweep, once', async () => {
  await metar('36045G55KT');
  const { arrival } = await plan();
  await settle(arrival.id, 'landing.crosswind_above', openOne);
  const database: Database = openDatabase(service.config);
  const bus = await openBus(service.config, (error) => { throw error; });
  try {
    const fleet = openFleetStore(database, masterKey({ fromEnv: service.config.masterKey, dataDir: service.config.dataDir }).key);
    const state = new ArrivalStateStore(database);
    const rules = new LandingRules({ arrivals: new ArrivalStore(database), fleet, landing: new LandingWatch(), events: new EventStore(database, bus), state });
    await rules.sweepArchived(Date.now());
    assert.ok(openOne(await settle(arrival.id, 'landing.crosswind_above', openOne)), 'still watched: nothing cleared');
    await rules.sweepArchived(Date.parse(arrival.watched_until));
    const events = await settle(arrival.id, 'landing.crosswind_above', cleared);
    assert.equal(events.length, 1);
    assert.equal((await state.read([arrival.id])).size, 0, 'what was seen of it is forgotten');
    await rules.sweepArchived(Date.parse(arrival.watched_until) + HOUR);
    assert.equal((await eventsOf(arrival.id)).filter((event) => event.state === 'open').length, 0);
  } finally {
    await bus.close();
    await database.close();
  }
});

test('an arrival beyond the TAF raises no crosswind event from today\'s METAR; a TAF that reaches its ETA does', async () => {
  await metar('36045G55KT');
  const etaMs = Date.now() + 20 * HOUR;
  const { arrival } = await plan(undefined, etaMs);
  const near = await plan();
  await settle(near.arrival.id, 'landing.crosswind_above', openOne);
  assert.deepEqual((await eventsOf(arrival.id)).filter((event) => event.kind === 'landing.crosswind_above'), [], 'no forecast reaches the ETA: nothing is known of its wind');

  const issued = new Date(Date.now() - 5 * 60_000);
  const from = Math.floor(Date.now() / HOUR) * HOUR;
  const dayHour = (ms: number) => `${two(new Date(ms).getUTCDate())}${two(new Date(ms).getUTCHours())}`;
  await call('POST', '/v3/aviation/airports/EGLL/taf',
    `TAF EGLL ${two(issued.getUTCDate())}${two(issued.getUTCHours())}${two(issued.getUTCMinutes())}Z ${dayHour(from)}/${dayHour(from + 30 * HOUR)} 36040G55KT 9999 SCT030`);
  const [opened] = await settle(arrival.id, 'landing.crosswind_above', openOne);
  assert.equal(opened!.data.basis, 'forecast');
  assert.equal(opened!.data.eta_utc, new Date(Date.parse(iso(etaMs))).toISOString());
});

