// Dashboard sessions against a real server: sign-in and its throttles, the cookie, CSRF, sign-out,
// listing and revoking sessions, and a password change ending the other sessions. Idle and
// absolute timeouts are in src/accounts/sessions/sessions.test.ts, on an injected clock.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json } from '../support/http.ts';
import { ACCOUNT_BACKENDS, Browser, problem, type AccountsServer } from './support.ts';

const PASSWORD = 'a long enough password';

for (const backend of ACCOUNT_BACKENDS) {
  describe(`sessions on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;
    let serial = 0;
    const browser = () => new Browser(accounts.server.url);
    const newEmail = () => `dispatcher${++serial}@example.com`;

    before(async () => {
      accounts = await backend.start();
    });
    after(() => accounts?.close());

    test('sign-in answers the same for an unknown address and a wrong password', async () => {
      const email = newEmail();
      await browser().signUp(email);
      const wrong = await problem(await browser().signIn(email, 'not the password'), 401, 'sign_in_failed');
      const unknown = await problem(await browser().signIn('nobody@example.com', 'not the password'), 401, 'sign_in_failed');
      assert.equal(wrong.detail, unknown.detail);
      const client = browser();
      const response = await client.signIn(email.toUpperCase(), PASSWORD);
      assert.equal(response.status, 201);
      assert.match(response.headers.get('set-cookie') ?? '', /^lamis_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);
      const body = await json(response);
      assert.equal(body.account.user.email, email);
      assert.equal(body.session.address, client.address);
    });

    test('over HTTPS (as a trusted proxy says) the cookie is Secure', async () => {
      const email = newEmail();
      await browser().signUp(email);
      const response = await browser().call('POST', '/v3/accounts/sessions', { email, password: PASSWORD }, { 'x-forwarded-proto': 'https' });
      assert.equal(response.status, 201);
      assert.match(response.headers.get('set-cookie') ?? '', /; HttpOnly; SameSite=Lax; Secure$/);
    });

    test('five failed sign-ins lock the account for 15 minutes, even with the right password', async () => {
      const email = newEmail();
      await browser().signUp(email);
      for (let i = 0; i < 5; i++) await problem(await browser().signIn(email, `guess ${i}`), 401, 'sign_in_failed');
      const locked = await browser().signIn(email, PASSWORD);
      await problem(locked, 429, 'too_many_attempts');
      const wait = Number(locked.headers.get('retry-after'));
      assert.ok(wait > 14 * 60 && wait <= 15 * 60, String(wait));
      // Unknown addresses are counted the same way, so the lock tells nothing either.
      for (let i = 0; i < 5; i++) await browser().signIn('ghost@example.com', `guess ${i}`);
      await problem(await browser().signIn('ghost@example.com', 'guess 5'), 429, 'too_many_attempts');
    });

    test('twenty failed sign-ins from one address lock that address out', async () => {
      const attacker = browser();
      for (let i = 0; i < 20; i++) await problem(await attacker.signIn(`target${i}@example.com`, 'guess'), 401, 'sign_in_failed');
      const email = newEmail();
      await browser().signUp(email);
      await problem(await attacker.signIn(email, PASSWORD), 429, 'too_many_attempts');
      assert.equal((await browser().signIn(email, PASSWORD)).status, 201);
    });

    test('answers with a session, its CSRF token or anything of a signed-in user are never stored by caches', async () => {
      const email = newEmail();
      const client = browser();
      const signUp = await client.call('POST', '/v3/accounts/sign-up', { full_name: 'Cache Tester', email, password: PASSWORD });
      assert.equal(signUp.status, 201);
      const answers = [
        ['sign-up', signUp],
        ['sign-in', await client.signIn(email, PASSWORD)],
        ['GET session', await client.call('GET', '/v3/accounts/session')],
        ['GET me', await client.call('GET', '/v3/accounts/me')],
        ['GET sessions', await client.call('GET', '/v3/accounts/sessions')],
      ] as const;
      for (const [what, response] of answers) {
        assert.ok(response.ok, what);
        assert.equal(response.headers.get('cache-control'), 'no-store', what);
      }
    });

    test('sign-in takes JSON only, so no form on another site can post to it', async () => {
      const form = await fetch(`${accounts.server.url}/v3/accounts/sessions`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40example.com&password=whatever1',
      });
      await problem(form, 415, 'unsupported_media_type');
    });

    test('changes need the CSRF token; reading does not', async () => {
      const client = browser();
      await client.signUp(newEmail());
      const token = client.csrf!;
      client.csrf = undefined;
      assert.equal((await client.call('GET', '/v3/accounts/me')).status, 200);
      await problem(await client.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'vessel', country: 'GB' }), 403, 'csrf_token_invalid');
      await problem(await client.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'vessel', country: 'GB' }, { 'x-csrf-token': 'x'.repeat(43) }), 403, 'csrf_token_invalid');
      // The token of another session does not do.
      const other = browser();
      await other.signUp(newEmail());
      await problem(await client.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'vessel', country: 'GB' }, { 'x-csrf-token': other.csrf! }), 403, 'csrf_token_invalid');
      // A reloaded page gets it back.
      const session = await json(await client.call('GET', '/v3/accounts/session'));
      assert.equal(session.csrf_token, token);
      client.csrf = session.csrf_token;
      assert.equal((await client.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'vessel', country: 'GB' })).status, 200);
    });

    test('sessions are listed, revoked one by one, and ended by signing out', async () => {
      const email = newEmail();
      const laptop = browser();
      await laptop.signUp(email);
      const phone = browser();
      assert.equal((await phone.signIn(email, PASSWORD)).status, 201);
      const tablet = browser();
      assert.equal((await tablet.signIn(email, PASSWORD)).status, 201);

      const listed = await json(await laptop.call('GET', '/v3/accounts/sessions?limit=2'));
      assert.equal(listed.data.length, 2);
      assert.deepEqual(listed.data.map((s: any) => s.address), [tablet.address, phone.address]);
      const rest = await json(await laptop.call('GET', `/v3/accounts/sessions?limit=2&cursor=${listed.next_cursor}`));
      assert.deepEqual(rest.data.map((s: any) => [s.address, s.current]), [[laptop.address, true]]);
      assert.equal(rest.next_cursor, null);

      const phoneSession = listed.data[1].id;
      assert.equal((await laptop.call('DELETE', `/v3/accounts/sessions/${phoneSession}`)).status, 204);
      assert.equal((await problem(await phone.call('GET', '/v3/accounts/me'), 401, 'session_required')).reason, 'revoked');
      await problem(await laptop.call('DELETE', `/v3/accounts/sessions/${phoneSession}`), 404, 'session_not_found');
      // Another user's session is not found either.
      const stranger = browser();
      await stranger.signUp(newEmail());
      await problem(await stranger.call('DELETE', `/v3/accounts/sessions/${listed.data[0].id}`), 404, 'session_not_found');

      const signOut = await tablet.call('DELETE', '/v3/accounts/session');
      assert.equal(signOut.status, 204);
      assert.match(signOut.headers.get('set-cookie') ?? '', /^lamis_session=; Path=\/; Max-Age=0;/);
      assert.equal(tablet.cookie, undefined);
      assert.equal((await laptop.call('GET', '/v3/accounts/me')).status, 200);
    });

    test('a cookie that is no session is refused and cleared', async () => {
      const response = await fetch(`${accounts.server.url}/v3/accounts/me`, { headers: { cookie: `other=1; lamis_session=${'A'.repeat(43)}` } });
      assert.equal((await problem(response, 401, 'session_required')).reason, 'unknown');
      assert.match(response.headers.get('set-cookie') ?? '', /^lamis_session=; Path=\/; Max-Age=0;/);
    });

    test('a password change ends the other sessions; the old password stops working', async () => {
      const email = newEmail();
      const laptop = browser();
      await laptop.signUp(email);
      const phone = browser();
      await phone.signIn(email, PASSWORD);

      const wrong = await problem(await laptop.call('PUT', '/v3/accounts/password', { current_password: 'not it at all', new_password: 'a brand new password' }), 400, 'validation_failed');
      assert.deepEqual(wrong.errors.map((e: any) => e.path), ['/body/current_password']);
      const weak = await problem(await laptop.call('PUT', '/v3/accounts/password', { current_password: PASSWORD, new_password: email }), 400, 'validation_failed');
      assert.deepEqual(weak.errors.map((e: any) => e.path), ['/body/new_password']);

      const changed = await laptop.call('PUT', '/v3/accounts/password', { current_password: PASSWORD, new_password: 'a brand new password' });
      assert.equal(changed.status, 200);
      assert.deepEqual(await json(changed), { ended_sessions: 1 });
      assert.equal((await problem(await phone.call('GET', '/v3/accounts/me'), 401, 'session_required')).reason, 'revoked');
      assert.equal((await laptop.call('GET', '/v3/accounts/me')).status, 200);
      await problem(await browser().signIn(email, PASSWORD), 401, 'sign_in_failed');
      assert.equal((await browser().signIn(email, 'a brand new password')).status, 201);
    });

    test('a session is no API key', async () => {
      const client = browser();
      await client.signUp(newEmail());
      await problem(await client.call('GET', '/v3/maritime/flags'), 401, 'unauthorized');
    });
  });
}
