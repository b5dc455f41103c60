// Two LAMIS instances (`lamis serve` child processes) on one PostgreSQL schema and one Redis share
// the webhook deliveries: an event change is delivered once, by one of them; a METAR pushed to one
// instance is evaluated by both and raises one event, delivered once; and when the
// instance making an attempt is killed while the receiver holds its request, the other takes the
// attempt over from the Redis stream and makes it, with the same webhook-id: none is lost.
// Events are opened from the test through an EventStore with the webhooks' outbox hook on the
// same storage, as a rule on any instance would.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EventStore, onEventTransition } from '../../src/events/index.ts';
import { createMemoryBus } from '../../src/platform/bus/memory.ts';
import { Envelope } from '../../src/platform/crypto/index.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { WebhookStore } from '../../src/webhooks/webhooks.ts';
import { freshPostgresSchema, postgresUrl, redisUrl, skipPostgres, skipRedis } from '../support/backends.ts';
import { zoneEntered } from '../support/events.ts';
import { egllMetar } from '../support/metar.ts';
import { organisationKey, type OrganisationKey } from '../support/organisations.ts';
import { startServe, type ServeProcess } from '../support/serve.ts';
import { AUTH, TEST_API_KEY, testConfig } from '../support/server.ts';
import { signedBy, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/** How long an attempt handed to an instance may stay unconfirmed before the other takes it over. */
const RECLAIM_SEC = 3;

/**
 * Which of the processes holds the TCP connection whose local port is `port` (Linux: its socket
 * inode, from /proc/net/tcp*, among the process's open files).
 */
function processWithPort(pids: number[], port: number): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`)) inodes.add(fields[9]!);
    }
  }
  return pids.find((pid) => readdirSync(`/proc/${pid}/fd`).some((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
    } catch {
      return false; // closed meanwhile
    }
  }));
}

const skipLinux = existsSync('/proc/net/tcp') ? false : 'needs /proc (Linux) to tell which instance sends';

describe('two instances on PostgreSQL and Redis share webhook deliveries', { skip: skipPostgres || skipRedis || skipLinux, timeout: 240_000 }, () => {
  const masterKey = randomBytes(32);
  let schema: { schema: string; drop(): Promise<void> };
  let env: Record<string, string>;
  let databaseUrl: string;
  let instances: ServeProcess[] = [];
  let receiver: WebhookReceiver;
  let database: Database;
  let events: EventStore;
  let key: OrganisationKey;
  let secret: string;
  let webhookId: string;

  const serve = async () => {
    const instance = startServe({ env });
    instances.push(instance);
    return { instance, port: await instance.listening };
  };

  const deliveriesOf = async () => database.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('created_at').execute();

  before(async () => {
    schema = await freshPostgresSchema();
    const url = new URL(postgresUrl!);
    url.searchParams.set('options', `-c search_path=${schema.schema}`);
    databaseUrl = url.toString();
    env = {
      DATABASE_URL: databaseUrl, REDIS_URL: redisUrl!, LAMIS_MASTER_KEY: masterKey.toString('hex'),
      AIS_SIMULATOR: 'off', AVIATION_SIMULATORS: 'off', LAMIS_WEBHOOK_ALLOW_PRIVATE: 'true', LAMIS_API_KEYS: TEST_API_KEY,
      LAMIS_WEBHOOK_RECLAIM_SEC: String(RECLAIM_SEC), LAMIS_WEBHOOK_TIMEOUT_MS: '60000', LAMIS_WEBHOOK_RETRY_DELAYS_SEC: '1,1,1',
    };
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await Promise.all(instances.map((instance) => instance.cleanup()));
    instances = [];
    await database?.close();
    await receiver?.close();
    await schema?.drop();
  });

  test('an event opened once is delivered once, by one of the two', async () => {
    const first = await serve(); // migrates the schema
    await serve();
    const config = testConfig({ databaseUrl });
    key = await organisationKey(config, 'enterprise');
    config.cleanup();
    database = openDatabase({ ...testConfig(), databaseUrl });
    const outbox = new WebhookStore(database, new Envelope(masterKey));
    onEventTransition(database, (trx, change) => outbox.enqueue(trx, change));
    events = new EventStore(database, createMemoryBus(() => {}));

    const created = await fetch(`http://127.0.0.1:${first.port}/v3/webhooks`, {
      method: 'POST', headers: { ...key.headers, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url() }),
    });
    assert.equal(created.status, 201);
    ({ id: webhookId, secret } = await created.json() as { id: string; secret: string });

    await events.open(key.orgId, zoneEntered(235_200_001));
    const [delivery] = await receiver.waitFor(1);
    assert.ok(signedBy(secret, delivery!), 'signed with the secret the other instance sealed');
    // Time for a second instance's duplicate to arrive, were there one.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(receiver.received.length, 1);
    const [row] = await deliveriesOf();
    assert.deepEqual([row!.id, row!.status, row!.attempts], [delivery!.headers['webhook-id'], 'delivered', 1]);
  });

  test('a METAR pushed to one instance is evaluated by both and raises one event, delivered once', async () => {
    const [first, second] = await Promise.all(instances.map((instance) => instance.listening));
    const call = async (port: number, method: string, path: string, body: unknown, headers = key.headers) => {
      const text = typeof body === 'string';
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method, headers: { ...headers, 'content-type': text ? 'text/plain' : 'application/json' }, body: text ? body : JSON.stringify(body),
      });
      assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`);
      return response.json() as Promise<any>;
    };
    const vehicle = await call(first, 'POST', '/v3/fleet/vehicles', { vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320' });
    await call(first, 'PUT', `/v3/fleet/vehicles/${vehicle.id}/notification-settings`, { thresholds: { crosswind_kt_above: 15 } });
    // Within the hour the METAR pushed below describes.
    const eta = new Date(Date.now() + 1_800_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const arrival = await call(second, 'POST', `/v3/fleet/vehicles/${vehicle.id}/arrivals`, { destination_icao: 'EGLL', eta_utc: eta });
    const before = receiver.received.length;

    await call(second, 'POST', '/v3/aviation/airports/EGLL/metar', egllMetar('36025KT', 1), AUTH);
    const [delivery] = (await receiver.waitFor(before + 1)).slice(before);
    assert.equal(JSON.parse(delivery!.body).type, 'landing.crosswind_above');
    // Time for a second event or delivery to come, were there one.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const raised = await database.db.selectFrom('events').select(['id', 'kind']).where('org_id', '=', key.orgId).where('subject_id', '=', arrival.id).execute();
    assert.deepEqual(raised.map((event) => event.kind), ['landing.crosswind_above'], 'one event, though both instances evaluated the METAR');
    assert.equal(receiver.received.length, before + 1);
  });

  test('the instance making an attempt is killed while the receiver holds it: the other makes it, with the same webhook-id', async () => {
    // Both attempts are held, so the sender of each can be told while its connection is open.
    const before = receiver.received.length;
    receiver.queue('hold', 'hold');
    await events.open(key.orgId, zoneEntered(235_200_002));
    const [held] = (await receiver.waitFor(before + 1)).slice(before);
    for (const instance of instances) assert.equal(instance.child.exitCode, null, instance.output());
    const pids = instances.map((instance) => instance.child.pid!);
    const senderPid = processWithPort(pids, held!.remotePort);
    assert.ok(senderPid, 'one of the instances holds the request');
    const [sender] = instances.filter((instance) => instance.child.pid === senderPid);
    sender!.child.kill('SIGKILL');
    await sender!.exited;

    const [again] = (await receiver.waitFor(before + 2, (RECLAIM_SEC + 20) * 1000)).slice(before + 1);
    assert.ok(held!.closed(), 'the first request went with the killed instance');
    const survivor = pids.filter((pid) => pid !== senderPid);
    assert.equal(processWithPort(survivor, again!.remotePort), survivor[0], 'made by the other instance');
    again!.answer(200);
    assert.equal(again!.headers['webhook-id'], held!.headers['webhook-id'], 'the same delivery');
    assert.equal(again!.body, held!.body);
    assert.ok(signedBy(secret, again!));
    const recorded = await until(async () => (await deliveriesOf()).find((r) => r.id === held!.headers['webhook-id'] && r.status === 'delivered'));
    assert.deepEqual([recorded.attempts, recorded.last_status_code], [1, 200]);
    // Time for a duplicate to arrive, were there one.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal(receiver.received.length, before + 2, 'made once more, not twice');
  });
});

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    assert.ok(Date.now() < deadline, `not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
