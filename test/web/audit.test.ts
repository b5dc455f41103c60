// Settings → Audit log in a real browser against a real server: an owner sees the events of a key
// created and revoked and of a plan change, in words and with names, paged by "Show more"; a
// viewer finds no tab and, visiting the address, is told the log is for owners and admins.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mailsTo } from '../accounts/support.ts';
import { json } from '../support/http.ts';
import { linksIn } from '../support/smtp.ts';
import { signUpUser, skipBrowser, startDashboard, type Dashboard, type TestUser } from './support.ts';

describe('dashboard audit log', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;
  let owner: TestUser;

  before(async () => {
    dashboard = await startDashboard();
  });
  after(() => dashboard?.close());

  const settingsTabs = () => dashboard.page.getByRole('navigation', { name: 'Settings' });

  test('an owner sees keys created and revoked and the plan changed, and pages by cursor', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    owner = await dashboard.signIn({ vehicle: 'aircraft', fullName: 'Ingrid Holm' });

    // A key made and revoked in Settings → API keys, then the plan changed in Plan and usage.
    await page.goto(dashboard.url('/settings/keys'));
    await page.getByLabel(/^Name/).fill('dispatch system');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-secret').waitFor();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const keyRow = page.getByRole('row', { name: /dispatch system/ });
    await keyRow.getByRole('button', { name: 'Revoke' }).click();
    await keyRow.getByRole('button', { name: 'Revoke' }).click();
    await keyRow.getByText('revoked').waitFor();
    const plan = await owner.api.call('PUT', `/v3/organisations/${owner.orgId}/plan`, { plan: 'pro' });
    assert.equal(plan.status, 200, await plan.text());

    await page.goto(dashboard.url('/settings/keys'));
    await settingsTabs().getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    assert.match(page.url(), /\/settings\/audit$/);
    const log = page.getByRole('table', { name: /Audit log of/ });
    await log.waitFor();

    // Newest first, each in words, the actor by name (from the members list).
    const rows = log.locator('tbody tr');
    const texts = await rows.allInnerTexts();
    assert.match(texts[0], /Plan changed[\s\S]*the organisation[\s\S]*From Starter to Pro\./);
    assert.match(texts[1], /Ingrid Holm[\s\S]*API key revoked[\s\S]*key "dispatch system"\s+key_/);
    assert.match(texts[2], /Ingrid Holm[\s\S]*API key created[\s\S]*key "dispatch system"\s+key_[\s\S]*A development key\.[\s\S]*Does not expire\./);
    assert.ok(texts.some((text) => /Member added[\s\S]*Ingrid Holm[\s\S]*As owner\./.test(text)), texts.join('\n---\n'));
    // Every row is what the API holds, in the same order.
    const audit = await json(await owner.api.call('GET', `/v3/organisations/${owner.orgId}/audit-log`));
    assert.equal(texts.length, audit.data.length);
    assert.deepEqual(audit.data.slice(0, 3).map((entry: { action: string }) => entry.action), ['plan.changed', 'key.revoked', 'key.created']);
    await dashboard.screenshot('settings-audit', { phone: true });

    // More than a page (25): keys made through the API, then "Show more" with the keyboard.
    for (let i = 0; i < 24; i++) {
      const made = await owner.api.call('POST', '/v3/accounts/keys', { org_id: owner.orgId, environment: 'development', name: `batch ${i}` });
      assert.equal(made.status, 201, await made.text());
    }
    const total = (await json(await owner.api.call('GET', `/v3/organisations/${owner.orgId}/audit-log`))).data.length;
    await page.reload();
    await log.waitFor();
    assert.equal(await rows.count(), 25);
    const more = page.getByRole('button', { name: 'Show more' });
    await more.focus();
    await page.keyboard.press('Enter');
    await rows.nth(total - 1).waitFor();
    assert.equal(await rows.count(), total);
    assert.equal(await more.count(), 0, 'no more pages');
    assert.match(await rows.last().innerText(), /Organisation created/);
    dashboard.assertClean();
  });

  test('a viewer has no audit log tab and is told the log is for owners and admins', { timeout: 120_000 }, async () => {
    const { page, context } = dashboard;
    const viewer = await signUpUser(dashboard.server, dashboard.smtp, { vehicle: 'aircraft', fullName: 'Per Viklund' });
    const invited = await owner.api.call('POST', `/v3/organisations/${owner.orgId}/invitations`, { email: viewer.email, role: 'viewer' });
    assert.equal(invited.status, 201, await invited.text());
    const mails = await mailsTo(dashboard.smtp, viewer.email, 2);
    const link = mails.flatMap((mail) => linksIn(mail.text ?? '')).find((l) => l.includes('/invitations/preview?token='));
    assert.ok(link, 'no invitation link was mailed');
    const accepted = await viewer.api.call('POST', '/v3/accounts/invitations/accept', { token: new URL(link).searchParams.get('token') });
    assert.ok(accepted.ok, await accepted.text());

    const cookie = /lamis_session=([^;]*)/.exec(viewer.api.cookie ?? '')?.[1];
    assert.ok(cookie);
    await context.clearCookies();
    await context.addCookies([{ name: 'lamis_session', value: cookie, url: dashboard.url('/'), httpOnly: true, sameSite: 'Lax' }]);
    await page.goto(dashboard.url('/settings/team'));
    await page.getByLabel('Organisation').selectOption(owner.orgId);
    await page.getByText(/where you are a viewer/).waitFor();
    assert.equal(await settingsTabs().getByRole('link', { name: 'Audit log' }).count(), 0);

    // A direct visit says why, without asking the API for what it would refuse.
    const asked = dashboard.requests.length;
    await page.goto(dashboard.url('/settings/audit'));
    await page.getByText('The audit log is for owners and admins').waitFor();
    await page.getByText('As a viewer you cannot see it.').waitFor();
    assert.equal(dashboard.requests.slice(asked).some((url) => url.includes(`/organisations/${owner.orgId}/audit-log`)), false);
    await dashboard.screenshot('settings-audit-viewer', { phone: true });

    // The server is the judge all the same.
    const refused = await viewer.api.call('GET', `/v3/organisations/${owner.orgId}/audit-log`);
    assert.equal(refused.status, 403);
    assert.equal((await json(refused)).code, 'role_not_allowed');
    dashboard.assertClean();
  });
});
