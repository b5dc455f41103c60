// Webhooks in process (events and webhooks, no listening socket for LAMIS itself) against a real
// loopback receiver and a real loopback SMTP server: the routes, the signed deliveries, retries,
// disabling with a mail to the owners, test sends, secret rotation, another organisation's
// webhooks, and the outbox joining the event change's transaction. Events are changed through an
// EventStore on the same storage with the webhooks' outbox hook installed, as the service's own
// stores have it. Retries are configured a tenth of a second apart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/support/smtp.ts';
import { featureApp, type InProcess } from '../../test/support/in-process.ts';
import { organisationKey, type OrganisationKey } from '../../test/support/organisations.ts';
import { signedBy, startWebhookReceiver, type WebhookReceiver } from '../../test/support/webhook-receiver.ts';
import { EventStore, onEventTransition, type NewEvent } from '../events/index.ts';
import { createMemoryBus } from '../platform/bus/memory.ts';
import { Envelope, masterKey } from '../platform/crypto/index.ts';
import { openDatabase, type Database } from '../platform/db/database.ts';
import { newId } from '../platform/ids.ts';
import { WebhookStore } from './webhooks.ts';

const SECRET_OVERLAP_SEC = 3;

const zoneEntered = (mmsi: number): NewEvent => ({
  kind: 'vessel.zone_entered',
  severity: 'info',
  subject: { type: 'vessel', id: String(mmsi), mmsi, zone_id: 'zone_solent' },
  summary: `Vessel ${mmsi} entered the Solent zone.`,
  data: { lat: 50.78, lon: -1.3 },
});

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An owner with an e-mail address in the organisation, as sign-up makes one. */
async function addOwner(database: Database, orgId: string, email: string): Promise<void> {
  const now = new Date().toISOString();
  const id = newId('usr');
  await database.db.insertInto('users').values({
    id, email, email_key: email.toLowerCase(), full_name: 'Harbour Master', password_hash: 'unused', duplicate_of: null,
    email_verified_at: now, vehicle_category: null, country: null, default_feeds: null, password_changed_at: now, created_at: now,
  }).execute();
  await database.db.insertInto('memberships').values({ org_id: orgId, user_id: id, role: 'owner', created_at: now }).execute();
}

describe('webhooks with private addresses allowed', () => {
  let service: InProcess;
  let receiver: WebhookReceiver;
  let smtp: TestSmtpServer;
  let database: Database;
  /** The webhooks' storage, as the service has it. */
  let outbox: WebhookStore;
  let events: EventStore;
  let alpha: OrganisationKey;
  let bravo: OrganisationKey;

  const as = (key: OrganisationKey) => (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => service.call(method, url, payload, key.headers);
  type Call = ReturnType<typeof as>;
  /** The webhook's latest delivery once it has this status. */
  const deliveryOnceIt = (call: Call, id: string, status: string) => until(`a delivery ${status}`, async () => {
    const row = (await call('GET', `/v3/webhooks/${id}/deliveries`)).body.data[0];
    return row?.status === status && row;
  });
  /** The webhook once LAMIS has disabled it. */
  const onceDisabled = (call: Call, id: string) => until('disabled', async () => {
    const read = await call('GET', `/v3/webhooks/${id}`);
    return read.body.enabled === false && read.body;
  });

  /** A new organisation with an owner at `email`, and a webhook of it at the receiver's `path`. */
  const ownedWebhook = async (email: string, path: string) => {
    const owned = await organisationKey(service.config, 'enterprise');
    await addOwner(database, owned.orgId, email);
    const call = as(owned);
    const created = await call('POST', '/v3/webhooks', { url: receiver.url(path) });
    return { owned, call, created };
  };

  before(async () => {
    receiver = await startWebhookReceiver();
    smtp = await startTestSmtpServer();
    service = await featureApp(['events', 'webhooks'], {
      webhookAllowPrivate: true, webhookRetryDelaysSec: [0.1, 0.1], webhookTimeoutMs: 2000,
      webhookSecretOverlapSec: SECRET_OVERLAP_SEC, smtpUrl: smtp.url(),
    });
    alpha = await organisationKey(service.config, 'enterprise');
    bravo = await organisationKey(service.config, 'enterprise');
    database = openDatabase(service.config);
    outbox = new WebhookStore(database, new Envelope(masterKey({ dataDir: service.config.dataDir }).key));
    onEventTransition(database, (trx, change) => outbox.enqueue(trx, change));
    events = new EventStore(database, createMemoryBus(() => {}));
  });
  after(async () => {
    await database.close();
    await service.close();
    await receiver.close();
    await smtp.close();
  });

  test('add, read, list by cursor, change and remove; the secret is shown once', async () => {
    const call = as(alpha);
    const created = await call('POST', '/v3/webhooks', { url: receiver.url('/crud'), kinds: ['vessel.zone_entered'], description: 'Dispatch' });
    assert.equal(created.status, 201);
    assert.equal(created.headers.location, `/v3/webhooks/${created.body.id}`);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(Buffer.from(created.body.secret.slice(6), 'base64').length >= 24, 'at least 24 random bytes');
    assert.deepEqual({ ...created.body, secret: undefined, id: undefined, created_at: undefined, updated_at: undefined }, {
      url: receiver.url('/crud'), kinds: ['vessel.zone_entered'], description: 'Dispatch', enabled: true, disabled_reason: null,
      previous_secret_expires_at: null, secret: undefined, id: undefined, created_at: undefined, updated_at: undefined,
    });
    const read = await call('GET', `/v3/webhooks/${created.body.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.secret, undefined, 'never shown again');

    const second = await call('POST', '/v3/webhooks', { url: receiver.url('/crud-2') });
    assert.deepEqual(second.body.kinds, [], 'all kinds');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await call('GET', `/v3/webhooks?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200);
      seen.push(...page.body.data.map((w: { id: string }) => w.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.ok(seen.includes(created.body.id) && seen.includes(second.body.id));
    assert.equal(new Set(seen).size, seen.length);

    const changed = await call('PATCH', `/v3/webhooks/${created.body.id}`, { kinds: [], description: null, enabled: false });
    assert.equal(changed.status, 200);
    assert.deepEqual([changed.body.kinds, changed.body.description, changed.body.enabled], [[], null, false]);
    const badKind = await call('PATCH', `/v3/webhooks/${created.body.id}`, { kinds: ['vessel.teleported'] });
    assert.equal(badKind.status, 400);
    assert.match(JSON.stringify(badKind.body.errors), /\/body\/kinds/);
    const notUrl = await call('POST', '/v3/webhooks', { url: 'hooks.example.com/lamis' });
    assert.equal(notUrl.status, 400);
    assert.equal(notUrl.body.errors[0].path, '/body/url');

    for (const id of [created.body.id, second.body.id]) assert.equal((await call('DELETE', `/v3/webhooks/${id}`)).status, 204);
    assert.equal((await call('GET', `/v3/webhooks/${created.body.id}`)).status, 404);
  });

  test('an opened event is POSTed signed by the Standard Webhooks scheme, with the event as GET /v3/events/{id} answers it', async () => {
    const call = as(alpha);
    const created = await call('POST', '/v3/webhooks', { url: receiver.url('/signed'), kinds: ['vessel.zone_entered'] });
    const other = await call('POST', '/v3/webhooks', { url: receiver.url('/other-kind'), kinds: ['feed.stale'] });
    const before = receiver.received.length;
    const { event } = await events.open(alpha.orgId, zoneEntered(235_100_001));
    const [delivery] = (await receiver.waitFor(before + 1)).slice(before);
    assert.equal(delivery!.path, '/signed');
    assert.equal(delivery!.headers['content-type'], 'application/json');
    assert.match(String(delivery!.headers['webhook-id']), /^msg_[A-Za-z0-9]{16}$/);
    const timestamp = Number(delivery!.headers['webhook-timestamp']);
    assert.ok(Math.abs(timestamp - Date.now() / 1000) < 60, 'unix seconds, now');
    assert.ok(signedBy(created.body.secret, delivery!), 'the HMAC checks out');
    assert.ok(!signedBy(other.body.secret, delivery!), 'and not by another endpoint\'s secret');
    const body = JSON.parse(delivery!.body);
    assert.equal(body.type, 'vessel.zone_entered');
    assert.ok(!Number.isNaN(Date.parse(body.timestamp)));
    assert.equal(body.data.change, 'opened');
    assert.deepEqual(body.data.event, (await call('GET', `/v3/events/${event.id}`)).body);

    const deliveries = await until('delivered', async () => {
      const page = await call('GET', `/v3/webhooks/${created.body.id}/deliveries`);
      return page.body.data[0]?.status === 'delivered' && page.body;
    });
    assert.equal(deliveries.data.length, 1);
    const [row] = deliveries.data;
    assert.deepEqual([row.id, row.type, row.event_id, row.attempts, row.last_status_code, row.last_error, row.next_attempt_at],
      [delivery!.headers['webhook-id'], 'vessel.zone_entered', event.id, 1, 200, null, null]);
    assert.ok(Number.isInteger(row.last_latency_ms));
    assert.deepEqual((await call('GET', `/v3/webhooks/${other.body.id}/deliveries`)).body.data, [], 'a kind it does not take');

    // Acknowledged through the API: the service's own store writes the delivery.
    await call('POST', `/v3/events/${event.id}/acknowledge`);
    const [acknowledged] = (await receiver.waitFor(before + 2)).slice(before + 1);
    assert.equal(JSON.parse(acknowledged!.body).data.change, 'acknowledged');
    assert.notEqual(acknowledged!.headers['webhook-id'], delivery!.headers['webhook-id']);
    for (const id of [created.body.id, other.body.id]) await call('DELETE', `/v3/webhooks/${id}`);
  });

  test('a delivery answered 500 is retried with the same webhook-id until a 2xx', async () => {
    const call = as(alpha);
    const created = await call('POST', '/v3/webhooks', { url: receiver.url('/flaky') });
    const before = receiver.received.length;
    receiver.queue(500, 500);
    await events.open(alpha.orgId, zoneEntered(235_100_002));
    const attempts = (await receiver.waitFor(before + 3)).slice(before);
    assert.equal(new Set(attempts.map((a) => a.headers['webhook-id'])).size, 1, 'one webhook-id on every attempt');
    assert.ok(attempts.every((attempt) => signedBy(created.body.secret, attempt)));
    const row = await deliveryOnceIt(call, created.body.id, 'delivered');
    assert.equal(row.attempts, 3);
    assert.equal(row.last_status_code, 200);
    await call('DELETE', `/v3/webhooks/${created.body.id}`);
  });

  test('a receiver that answers 429 or 503 with Retry-After is tried again no sooner than it asked, and other failures keep the schedule', async () => {
    const call = as(alpha);
    const created = await call('POST', '/v3/webhooks', { url: receiver.url('/busy') });
    const before = receiver.received.length;
    // The schedule waits 0.1 s (and up to 20 % more) after each failure.
    receiver.queue({ status: 429, headers: { 'retry-after': '2' } }, { status: 503, headers: { 'retry-after': '1' } });
    await events.open(alpha.orgId, zoneEntered(235_100_006));
    const first = (await receiver.waitFor(before + 1)).at(-1)!;
    const firstAt = Date.now();
    // Recorded once the answer is in.
    const waiting = await deliveryOnceIt(call, created.body.id, 'retrying');
    assert.equal(waiting.last_status_code, 429);
    assert.ok(Date.parse(waiting.next_attempt_at) - Date.parse(waiting.last_attempt_at) >= 2000, JSON.stringify(waiting));
    await receiver.waitFor(before + 2, 10_000);
    assert.ok(Date.now() - firstAt >= 1900, 'the second attempt waited for the 429\'s Retry-After');
    const secondAt = Date.now();
    const attempts = await receiver.waitFor(before + 3, 10_000);
    assert.ok(Date.now() - secondAt >= 900, 'the third attempt waited for the 503\'s Retry-After');
    assert.equal(new Set(attempts.slice(before).map((a) => a.headers['webhook-id'])).size, 1);
    assert.equal(first.headers['webhook-id'], attempts.at(-1)!.headers['webhook-id']);
    const row = await deliveryOnceIt(call, created.body.id, 'delivered');
    assert.equal(row.attempts, 3);
    await call('DELETE', `/v3/webhooks/${created.body.id}`);
  });

  test('an endpoint whose deliveries fail through the whole schedule is disabled and the owners are mailed', async () => {
    const { owned, call, created } = await ownedWebhook('harbour.master@lamis.example', '/broken');
    const before = receiver.received.length;
    receiver.queue(503, 503, 503);
    await events.open(owned.orgId, zoneEntered(235_100_003));
    await receiver.waitFor(before + 3);
    const disabled = await onceDisabled(call, created.body.id);
    assert.match(disabled.disabled_reason, /failed.*3 attempts.*HTTP 503/);
    const [row] = (await call('GET', `/v3/webhooks/${created.body.id}/deliveries`)).body.data;
    assert.deepEqual([row.status, row.attempts, row.last_status_code, row.next_attempt_at], ['failed', 3, 503, null]);
    assert.match(row.last_error, /HTTP 503/);
    const mail = await until('mailed', async () => smtp.received.find((m) => m.envelopeTo.includes('harbour.master@lamis.example')));
    assert.match(mail.headers.get('subject') ?? '', /webhook/);
    assert.ok(mail.text?.includes(created.body.id) && mail.text.includes('"enabled": true'));

    // Disabled, it gets nothing more; enabled again, it does.
    await events.open(owned.orgId, zoneEntered(235_100_004));
    assert.equal((await call('GET', `/v3/webhooks/${created.body.id}/deliveries`)).body.data.length, 1);
    const enabled = await call('PATCH', `/v3/webhooks/${created.body.id}`, { enabled: true });
    assert.deepEqual([enabled.body.enabled, enabled.body.disabled_reason], [true, null]);
  });

  test('an endpoint that answers 410 Gone is disabled at once, its delivery failed, and the owners are mailed', async () => {
    const { owned, call, created } = await ownedWebhook('port.agent@lamis.example', '/retired');
    const before = receiver.received.length;
    receiver.queue(410);
    await events.open(owned.orgId, zoneEntered(235_100_007));
    await receiver.waitFor(before + 1);
    const disabled = await onceDisabled(call, created.body.id);
    assert.match(disabled.disabled_reason, /410 Gone/);
    const [row] = (await call('GET', `/v3/webhooks/${created.body.id}/deliveries`)).body.data;
    assert.deepEqual([row.status, row.attempts, row.last_status_code, row.next_attempt_at], ['failed', 1, 410, null]);
    const mail = await until('mailed', async () => smtp.received.find((m) => m.envelopeTo.includes('port.agent@lamis.example')));
    assert.ok(mail.text?.includes('410 Gone'));
    // Nothing more was tried.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(receiver.received.length, before + 1);
    await call('DELETE', `/v3/webhooks/${created.body.id}`);
  });

  test('a test send is made at once and answered with its outcome', async () => {
    const call = as(alpha);
    const created = await call('POST', '/v3/webhooks', { url: receiver.url('/test-send') });
    const before = receiver.received.length;
    const sent = await call('POST', `/v3/webhooks/${created.body.id}/test`);
    assert.equal(sent.status, 200);
    assert.deepEqual([sent.body.type, sent.body.status, sent.body.attempts, sent.body.last_status_code], ['webhook.test', 'delivered', 1, 200]);
    const [delivery] = receiver.received.slice(before);
    assert.equal(delivery!.headers['webhook-id'], sent.body.id);
    assert.ok(signedBy(created.body.secret, delivery!));
    assert.equal(JSON.parse(delivery!.body).type, 'webhook.test');

    receiver.queue(404);
    const refused = await call('POST', `/v3/webhooks/${created.body.id}/test`);
    assert.deepEqual([refused.body.status, refused.body.last_status_code, refused.body.next_attempt_at], ['failed', 404, null]);
    assert.match(refused.body.last_error, /HTTP 404/);
    const listed = (await call('GET', `/v3/webhooks/${created.body.id}/deliveries?limit=1`)).body;
    assert.equal(listed.data[0].id, refused.body.id, 'newest first');
    const rest = (await call('GET', `/v3/webhooks/${created.body.id}/deliveries?limit=1&cursor=${listed.next_cursor}`)).body;
    assert.deepEqual(rest.data.map((d: { id: string }) => d.id), [sent.body.id]);
    assert.equal(rest.next_cursor, null);
    await call('DELETE', `/v3/webhooks/${created.body.id}`);
  });

  test('after a rotation both secrets sign until the overlap ends, then only the new one', async () => {
    const call = as(alpha);
    const created = await call('POST', '/v3/webhooks', { url: receiver.url('/rotating') });
    const rotated = await call('POST', `/v3/webhooks/${created.body.id}/rotate-secret`);
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, created.body.secret);
    assert.ok(Date.parse(rotated.body.previous_secret_expires_at) > Date.now());

    let before = receiver.received.length;
    await call('POST', `/v3/webhooks/${created.body.id}/test`);
    const [during] = receiver.received.slice(before);
    const signatures = String(during!.headers['webhook-signature']).split(' ');
    assert.equal(signatures.length, 2);
    assert.ok(signedBy(rotated.body.secret, { ...during!, headers: { ...during!.headers, 'webhook-signature': signatures[0] } }), 'the new one first');
    assert.ok(signedBy(created.body.secret, { ...during!, headers: { ...during!.headers, 'webhook-signature': signatures[1] } }), 'then the old one');

    await new Promise((resolve) => setTimeout(resolve, SECRET_OVERLAP_SEC * 1000 + 200));
    before = receiver.received.length;
    await call('POST', `/v3/webhooks/${created.body.id}/test`);
    const [later] = receiver.received.slice(before);
    assert.equal(String(later!.headers['webhook-signature']).split(' ').length, 1);
    assert.ok(signedBy(rotated.body.secret, later!));
    assert.ok(!signedBy(created.body.secret, later!));
    assert.equal((await call('GET', `/v3/webhooks/${created.body.id}`)).body.previous_secret_expires_at, null);
    await call('DELETE', `/v3/webhooks/${created.body.id}`);
  });

  test('another organisation\'s webhook answers 404 on every route, exactly as a missing one', async () => {
    const created = await as(alpha)('POST', '/v3/webhooks', { url: receiver.url('/private') });
    const id = created.body.id;
    const routes: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?][] = [
      ['GET', `/v3/webhooks/${id}`], ['PATCH', `/v3/webhooks/${id}`, { enabled: false }], ['POST', `/v3/webhooks/${id}/rotate-secret`],
      ['POST', `/v3/webhooks/${id}/test`], ['GET', `/v3/webhooks/${id}/deliveries`], ['DELETE', `/v3/webhooks/${id}`],
    ];
    for (const [method, url, payload] of routes) {
      const foreign = await as(bravo)(method, url, payload);
      const missing = await as(bravo)(method, url.replace(id, 'whk_0000000000000000'), payload);
      assert.equal(foreign.status, 404, `${method} ${url}`);
      assert.equal(foreign.body.code, 'webhook_not_found');
      assert.equal(missing.body.code, foreign.body.code);
    }
    assert.ok(!(await as(bravo)('GET', '/v3/webhooks')).body.data.some((w: { id: string }) => w.id === id));
    assert.equal((await as(alpha)('GET', `/v3/webhooks/${id}`)).body.enabled, true, 'untouched');
    await as(alpha)('DELETE', `/v3/webhooks/${id}`);
  });

  test('an event change whose transaction rolls back leaves no delivery', async () => {
    const created = await as(alpha)('POST', '/v3/webhooks', { url: receiver.url('/outbox') });
    const count = async () => Number((await database.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('webhook_id', '=', created.body.id).executeTakeFirstOrThrow()).n);
    // A later hook of the same transition fails after the outbox has written its row.
    const removeFailing = onEventTransition(database, async (_trx, change) => {
      if (change.event.subject.id === '235100005') throw new Error('the transition fails');
    });
    try {
      await assert.rejects(events.open(alpha.orgId, zoneEntered(235_100_005)), /the transition fails/);
    } finally {
      removeFailing();
    }
    assert.equal(await events.findOpen(alpha.orgId, 'vessel.zone_entered', zoneEntered(235_100_005).subject), null, 'no event');
    assert.equal(await count(), 0, 'no delivery');
    await events.open(alpha.orgId, zoneEntered(235_100_005));
    assert.equal(await count(), 1, 'the change that commits has its delivery');
    await as(alpha)('DELETE', `/v3/webhooks/${created.body.id}`);
  });

  test('retention deletes the deliveries that are over and were made before the cutoff; those still tried stay', async () => {
    const call = as(bravo);
    const created = await call('POST', '/v3/webhooks', { url: receiver.url('/retention') });
    const delivered = await call('POST', `/v3/webhooks/${created.body.id}/test`);
    const failed = await call('POST', `/v3/webhooks/${created.body.id}/test`);
    const retrying = await call('POST', `/v3/webhooks/${created.body.id}/test`);
    const recent = await call('POST', `/v3/webhooks/${created.body.id}/test`);
    const set = (id: string, values: { status?: string; created_at?: string }) => database.db.updateTable('webhook_deliveries').set(values).where('id', '=', id).execute();
    for (const { body } of [delivered, failed, retrying]) await set(body.id, { created_at: '2020-01-01T00:00:00.000Z' });
    await set(failed.body.id, { status: 'failed' });
    await set(retrying.body.id, { status: 'retrying' });
    assert.deepEqual(await outbox.prune(new Date('2021-01-01T00:00:00Z')), { deliveries: 2 });
    const kept = (await call('GET', `/v3/webhooks/${created.body.id}/deliveries`)).body.data.map((delivery: { id: string }) => delivery.id);
    assert.deepEqual(kept.sort(), [retrying.body.id, recent.body.id].sort());
    await call('DELETE', `/v3/webhooks/${created.body.id}`);
  });
});

describe('webhooks without private addresses', () => {
  let service: InProcess;
  let key: OrganisationKey;

  before(async () => {
    service = await featureApp(['events', 'webhooks']);
    key = await organisationKey(service.config, 'enterprise');
  });
  after(() => service.close());

  test('URLs that are plainly not allowed are refused with 422 naming /body/url', async () => {
    for (const url of ['http://hooks.example.com/lamis', 'https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest/meta-data',
      'https://[::1]:8443/hook', 'https://[fd00:ec2::254]/', 'https://100.64.0.1/', 'https://[::ffff:127.0.0.1]/', 'https://user:pw@hooks.example.com/']) {
      const refused = await service.call('POST', '/v3/webhooks', { url }, key.headers);
      assert.equal(refused.status, 422, url);
      assert.equal(refused.body.code, 'webhook_url_not_allowed');
      assert.equal(refused.body.errors[0].path, '/body/url');
    }
    const created = await service.call('POST', '/v3/webhooks', { url: 'https://hooks.example.com/lamis' }, key.headers);
    assert.equal(created.status, 201);
    const moved = await service.call('PATCH', `/v3/webhooks/${created.body.id}`, { url: 'https://192.168.1.10/' }, key.headers);
    assert.equal(moved.status, 422);
  });

  test('a name that resolves to a loopback address is refused when connecting', async () => {
    const created = await service.call('POST', '/v3/webhooks', { url: 'https://localhost:9/hook' }, key.headers);
    assert.equal(created.status, 201, 'a name is checked when connecting');
    const sent = await service.call('POST', `/v3/webhooks/${created.body.id}/test`, undefined, key.headers);
    assert.equal(sent.body.status, 'failed');
    assert.equal(sent.body.last_status_code, null);
    assert.match(sent.body.last_error, /localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  });
});
