// The landing inputs held in memory on a real SQLite file: slot counts are served from memory
// until the airport's slots change, and each report is decoded once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { aviationMigrations } from '../migrations/index.ts';
import { NotamStore } from '../notams/store.ts';
import { WeatherReports } from '../weather/reports.ts';
import { LandingInputs } from './inputs.ts';
import { SlotBook } from './slots.ts';

const HOUR = 3_600_000;
const ETA = Math.floor(Date.now() / HOUR) * HOUR + 2 * HOUR + 20 * 60_000;

let handle: StorageHandle;
let slots: SlotBook;
let weather: WeatherReports;
let inputs: LandingInputs;

before(async () => {
  handle = await STORAGE_BACKENDS[0]!.open(aviationMigrations);
  slots = new SlotBook(handle.database);
  weather = new WeatherReports(handle.database);
  inputs = new LandingInputs({ weather, notams: new NotamStore(handle.database), slots });
});
after(async () => {
  await handle?.cleanup();
});

test('slot counts come from memory until the airport\'s slots are said to have changed', async () => {
  assert.deepEqual(await inputs.availability('egll', ETA, 40), await slots.availability('EGLL', ETA, 40));
  const booked = await slots.book({ icao: 'EGLL', etaMs: ETA, orgId: 'org_a', registration: 'G-EUPT', idempotencyKey: 'k1', derivedCapacity: 40, fairShare: null });
  assert.equal(booked.status, 'created');
  // Booked behind the memory's back (no change announced): the count held is served.
  assert.equal((await inputs.availability('EGLL', ETA, 40)).booked, 0);

  inputs.changed({ icao: 'EGLL', kind: 'slots' });
  assert.deepEqual(await inputs.availability('EGLL', ETA, 40), await slots.availability('EGLL', ETA, 40));
  assert.equal((await inputs.availability('EGLL', ETA, 40)).booked, 1);
  // Another airport's change leaves EGLL's counts alone; its own hours read as the book has them.
  inputs.changed({ icao: 'EGKK', kind: 'slots' });
  const hour = new Date(Math.floor(ETA / HOUR) * HOUR).toISOString();
  const next = new Date(Date.parse(hour) + HOUR).toISOString();
  const hours = await inputs.slotHours('EGLL', [ETA, ETA + HOUR]);
  assert.deepEqual([hours.icao, hours.override, [...hours.booked]], ['EGLL', null, [[hour, 1], [next, 0]]]);
  assert.deepEqual(hours.bookings.map((booking) => ({ ...booking })), [{ hour, org_id: 'org_a', registration: 'G-EUPT' }]);

  await slots.setCapacity('EGLL', 5);
  inputs.changed({ icao: 'EGLL', kind: 'slots' });
  assert.deepEqual((await inputs.availability('EGLL', ETA, 40)), await slots.availability('EGLL', ETA, 40));
  assert.equal((await inputs.availability('EGLL', ETA, 40)).capacity_source, 'override');
});

test('a report is decoded once, and again when it changes', async () => {
  const at = new Date(Date.now() - 10 * 60_000);
  const stamp = [at.getUTCDate(), at.getUTCHours(), at.getUTCMinutes()].map((n) => String(n).padStart(2, '0')).join('');
  const first = await weather.submit('EGLL', 'metar', `EGLL ${stamp}Z 27010KT 9999 FEW030 12/05 Q1013`);
  assert.ok(first.ok);
  const now = Date.now();
  const decoded = inputs.metar(first.report, now);
  assert.equal(decoded?.wind?.direction_deg, 270);
  assert.equal(inputs.metar(first.report, now + 1000), decoded, 'the same decoding');

  const second = await weather.submit('EGLL', 'metar', `EGLL ${stamp}Z 09010KT 9999 FEW030 12/05 Q1013`);
  assert.ok(second.ok);
  assert.equal(inputs.metar(second.report, now)?.wind?.direction_deg, 90);
  assert.equal(inputs.metar(null, now), null);
  assert.equal(inputs.taf(null, now), undefined);
});
