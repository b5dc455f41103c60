// A real server on Redis, with an event store on the same storage and bus: tests open events as a
// rule would, and see what the server's streams make of them; a client of the event stream.
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { EventStore, type NewEvent } from '../../src/events/index.ts';
import { openBus, type Bus } from '../../src/platform/bus/index.ts';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { redisUrl } from './backends.ts';
import type { OrganisationKey } from './organisations.ts';
import { startTestServer, type TestServer } from './server.ts';

export interface EventServer {
  server: TestServer;
  store: EventStore;
  /** The storage and bus `store` writes to, for a store of another clock. */
  database: Database;
  bus: Bus;
  close(): Promise<void>;
}

/** Needs `LAMIS_TEST_REDIS_URL` (callers skip with `skipRedis`): the store's changes reach the server over the bus. */
export async function startEventServer(): Promise<EventServer> {
  const server = await startTestServer({ config: { redisUrl } });
  const database = openDatabase(server.config);
  const bus = await openBus(server.config, (error) => assert.fail(String(error)));
  return {
    server,
    store: new EventStore(database, bus),
    database,
    bus,
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

export interface Frame {
  event: string;
  data: any;
  /** An `alert`'s resume cursor. */
  cursor?: string;
}

/** A client of /v3/stream/events keeping every frame. */
export class EventClient {
  readonly ws: WebSocket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<number>;
  /** The status of a refused upgrade. */
  readonly refused: Promise<number>;

  constructor(serverUrl: string, headers: Record<string, string>, query = '') {
    this.ws = new WebSocket(`${serverUrl.replace(/^http/, 'ws')}/v3/stream/events${query}`, { headers });
    this.ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
    this.ws.on('error', () => {});
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
    this.refused = new Promise((resolve) => this.ws.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode!);
    }));
  }

  static async ready(serverUrl: string, key: OrganisationKey, query = ''): Promise<EventClient> {
    const client = new EventClient(serverUrl, key.headers, query);
    await client.until('ready');
    return client;
  }

  of(event: string): Frame[] {
    return this.frames.filter((frame) => frame.event === event);
  }

  alerts(): string[] {
    return this.of('alert').map((frame) => `${frame.data.id} ${frame.data.state}`);
  }

  async until(event: string, count = 1, timeoutMs = 5000): Promise<void> {
    await waitFor(() => this.of(event).length >= count, `${count} ${event} frame(s)`, timeoutMs);
  }

  async close(): Promise<void> {
    this.ws.close();
    await this.closed;
  }
}
