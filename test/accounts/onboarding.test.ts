// Sign-up and onboarding steps 1–3 against a real server, its mail read from a real (loopback)
// SMTP server: the order of the steps, what each refuses, verification by the mailed link, and
// that signing up with a registered address tells nobody but the address's owner.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { json } from '../support/http.ts';
import { linksIn } from '../support/smtp.ts';
import { ACCOUNT_BACKENDS, Browser, mailsTo, problem, startAccountsServer, type AccountsServer } from './support.ts';

for (const backend of ACCOUNT_BACKENDS) {
  describe(`onboarding on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;
    const browser = () => new Browser(accounts.server.url);

    before(async () => {
      accounts = await backend.start();
    });
    after(() => accounts?.close());

    test('sign-up, vehicle, then the e-mail link: each step in order', { timeout: 30_000 }, async () => {
      const anna = browser();
      const response = await anna.call('POST', '/v3/accounts/sign-up', { full_name: ' Anna Maria  Eriksson ', email: ' Anna.Eriksson@Example.COM', password: 'a long enough password' });
      assert.equal(response.status, 201);
      assert.match(response.headers.get('set-cookie') ?? '', /^lamis_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);
      const signedUp = await json(response);
      anna.csrf = signedUp.csrf_token;
      assert.deepEqual({ ...signedUp.account.user, id: 'x', created_at: 'x' }, {
        id: 'x', full_name: 'Anna Maria Eriksson', email: 'Anna.Eriksson@example.com', email_verified: false,
        vehicle_category: null, country: null, default_feeds: [], created_at: 'x',
      });
      assert.deepEqual(signedUp.account.organisations.map((o: any) => [o.name, o.plan, o.role]), [['Anna Maria Eriksson', 'starter', 'owner']]);
      assert.equal(signedUp.account.onboarding.next_step, 'vehicle');
      assert.equal(signedUp.session.current, true);

      // Step 3 and step 4 before step 2: refused, naming the missing step.
      const early = await problem(await anna.call('POST', '/v3/accounts/onboarding/email-verification'), 409, 'onboarding_step_missing');
      assert.equal(early.missing_step, 'vehicle');
      const earlyUpload = await problem(await anna.call('POST', '/v3/accounts/identity', Buffer.from('%PDF-1.7'), { 'content-type': 'application/pdf' }), 409, 'onboarding_step_missing');
      assert.equal(earlyUpload.missing_step, 'vehicle');

      const bad = await problem(await anna.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'aircraft', country: 'ZZ' }), 400, 'validation_failed');
      assert.deepEqual(bad.errors.map((e: any) => e.path), ['/body/country']);
      await problem(await anna.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'submarine', country: 'SE' }), 400, 'validation_failed');
      const vehicle = await anna.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'helicopter', country: 'se' });
      assert.equal(vehicle.status, 200);
      const afterVehicle = await json(vehicle);
      assert.deepEqual([afterVehicle.user.vehicle_category, afterVehicle.user.country, afterVehicle.user.default_feeds, afterVehicle.onboarding.next_step],
        ['helicopter', 'SE', ['landing', 'airports', 'weather', 'notams'], 'email']);

      const upload = await problem(await anna.call('POST', '/v3/accounts/identity', Buffer.from('%PDF-1.7'), { 'content-type': 'application/pdf' }), 409, 'onboarding_step_missing');
      assert.equal(upload.missing_step, 'email');

      const sent = await anna.call('POST', '/v3/accounts/onboarding/email-verification');
      assert.equal(sent.status, 202);
      assert.equal((await json(sent)).sent_to, 'Anna.Eriksson@example.com');
      // At most one mail a minute.
      const again = await problem(await anna.call('POST', '/v3/accounts/onboarding/email-verification'), 429, 'too_many_attempts');
      assert.ok(Number(again.retry_after) > 0);

      const [mail, ...more] = await mailsTo(accounts.smtp, 'Anna.Eriksson@example.com');
      assert.equal(more.length, 0);
      assert.equal(mail!.headers.get('subject'), 'Verify your e-mail address for LAMIS');
      const [link] = linksIn(mail!.text ?? '');
      assert.ok(link?.startsWith(`${accounts.server.url}/v3/accounts/verify-email?token=`), link);
      const verified = await fetch(link!);
      assert.equal(verified.status, 200);
      assert.equal(verified.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await json(verified), { email_verified: true, next_step: 'identity' });
      assert.equal((await problem(await fetch(link!), 400, 'verification_link_invalid')).reason, 'used');

      const me = await json(await anna.call('GET', '/v3/accounts/me'));
      assert.equal(me.user.email_verified, true);
      assert.deepEqual(me.onboarding.steps.map((s: any) => s.done), [true, true, true, false]);
      assert.equal(me.onboarding.next_step, 'identity');
      assert.equal(me.identity_status, 'none');
      await problem(await anna.call('POST', '/v3/accounts/onboarding/email-verification'), 409, 'email_already_verified');
    });

    test('sign-up names each field it refuses', async () => {
      const client = browser();
      const cases: [Record<string, string>, string[]][] = [
        [{ full_name: '', email: 'not-an-address', password: 'short' }, ['/body/full_name', '/body/email', '/body/password']],
        [{ full_name: 'Ola Nordmann', email: 'ola@example.no', password: 'OLA@example.no' }, ['/body/password']],
        [{ full_name: 'Ola Nordmann', email: 'ola@example.no', password: '••••••••••••' }, ['/body/password']],
        [{ full_name: 'Ola Nordmann', email: 'ola@example.no', password: 'x'.repeat(257) }, ['/body/password']],
      ];
      for (const [body, paths] of cases) {
        const refused = await problem(await client.call('POST', '/v3/accounts/sign-up', body), 400, 'validation_failed');
        assert.deepEqual(refused.errors.map((e: any) => e.path), paths, JSON.stringify(body));
      }
      assert.equal(client.cookie, undefined);
    });

    test('a registered address gets the same answer, and only its owner hears of it', { timeout: 30_000 }, async () => {
      const owner = browser();
      await owner.signUp('harbour.master@example.org', 'the owner\'s password');
      const stranger = browser();
      const response = await stranger.call('POST', '/v3/accounts/sign-up', { full_name: 'Mallory', email: 'Harbour.Master@EXAMPLE.org', password: 'the stranger\'s password' });
      assert.equal(response.status, 201);
      assert.match(response.headers.get('set-cookie') ?? '', /^lamis_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);
      const body = await json(response);
      stranger.csrf = body.csrf_token;
      assert.deepEqual(Object.keys(body).sort(), ['account', 'csrf_token', 'session']);
      assert.deepEqual(body.account.onboarding.next_step, 'vehicle');
      assert.equal(body.account.user.email, 'Harbour.Master@example.org');

      // The stranger goes through the steps like anyone; the link never reaches them.
      assert.equal((await stranger.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'vessel', country: 'NO' })).status, 200);
      const sent = await stranger.call('POST', '/v3/accounts/onboarding/email-verification');
      assert.equal(sent.status, 202);
      assert.equal((await json(sent)).sent_to, 'Harbour.Master@example.org');
      // The owner asks for their own link last: once it is in, everything sent before it is too.
      assert.equal((await owner.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'vessel', country: 'NO' })).status, 200);
      assert.equal((await owner.call('POST', '/v3/accounts/onboarding/email-verification')).status, 202);
      const mails = await mailsTo(accounts.smtp, 'harbour.master@example.org', 2);
      assert.deepEqual(mails.map((m) => m.headers.get('subject')).sort(), [
        'Someone tried to sign up to LAMIS with your address',
        'Verify your e-mail address for LAMIS',
      ]);
      assert.equal(smtpTo(accounts, 'Harbour.Master@example.org'), 0);

      // Only the owner's password signs in to the address.
      await problem(await browser().signIn('harbour.master@example.org', 'the stranger\'s password'), 401, 'sign_in_failed');
      assert.equal((await browser().signIn('harbour.master@example.org', 'the owner\'s password')).status, 201);
    });

    test('a verification link that is not one is refused', async () => {
      const refused = await problem(await fetch(`${accounts.server.url}/v3/accounts/verify-email?token=${'A'.repeat(43)}`), 400, 'verification_link_invalid');
      assert.equal(refused.reason, 'unknown');
    });

    test('ten sign-ups an hour from one address', { timeout: 30_000 }, async () => {
      const client = browser();
      for (let i = 0; i < 10; i++) {
        assert.equal((await client.call('POST', '/v3/accounts/sign-up', { full_name: 'Bot', email: `bot${i}@example.com`, password: 'a long enough password' })).status, 201);
      }
      const refused = await client.call('POST', '/v3/accounts/sign-up', { full_name: 'Bot', email: 'bot10@example.com', password: 'a long enough password' });
      await problem(refused, 429, 'too_many_attempts');
      assert.ok(Number(refused.headers.get('retry-after')) > 3000);
    });

    test('the onboarding routes need a session, not an API key', async () => {
      const anonymous = browser();
      assert.equal((await problem(await anonymous.call('GET', '/v3/accounts/me'), 401, 'session_required')).reason, 'missing');
      const withKey = await fetch(`${accounts.server.url}/v3/accounts/me`, { headers: { authorization: `Bearer ${accounts.server.config.apiKeys[0]}` } });
      await problem(withKey, 401, 'session_required');
    });
  });
}

test('no password, session cookie or verification token reaches the logs', { timeout: 30_000 }, async () => {
  const lines: string[] = [];
  const accounts = await startAccountsServer({}, async () => {}, pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) }));
  try {
    const client = new Browser(accounts.server.url);
    await client.onboard(accounts.smtp, 'quiet@example.com');
    const [mail] = await mailsTo(accounts.smtp, 'quiet@example.com');
    const token = new URL(linksIn(mail!.text ?? '')[0]!).searchParams.get('token')!;
    const logs = lines.join('');
    assert.match(logs, /verify-email\?token=\[redacted\]/);
    for (const secret of [token, 'a long enough password', client.cookie!.split('=')[1]!, client.csrf!, 'quiet@example.com']) {
      assert.ok(!logs.includes(secret), `${secret} is in the logs`);
    }
  } finally {
    await accounts.close();
  }
});

/** Mails whose envelope names the address exactly as the stranger typed it (none may). */
function smtpTo(accounts: AccountsServer, address: string): number {
  return accounts.smtp.received.filter((mail) => mail.envelopeTo.includes(address)).length;
}
