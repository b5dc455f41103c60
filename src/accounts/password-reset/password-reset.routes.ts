// REST for forgotten passwords. Both routes are public and take JSON only (no form on another site
// can post to them). Asking for a reset answers the same whether the address has an account or
// not, and takes as long: looking the account up, making the link and mailing it all happen after
// the answer (BackgroundMail.sendPrepared). The link goes to the dashboard's page
// `/reset-password?token=`, which sends the token and the new password to `complete`.
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { invalidField } from '../../platform/http/schema.ts';
import { throttled } from '../accounts.routes.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, normaliseEmail, passwordProblem } from '../users/credentials.ts';
import { passwordResetMail, type BackgroundMail } from '../mails.ts';
import { PASSWORD_RESET_TTL_MS, type PasswordResets, type ResetLinkProblem } from './password-reset.ts';
import { noStore } from '../sessions/session-access.ts';
import type { SignInThrottle } from '../sessions/sign-in-throttle.ts';
import type { Limit, Throttle } from '../sessions/throttle.ts';
import type { Users } from '../users/users.ts';

const TAG = 'Accounts';
const MINUTE = 60_000;

/** Reset mails per e-mail address, whether it has an account or not. */
const RESET_ADDRESS_LIMITS: readonly Limit[] = [{ count: 1, windowMs: MINUTE }, { count: 5, windowMs: 60 * MINUTE }];
/** Reset requests per client address. */
const RESET_CLIENT_LIMITS: readonly Limit[] = [{ count: 20, windowMs: 60 * MINUTE }];

/** The dashboard's page for a reset link, under the public address. */
const RESET_PAGE_PATH = '/reset-password';

const passwordResetLinkInvalid = problemType({
  code: 'password_reset_link_invalid',
  status: 400,
  title: 'The password-reset link does not work',
  description:
    'The link is `unknown` (mistyped, or another link of the account was used), `expired` (links work for 1 hour), `used` (links work once) ' +
    'or `superseded` (the password changed after it was sent); `reason` says which. Ask for a new link.',
});

const LINK_PROBLEMS: Readonly<Record<ResetLinkProblem, string>> = {
  unknown: 'This link is not known; ask for a new one.',
  expired: 'This link has expired (they work for 1 hour); ask for a new one.',
  used: 'This link has been used already; ask for a new one if you need to.',
  superseded: 'The password has changed since this link was sent; ask for a new one if you need to.',
};

function linkInvalid(reason: ResetLinkProblem): ProblemError {
  return new ProblemError(passwordResetLinkInvalid, LINK_PROBLEMS[reason], { extra: { reason } });
}

export interface PasswordResetApiDeps {
  users: Users;
  resets: PasswordResets;
  throttle: Throttle;
  signIns: SignInThrottle;
  mail: BackgroundMail;
  /** Where users reach the service, without a trailing slash. */
  publicUrl: () => string;
}

export function registerPasswordResetRoutes(app: App, deps: PasswordResetApiDeps): void {
  const { users, resets, throttle, signIns, mail } = deps;
  const linkMinutes = PASSWORD_RESET_TTL_MS / MINUTE;

  app.post('/v3/accounts/password-reset', {
    config: { public: true },
    onRequest: noStore,
    schema: {
      summary: 'Forgotten password: mail me a reset link',
      description:
        'Answers 202 whether or not the address has an account, and in the same time: when it has one, a link to ' +
        `\`${RESET_PAGE_PATH}?token=\` on the dashboard is mailed to it, working once for ${linkMinutes} minutes. ` +
        'One request a minute and five an hour per e-mail address, 20 an hour per client address (429 `too_many_attempts`); ' +
        'links already sent keep working meanwhile. 400 `validation_failed` for something that is not an e-mail address.',
      tags: [TAG],
      body: Type.Object({ email: Type.String({ maxLength: 320, description: 'The address of the account' }) }),
      response: {
        202: Type.Object({
          email: Type.String({ description: 'The address as understood; the link goes there if it has an account' }),
          link_expires_in_seconds: Type.Integer({ description: 'How long a mailed link works' }),
        }),
      },
    },
  }, async (request, reply) => {
    const address = normaliseEmail(request.body.email);
    if (!address.ok) throw invalidField('/body/email', address.message);
    const addressSubject = `password-reset-address:${address.key}`;
    const clientSubject = `password-reset-client:${request.ip}`;
    const wait = Math.max(
      await throttle.retryAfterSeconds(addressSubject, RESET_ADDRESS_LIMITS),
      await throttle.retryAfterSeconds(clientSubject, RESET_CLIENT_LIMITS),
    );
    if (wait > 0) throw throttled(wait, 'password-reset requests');
    await throttle.record(addressSubject);
    await throttle.record(clientSubject);
    mail.sendPrepared(async () => {
      // The owner of the address: a duplicate sign-up (users/users.ts) never gets a link.
      const user = await users.findByEmail(address.key);
      if (!user) return null;
      const { token } = await resets.issue(user.id);
      return passwordResetMail(user.email, user.full_name, `${deps.publicUrl()}${RESET_PAGE_PATH}?token=${token}`);
    });
    return reply.code(202).send({ email: address.address, link_expires_in_seconds: PASSWORD_RESET_TTL_MS / 1000 });
  });

  app.post('/v3/accounts/password-reset/complete', {
    config: { public: true },
    onRequest: noStore,
    schema: {
      summary: 'Forgotten password: set a new one with the mailed link',
      description:
        'Takes the `token` of the link and the new password (8 to 256 characters, not the e-mail address, not one character repeated, not a common password). ' +
        'Sets it, ends every session of the account (sign in again afterwards) and clears its failed sign-ins; audited as `password.reset`. ' +
        '400 `password_reset_link_invalid` for an unknown, expired, used or superseded link (`reason`); 400 `validation_failed` for a password the rules refuse, ' +
        'which leaves the link working.',
      tags: [TAG],
      body: Type.Object({
        token: Type.String({ maxLength: 128, description: 'The `token` parameter of the mailed link' }),
        new_password: Type.String({ maxLength: 4 * MAX_PASSWORD_LENGTH, description: '8 to 256 characters, used whole' }),
      }),
      response: {
        200: Type.Object({
          email: Type.String({ description: 'The account\'s address, to sign in with' }),
          ended_sessions: Type.Integer({ description: 'How many sessions were ended' }),
        }),
      },
    },
  }, async (request) => {
    const { token, new_password } = request.body;
    const link = await resets.check(token);
    if (link.status !== 'valid') throw linkInvalid(link.status);
    const weak = passwordProblem(new_password, link.user.email_key);
    if (weak) throw invalidField('/body/new_password', weak);
    const result = await resets.complete(token, await hashPassword(new_password));
    if (result.status !== 'reset') throw linkInvalid(result.status);
    await signIns.clear(result.user.email_key);
    return { email: result.user.email, ended_sessions: result.endedSessions };
  });
}
