// The client's webhook methods against a real LAMIS server and a real loopback receiver: add one,
// send it a test delivery, read its deliveries, rotate its secret, change and remove it, and the
// typed error of a URL webhooks may not reach.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signedBy, startWebhookReceiver, type WebhookReceiver } from '../../test/support/webhook-receiver.ts';
import { LamisApiError, LamisClient, LamisNotFoundError } from '../src/index.ts';
import { startTestServer, TEST_API_KEY, type TestServer } from './support.ts';

let server: TestServer;
let receiver: WebhookReceiver;
let lamis: LamisClient;

before(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({ config: { webhookAllowPrivate: true } });
  lamis = new LamisClient({ apiKey: TEST_API_KEY, url: server.url });
});
after(async () => {
  await server.close();
  await receiver.close();
});

test('add, test, list deliveries, rotate, change and remove a webhook', async () => {
  const created = await lamis.webhooks.create({ url: receiver.url('/sdk'), kinds: ['vessel.zone_entered'] });
  assert.equal(created.status, 201);
  const { id, secret } = created.data;
  const sent = await lamis.webhooks.test(id);
  assert.equal(sent.data.status, 'delivered');
  assert.ok(signedBy(secret, receiver.received.at(-1)!));
  assert.deepEqual((await lamis.webhooks.deliveries(id, { limit: 10 })).data.data.map((d) => d.id), [sent.data.id]);
  const rotated = await lamis.webhooks.rotateSecret(id);
  assert.notEqual(rotated.data.secret, secret);
  assert.equal((await lamis.webhooks.update(id, { enabled: false })).data.enabled, false);
  assert.ok((await lamis.webhooks.list()).data.data.some((w) => w.id === id));
  assert.equal((await lamis.webhooks.delete(id)).status, 204);
  await assert.rejects(lamis.webhooks.get(id), LamisNotFoundError);
});

test('a URL webhooks may not reach is a typed 422 naming /body/url', async () => {
  const error = await lamis.webhooks.create({ url: 'ftp://files.example.com/' }).then(() => assert.fail('accepted'), (e: unknown) => e);
  assert.ok(error instanceof LamisApiError);
  assert.equal(error.status, 422);
  assert.equal(error.problem?.code, 'webhook_url_not_allowed');
});
