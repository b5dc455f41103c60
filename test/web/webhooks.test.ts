// The webhook pages in a real browser against a real server, with a real receiver on a loopback
// port (the server lets webhooks reach private addresses, as an on-premises installation would):
// the form's errors under their labels, the signing secret shown once and copied, a test send
// that the receiver gets signed and the delivery log shows, a failing endpoint's answer, pausing,
// changing and deleting.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json } from '../support/http.ts';
import { signedBy, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { skipBrowser, startDashboard, type Dashboard } from './support.ts';

const WIDE = { width: 1440, height: 900 };
const UTC_TIME = /\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} UTC/;

describe('dashboard webhooks', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await startWebhookReceiver();
    dashboard = await startDashboard({ config: { webhookAllowPrivate: true, webhookRetryDelaysSec: [60] } });
    await dashboard.page.setViewportSize(WIDE);
  });
  after(async () => {
    await dashboard?.close();
    await receiver?.close();
  });

  /** The webhooks as the API lists them, with the key the dashboard made for itself. */
  async function listed(): Promise<any[]> {
    const secret = await dashboard.page.evaluate(() => JSON.parse(sessionStorage.getItem('lamis.dashboard-key') ?? '{}').secret as string);
    const response = await fetch(`${dashboard.server.url}/v3/webhooks`, { headers: { authorization: `Bearer ${secret}` } });
    assert.equal(response.status, 200);
    return (await json(response)).data;
  }

  test('add a webhook, see its secret once, send tests, read the log, pause, change and delete it', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    // Pro: its development key's budget (60 a minute) covers a page that calls the API at every step.
    await dashboard.signIn({ vehicle: 'vessel', plan: 'pro' });
    await page.goto(dashboard.url('/settings/webhooks'));
    await page.getByRole('heading', { name: 'Add a webhook' }).waitFor();
    await page.getByText('No webhooks yet').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current'), 'page');

    // The API's messages, under the field and named by its label.
    const url = page.getByRole('textbox', { name: /^Endpoint URL/ });
    const urlError = page.locator('.field:has(input[type="url"]) .field-error');
    await url.fill('hooks.example.com/lamis');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await urlError.waitFor();
    assert.match(await urlError.innerText(), /^Endpoint URL: must be an absolute URL/);
    assert.equal(await url.getAttribute('aria-invalid'), 'true');
    await page.getByText('Please correct what is marked below.').waitFor();
    await url.fill('ftp://hooks.example.com/lamis');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Endpoint URL: must be an http or https URL').waitFor();
    await dashboard.screenshot('webhooks-errors');

    // Added: the secret once, in a warning, with a copy button.
    await url.fill(receiver.url());
    await page.getByRole('textbox', { name: /^Description/ }).fill('Ops room');
    await page.getByLabel(/^Vessel entered a zone/).check();
    await page.getByLabel(/^Vessel left a zone/).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const shown = page.getByTestId('webhook-secret');
    await shown.waitFor();
    const secret = await shown.innerText();
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]{20,}$/);
    const warning = page.getByRole('alert').filter({ hasText: 'only time LAMIS shows this secret' });
    assert.ok(await warning.isVisible());
    await warning.getByRole('button', { name: 'Copy secret' }).click();
    await warning.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);
    const row = page.getByRole('row').filter({ hasText: receiver.url() });
    await row.waitFor();
    assert.match(await row.innerText(), /Ops room[\s\S]*2 kinds of event[\s\S]*Sending/);
    assert.match(await row.innerText(), UTC_TIME);
    await dashboard.screenshot('webhooks-secret', { phone: true });
    await warning.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    const [webhook] = await listed();
    assert.deepEqual([webhook.url, webhook.kinds, webhook.description], [receiver.url(), ['vessel.zone_entered', 'vessel.zone_exited'], 'Ops room']);

    // Its page: a test send reaches the receiver, signed with that secret, and shows in the log.
    await page.getByRole('link', { name: receiver.url() }).click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    await page.getByText('Nothing sent yet').waitFor();
    assert.equal(await page.getByTestId('webhook-secret').count(), 0, 'the secret is never shown again');
    assert.ok(!(await page.content()).includes(secret.slice(6)));
    await page.getByRole('button', { name: 'Send a test' }).click();
    await page.getByText('The test was delivered').waitFor();
    const [delivery] = await receiver.waitFor(1);
    assert.ok(signedBy(secret, delivery!), 'the test is signed with the secret shown');
    assert.equal(JSON.parse(delivery!.body).type, 'webhook.test');
    const log = page.locator('#deliveries-title').locator('xpath=ancestor::section');
    const first = log.getByRole('row').filter({ hasText: 'Test' }).first();
    await first.getByText('delivered').waitFor();
    assert.match(await first.innerText(), /HTTP 200/);
    assert.match(await first.locator('td[data-label="Attempts"]').innerText(), /^1$/);
    assert.match(await first.locator('td[data-label="Last attempt"]').innerText(), UTC_TIME);

    // An endpoint that answers 500: the failure, its code, in the log too.
    receiver.queue(500);
    await page.getByRole('button', { name: 'Send a test' }).click();
    await page.getByText('The test failed').waitFor();
    await log.getByRole('row').filter({ hasText: 'HTTP 500' }).getByText('failed').waitFor();
    assert.equal(await log.locator('tbody tr').count(), 2);
    await dashboard.screenshot('webhook-log', { phone: true });

    // Paused, resumed; the description cleared.
    await page.getByRole('button', { name: 'Pause deliveries' }).click();
    await page.getByRole('button', { name: 'Resume deliveries' }).waitFor();
    assert.equal((await listed())[0].enabled, false);
    await page.getByText('Paused', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Resume deliveries' }).click();
    await page.getByRole('button', { name: 'Pause deliveries' }).waitFor();
    await page.getByRole('textbox', { name: /^Description/ }).fill('');
    await page.getByLabel(/^Vessel left a zone/).uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    const changed = (await listed())[0];
    assert.deepEqual([changed.enabled, changed.description, changed.kinds], [true, null, ['vessel.zone_entered']]);

    // Deleted, after a second press.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete' }).last().click();
    await page.getByText('No webhooks yet').waitFor();
    assert.deepEqual(await listed(), []);
    dashboard.assertClean();
  });
});
