// AIS ingest on its own thread and in the serving thread: a TCP feed's lines reach the read copy
// in order, uploads answer once their changes are in it, the recorder writes from the ingest side,
// and stopping writes what is left. On a real SQLite file, which the worker opens for itself.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { vesselsMigration } from '../migrations/0001_vessels.ts';
import { positionReport, sentences, staticVoyage } from '../vessels/fixtures.ts';
import { VesselRepository } from '../vessels/repository.ts';
import { VesselStore, type Change } from '../vessels/store.ts';
import { IngestLink } from './link.ts';
import { startIngestThreadEarly } from './thread.ts';

const sqlite = STORAGE_BACKENDS.find((backend) => backend.name === 'SQLite')!;
const VESSELS = 500;
const REPORTS = 8;

async function waitFor<T>(what: string, probe: () => T | undefined, ms = 30_000): Promise<T> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

for (const threaded of [true, false]) {
  describe(`AIS ingest ${threaded ? 'on a thread of its own' : 'in the serving thread'}`, () => {
    let handle: StorageHandle;
    let link: IngestLink;
    const store = new VesselStore();
    const heard: Change[] = [];

    before(async () => {
      handle = await sqlite.open([vesselsMigration]);
      const { dataDir } = handle;
      // As `lamis serve` does: the thread loads its modules before it is given its settings.
      if (threaded) startIngestThreadEarly();
      link = await IngestLink.start({
        threaded,
        database: handle.database,
        databaseSettings: { databaseUrl: undefined, databasePoolMax: 1, databaseTimeoutMs: 10_000, dataDir },
        settings: { feeds: [{ kind: 'tcp-listen', id: 'tcp-listen://127.0.0.1:0', host: '127.0.0.1', port: 0 }], aisstreamApiKey: undefined, simulatorVessels: null, staleAfterMs: 30 * 60_000, trackRetentionMs: 3_600_000 },
        store,
        log: pino({ level: 'silent' }),
      });
      link.onChange((change) => heard.push(change));
      await link.startFeeds();
    });
    after(async () => {
      await link.close();
      await handle.cleanup();
    });

    /** Sends `reports` rounds of one position report from each vessel; resolves once the copy has the last round. */
    const sendRounds = async (reports: number, base: number) => {
      const port = await waitFor('the feed to listen', () => link.status.feeds[0]?.detail?.match(/:(\d+)$/)?.[1]);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const lines: string[] = [];
      for (let report = 0; report < reports; report++) {
        for (let v = 0; v < VESSELS; v++) lines.push(...sentences(positionReport(244_000_000 + v, base + report / 100, v / 100)));
      }
      socket.end(`${lines.join('\r\n')}\r\n`);
      const last = await waitFor('every vessel at its last position', () => {
        const vessel = store.get(244_000_000 + VESSELS - 1);
        return vessel?.position?.lat === base + (reports - 1) / 100 ? vessel : undefined;
      });
      for (let v = 0; v < VESSELS; v++) assert.equal(store.get(244_000_000 + v)!.position!.lat, base + (reports - 1) / 100);
      return { lines, last };
    };
    /** Once the status has caught up: every change the ingest side made was heard here or counted as coalesced. */
    const allAccountedFor = (changes: number) => waitFor('every change heard or counted as coalesced', () => {
      const { ingest } = link.status;
      return ingest.changes === changes && heard.length + ingest.coalesced === changes ? true : undefined;
    });
    /** Every vessel's positions as heard, in the order heard, never going back. */
    const assertInOrder = () => {
      const byVessel = new Map<number, number[]>();
      for (const change of heard) if (change.position) byVessel.set(change.vessel.mmsi, [...(byVessel.get(change.vessel.mmsi) ?? []), change.vessel.position!.lat]);
      for (const [mmsi, lats] of byVessel) assert.deepEqual(lats, [...lats].sort((a, b) => a - b), `positions of ${mmsi} in the order received`);
    };

    test('a TCP feed\'s lines reach the read copy, each vessel\'s positions in order', async () => {
      const { lines, last } = await sendRounds(REPORTS, 50);
      assert.equal(last.source, 'live');
      assert.equal(store.size, VESSELS);
      assertInOrder();
      await allAccountedFor(VESSELS * REPORTS);
      assert.equal(link.status.pipelines[0]?.lines, lines.length);
      assert.equal(link.status.ingest.shed_lines, 0);
    });

    test('a serving thread that falls behind gets the latest positions; what merged on the way is counted', async () => {
      const before = link.status.ingest.coalesced;
      let stalled = false;
      link.onChange(() => {
        if (stalled) return;
        stalled = true;
        // The serving thread busy for half a second: meanwhile the rounds are decoded and wait.
        const until = performance.now() + 500;
        while (performance.now() < until);
      });
      const rounds = 20;
      await sendRounds(rounds, 60);
      assertInOrder();
      await allAccountedFor(VESSELS * (REPORTS + rounds));
      if (threaded) assert.ok(link.status.ingest.coalesced > before, 'positions coalesced while the serving thread was busy');
    });

    test('an upload answers once its changes are in the read copy, and its track is written', async () => {
      const mmsi = 244_777_001;
      const body = [...sentences(staticVoyage(mmsi, { shipname: 'UPLOADED' }), 4), ...sentences(positionReport(mmsi, 52.1, 4.2)), 'garbage'].join('\n');
      const counts = await link.upload(body, 'key_1');
      assert.deepEqual([counts.lines, counts.accepted, counts.messages, counts.rejected.framing], [4, 3, 2, 1]);
      const vessel = store.get(mmsi);
      assert.equal(vessel?.name, 'UPLOADED');
      assert.equal(vessel?.position?.lat, 52.1);
      assert.deepEqual(vessel?.sources, ['upload']);
      await link.flushTrack();
      const track = await new VesselRepository(handle.database).track(mmsi, 0, Date.now() + 60_000, 10);
      assert.equal(track.length, 1);
      assert.equal(track[0]!.lat, 52.1);
    });
  });
}
