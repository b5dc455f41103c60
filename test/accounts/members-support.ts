// Test support for organisations over HTTP: onboarded users with their own organisation, plan
// changes, and members who joined by the invitation mailed to them (read from the loopback SMTP
// server, as a person would).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { json } from '../support/http.ts';
import { linksIn, type TestSmtpServer } from '../support/smtp.ts';
import { Browser, type AccountsServer } from './support.ts';

export interface Member {
  browser: Browser;
  email: string;
  userId: string;
  /** The organisation the user owns since sign-up. */
  ownOrgId: string;
}

export const newEmail = (label: string) => `${label}.${randomBytes(4).toString('hex')}@example.com`;

/** A user through onboarding steps 1 to 3 (address verified by the mailed link). */
export async function onboarded(accounts: AccountsServer, label: string, fullName = `${label[0]!.toUpperCase()}${label.slice(1)} Tester`): Promise<Member> {
  const browser = new Browser(accounts.server.url);
  const email = newEmail(label);
  const account = await browser.onboard(accounts.smtp, email, fullName);
  return { browser, email, userId: account.account.user.id, ownOrgId: account.account.organisations[0].org_id };
}

export async function setPlan(owner: Member, orgId: string, plan: 'starter' | 'pro' | 'enterprise'): Promise<void> {
  const response = await owner.browser.call('PUT', `/v3/organisations/${orgId}/plan`, { plan });
  assert.equal(response.status, 200, await response.clone().text());
}

const invitationsTo = (smtp: TestSmtpServer, email: string) =>
  smtp.received.filter((mail) => mail.envelopeTo.includes(email) && /invited you/.test(mail.headers.get('subject') ?? ''));

/** The token of the `nth` invitation mailed to `email` (1 the first), once it has arrived. */
export async function invitationToken(smtp: TestSmtpServer, email: string, nth = 1): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const link = linksIn(invitationsTo(smtp, email)[nth - 1]?.text ?? '').find((l) => l.includes('/v3/accounts/invitations/preview?token='));
    if (link) return new URL(link).searchParams.get('token')!;
    if (Date.now() > deadline) throw new Error(`no invitation mail number ${nth} to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Invites `member` (already onboarded) into `orgId` as `inviter` and accepts through the mailed link. */
export async function invite(accounts: AccountsServer, inviter: Member, orgId: string, member: Member, role: string): Promise<void> {
  const earlier = invitationsTo(accounts.smtp, member.email).length;
  const sent = await inviter.browser.call('POST', `/v3/organisations/${orgId}/invitations`, { email: member.email, role });
  assert.equal(sent.status, 201, await sent.clone().text());
  const token = await invitationToken(accounts.smtp, member.email, earlier + 1);
  const accepted = await member.browser.call('POST', '/v3/accounts/invitations/accept', { token });
  assert.equal(accepted.status, 200, await accepted.clone().text());
  assert.equal((await json(accepted)).role, role);
}

/** A new onboarded user who joined `orgId` with `role`. */
export async function newMember(accounts: AccountsServer, owner: Member, orgId: string, role: string): Promise<Member> {
  const member = await onboarded(accounts, role);
  await invite(accounts, owner, orgId, member, role);
  return member;
}
