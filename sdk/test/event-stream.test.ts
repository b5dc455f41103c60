// The event stream client against a real LAMIS server on Redis, with events opened through the store
// on the same storage and bus: alerts arrive, and after a dropped connection the client resumes
// from the cursor of the last alert and gets each change it missed once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { EventStore } from '../../src/events/index.ts';
import { skipRedis } from '../../test/support/backends.ts';
import { startEventServer, zoneEntered, type EventServer } from '../../test/support/events.ts';
import { organisationKey } from '../../test/support/organisations.ts';
import { EventStreamClient, type EventAlert, type EventStreamResumedInfo } from '../src/index.ts';
import { startTcpProxy, waitFor, type TestServer } from './support.ts';

describe('EventStreamClient', { skip: skipRedis, timeout: 60_000 }, () => {
  let server: TestServer;
  let store: EventStore;
  let events: EventServer;

  before(async () => {
    events = await startEventServer();
    ({ server, store } = events);
  });
  after(() => events.close());

  test('reconnects after a dropped connection and resumes from the cursor of the last alert', async () => {
    const key = await organisationKey(server.config, 'pro');
    const proxy = await startTcpProxy(server.url);
    const client = new EventStreamClient({ apiKey: key.secret, url: proxy.url, reconnect: { initialDelayMs: 300 } });
    const alerts: EventAlert[] = [];
    const resumed: EventStreamResumedInfo[] = [];
    client.on('alert', (event) => alerts.push(event));
    client.on('resumed', (info) => resumed.push(info));
    try {
      const ready = await client.connect();
      assert.equal(ready.organisation, key.orgId);
      const seen = (await store.open(key.orgId, zoneEntered(235_200_001))).event;
      await waitFor(() => alerts.length === 1, 'the first alert');
      assert.equal(client.lastEventId, seen.id);
      const cursor = client.lastCursor;
      assert.match(cursor ?? '', /^chg_/);

      // Dropped without a close frame; the changes made meanwhile come with the resume, another
      // event's too although the event seen last changed again after it.
      const closed = new Promise((resolve) => client.on('close', resolve));
      proxy.cut();
      await closed;
      const missed = (await store.open(key.orgId, zoneEntered(235_200_002))).event;
      await store.update(key.orgId, seen.id, { severity: 'warning' });
      await waitFor(() => resumed.length === 1, 'the resume');
      assert.deepEqual(resumed, [{ after: cursor, replayed: 2 }]);
      assert.deepEqual(alerts.map((event) => `${event.id} ${event.severity}`), [`${seen.id} info`, `${missed.id} info`, `${seen.id} warning`]);
      assert.equal(client.lastEventId, seen.id);
      assert.notEqual(client.lastCursor, cursor);
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  test('a Starter organisation is refused for good', async () => {
    const key = await organisationKey(server.config, 'starter');
    const client = new EventStreamClient({ apiKey: key.secret, url: server.url });
    await assert.rejects(client.connect(), (error: Error & { status?: number }) => error.status === 403);
    assert.equal(client.state, 'closed');
  });
});
