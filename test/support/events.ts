// A real server on Redis, with an event store on the same storage and bus: tests open events as a
// rule would, and see what the server's streams make of them.
import assert from 'node:assert/strict';
import { EventStore, type NewEvent } from '../../src/events/index.ts';
import { openBus } from '../../src/platform/bus/index.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { redisUrl } from './backends.ts';
import { startTestServer, type TestServer } from './server.ts';

export interface EventServer {
  server: TestServer;
  store: EventStore;
  close(): Promise<void>;
}

/** Needs `LAMIS_TEST_REDIS_URL` (callers skip with `skipRedis`): the store's changes reach the server over the bus. */
export async function startEventServer(): Promise<EventServer> {
  const server = await startTestServer({ config: { redisUrl } });
  const database = openDatabase(server.config);
  const bus = await openBus({ redisUrl }, (error) => assert.fail(String(error)));
  return {
    server,
    store: new EventStore(database, bus),
    async close() {
      await bus.close();
      await database.close();
      await server.close();
    },
  };
}

/** A vessel entering a zone: an event no threshold decides, so a test opens it as it likes. */
export const zoneEntered = (mmsi: number): NewEvent => ({
  kind: 'vessel.zone_entered',
  severity: 'info',
  subject: { type: 'vessel', id: String(mmsi), mmsi, zone_id: 'zone_solent' },
  summary: `Vessel ${mmsi} entered the Solent zone.`,
  data: { lat: 50.78, lon: -1.3 },
});
