// The NOTAM store on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { parseNotam } from './parse.ts';
import type { NotamProvider, ProviderResult } from './provider.ts';
import { notamKey, NotamStore } from './store.ts';
import { notamsMigration } from '../migrations/0003_notams.ts';
import type { Notam } from './types.ts';

const T = (iso: string) => Date.parse(iso);

const NIGHTLY_CLOSURE = `A1234/24 NOTAMN
Q) EGTT/QMRLC/IV/NBO/A/000/999/5129N00028W005
A) EGLL B) 2405010000 C) 2405100500
D) DAILY 0000-0500
E) RWY 09L/27R CLSD DUE TO MAINT`;

const ILS_OUT = `A1300/24 NOTAMN
Q) EGTT/QICAS/I/NBO/A/000/999/5129N00028W005
A) EGLL B) 2405020800 C) 2405061800 EST
E) ILS RWY 27R U/S`;

const ILS_OUT_EXTENDED = `A1310/24 NOTAMR A1300/24
Q) EGTT/QICAS/I/NBO/A/000/999/5129N00028W005
A) EGLL B) 2405031000 C) 2405091800 EST
E) ILS RWY 27R U/S`;

const ILS_RESTORED = `A1320/24 NOTAMC A1310/24
Q) EGTT/QICAK/I/NBO/A/000/999/5129N00028W005
A) EGLL B) 2405041200
E) ILS RWY 27R RESUMED NORMAL OPS`;

function parsed(raw: string): Notam {
  const result = parseNotam(raw);
  assert.ok(result.ok, JSON.stringify(result));
  return result.notam;
}

/** A feed whose answers the test sets, and which can hold a fetch open until released. */
class ScriptedFeed implements NotamProvider {
  readonly source = 'live' as const;
  calls = 0;
  next: () => ProviderResult = () => ({ ok: true, notams: [] });
  #gate: { promise: Promise<void>; release(): void } | null = null;

  hold(): () => void {
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#gate = { promise, release: resolve };
    return resolve;
  }

  async notamsFor(): Promise<ProviderResult> {
    this.calls++;
    const gate = this.#gate;
    this.#gate = null;
    if (gate) await gate.promise;
    return this.next();
  }
}

for (const backend of STORAGE_BACKENDS) {
  describe(`NOTAM store on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let now = T('2024-05-03T12:00:00Z');
    const clock = () => now;

    before(async () => {
      handle = await backend.open([notamsMigration]);
    });
    after(() => handle.cleanup());
    beforeEach(async () => {
      now = T('2024-05-03T12:00:00Z');
      await sql`delete from notams`.execute(handle.database.db);
    });

    const ids = (result: { notams: { id: string | null }[] }) => result.notams.map((notam) => notam.id);

    test('a nightly runway closure is in force at 02:00Z and not at 12:00Z', async () => {
      const store = new NotamStore(handle.database, { clock });
      const submitted = await store.submit(NIGHTLY_CLOSURE);
      assert.ok(submitted.ok, JSON.stringify(submitted));
      assert.equal(submitted.created, true);
      assert.equal(submitted.notam.source, 'operator');
      assert.equal(submitted.notam.received_at, '2024-05-03T12:00:00Z');

      const night = await store.forAirport('egll', { at: T('2024-05-04T02:00:00Z') });
      assert.equal(night.location, 'EGLL');
      assert.deepEqual(ids(night), ['A1234/24']);
      assert.deepEqual(night.notams[0]!.effects, [{ kind: 'runway_closed', runways: ['09L', '27R'] }]);
      assert.equal(night.notams[0]!.schedule, 'DAILY 0000-0500');
      assert.deepEqual(night.feeds, []);

      assert.deepEqual(ids(await store.forAirport('EGLL', { at: T('2024-05-04T12:00:00Z') })), []);
      // A window from 12:00Z to 01:00Z the next day reaches into the night's closure.
      assert.deepEqual(ids(await store.forAirport('EGLL', { from: T('2024-05-04T12:00:00Z'), to: T('2024-05-05T01:00:00Z') })), ['A1234/24']);
      assert.deepEqual(ids(await store.forAirport('EGLL', { from: T('2024-05-04T06:00:00Z'), to: T('2024-05-04T23:00:00Z') })), []);
      // Outside B)–C) and at another aerodrome: nothing.
      assert.deepEqual(ids(await store.forAirport('EGLL', { at: T('2024-05-11T02:00:00Z') })), []);
      assert.deepEqual(ids(await store.forAirport('EGKK', { at: T('2024-05-04T02:00:00Z') })), []);
    });

    test('without a time the query is for now', async () => {
      const store = new NotamStore(handle.database, { clock });
      assert.ok((await store.submit(ILS_OUT)).ok);
      assert.deepEqual(ids(await store.forAirport('EGLL')), ['A1300/24']);
      now = T('2024-05-06T18:00:00Z');
      assert.deepEqual(ids(await store.forAirport('EGLL')), []);
    });

    test('a NOTAMR ends the NOTAM it replaces when it comes into force; a NOTAMC ends its NOTAM', async () => {
      const store = new NotamStore(handle.database, { clock });
      assert.ok((await store.submit(ILS_OUT)).ok);

      const replaced = await store.submit(ILS_OUT_EXTENDED);
      assert.ok(replaced.ok, JSON.stringify(replaced));
      assert.deepEqual(replaced.ended, ['A1300/24']);
      assert.equal(replaced.notam.type, 'REPLACE');

      const before = await store.forAirport('EGLL', { at: T('2024-05-03T09:00:00Z') });
      assert.deepEqual(ids(before), ['A1300/24']);
      assert.equal(before.notams[0]!.ended_by, 'A1310/24');
      assert.equal(before.notams[0]!.ended_at, '2024-05-03T10:00:00Z');
      assert.deepEqual(ids(await store.forAirport('EGLL', { at: T('2024-05-05T09:00:00Z') })), ['A1310/24']);

      now = T('2024-05-04T12:00:00Z');
      const cancelled = await store.submit(ILS_RESTORED);
      assert.ok(cancelled.ok, JSON.stringify(cancelled));
      assert.deepEqual(cancelled.ended, ['A1310/24']);
      assert.deepEqual(cancelled.notam.effects, []);
      assert.deepEqual(ids(await store.forAirport('EGLL', { at: T('2024-05-04T11:00:00Z') })), ['A1310/24']);
      assert.deepEqual(ids(await store.forAirport('EGLL', { at: T('2024-05-04T13:00:00Z') })), []);

      // Cancelling again under another number finds nothing standing.
      const again = await store.submit(ILS_RESTORED.replace('A1320/24', 'A1321/24'));
      assert.equal(again.ok, false);
      assert.equal(!again.ok && again.error.code, 'unknown_reference');
      assert.match(!again.ok ? again.error.message : '', /already ended by A1320\/24/);
    });

    test('many instants at once answer as one question each would', async () => {
      const store = new NotamStore(handle.database, { clock });
      for (const raw of [NIGHTLY_CLOSURE, ILS_OUT, ILS_OUT_EXTENDED]) assert.ok((await store.submit(raw)).ok);
      const instants = ['2024-05-02T09:00:00Z', '2024-05-04T02:00:00Z', '2024-05-04T12:00:00Z', '2024-05-08T02:00:00Z', '2024-05-11T02:00:00Z'].map(T);
      const together = await store.forAirportAt('EGLL', instants);
      assert.deepEqual(together.map(ids), [['A1300/24'], ['A1234/24', 'A1310/24'], ['A1310/24'], ['A1234/24', 'A1310/24'], []]);
      for (const [index, at] of instants.entries()) assert.deepEqual(together[index], await store.forAirport('EGLL', { at }));
    });

    test('a NOTAMC for a NOTAM not on file is refused; a NOTAMR for one is kept on its own', async () => {
      const store = new NotamStore(handle.database, { clock });
      const cancel = await store.submit(ILS_RESTORED);
      assert.equal(!cancel.ok && cancel.error.code, 'unknown_reference');
      const replace = await store.submit(ILS_OUT_EXTENDED);
      assert.ok(replace.ok);
      assert.deepEqual(replace.ended, []);
      assert.deepEqual(ids(await store.forAirport('EGLL')), ['A1310/24']);
    });

    test('references match however the number is written', async () => {
      assert.equal(notamKey('A12/24'), 'A0012/24');
      assert.equal(notamKey('a0012/2024'), 'A0012/24');
      assert.equal(notamKey('06/171'), '6/171');
      assert.equal(notamKey('JFK 01/123'), 'JFK 1/123');
      const store = new NotamStore(handle.database, { clock });
      assert.ok((await store.submit(ILS_OUT.replace('A1300/24', 'A0012/24'))).ok);
      const replaced = await store.submit(ILS_OUT_EXTENDED.replace('A1300/24', 'A12/2024'));
      assert.ok(replaced.ok);
      assert.deepEqual(replaced.ended, ['A0012/24']);
    });

    test('the same NOTAM twice is accepted once; another text under its number is refused', async () => {
      const store = new NotamStore(handle.database, { clock });
      assert.equal((await store.submit(NIGHTLY_CLOSURE)).ok, true);
      const again = await store.submit(NIGHTLY_CLOSURE.replace(/\n/g, '\r\n'));
      assert.ok(again.ok);
      assert.equal(again.created, false);
      const changed = await store.submit(NIGHTLY_CLOSURE.replace('DUE TO MAINT', 'DUE TO WIP'));
      assert.equal(!changed.ok && changed.error.code, 'duplicate');
      // The same number from another source is a different NOTAM.
      assert.equal((await store.submit(NIGHTLY_CLOSURE.replace('DUE TO MAINT', 'DUE TO WIP'), 'simulated')).ok, true);
      assert.deepEqual(
        (await store.forAirport('EGLL', { at: T('2024-05-04T02:00:00Z') })).notams.map((notam) => notam.source).sort(),
        ['operator', 'simulated'],
      );
    });

    test('a NOTAM for several aerodromes is filed under each', async () => {
      const store = new NotamStore(handle.database, { clock });
      const multi = ILS_OUT.replace('A) EGLL', 'A) EGLL EGKK').replace('QICAS', 'QFALC').replace('ILS RWY 27R U/S', 'AD CLSD');
      assert.ok((await store.submit(multi)).ok);
      for (const icao of ['EGLL', 'EGKK']) {
        const result = await store.forAirport(icao);
        assert.deepEqual(result.notams.map((notam) => notam.effects), [[{ kind: 'aerodrome_closed', runways: [] }]]);
      }
    });

    test('text that is not a NOTAM is refused with the parser error; nothing is stored', async () => {
      const store = new NotamStore(handle.database, { clock });
      const cases: [unknown, string][] = [
        [42, 'not_text'],
        ['   ', 'empty'],
        ['RWY 09L/27R CLSD', 'missing_q_line'],
        [NIGHTLY_CLOSURE.replace('2405100500', '2413100500'), 'bad_time'],
        [NIGHTLY_CLOSURE.replace('A1234/24 NOTAMN\n', ''), 'missing_number'],
      ];
      for (const [input, code] of cases) {
        const result = await store.submit(input);
        assert.equal(result.ok, false);
        assert.equal(!result.ok && result.error.code, code);
        assert.match(!result.ok ? result.error.message : '', new RegExp(`^${code}: .+`));
      }
      const count = await handle.database.db.selectFrom('notams').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0);
    });

    test('feed NOTAMs: first question waits, concurrent questions share one fetch', async () => {
      const feed = new ScriptedFeed();
      feed.next = () => ({ ok: true, notams: [parsed(NIGHTLY_CLOSURE), parsed(ILS_OUT)] });
      const store = new NotamStore(handle.database, { clock, providers: [feed] });
      const answers = await Promise.all([
        store.forAirport('EGLL', { at: T('2024-05-04T02:00:00Z') }),
        store.forAirport('EGLL', { at: T('2024-05-04T02:00:00Z') }),
      ]);
      assert.equal(feed.calls, 1);
      for (const answer of answers) {
        assert.deepEqual(ids(answer), ['A1234/24', 'A1300/24']);
        assert.deepEqual(answer.notams.map((notam) => notam.source), ['live', 'live']);
        assert.deepEqual(answer.feeds, [{ source: 'live', fetched_at: '2024-05-03T12:00:00Z', error: null }]);
      }
      // Within five minutes the held set is used as it is.
      now += 299_000;
      await store.forAirport('EGLL');
      assert.equal(feed.calls, 1);
    });

    // A refresh awaited in the foreground would hold the answers below until the timeout.
    test('feed NOTAMs older than five minutes are served while one refresh runs in the background', { timeout: 10_000 }, async () => {
      const feed = new ScriptedFeed();
      feed.next = () => ({ ok: true, notams: [parsed(NIGHTLY_CLOSURE), parsed(ILS_OUT)] });
      const store = new NotamStore(handle.database, { clock, providers: [feed] });
      await store.forAirport('EGLL');

      now += 300_000;
      feed.next = () => ({ ok: true, notams: [parsed(NIGHTLY_CLOSURE)] });
      const release = feed.hold();
      const during = await Promise.all([store.forAirport('EGLL', { at: T('2024-05-04T02:00:00Z') }), store.forAirport('EGLL', { at: T('2024-05-04T02:00:00Z') })]);
      for (const answer of during) assert.deepEqual(ids(answer), ['A1234/24', 'A1300/24']);
      assert.equal(feed.calls, 2);
      release();
      await store.idle();
      // The ILS NOTAM left the feed, so it leaves the store.
      const afterwards = await store.forAirport('EGLL', { at: T('2024-05-04T02:00:00Z') });
      assert.deepEqual(ids(afterwards), ['A1234/24']);
      assert.equal(afterwards.feeds[0]!.fetched_at, '2024-05-03T12:05:00Z');
      assert.equal(feed.calls, 2);
    });

    test('a failing feed keeps its last set and says why', async () => {
      const feed = new ScriptedFeed();
      feed.next = () => ({ ok: true, notams: [parsed(ILS_OUT)] });
      const store = new NotamStore(handle.database, { clock, providers: [feed] });
      await store.forAirport('EGLL');

      now += 300_000;
      feed.next = () => ({ ok: false, error: 'rate_limited: retry after 60 s' });
      await store.forAirport('EGLL');
      await store.idle();
      let answer = await store.forAirport('EGLL');
      assert.deepEqual(ids(answer), ['A1300/24']);
      assert.deepEqual(answer.feeds, [{ source: 'live', fetched_at: '2024-05-03T12:00:00Z', error: 'rate_limited: retry after 60 s' }]);

      now += 300_000;
      feed.next = () => {
        throw new Error('socket hang up');
      };
      await store.forAirport('EGLL');
      await store.idle();
      answer = await store.forAirport('EGLL');
      assert.deepEqual(ids(answer), ['A1300/24']);
      assert.equal(answer.feeds[0]!.error, 'socket hang up');
    });

    test('a failing first fetch answers with what is held and retries later', async () => {
      const feed = new ScriptedFeed();
      feed.next = () => ({ ok: false, error: 'unauthorized: HTTP 401' });
      const store = new NotamStore(handle.database, { clock, providers: [feed] });
      const first = await store.forAirport('KJFK');
      assert.deepEqual(first.notams, []);
      assert.deepEqual(first.feeds, [{ source: 'live', fetched_at: null, error: 'unauthorized: HTTP 401' }]);
      await store.forAirport('KJFK');
      assert.equal(feed.calls, 1);
      now += 300_000;
      await store.forAirport('KJFK');
      await store.idle();
      assert.equal(feed.calls, 2);
    });

    test('a query with an invalid time is refused', async () => {
      const store = new NotamStore(handle.database, { clock });
      await assert.rejects(store.forAirport('EGLL', { at: Number.NaN }), RangeError);
    });
  });
}
