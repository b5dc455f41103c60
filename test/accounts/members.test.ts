// Organisations, members and invitations against a real server, the invitation read from a real
// (loopback) SMTP server: Starter refuses teams, an invitee without an account signs up and
// verifies before accepting, roles see what the README's matrix says, and the last owner stays.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { json } from '../support/http.ts';
import { linksIn } from '../support/smtp.ts';
import { invitationToken, invite, newEmail, newMember, onboarded, setPlan, type Member } from './members-support.ts';
import { ACCOUNT_BACKENDS, Browser, mailsTo, problem, startAccountsServer, type AccountsServer } from './support.ts';

for (const backend of ACCOUNT_BACKENDS) {
  describe(`organisation members on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;

    before(async () => {
      accounts = await backend.start();
    });
    after(() => accounts?.close());

    const audit = async (owner: Member, orgId: string) =>
      (await json(await owner.browser.call('GET', `/v3/organisations/${orgId}/audit-log?limit=100`))).data as any[];

    test('Starter refuses invitations; on Pro an invitee signs up, verifies and accepts through the mailed link', { timeout: 60_000 }, async () => {
      const owner = await onboarded(accounts, 'owner', 'Olga Owner');
      const org = owner.ownOrgId;
      const starter = await json(await owner.browser.call('GET', `/v3/organisations/${org}`));
      assert.deepEqual([starter.plan, starter.role, starter.limits], ['starter', 'owner', { requests_per_minute: 100, streams: false, max_concurrent_streams: 0, team_members: false }]);
      const email = newEmail('Newcomer');
      const refused = await problem(await owner.browser.call('POST', `/v3/organisations/${org}/invitations`, { email, role: 'member' }), 403, 'plan_upgrade_required');
      assert.deepEqual([refused.plan, refused.plans], ['starter', ['pro', 'enterprise']]);
      assert.match(refused.detail, /Pro and Enterprise/);

      await setPlan(owner, org, 'pro');
      const sent = await owner.browser.call('POST', `/v3/organisations/${org}/invitations`, { email, role: 'member' });
      assert.equal(sent.status, 201);
      const invitation = await json(sent);
      assert.deepEqual([invitation.email, invitation.role, invitation.invited_by], [email, 'member', owner.userId]);
      assert.equal(Date.parse(invitation.expires_at) - Date.parse(invitation.created_at), 7 * 24 * 3_600_000);
      assert.deepEqual((await json(await owner.browser.call('GET', `/v3/organisations/${org}/invitations`))).data.map((i: any) => i.id), [invitation.id]);

      // The mail's link shows the invitation to anyone holding it, without a session.
      const [mail] = await mailsTo(accounts.smtp, email);
      assert.equal(mail!.headers.get('subject'), 'Olga Owner invited you to Olga Owner on LAMIS');
      const [link] = linksIn(mail!.text ?? '');
      assert.ok(link!.startsWith(`${accounts.server.url}/v3/accounts/invitations/preview?token=`), link);
      const preview = await fetch(link!);
      assert.equal(preview.status, 200);
      assert.equal(preview.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await json(preview), { organisation_name: 'Olga Owner', email, role: 'member', invited_by_name: 'Olga Owner', expires_at: invitation.expires_at });
      const token = new URL(link!).searchParams.get('token')!;

      // No account yet: sign up with the invited address, then the steps up to a verified address.
      const newcomer = new Browser(accounts.server.url);
      await newcomer.signUp(email, 'a long enough password', 'Nina Newcomer');
      const early = await problem(await newcomer.call('POST', '/v3/accounts/invitations/accept', { token }), 409, 'onboarding_step_missing');
      assert.equal(early.missing_step, 'vehicle');
      assert.equal((await newcomer.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'vessel', country: 'NO' })).status, 200);
      assert.equal((await problem(await newcomer.call('POST', '/v3/accounts/invitations/accept', { token }), 409, 'onboarding_step_missing')).missing_step, 'email');
      assert.equal((await newcomer.call('POST', '/v3/accounts/onboarding/email-verification')).status, 202);
      const [, verification] = await mailsTo(accounts.smtp, email, 2);
      assert.equal((await fetch(linksIn(verification!.text ?? '')[0]!)).status, 200);

      // Someone else's verified account cannot use the link.
      const stranger = await onboarded(accounts, 'stranger');
      await problem(await stranger.browser.call('POST', '/v3/accounts/invitations/accept', { token }), 403, 'invitation_for_another_address');

      const accepted = await newcomer.call('POST', '/v3/accounts/invitations/accept', { token });
      assert.equal(accepted.status, 200);
      assert.equal(accepted.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await json(accepted), { org_id: org, name: 'Olga Owner', plan: 'pro', role: 'member' });
      assert.equal((await problem(await newcomer.call('POST', '/v3/accounts/invitations/accept', { token }), 400, 'invitation_link_invalid')).reason, 'used');
      assert.equal((await problem(await fetch(link!), 400, 'invitation_link_invalid')).reason, 'used');

      const me = await json(await newcomer.call('GET', '/v3/accounts/me'));
      assert.deepEqual(me.organisations.map((o: any) => [o.name, o.role]), [['Nina Newcomer', 'owner'], ['Olga Owner', 'member']]);
      const list = await json(await newcomer.call('GET', `/v3/organisations/${org}/members`));
      assert.deepEqual(list.data.map((m: any) => [m.full_name, m.role]), [['Olga Owner', 'owner'], ['Nina Newcomer', 'member']]);
      assert.deepEqual((await json(await owner.browser.call('GET', `/v3/organisations/${org}/invitations`))).data, []);

      await problem(await owner.browser.call('POST', `/v3/organisations/${org}/invitations`, { email: email.toUpperCase(), role: 'admin' }), 409, 'already_member');
      const log = await audit(owner, org);
      assert.deepEqual(log.slice(0, 3).map((e) => [e.action, e.actor, e.detail]), [
        ['member.added', `user:${me.user.id}`, { role: 'member', invitation_id: invitation.id, invited_by: owner.userId }],
        ['member.invited', `user:${owner.userId}`, { email, role: 'member', replaces: null }],
        ['plan.changed', `user:${owner.userId}`, { from: 'starter', to: 'pro' }],
      ]);
    });

    test('each role sees and does what the role matrix says', { timeout: 120_000 }, async () => {
      const owner = await onboarded(accounts, 'owner');
      const org = owner.ownOrgId;
      await setPlan(owner, org, 'enterprise');
      const admin = await newMember(accounts, owner, org, 'admin');
      const member = await newMember(accounts, owner, org, 'member');
      const viewer = await newMember(accounts, admin, org, 'viewer');
      const path = (rest: string) => `/v3/organisations/${org}${rest}`;
      const reads = ['', '/members', '/keys', '/usage', '/invitations', '/audit-log'];
      const seen = async (who: Member) => {
        const statuses = [];
        for (const rest of reads) statuses.push((await who.browser.call('GET', path(rest))).status);
        return statuses;
      };
      assert.deepEqual(await seen(owner), [200, 200, 200, 200, 200, 200]);
      assert.deepEqual(await seen(admin), [200, 200, 200, 200, 200, 200]);
      assert.deepEqual(await seen(member), [200, 200, 200, 200, 403, 403]);
      assert.deepEqual(await seen(viewer), [200, 200, 403, 403, 403, 403]);
      const refused = await problem(await viewer.browser.call('GET', path('/keys')), 403, 'role_not_allowed');
      assert.deepEqual([refused.role, refused.allowed_roles], ['viewer', ['owner', 'admin', 'member']]);

      // Only owners change the plan.
      const plan = await problem(await admin.browser.call('PUT', path('/plan'), { plan: 'starter' }), 403, 'role_not_allowed');
      assert.deepEqual(plan.allowed_roles, ['owner']);
      // Admins invite, but not owners; members and viewers do not invite.
      await problem(await admin.browser.call('POST', path('/invitations'), { email: newEmail('boss'), role: 'owner' }), 403, 'role_not_allowed');
      await problem(await member.browser.call('POST', path('/invitations'), { email: newEmail('friend'), role: 'viewer' }), 403, 'role_not_allowed');
      // Members and viewers change no roles and remove nobody else.
      await problem(await member.browser.call('PATCH', path(`/members/${viewer.userId}`), { role: 'admin' }), 403, 'role_not_allowed');
      await problem(await viewer.browser.call('DELETE', path(`/members/${member.userId}`)), 403, 'role_not_allowed');
      // Admins manage non-owners only.
      await problem(await admin.browser.call('PATCH', path(`/members/${owner.userId}`), { role: 'member' }), 403, 'role_not_allowed');
      await problem(await admin.browser.call('PATCH', path(`/members/${member.userId}`), { role: 'owner' }), 403, 'role_not_allowed');
      const promoted = await admin.browser.call('PATCH', path(`/members/${viewer.userId}`), { role: 'member' });
      assert.equal(promoted.status, 200);
      assert.equal((await json(promoted)).role, 'member');
      await problem(await admin.browser.call('DELETE', path(`/members/${owner.userId}`)), 403, 'role_not_allowed');
      await problem(await owner.browser.call('PATCH', path('/members/usr_nosuchuser0000'), { role: 'member' }), 404, 'member_not_found');
      await problem(await owner.browser.call('PATCH', path(`/members/${member.userId}`), { role: 'captain' }), 400, 'validation_failed');
    });

    test('an organisation never loses its last owner; members may leave', { timeout: 60_000 }, async () => {
      const owner = await onboarded(accounts, 'owner');
      const org = owner.ownOrgId;
      await setPlan(owner, org, 'pro');
      const deputy = await newMember(accounts, owner, org, 'admin');
      const path = (rest: string) => `/v3/organisations/${org}${rest}`;
      await problem(await owner.browser.call('PATCH', path(`/members/${owner.userId}`), { role: 'admin' }), 409, 'last_owner');
      await problem(await owner.browser.call('DELETE', path(`/members/${owner.userId}`)), 409, 'last_owner');
      assert.equal((await owner.browser.call('PATCH', path(`/members/${deputy.userId}`), { role: 'owner' })).status, 200);
      // Two owners now: the first may leave, and then the second is the last.
      assert.equal((await owner.browser.call('DELETE', path(`/members/${owner.userId}`))).status, 204);
      await problem(await owner.browser.call('GET', path('')), 404, 'organisation_not_found');
      await problem(await deputy.browser.call('DELETE', path(`/members/${deputy.userId}`)), 409, 'last_owner');
      const log = await audit(deputy, org);
      assert.deepEqual(log.slice(0, 2).map((e) => [e.action, e.target, e.detail]), [
        ['member.removed', owner.userId, { role: 'owner', left: true }],
        ['member.role_changed', deputy.userId, { from: 'admin', to: 'owner' }],
      ]);
    });

    test('a revoked or replaced invitation link stops working', { timeout: 60_000 }, async () => {
      const owner = await onboarded(accounts, 'owner');
      const org = owner.ownOrgId;
      await setPlan(owner, org, 'pro');
      const guest = await onboarded(accounts, 'guest');
      const first = await json(await owner.browser.call('POST', `/v3/organisations/${org}/invitations`, { email: guest.email, role: 'viewer' }));
      const firstToken = await invitationToken(accounts.smtp, guest.email, 1);
      const second = await json(await owner.browser.call('POST', `/v3/organisations/${org}/invitations`, { email: guest.email, role: 'member' }));
      const secondToken = await invitationToken(accounts.smtp, guest.email, 2);
      assert.equal((await problem(await guest.browser.call('POST', '/v3/accounts/invitations/accept', { token: firstToken }), 400, 'invitation_link_invalid')).reason, 'revoked');
      await problem(await owner.browser.call('DELETE', `/v3/organisations/${org}/invitations/${first.id}`), 404, 'invitation_not_found');
      const revoked = await owner.browser.call('DELETE', `/v3/organisations/${org}/invitations/${second.id}`);
      assert.equal(revoked.status, 204);
      assert.equal((await problem(await fetch(`${accounts.server.url}/v3/accounts/invitations/preview?token=${secondToken}`), 400, 'invitation_link_invalid')).reason, 'revoked');
      assert.equal((await problem(await guest.browser.call('POST', '/v3/accounts/invitations/accept', { token: 'made-up' }), 400, 'invitation_link_invalid')).reason, 'unknown');
      const log = await audit(owner, org);
      assert.deepEqual(log.slice(0, 3).map((e) => [e.action, e.target]), [
        ['member.invitation_revoked', second.id],
        ['member.invited', second.id],
        ['member.invited', first.id],
      ]);
      assert.equal(log[1].detail.replaces, first.id);
      // Joining through a fresh invitation still works.
      await invite(accounts, owner, org, guest, 'viewer');
    });

    test('organisation routes need the session, and its CSRF token for changes', async () => {
      const owner = await onboarded(accounts, 'owner');
      const org = owner.ownOrgId;
      const anonymous = await fetch(`${accounts.server.url}/v3/organisations/${org}/members`);
      assert.equal((await problem(anonymous, 401, 'session_required')).reason, 'missing');
      const csrf = owner.browser.csrf;
      owner.browser.csrf = undefined;
      await problem(await owner.browser.call('PUT', `/v3/organisations/${org}/plan`, { plan: 'pro' }), 403, 'csrf_token_invalid');
      owner.browser.csrf = csrf;
      assert.equal((await json(await owner.browser.call('GET', `/v3/organisations/${org}`))).plan, 'starter');
    });
  });
}

test('no invitation token or invited address reaches the logs', { timeout: 60_000 }, async () => {
  const lines: string[] = [];
  const accounts = await startAccountsServer({}, async () => {}, pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) }));
  try {
    const owner = await onboarded(accounts, 'owner');
    await setPlan(owner, owner.ownOrgId, 'pro');
    const guest = await onboarded(accounts, 'guest');
    await invite(accounts, owner, owner.ownOrgId, guest, 'member');
    const token = await invitationToken(accounts.smtp, guest.email);
    assert.equal((await fetch(`${accounts.server.url}/v3/accounts/invitations/preview?token=${token}`)).status, 400);
    const logs = lines.join('');
    assert.match(logs, /invitations\/preview\?token=\[redacted\]/);
    for (const secret of [token, guest.email]) assert.ok(!logs.includes(secret), `${secret} is in the logs`);
  } finally {
    await accounts.close();
  }
});
