// The event stream over real sockets: a server and a separate writer share one storage and one
// Redis, the way a rule on another instance would raise events. Each organisation's stream hears
// its own events only; Starter has none; a client back after a drop gets what it missed once, exactly
// from the cursor of the last alert it handled.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Parser } from '@asyncapi/parser';
import { EventStore } from '../../src/events/index.ts';
import { AlertFrame, EVENT_STREAM_CLOSE_CODES, FeedFrame, ResumeMessageSchema } from '../../src/events/stream.schemas.ts';
import { skipRedis } from '../support/backends.ts';
import { EventClient, startEventServer, zoneEntered, type EventServer } from '../support/events.ts';
import { organisationKey } from '../support/organisations.ts';
import type { TestServer } from '../support/server.ts';

const cursorNumber = (cursor: string) => Number(cursor.slice('chg_'.length));

describe('the event stream', { skip: skipRedis, timeout: 60_000 }, () => {
  let server: TestServer;
  let store: EventStore;
  let events: EventServer;

  before(async () => {
    events = await startEventServer();
    ({ server, store } = events);
  });
  after(() => events.close());

  test("a Pro organisation's stream gets its own events within 2 s, never another organisation's", async () => {
    const alpha = await organisationKey(server.config, 'pro');
    const bravo = await organisationKey(server.config, 'pro');
    const alphaStream = await EventClient.ready(server.url, alpha);
    const bravoStream = await EventClient.ready(server.url, bravo);
    assert.equal(alphaStream.of('ready')[0]!.data.organisation, alpha.orgId);

    const alphaEvent = (await store.open(alpha.orgId, zoneEntered(235_100_001))).event;
    await alphaStream.until('alert', 1, 2000);
    assert.deepEqual(alphaStream.of('alert')[0]!.data, alphaEvent);
    // One bus carries both: once bravo's own event is in, alpha's went by it long before.
    const bravoEvent = (await store.open(bravo.orgId, zoneEntered(235_100_002))).event;
    await bravoStream.until('alert', 1, 2000);
    assert.deepEqual(bravoStream.alerts(), [`${bravoEvent.id} open`]);
    await store.clear(alpha.orgId, alphaEvent.id);
    await alphaStream.until('alert', 2);
    assert.deepEqual(alphaStream.alerts(), [`${alphaEvent.id} open`, `${alphaEvent.id} cleared`]);
    await alphaStream.close();
    await bravoStream.close();
  });

  test('Starter is refused: 403 stream_not_in_plan on the upgrade, 4403 after an auth message', async () => {
    const starter = await organisationKey(server.config, 'starter');
    assert.equal(await new EventClient(server.url, starter.headers).refused, 403);
    const byMessage = new EventClient(server.url, {});
    await new Promise((resolve) => byMessage.ws.once('open', resolve));
    byMessage.ws.send(JSON.stringify({ type: 'auth', api_key: starter.secret }));
    assert.equal(await byMessage.closed, 4403);
  });

  test('resuming after a reconnect delivers the missed change once, then live frames', async () => {
    const key = await organisationKey(server.config, 'pro');
    const first = await EventClient.ready(server.url, key);
    const seen = (await store.open(key.orgId, zoneEntered(235_100_010))).event;
    await first.until('alert');
    await first.close();

    const missed = (await store.open(key.orgId, zoneEntered(235_100_011))).event;
    const back = await EventClient.ready(server.url, key, `?after=${seen.id}`);
    await back.until('resumed');
    assert.deepEqual(back.of('resumed')[0]!.data, { after: seen.id, replayed: 1 });
    await store.clear(key.orgId, missed.id);
    await back.until('alert', 2);
    assert.deepEqual(back.alerts(), [`${missed.id} open`, `${missed.id} cleared`]);
    assert.deepEqual(back.frames.map((frame) => frame.event), ['ready', 'alert', 'resumed', 'alert']);
    await back.close();

    // The same with a resume message behind the auth message, and an unknown event refused.
    const byMessage = new EventClient(server.url, {});
    await new Promise((resolve) => byMessage.ws.once('open', resolve));
    byMessage.ws.send(JSON.stringify({ type: 'auth', api_key: key.secret }));
    byMessage.ws.send(JSON.stringify({ type: 'resume', after: seen.id }));
    await byMessage.until('resumed');
    assert.deepEqual(byMessage.alerts(), [`${missed.id} cleared`]);
    byMessage.ws.send(JSON.stringify({ type: 'resume', after: seen.id }));
    await byMessage.until('error');
    assert.equal(byMessage.of('error')[0]!.data.code, 'invalid_resume');
    await byMessage.close();

    const unknown = await EventClient.ready(server.url, key, '?after=evt_0000000000000000');
    await unknown.until('error');
    assert.deepEqual(unknown.of('error')[0]!.data, { code: 'unknown_event', message: 'No event evt_0000000000000000 for your organisation: nothing is replayed; list /v3/events to catch up.', field: '/after' });
    await unknown.close();
  });

  test("resuming from a cursor is exact: another event's change is replayed even when the last one seen changed again since", async () => {
    const key = await organisationKey(server.config, 'pro');
    const first = await EventClient.ready(server.url, key);
    const a = (await store.open(key.orgId, zoneEntered(235_100_020))).event;
    await first.until('alert');
    const cursor = first.of('alert')[0]!.cursor!;
    assert.match(cursor, /^chg_[0-9]+$/);
    await first.close();

    // While the client is away, B changes, then A changes again.
    const b = (await store.open(key.orgId, zoneEntered(235_100_021))).event;
    await store.update(key.orgId, a.id, { severity: 'warning' });

    const back = await EventClient.ready(server.url, key, `?after=${cursor}`);
    await back.until('resumed');
    assert.deepEqual(back.of('resumed')[0]!.data, { after: cursor, replayed: 2 });
    assert.deepEqual(back.of('alert').map((frame) => `${frame.data.id} ${frame.data.severity}`), [`${b.id} info`, `${a.id} warning`]);
    const [bCursor, aCursor] = back.of('alert').map((frame) => cursorNumber(frame.cursor!));
    assert.ok(cursorNumber(cursor) < bCursor! && bCursor! < aCursor!, 'each replayed frame carries the cursor of its latest change');
    // Live frames follow, with later cursors; resuming from the last one replays nothing.
    await store.clear(key.orgId, b.id);
    await back.until('alert', 3);
    const live = back.of('alert')[2]!;
    assert.equal(`${live.data.id} ${live.data.state}`, `${b.id} cleared`);
    assert.ok(cursorNumber(live.cursor!) > aCursor!);
    await back.close();
    const caughtUp = await EventClient.ready(server.url, key, `?after=${live.cursor}`);
    await caughtUp.until('resumed');
    assert.deepEqual(caughtUp.of('resumed')[0]!.data, { after: live.cursor, replayed: 0 });
    await caughtUp.close();

    // The event id form is the inexact one: after A's latest change, B's change before it is not replayed.
    const byId = await EventClient.ready(server.url, key, `?after=${a.id}`);
    await byId.until('resumed');
    assert.deepEqual(byId.alerts(), [`${b.id} cleared`]);
    await byId.close();
  });

  test('a resume from before changes retention took out is refused as too old, in their organisation only', async () => {
    const key = await organisationKey(server.config, 'pro');
    const other = await organisationKey(server.config, 'pro');
    const stream = await EventClient.ready(server.url, key);
    const otherStream = await EventClient.ready(server.url, other);
    const kept = (await store.open(key.orgId, zoneEntered(235_100_030))).event;
    await store.open(other.orgId, zoneEntered(235_100_031));
    await stream.until('alert');
    await otherStream.until('alert');
    // An event that cleared long ago, after both clients' cursors.
    const longAgo = new EventStore(events.database, events.bus, () => new Date('2020-01-01T00:00:00Z'));
    const old = (await longAgo.open(key.orgId, zoneEntered(235_100_032))).event;
    await longAgo.clear(key.orgId, old.id);
    await stream.until('alert', 3);
    const [before, , last] = stream.of('alert').map((frame) => frame.cursor!);
    const otherBefore = otherStream.of('alert')[0]!.cursor!;
    await stream.close();
    await otherStream.close();
    assert.deepEqual(await store.prune(new Date('2020-06-01T00:00:00Z')), { events: 1, changes: 2 });

    for (const after of [before!, kept.id]) {
      const refused = await EventClient.ready(server.url, key, `?after=${after}`);
      await refused.until('error');
      assert.deepEqual([refused.of('error')[0]!.data.code, refused.of('error')[0]!.data.field], ['resume_too_old', '/after'], after);
      assert.deepEqual(refused.of('resumed'), []);
      await refused.close();
    }
    const fromLast = await EventClient.ready(server.url, key, `?after=${last}`);
    await fromLast.until('resumed');
    assert.deepEqual(fromLast.of('resumed')[0]!.data, { after: last, replayed: 0 });
    await fromLast.close();
    const otherBack = await EventClient.ready(server.url, other, `?after=${otherBefore}`);
    await otherBack.until('resumed');
    assert.deepEqual(otherBack.of('resumed')[0]!.data, { after: otherBefore, replayed: 0 });
    await otherBack.close();
  });

  test('the AsyncAPI document has the eventStream channel, from the same schemas, without warnings', async () => {
    const document: any = await (await fetch(`${server.url}/v3/asyncapi.json`)).json();
    const { document: parsed, diagnostics } = await new Parser().parse(document);
    const problems = diagnostics.filter((d) => d.severity === 0 || d.severity === 1);
    assert.deepEqual(problems.map((d) => `${d.path.join('.')}: ${d.message}`), []);
    const channel = document.channels.eventStream;
    assert.equal(channel.address, '/v3/stream/events');
    assert.deepEqual(Object.keys(channel.messages).sort(), ['alert', 'auth', 'clientHeartbeat', 'error', 'feed', 'heartbeat', 'ready', 'resume', 'resumed']);
    assert.deepEqual(document.components.schemas.eventStreamAlert, JSON.parse(JSON.stringify(AlertFrame)));
    assert.deepEqual(document.components.schemas.eventStreamFeed, JSON.parse(JSON.stringify(FeedFrame)));
    assert.deepEqual(document.components.schemas.eventStreamResume, JSON.parse(JSON.stringify(ResumeMessageSchema)));
    assert.deepEqual(channel['x-close-codes'].map((c: { code: number }) => c.code), EVENT_STREAM_CLOSE_CODES.map((c) => c.code));
    for (const code of [4400, 4401, 4403, 4408, 4429]) assert.match(channel.description, new RegExp(`\\| ${code} \\|`));
    assert.equal(parsed!.channels().get('eventStream')?.messages().length, 9);
    assert.ok(document.channels.aisStream, 'both streams in one document');
  });
});
