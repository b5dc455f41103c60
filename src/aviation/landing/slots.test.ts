// Slot booking on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL), with concurrent
// bookings racing for the last places.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { slotsMigration } from '../migrations/0004_slots.ts';
import { availabilityIn, fairShareSlots, SlotBook, slotHour } from './slots.ts';
import type { BookRequest, BookResult } from './slots.ts';

const HOUR = Date.parse('2025-06-21T14:00:00Z');
const CLOCK = Date.parse('2025-06-20T09:30:00Z');

let counter = 0;
function request(overrides: Partial<BookRequest> = {}): BookRequest {
  counter += 1;
  return {
    icao: 'EGLL', etaMs: HOUR + 25 * 60_000, orgId: 'org_a', registration: 'G-EUPT', idempotencyKey: `key-${counter}`, derivedCapacity: 45, fairShare: null,
    ...overrides,
  };
}

function statuses(results: BookResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) counts[result.status] = (counts[result.status] ?? 0) + 1;
  return counts;
}

/** Books from another process against the SQLite file in dataDir; resolves to the statuses. */
function bookInChildProcess(dataDir: string, icao: string, count: number, prefix: string, orgId = 'org_a', fairShare: number | null = null): Promise<string[]> {
  const module = (relative: string) => JSON.stringify(fileURLToPath(new URL(relative, import.meta.url)));
  const script = `
    import { openDatabase } from ${module('../../platform/db/database.ts')};
    import { defaultConfig } from ${module('../../config.ts')};
    import { SlotBook } from ${module('./slots.ts')};
    const database = openDatabase(defaultConfig({ dataDir: ${JSON.stringify(dataDir)} }));
    const book = new SlotBook(database);
    const results = await Promise.all(Array.from({ length: ${count} }, (_, i) => book.book({
      icao: ${JSON.stringify(icao)}, etaMs: ${HOUR}, orgId: ${JSON.stringify(orgId)}, registration: 'G-ABCD',
      idempotencyKey: ${JSON.stringify(prefix)} + i, derivedCapacity: 10, fairShare: ${fairShare} })));
    console.log(JSON.stringify(results.map((r) => r.status)));
    await database.close();`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout)));
  });
}

test('slotHour truncates to the UTC hour', () => {
  assert.equal(slotHour(Date.parse('2025-06-21T14:59:59.999Z')), '2025-06-21T14:00:00.000Z');
  assert.equal(slotHour(Date.parse('2025-06-21T14:00:00Z')), '2025-06-21T14:00:00.000Z');
  assert.equal(slotHour(Date.parse('2025-06-21T15:00:00Z')), '2025-06-21T15:00:00.000Z');
});

test('a fair share is the share of the capacity rounded down, and at least one slot', () => {
  assert.equal(fairShareSlots(45, 0.5), 22);
  assert.equal(fairShareSlots(10, 0.5), 5);
  assert.equal(fairShareSlots(100, 0.29), 29, 'no floating-point loss');
  assert.equal(fairShareSlots(1, 0.5), 1);
  assert.equal(fairShareSlots(30, 0), 1);
  assert.equal(fairShareSlots(30, 1), 30);
});

for (const backend of STORAGE_BACKENDS) {
  describe(`slots on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let slots: SlotBook;
    // A second handle for concurrent writers in this process; none on SQLite, whose synchronous
    // driver would block the thread waiting on a lock held by its own other handle: there,
    // concurrent writers are separate processes.
    const another = () => (backend.name === 'SQLite' ? null : handle.reopen());

    before(async () => {
      handle = await backend.open([slotsMigration]);
      assert.deepEqual(handle.migrated, ['0004_slots']);
      slots = new SlotBook(handle.database, () => CLOCK);
    });
    after(() => handle.cleanup());

    test('an empty hour has the derived capacity', async () => {
      assert.deepEqual(await slots.availability('egll', HOUR + 59 * 60_000, 45), {
        icao: 'EGLL',
        hour: '2025-06-21T14:00:00.000Z',
        capacity: 45,
        capacity_source: 'derived',
        booked: 0,
        remaining: 45,
        available: true,
      });
    });

    test('a booking takes one place in its hour', async () => {
      const result = await slots.book(request({ icao: 'EGKK', registration: ' g-eupt ' }));
      assert.equal(result.status, 'created');
      if (result.status !== 'created') return;
      assert.match(result.booking.id, /^[0-9a-f-]{36}$/);
      assert.deepEqual({ ...result.booking, id: 'x' }, {
        id: 'x',
        icao: 'EGKK',
        hour: '2025-06-21T14:00:00.000Z',
        org_id: 'org_a',
        registration: 'G-EUPT',
        idempotency_key: result.booking.idempotency_key,
        created_at: '2025-06-20T09:30:00.000Z',
        cancelled_at: null,
      });
      assert.deepEqual([result.availability.booked, result.availability.remaining], [1, 44]);
      const availability = await slots.availability('EGKK', HOUR, 45);
      assert.deepEqual([availability.booked, availability.remaining], [1, 44]);
      assert.equal((await slots.availability('EGKK', HOUR + 3_600_000, 45)).booked, 0);
    });

    test('many hours read at once: each hour\'s availability as one question would give it, who booked, and every change announced', async () => {
      const changed: string[] = [];
      const announcing = new SlotBook(handle.database, () => CLOCK, async (icao) => { changed.push(icao); });
      const booked = await announcing.book(request({ icao: 'EHAM', registration: 'PH-BXA', idempotencyKey: 'hours-1' }));
      assert.equal(booked.status, 'created');
      assert.equal((await announcing.book(request({ icao: 'EHAM', registration: 'PH-BXA', idempotencyKey: 'hours-1' }))).status, 'existing');
      await announcing.book(request({ icao: 'EHAM', etaMs: HOUR + 3_600_000, registration: 'PH-BXB', idempotencyKey: 'hours-2' }));
      const hours = await announcing.hours('eham', [HOUR + 60_000, HOUR + 3_600_000, HOUR + 7_200_000]);
      for (const at of [HOUR, HOUR + 3_600_000, HOUR + 7_200_000]) assert.deepEqual(availabilityIn(hours, at, 45), await slots.availability('EHAM', at, 45));
      assert.deepEqual(hours.bookings.map((each) => [each.hour, each.org_id, each.registration]).sort(), [
        [slotHour(HOUR), 'org_a', 'PH-BXA'], [slotHour(HOUR + 3_600_000), 'org_a', 'PH-BXB'],
      ]);
      if (booked.status === 'created') await announcing.cancel('EHAM', booked.booking.id, 'org_a');
      await announcing.setCapacity('EHAM', 3);
      await announcing.setCapacity('EHAM', null);
      assert.deepEqual(changed, ['EHAM', 'EHAM', 'EHAM', 'EHAM', 'EHAM'], 'two bookings, a cancellation and two capacity changes; not the replay');
      assert.deepEqual((await announcing.hours('EHAM', [HOUR])).bookings, []);
    });

    test('the same idempotency key returns the same booking; another slot under that key is refused', async () => {
      const first = await slots.book(request({ icao: 'EGCC', idempotencyKey: 'retry-1' }));
      const again = await slots.book(request({ icao: 'EGCC', idempotencyKey: 'retry-1' }));
      assert.equal(first.status, 'created');
      assert.equal(again.status, 'existing');
      assert.ok(first.status === 'created' && again.status === 'existing' && again.booking.id === first.booking.id);
      const elsewhere = await slots.book(request({ icao: 'EGCC', idempotencyKey: 'retry-1', etaMs: HOUR + 3_600_000 }));
      assert.equal(elsewhere.status, 'key_reused');
      const otherOrg = await slots.book(request({ icao: 'EGCC', idempotencyKey: 'retry-1', orgId: 'org_b' }));
      assert.equal(otherOrg.status, 'created');
      assert.equal((await slots.availability('EGCC', HOUR, 45)).booked, 2);
    });

    test('a full hour refuses further bookings, and a cancellation frees a place', async () => {
      const made = [];
      for (let i = 0; i < 2; i += 1) made.push(await slots.book(request({ icao: 'EGPH', derivedCapacity: 2 })));
      const full = await slots.book(request({ icao: 'EGPH', derivedCapacity: 2 }));
      assert.equal(full.status, 'full');
      if (full.status === 'full') assert.deepEqual([full.availability.remaining, full.availability.available], [0, false]);
      const booking = made[0]!.status === 'created' ? made[0]!.booking : assert.fail('not created');

      assert.deepEqual(await slots.cancel('EGPH', booking.id, 'org_b'), { status: 'not_found' });
      assert.deepEqual(await slots.cancel('EGCC', booking.id, 'org_a'), { status: 'not_found' }, 'a booking at another airport');
      const cancelled = await slots.cancel('egph', booking.id, 'org_a');
      assert.equal(cancelled.status, 'cancelled');
      if (cancelled.status === 'cancelled') assert.equal(cancelled.booking.cancelled_at, '2025-06-20T09:30:00.000Z');
      assert.deepEqual(await slots.cancel('EGPH', booking.id, 'org_a'), cancelled);
      assert.equal((await slots.availability('EGPH', HOUR, 2)).booked, 1);
      assert.equal((await slots.book(request({ icao: 'EGPH', derivedCapacity: 2 }))).status, 'created');
      assert.deepEqual(await slots.cancel('EGPH', 'no-such-booking', 'org_a'), { status: 'not_found' });
    });

    test('an admin override replaces the derived capacity until removed', async () => {
      await slots.setCapacity('egss', 1);
      assert.deepEqual(await slots.availability('EGSS', HOUR, 45).then((a) => [a.capacity, a.capacity_source]), [1, 'override']);
      assert.equal((await slots.book(request({ icao: 'EGSS' }))).status, 'created');
      assert.equal((await slots.book(request({ icao: 'EGSS' }))).status, 'full');
      await slots.setCapacity('EGSS', 3);
      assert.equal((await slots.availability('EGSS', HOUR, 45)).remaining, 2);
      await slots.setCapacity('EGSS', 0);
      assert.equal((await slots.availability('EGSS', HOUR, 45)).available, false);
      await slots.setCapacity('EGSS', null);
      assert.deepEqual(await slots.availability('EGSS', HOUR, 45).then((a) => [a.capacity, a.capacity_source, a.remaining]), [45, 'derived', 44]);
      await assert.rejects(slots.setCapacity('EGSS', -1), RangeError);
      await assert.rejects(slots.setCapacity('EGSS', 2.5), RangeError);
    });

    test('50 concurrent bookings for 10 places: exactly 10 succeed', async () => {
      const other = another();
      try {
        // On PostgreSQL, two pools so that the transactions really overlap.
        const books = other === null ? [slots] : [slots, new SlotBook(other, () => CLOCK)];
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => books[i % books.length]!.book(request({ icao: 'LFPG', derivedCapacity: 10 }))),
        );
        assert.deepEqual(statuses(results), { created: 10, full: 40 });
        const availability = await slots.availability('LFPG', HOUR, 10);
        assert.deepEqual([availability.booked, availability.remaining], [10, 0]);
        const rows = await handle.database.db.selectFrom('slot_bookings').select('id').where('icao', '=', 'LFPG').execute();
        assert.equal(rows.length, 10);
      } finally {
        await other?.close();
      }
    });

    test('an organisation over its fair share is refused with what it holds; operators (no share) are not', async () => {
      const share = (orgId: string) => request({ icao: 'EGBB', derivedCapacity: 4, orgId, fairShare: 0.5 });
      assert.equal((await slots.book(share('org_a'))).status, 'created');
      assert.equal((await slots.book(share('org_a'))).status, 'created');
      const over = await slots.book(share('org_a'));
      assert.equal(over.status, 'over_share');
      if (over.status === 'over_share') assert.deepEqual([over.held, over.allowed, over.availability.capacity, over.availability.remaining], [2, 2, 4, 2]);
      assert.equal((await slots.book(share('org_b'))).status, 'created');
      assert.equal((await slots.book(request({ icao: 'EGBB', derivedCapacity: 4, orgId: 'operator' }))).status, 'created');
      assert.equal((await slots.book(share('org_b'))).status, 'full', 'a full hour says so first');

      const held = await handle.database.db.selectFrom('slot_bookings').select('id').where('icao', '=', 'EGBB').where('org_id', '=', 'org_a').execute();
      assert.equal((await slots.cancel('EGBB', held[0]!.id, 'org_a')).status, 'cancelled');
      assert.equal((await slots.book(share('org_a'))).status, 'created', 'a cancellation gives the place back to the share');
    });

    test('50 concurrent bookings by one organisation for 10 places: exactly its half succeeds', async () => {
      const other = another();
      try {
        const books = other === null ? [slots] : [slots, new SlotBook(other, () => CLOCK)];
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => books[i % books.length]!.book(request({ icao: 'LFPO', derivedCapacity: 10, fairShare: 0.5 }))),
        );
        assert.deepEqual(statuses(results), { created: 5, over_share: 45 });
        assert.equal((await slots.availability('LFPO', HOUR, 10)).booked, 5);
      } finally {
        await other?.close();
      }
    });

    test('50 concurrent bookings by two organisations for 10 places: each gets exactly its half', async () => {
      const other = another();
      try {
        const books = other === null ? [slots] : [slots, new SlotBook(other, () => CLOCK)];
        const orgOf = (i: number) => (i % 5 < 3 ? 'org_a' : 'org_b');
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => books[i % books.length]!.book(request({ icao: 'LFLL', derivedCapacity: 10, orgId: orgOf(i), fairShare: 0.5 }))),
        );
        const created = (orgId: string) => results.filter((r, i) => r.status === 'created' && orgOf(i) === orgId).length;
        assert.deepEqual([created('org_a'), created('org_b')], [5, 5]);
        assert.ok(results.every((r) => ['created', 'over_share', 'full'].includes(r.status)), JSON.stringify(statuses(results)));
        const availability = await slots.availability('LFLL', HOUR, 10);
        assert.deepEqual([availability.booked, availability.remaining], [10, 0]);
      } finally {
        await other?.close();
      }
    });

    test('concurrent retries with one idempotency key make one booking', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => slots.book(request({ icao: 'EHAM', idempotencyKey: 'same' }))));
      assert.deepEqual(statuses(results), { created: 1, existing: 19 });
      assert.equal(new Set(results.map((r) => ('booking' in r ? r.booking.id : null))).size, 1);
    });

    test('one idempotency key sent for different hours at once: one booking, the others refused', async () => {
      const other = another();
      try {
        const books = other === null ? [slots] : [slots, new SlotBook(other, () => CLOCK)];
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => books[i % books.length]!.book(request({ icao: 'LIRF', idempotencyKey: 'race', etaMs: HOUR + i * 3_600_000 }))),
        );
        assert.deepEqual(statuses(results), { created: 1, key_reused: 9 });
        const rows = await handle.database.db.selectFrom('slot_hours').select('booked').where('icao', '=', 'LIRF').execute();
        assert.equal(rows.reduce((sum, row) => sum + row.booked, 0), 1);
      } finally {
        await other?.close();
      }
    });

    test('concurrent cancellations of one booking free one place', async () => {
      const made = await slots.book(request({ icao: 'EDDF', derivedCapacity: 3 }));
      assert.equal(made.status, 'created');
      if (made.status !== 'created') return;
      await slots.book(request({ icao: 'EDDF', derivedCapacity: 3 }));
      const results = await Promise.all(Array.from({ length: 10 }, () => slots.cancel('EDDF', made.booking.id, 'org_a')));
      assert.ok(results.every((r) => r.status === 'cancelled'));
      assert.equal((await slots.availability('EDDF', HOUR, 3)).booked, 1);
    });

    if (backend.name === 'SQLite') {
      test('processes booking the same file at once: exactly 10 succeed', async () => {
        const runs = await Promise.all([0, 1, 2, 3].map((n) => bookInChildProcess(handle.dataDir, 'LEMD', 15, `proc${n}-`)));
        const all = runs.flat();
        assert.equal(all.length, 60);
        assert.equal(all.filter((s) => s === 'created').length, 10);
        assert.equal(all.filter((s) => s === 'full').length, 50);
        assert.equal((await slots.availability('LEMD', HOUR, 10)).booked, 10);
      });

      test('processes of two organisations booking the same file at once: each gets exactly its half', async () => {
        const runs = await Promise.all(['org_a', 'org_b', 'org_a', 'org_b'].map((orgId, n) => bookInChildProcess(handle.dataDir, 'LEBL', 15, `share${n}-`, orgId, 0.5)));
        const createdBy = (orgId: string) => runs.filter((_, n) => n % 2 === (orgId === 'org_a' ? 0 : 1)).flat().filter((s) => s === 'created').length;
        assert.deepEqual([createdBy('org_a'), createdBy('org_b')], [5, 5]);
        assert.equal((await slots.availability('LEBL', HOUR, 10)).booked, 10);
      });
    }
  });
}
