// The account pages in a real browser against a real server: onboarding end to end (the link from
// the mail, an identity document rejected and then verified, status followed live), a key made in
// Settings and used with the API, rotated and revoked, the plan and its usage chart, the team page
// with an invitation accepted through its mailed link, sessions, and a forgotten password.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ANNA, pdfWithMrzText, td3Lines } from '../../src/accounts/onboarding/identity/sample-documents.ts';
import { mailsTo } from '../accounts/support.ts';
import { json } from '../support/http.ts';
import { linksIn } from '../support/smtp.ts';
import { PASSWORD, skipBrowser, startDashboard, type Dashboard, type TestUser } from './support.ts';

const PDF = 'application/pdf';

describe('dashboard accounts', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;

  before(async () => {
    dashboard = await startDashboard();
  });
  after(() => dashboard?.close());

  const signOut = () => dashboard.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();

  /** The last link in the newest mail to `to`, once `count` mails have come. */
  async function mailedLink(to: string, count = 1): Promise<string> {
    const mails = await mailsTo(dashboard.smtp, to, count);
    assert.equal(mails.length, count, `expected ${count} mails to ${to}`);
    const links = linksIn(mails.at(-1)!.text ?? '');
    assert.ok(links.length, 'the mail has no link');
    return links.at(-1)!;
  }

  test('onboarding: details, vehicle, the mailed link, an identity document rejected then verified', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    const email = 'anna.eriksson@example.com';
    await page.goto(dashboard.url('/'));
    // Signed out, every page leads to the sign-in page, and from there to sign-up.
    await page.getByRole('heading', { name: 'Sign in to LAMIS' }).waitFor();
    assert.match(page.url(), /\/sign-in$/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your LAMIS account' }).waitFor();
    assert.equal(await page.locator('[aria-current="step"]').innerText(), '1. Your details');

    await page.getByLabel('Full name').fill('Anna Maria Eriksson');
    await page.getByLabel('E-mail address').fill(email);
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('aaaaaaaaaaaa');
    // The rule is ticked off as the password is typed.
    const rules = page.getByRole('list', { name: 'Password rule' });
    assert.match(await rules.textContent() ?? '', /8 to 256 characters \(done\)[\s\S]*Not one character repeated \(not met\)/);
    await password.fill(PASSWORD);
    assert.doesNotMatch(await rules.textContent() ?? '', /not met/);
    await dashboard.screenshot('sign-up-details', { phone: true });
    await page.getByRole('button', { name: 'Create account and continue' }).click();

    await page.getByRole('heading', { name: 'What do you operate?' }).waitFor();
    assert.equal(await page.locator('[aria-current="step"]').innerText(), '2. What you operate');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Choose what you operate.').waitFor();
    await page.getByLabel(/^Aircraft/).check();
    await page.getByLabel('Country of operation').selectOption('SE');
    await dashboard.screenshot('sign-up-vehicle', { phone: true });
    await page.getByRole('button', { name: 'Continue' }).click();

    // Step 3 sends the link by itself and offers another only after a minute.
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page.getByText('Link sent').waitFor();
    assert.equal(await page.getByRole('button', { name: /Send again in \d+ s/ }).isDisabled(), true);
    await dashboard.screenshot('sign-up-email', { phone: true });
    const link = await mailedLink(email);
    assert.match(link, /\/v3\/accounts\/verify-email\?token=/);

    // The mailed link is an API address: a browser is sent to the dashboard's page for it.
    await page.goto(link);
    await page.getByText('Your e-mail address is verified').waitFor();
    assert.match(page.url(), /\/verify-email\?token=/);
    await dashboard.screenshot('verify-email');
    await page.getByRole('link', { name: 'Continue to the identity check' }).click();

    await page.getByRole('heading', { name: 'Identity check' }).waitFor();
    assert.equal(await page.locator('[aria-current="step"]').innerText(), '4. Identity check');
    // Someone else's passport: rejected, with the reason, and a new upload offered.
    const stranger = { ...ANNA, surnames: ['LINDQVIST'], givenNames: ['KARL'] };
    await page.getByLabel('Passport or ID card').setInputFiles({ name: 'passport.pdf', mimeType: PDF, buffer: Buffer.from(await pdfWithMrzText(td3Lines(stranger))) });
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await page.getByText('Rejected', { exact: true }).waitFor({ timeout: 60_000 });
    assert.match(await page.locator('main').innerText(), /Why it was rejected:/);
    await dashboard.screenshot('sign-up-identity-rejected', { phone: true });

    await page.getByLabel('Upload another document').setInputFiles({ name: 'passport.pdf', mimeType: PDF, buffer: Buffer.from(await pdfWithMrzText(td3Lines(ANNA))) });
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await page.getByText('Your account is ready').waitFor({ timeout: 60_000 });
    // The step list may draw a moment after the heading: wait for it rather than count at once.
    await page.getByText('All four steps done').waitFor();
    assert.equal(await page.getByText('All four steps done').count(), 1);
    await dashboard.screenshot('sign-up-done', { phone: true });
    dashboard.assertClean();
  });

  test('an API key made in Settings works with the API, and stops when rotated and revoked', { timeout: 90_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url('/settings'));
    await page.getByRole('heading', { name: 'Create an API key' }).waitFor();
    assert.match(page.url(), /\/settings\/keys$/);
    await page.getByLabel('Name').fill('dispatch');
    await page.getByLabel(/^Production/).check();
    await page.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByTestId('new-secret');
    const secret = (await shown.innerText()).trim();
    assert.match(secret, /^lamis_live_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);
    await dashboard.screenshot('settings-key-created', { phone: true });

    const call = (key: string) => fetch(dashboard.url('/v3/maritime/flags'), { headers: { authorization: `Bearer ${key}` } });
    assert.equal((await call(secret)).status, 200);

    // Shown once: gone when dismissed, and the list shows only its prefix and last four.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await shown.count(), 0);
    await page.reload();
    const row = page.getByRole('row', { name: /dispatch/ });
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(`lamis_live_…${secret.slice(-4)}`));
    assert.doesNotMatch(await page.locator('main').innerText(), new RegExp(secret));
    assert.match(await row.innerText(), /active/);
    await dashboard.screenshot('settings-keys', { phone: true });

    // Rotate with no overlap: the new secret works, the old one at once no longer.
    await row.getByRole('button', { name: 'Rotate' }).click();
    await row.getByLabel('Old key keeps working for (hours)').fill('0');
    await row.getByRole('button', { name: 'Rotate now' }).click();
    const rotated = (await shown.innerText()).trim();
    assert.notEqual(rotated, secret);
    assert.equal((await call(rotated)).status, 200);
    const old = await call(secret);
    assert.equal(old.status, 401);
    assert.equal((await json(old)).reason, 'revoked');
    await page.getByRole('button', { name: 'I have copied it' }).click();

    const current = page.getByRole('row', { name: new RegExp(`…${rotated.slice(-4)}`) });
    await current.getByRole('button', { name: 'Revoke' }).click();
    await current.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row', { name: new RegExp(`…${rotated.slice(-4)}.*revoked`) }).waitFor();
    assert.equal((await call(rotated)).status, 401);
    dashboard.assertClean();
  });

  test('plan and usage: the chart of requests per day, and an upgrade to Pro', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url('/settings/plan'));
    await page.getByRole('heading', { name: 'Usage, last 30 days' }).waitFor();
    const usage = page.locator('section', { has: page.getByRole('heading', { name: 'Usage, last 30 days' }) });
    // Servers write their counts every 10 s: the previous test's requests (its key "dispatch") show
    // up within that, maybe after the dashboard's own.
    const counted = (text: string) => /[1-9][\d,]* requests from/.test(text) && /dispatch/.test(text);
    const deadline = Date.now() + 25_000;
    while (!counted(await usage.innerText()) && Date.now() < deadline) {
      await page.waitForTimeout(2000);
      await page.reload();
      await usage.getByText(/requests from/).waitFor();
    }
    assert.match(await usage.innerText(), /[1-9][\d,]* requests from/);
    assert.ok(await usage.locator('svg.chart rect.bar').count() >= 1, 'the chart has no bar');
    assert.match(await usage.locator('svg.chart').innerHTML(), /plan ceiling: 144,000 a day/);
    assert.match(await usage.getByRole('row', { name: /dispatch/ }).first().innerText(), /production/);
    await dashboard.screenshot('settings-plan-usage', { phone: true });

    await page.getByRole('button', { name: 'Switch to Pro' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Switch to Pro' }).click();
    await page.getByRole('row', { name: /Pro.*current/ }).waitFor();
    await page.getByText(/production keys share 1,000 a minute/).waitFor();
    dashboard.assertClean();
  });

  test('team: an invitation mailed, opened and accepted by the invitee, and a role changed', { timeout: 90_000 }, async () => {
    const { page } = dashboard;
    const owner = 'anna.eriksson@example.com';
    const invitee = 'karl.lindqvist@example.com';
    await page.goto(dashboard.url('/settings/team'));
    await page.getByRole('heading', { name: 'Invite someone' }).waitFor();
    await page.getByLabel('E-mail address').fill(invitee);
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation mailed to ${invitee}`).waitFor();
    await page.getByRole('row', { name: new RegExp(invitee) }).waitFor();
    await dashboard.screenshot('settings-team', { phone: true });
    const link = await mailedLink(invitee);
    assert.match(link, /\/v3\/accounts\/invitations\/preview\?token=/);

    // The owner signs out; the invitee (an account with the address, verified) opens the link.
    await signOut();
    await page.getByRole('heading', { name: 'Sign in to LAMIS' }).waitFor();
    const karl: TestUser = await dashboard.signIn({ email: invitee, fullName: 'Karl Lindqvist' });
    await page.goto(link);
    await page.getByRole('heading', { name: 'Invitation' }).waitFor();
    assert.match(page.url(), /\/invitation\?token=/);
    assert.match(await page.locator('.facts').innerText(), /Anna Maria Eriksson[\s\S]*a member/);
    await dashboard.screenshot('invitation');
    await page.getByRole('button', { name: /^Join / }).click();
    await page.getByText(/^You joined /).waitFor();
    const me = await json(await karl.api.call('GET', '/v3/accounts/me'));
    assert.deepEqual(me.organisations.map((org: { role: string }) => org.role).sort(), ['member', 'owner']);

    // Back as the owner, through the sign-in form: the invitee is a member, made a viewer.
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await signOut();
    await page.getByLabel('E-mail address').fill(owner);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    await page.goto(dashboard.url('/settings/team'));
    const row = page.getByRole('row', { name: new RegExp(invitee) });
    await row.getByLabel(/Role of Karl Lindqvist/).selectOption('viewer');
    await page.waitForResponse((response) => response.request().method() === 'PATCH' && response.status() === 200);
    // The invitee's session in the browser ended when they signed out; they sign in again to look.
    assert.equal((await karl.api.signIn(invitee, PASSWORD)).status, 201);
    const joinedOrg = me.organisations.find((org: { role: string }) => org.role !== 'owner').org_id;
    const members = await json(await karl.api.call('GET', `/v3/organisations/${joinedOrg}/members`));
    assert.equal(members.data.find((member: { email: string }) => member.email === invitee).role, 'viewer');
    dashboard.assertClean();
  });

  test('data pages use the one key the dashboard has for the user, made once, in every tab', { timeout: 60_000 }, async () => {
    const { page, context } = dashboard;
    // The API as the signed-in owner: the page's own cookie jar.
    const asOwner = async (pathname: string) => (await page.request.get(dashboard.url(pathname))).json();
    const me = await asOwner('/v3/accounts/me');
    const orgId = me.organisations.find((org: { role: string }) => org.role === 'owner').org_id;
    const dashboardKeys = async () => (await asOwner(`/v3/organisations/${orgId}/keys`)).data.filter((key: { name: string }) => key.name === 'dashboard');

    await page.goto(dashboard.url('/ports?q=Rotterdam'));
    await page.getByRole('link', { name: 'Rotterdam' }).first().waitFor();
    const [made, ...others] = await dashboardKeys();
    assert.equal(others.length, 0);
    // Identity verified: a production key, with the plan's budget.
    assert.deepEqual([made.environment, made.status, made.created_by], ['production', 'active', me.user.id]);

    // Another tab keeps no key of the first (sessionStorage), asks for its own, and gets the same one: no key is made.
    const storedSecret = (on: typeof page) => on.evaluate(() => (JSON.parse(sessionStorage.getItem('lamis.dashboard-key') ?? '{}') as { secret?: string }).secret);
    const tab = await context.newPage();
    try {
      await tab.goto(dashboard.url('/ports?q=Rotterdam'));
      await tab.getByRole('link', { name: 'Rotterdam' }).first().waitFor();
      assert.equal(await storedSecret(tab), await storedSecret(page));
    } finally {
      await tab.close();
    }
    const keys = await dashboardKeys();
    assert.deepEqual(keys.map((key: { id: string; status: string }) => [key.id, key.status]), [[made.id, 'active']]);
    await page.reload();
    await page.getByRole('link', { name: 'Rotterdam' }).first().waitFor();
    dashboard.assertClean();
  });

  test('sessions, notification thresholds, and a forgotten password reset through the mailed link', { timeout: 90_000 }, async () => {
    const { page } = dashboard;
    const email = 'anna.eriksson@example.com';
    await page.goto(dashboard.url('/settings/notifications'));
    const crosswind = page.locator('fieldset', { hasText: 'Crosswind' });
    await crosswind.getByRole('checkbox').check();
    await crosswind.getByRole('spinbutton').fill('250');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    // The API's refusal, shown by the field it names.
    await crosswind.getByText(/Crosswind: must be <= 100/).waitFor();
    await crosswind.getByRole('spinbutton').fill('18');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await page.getByText(/^Saved\./).waitFor();
    await dashboard.screenshot('settings-notifications', { phone: true });

    await page.goto(dashboard.url('/settings/sessions'));
    await page.getByRole('row', { name: /this one/ }).waitFor();
    await dashboard.screenshot('settings-sessions', { phone: true });
    await signOut();
    await page.getByRole('heading', { name: 'Sign in to LAMIS' }).waitFor();

    await page.getByRole('link', { name: 'Forgotten your password?' }).click();
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('Check your inbox').waitFor();
    await dashboard.screenshot('forgot-password');
    const link = await mailedLink(email, 2);
    assert.match(link, /\/reset-password\?token=/);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // A common password is refused by the server, and the rule says which part failed.
    await page.getByLabel('New password', { exact: true }).fill('password123');
    await page.getByLabel('The new password again').fill('password123');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/too common/).first().waitFor();
    await dashboard.screenshot('reset-password-refused', { phone: true });
    const fresh = 'harbour pilot at dawn';
    await page.getByLabel('New password', { exact: true }).fill(fresh);
    await page.getByLabel('The new password again').fill(fresh);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();

    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The e-mail address or the password is wrong.').waitFor();
    await page.getByLabel('Password').fill(fresh);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    dashboard.assertClean();
  });
});
