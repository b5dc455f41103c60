// Forgotten passwords against a real server, the link followed from a mail received by a real
// (loopback) SMTP server: the request answers alike for every address, the link sets a new password
// under the same rules and signs the account out everywhere, and requests are throttled.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json } from '../support/http.ts';
import { linksIn } from '../support/smtp.ts';
import { ACCOUNT_BACKENDS, Browser, problem, startAccountsServer, type AccountsServer } from './support.ts';

const PASSWORD = 'a long enough password';
const NEW_PASSWORD = 'the sea was calm that night';

const SUBJECT = 'Choose a new password for LAMIS';

/** The token of the reset link in the only reset mail to `to`, checking where the link points. */
async function resetToken(accounts: AccountsServer, to: string, base = accounts.server.url): Promise<string> {
  const resetsTo = () => accounts.smtp.received.filter((m) => m.envelopeTo.includes(to) && m.headers.get('subject') === SUBJECT);
  const deadline = Date.now() + 10_000;
  while (resetsTo().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const resets = resetsTo();
  assert.equal(resets.length, 1, `expected one reset mail to ${to}`);
  const [link, ...others] = linksIn(resets[0]!.text ?? '');
  assert.equal(others.length, 0);
  const url = new URL(link!);
  assert.equal(`${url.origin}${url.pathname}`, `${base}/reset-password`);
  return url.searchParams.get('token')!;
}

for (const backend of ACCOUNT_BACKENDS) {
  describe(`password reset on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;
    let serial = 0;
    const browser = () => new Browser(accounts.server.url);
    const newEmail = () => `navigator${++serial}@example.com`;

    before(async () => {
      accounts = await backend.start();
    });
    after(() => accounts?.close());

    test('the mailed link sets a new password under the same rules, once, and signs out every session', { timeout: 30_000 }, async () => {
      const email = newEmail();
      const laptop = browser();
      await laptop.signUp(email);
      const phone = browser();
      assert.equal((await phone.signIn(email, PASSWORD)).status, 201);

      const asked = await browser().call('POST', '/v3/accounts/password-reset', { email: email.toUpperCase() });
      assert.equal(asked.status, 202);
      assert.deepEqual(await json(asked), { email: email.toUpperCase().replace('EXAMPLE.COM', 'example.com'), link_expires_in_seconds: 3600 });
      const token = await resetToken(accounts, email);

      const complete = (newPassword: string, withToken = token) =>
        browser().call('POST', '/v3/accounts/password-reset/complete', { token: withToken, new_password: newPassword });
      const common = await problem(await complete('Password1'), 400, 'validation_failed');
      assert.deepEqual(common.errors.map((e: any) => e.path), ['/body/new_password']);
      assert.match(common.detail, /too common/);
      await problem(await complete(email), 400, 'validation_failed');
      // Those refusals left the link working.
      const done = await complete(NEW_PASSWORD);
      assert.equal(done.status, 200);
      assert.equal(done.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await json(done), { email, ended_sessions: 2 });

      for (const client of [laptop, phone]) {
        assert.equal((await problem(await client.call('GET', '/v3/accounts/me'), 401, 'session_required')).reason, 'revoked');
      }
      await problem(await browser().signIn(email, PASSWORD), 401, 'sign_in_failed');
      assert.equal((await browser().signIn(email, NEW_PASSWORD)).status, 201);
      assert.equal((await problem(await complete('yet another new password'), 400, 'password_reset_link_invalid')).reason, 'used');
      assert.equal((await problem(await complete(NEW_PASSWORD, 'A'.repeat(43)), 400, 'password_reset_link_invalid')).reason, 'unknown');
    });

    test('an account locked by failed sign-ins can sign in after a reset', { timeout: 30_000 }, async () => {
      const email = newEmail();
      await browser().signUp(email);
      for (let i = 0; i < 5; i++) await browser().signIn(email, `guess ${i}`);
      await problem(await browser().signIn(email, PASSWORD), 429, 'too_many_attempts');
      assert.equal((await browser().call('POST', '/v3/accounts/password-reset', { email })).status, 202);
      const token = await resetToken(accounts, email);
      assert.equal((await browser().call('POST', '/v3/accounts/password-reset/complete', { token, new_password: NEW_PASSWORD })).status, 200);
      assert.equal((await browser().signIn(email, NEW_PASSWORD)).status, 201);
    });

    test('a password changed after the link was sent retires the link', { timeout: 30_000 }, async () => {
      const email = newEmail();
      const owner = browser();
      await owner.signUp(email);
      assert.equal((await browser().call('POST', '/v3/accounts/password-reset', { email })).status, 202);
      const token = await resetToken(accounts, email);
      assert.equal((await owner.call('PUT', '/v3/accounts/password', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status, 200);
      const stale = await browser().call('POST', '/v3/accounts/password-reset/complete', { token, new_password: 'what an attacker would pick' });
      assert.equal((await problem(stale, 400, 'password_reset_link_invalid')).reason, 'superseded');
      assert.equal((await browser().signIn(email, NEW_PASSWORD)).status, 201);
    });

    test('requests are throttled per e-mail address, with or without an account, and per client', async () => {
      const email = newEmail();
      await browser().signUp(email);
      for (const address of [email, 'nobody.here@example.com']) {
        assert.equal((await browser().call('POST', '/v3/accounts/password-reset', { email: address })).status, 202);
        const again = await problem(await browser().call('POST', '/v3/accounts/password-reset', { email: address }), 429, 'too_many_attempts');
        const wait = Number(again.retry_after);
        assert.ok(wait > 0 && wait <= 60, String(wait));
      }
      const client = browser();
      for (let i = 0; i < 20; i++) assert.equal((await client.call('POST', '/v3/accounts/password-reset', { email: `someone${i}@example.net` })).status, 202);
      await problem(await client.call('POST', '/v3/accounts/password-reset', { email: 'someone.else@example.net' }), 429, 'too_many_attempts');
      await problem(await browser().call('POST', '/v3/accounts/password-reset', { email: 'not an address' }), 400, 'validation_failed');
    });
  });
}

describe('password reset links and addresses without an account', () => {
  test('the link starts with LAMIS_PUBLIC_URL; an unknown address gets the same answer and no mail; a duplicate sign-up is never reset', { timeout: 30_000 }, async () => {
    const accounts = await startAccountsServer({ publicUrl: 'https://lamis.example.com' }, async () => {});
    const browser = () => new Browser(accounts.server.url);
    try {
      const owner = 'chief.officer@example.org';
      await browser().signUp(owner, PASSWORD, 'Chief Officer');
      // Someone else signs up with that address: a duplicate account, with a password of theirs.
      await browser().signUp('Chief.Officer@example.org', 'the stranger\'s password', 'Mallory');

      const unknown = await browser().call('POST', '/v3/accounts/password-reset', { email: 'no.account@example.org' });
      const known = await browser().call('POST', '/v3/accounts/password-reset', { email: owner });
      assert.deepEqual([unknown.status, known.status], [202, 202]);
      assert.deepEqual(Object.keys(await json(unknown)), Object.keys(await json(known)));

      const token = await resetToken(accounts, owner, 'https://lamis.example.com');
      const done = await browser().call('POST', '/v3/accounts/password-reset/complete', { token, new_password: NEW_PASSWORD });
      assert.deepEqual(await json(done), { email: owner, ended_sessions: 1 });
      const signedIn = await browser().signIn(owner, NEW_PASSWORD);
      assert.equal((await json(signedIn)).account.user.full_name, 'Chief Officer');
      await problem(await browser().signIn(owner, 'the stranger\'s password'), 401, 'sign_in_failed');
    } finally {
      // Closing waits for the mails under way, so nothing for the unknown address can still come.
      await accounts.close();
    }
    assert.deepEqual(accounts.smtp.received.filter((mail) => mail.envelopeTo.includes('no.account@example.org')), []);
  });
});
