// REST for accounts: sign-up and onboarding, e-mail verification, dashboard sessions, the identity
// check upload and API keys for signed-in users. Sign-up, sign-in and the verification link are
// public; the other routes act for the user of the session cookie (sessions/session-access.ts), so every one
// of them is public for the API-key check and guarded by `requireSession` instead.
//
// Sign-up and sign-in take JSON only: a form on another site cannot send JSON without the browser
// asking us first (CORS), so nobody can be signed into someone else's account by a hidden form.
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import { countryName } from '../../common/countries.ts';
import { VEHICLE_TYPES } from '../../common/vehicle-types.ts';
import type { App } from '../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../platform/http/pagination.ts';
import { ProblemError, Problems, type FieldError } from '../platform/http/problems.ts';
import { invalidField, nullable, Shared } from '../platform/http/schema.ts';
import { inspectUpload, MAX_DOCUMENT_BYTES } from './onboarding/identity/index.ts';
import {
  documentTooLarge,
  documentUnreadable,
  emailAlreadyVerified,
  identityCheckExists,
  identityRequired,
  notOrganisationAdmin,
  onboardingStepMissing,
  sessionNotFound,
  signInFailed,
  tooManyAttempts,
  verificationLinkInvalid,
} from './accounts.problems.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, normaliseEmail, passwordProblem, spendPasswordCheck, verifyPassword } from './users/credentials.ts';
import type { EmailVerifications } from './onboarding/email-verification.ts';
import { checkView, type IdentityChecks } from './onboarding/identity-checks.ts';
import type { KeyStore } from './keys/keys.ts';
import { accountExistsMail, verificationMail, type BackgroundMail } from './mails.ts';
import { clearSessionCookie, CSRF_NOTE, noStore, requireSession, SESSION_NOTE, setSessionCookie } from './sessions/session-access.ts';
import { csrfTokenFor, type SessionListKey, type SessionStore } from './sessions/sessions.ts';
import type { SignInThrottle } from './sessions/sign-in-throttle.ts';
import type { Limit, Throttle } from './sessions/throttle.ts';
import type { UserRow } from './users/users.table.ts';
import { checkedFullName, MAX_NAME_LENGTH, missingStepBefore, onboardingOf, ONBOARDING_STEPS, type OnboardingStep, type Users } from './users/users.ts';

const TAG = 'Accounts';
const MINUTE = 60_000;

export const SIGN_UP_ADDRESS_LIMITS: readonly Limit[] = [{ count: 10, windowMs: 60 * MINUTE }];
/** The "someone signed up with your address" mail: at most one a day per account. */
const ACCOUNT_EXISTS_MAIL_LIMITS: readonly Limit[] = [{ count: 1, windowMs: 24 * 60 * MINUTE }];


const Email = Type.String({ maxLength: 320, description: 'E-mail address; the domain is compared without case, and so is the rest' });
const Password = Type.String({ maxLength: 4 * MAX_PASSWORD_LENGTH, description: '8 to 256 characters, used whole' });

const UserSchema = Shared('User', Type.Object({
  id: Type.String({ description: '`usr_` and 16 letters or digits' }),
  full_name: Type.String(),
  email: Type.String({ description: 'As given, the domain in lower case' }),
  email_verified: Type.Boolean(),
  vehicle_category: nullable(Type.Enum([...VEHICLE_TYPES])),
  country: nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
  default_feeds: Type.Array(Type.String(), { description: 'The dashboard\'s first feeds, set by the vehicle category' }),
  created_at: Type.String({ format: 'date-time' }),
}));

const AccountSchema = Shared('Account', Type.Object({
  user: UserSchema,
  organisations: Type.Array(Type.Object({
    org_id: Type.String(),
    name: Type.String(),
    plan: Type.Enum(['starter', 'pro', 'enterprise']),
    role: Type.Enum(['owner', 'admin', 'member', 'viewer']),
  })),
  onboarding: Type.Object({
    steps: Type.Array(Type.Object({ step: Type.Enum([...ONBOARDING_STEPS]), done: Type.Boolean() })),
    next_step: nullable(Type.Enum([...ONBOARDING_STEPS], { description: 'null when onboarding is complete' })),
  }),
  identity_status: Type.Enum(['none', 'pending', 'manual_review', 'verified', 'rejected']),
}));

const SessionSchema = Shared('Session', Type.Object({
  id: Type.String({ description: '`ses_` and 16 letters or digits; not the cookie' }),
  created_at: Type.String({ format: 'date-time' }),
  last_seen_at: Type.String({ format: 'date-time', description: 'Recorded at most once a minute' }),
  idle_expires_at: Type.String({ format: 'date-time', description: 'When the session ends unless used before' }),
  expires_at: Type.String({ format: 'date-time', description: 'When the session ends whatever the activity' }),
  user_agent: nullable(Type.String()),
  address: nullable(Type.String()),
  current: Type.Boolean({ description: 'The session of this request' }),
}));

const SignedInSchema = Shared('SignedIn', Type.Object({
  account: AccountSchema,
  session: SessionSchema,
  csrf_token: Type.String({ description: 'Send it in `X-CSRF-Token` with every request that changes something' }),
}));

const ReasonSchema = Type.Object({ code: Type.String(), field: Type.Optional(Type.String()), message: Type.String() });
const IdentitySchema = Shared('Identity', Type.Object({
  status: Type.Enum(['none', 'pending', 'manual_review', 'verified', 'rejected']),
  check: nullable(Type.Object({
    id: Type.String(),
    status: Type.Enum(['pending', 'manual_review', 'verified', 'rejected']),
    submitted_at: Type.String({ format: 'date-time' }),
    checked_at: nullable(Type.String({ format: 'date-time' })),
    settled_at: nullable(Type.String({ format: 'date-time' })),
    settled_by: nullable(Type.Enum(['automatic', 'operator'])),
    document_type: Type.Enum(['png', 'jpeg', 'pdf']),
    document_sha256: Type.String(),
    reasons: Type.Array(ReasonSchema),
    document: nullable(Type.Object({
      format: Type.String(),
      document_code: nullable(Type.String()),
      issuing_state: Type.String(),
      nationality: Type.String(),
      number_last4: nullable(Type.String()),
      expiry: nullable(Type.String()),
    }, { description: 'What the MRZ says, without the name or birth date' })),
  })),
}));

const isSessionKey = (key: unknown): key is SessionListKey =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

export interface AccountsApiDeps {
  users: Users;
  sessions: SessionStore;
  verifications: EmailVerifications;
  throttle: Throttle;
  signIns: SignInThrottle;
  identity: IdentityChecks;
  keys: KeyStore;
  mail: BackgroundMail;
  /** Where users reach the service, without a trailing slash: links in mails start with it. */
  publicUrl: () => string;
}

export function throttled(retryAfterSeconds: number, what: string): ProblemError {
  return new ProblemError(tooManyAttempts, `Too many ${what}; retry in ${retryAfterSeconds} s.`, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
    extra: { retry_after: retryAfterSeconds },
  });
}

function validationFailed(errors: FieldError[]): ProblemError {
  return new ProblemError(Problems.validation, errors.map((e) => `${e.path} ${e.message}`).join('; '), { errors });
}

export function stepMissing(step: OnboardingStep, before: string): ProblemError {
  return new ProblemError(onboardingStepMissing, `Do the onboarding step "${step}" before ${before}.`, { extra: { missing_step: step } });
}

const signedIn = (request: FastifyRequest) => request.account!;

export function registerAccountRoutes(app: App, deps: AccountsApiDeps): void {
  const { users, sessions, verifications, throttle, signIns, identity, keys, mail } = deps;
  const guard = requireSession(sessions, users);
  /** Refuses, before the body is read, a user who has not done the steps before `step`. */
  const stepsBefore = (step: OnboardingStep, what: string): onRequestAsyncHookHandler => async (request) => {
    const missing = missingStepBefore(signedIn(request).user, step);
    if (missing) throw stepMissing(missing, what);
  };

  async function accountView(user: UserRow) {
    const [organisations, status] = await Promise.all([users.memberships(user.id), identity.status(user.id)]);
    return {
      user: {
        id: user.id,
        full_name: user.full_name,
        email: user.email,
        email_verified: user.email_verified_at !== null,
        vehicle_category: user.vehicle_category,
        country: user.country,
        default_feeds: user.default_feeds === null ? [] : (JSON.parse(user.default_feeds) as string[]),
        created_at: user.created_at,
      },
      organisations,
      onboarding: onboardingOf(user, status),
      identity_status: status ?? ('none' as const),
    };
  }

  async function startSession(request: FastifyRequest, user: UserRow) {
    const { session, secret } = await sessions.create(user.id, { userAgent: request.headers['user-agent'], address: request.ip });
    return { secret, body: { account: await accountView(user), session: { ...sessions.view(session), current: true }, csrf_token: csrfTokenFor(secret) } };
  }

  /** Tells the owner of an address that someone tried to sign up with it; never awaited (mails.ts). */
  async function noticeExisting(existing: UserRow): Promise<void> {
    if ((await throttle.take(`account-exists-mail:${existing.id}`, ACCOUNT_EXISTS_MAIL_LIMITS)) > 0) return;
    mail.send(accountExistsMail(existing.email, existing.full_name, `${deps.publicUrl()}/`));
  }

  app.post('/v3/accounts/sign-up', {
    config: { public: true },
    onRequest: noStore,
    schema: {
      summary: 'Sign up (onboarding step 1: details)',
      description:
        'Creates the user, an organisation on the Starter plan owned by them, and a session (cookie `lamis_session`). ' +
        'An address that already has an account gets the same answer, and its owner a mail; no such sign-up can ever verify the address or sign in. ' +
        'Passwords: 8 to 256 characters, not the e-mail address, not one character repeated, not a common password. 10 sign-ups an hour per client address.',
      tags: [TAG],
      body: Type.Object({ full_name: Type.String({ maxLength: 4 * MAX_NAME_LENGTH }), email: Email, password: Password }),
      response: { 201: SignedInSchema },
    },
  }, async (request, reply) => {
    const addressSubject = `sign-up-address:${request.ip}`;
    const wait = await throttle.retryAfterSeconds(addressSubject, SIGN_UP_ADDRESS_LIMITS);
    if (wait > 0) throw throttled(wait, 'sign-ups from this address');
    const { full_name, email, password } = request.body;
    const errors: FieldError[] = [];
    const name = checkedFullName(full_name);
    if (name === null) errors.push({ path: '/body/full_name', message: `must have 1 to ${MAX_NAME_LENGTH} characters, no control characters` });
    const address = normaliseEmail(email);
    if (!address.ok) errors.push({ path: '/body/email', message: address.message });
    const weak = passwordProblem(password, address.ok ? address.key : '');
    if (weak) errors.push({ path: '/body/password', message: weak });
    if (errors.length > 0 || name === null || !address.ok) throw validationFailed(errors);
    await throttle.record(addressSubject);

    const { user, existing } = await users.signUp({ fullName: name, email: address.address, emailKey: address.key, passwordHash: await hashPassword(password) });
    if (existing) noticeExisting(existing).catch((error: unknown) => request.log.warn({ err: error }, 'account-exists mail not queued'));
    const started = await startSession(request, user);
    setSessionCookie(request, reply, started.secret, sessions.absoluteMs);
    return reply.code(201).send(started.body);
  });

  app.get('/v3/accounts/me', {
    config: { session: true },
    onRequest: guard,
    schema: { summary: 'Your account and where you are in onboarding', description: `${SESSION_NOTE}.`, tags: [TAG], response: { 200: AccountSchema } },
  }, async (request) => accountView(signedIn(request).user));

  app.put('/v3/accounts/onboarding/vehicle', {
    config: { session: true },
    onRequest: guard,
    schema: {
      summary: 'Onboarding step 2: vehicle category and country',
      description:
        'Sets what you operate and your country (ISO 3166-1 alpha-2), and with them your default feeds: ' +
        '`landing`, `airports`, `weather`, `notams` for aircraft and helicopters; `vessels_map`, `ports` for vessels. May be sent again to change them. ' +
        CSRF_NOTE,
      tags: [TAG],
      body: Type.Object({
        vehicle_category: Type.Enum([...VEHICLE_TYPES]),
        country: Type.String({ maxLength: 2, minLength: 2, description: 'ISO 3166-1 alpha-2, e.g. GB' }),
      }),
      response: { 200: AccountSchema },
    },
  }, async (request) => {
    const country = request.body.country.toUpperCase();
    if (countryName(country) === null) throw invalidField('/body/country', `is not an ISO 3166-1 alpha-2 country code (got "${request.body.country}")`);
    const user = await users.setVehicle(signedIn(request).user.id, request.body.vehicle_category, country);
    return accountView(user!);
  });

  app.post('/v3/accounts/onboarding/email-verification', {
    config: { session: true },
    onRequest: [guard, stepsBefore('email', 'verifying your e-mail address')],
    schema: {
      summary: 'Onboarding step 3: mail me a verification link',
      description:
        'Mails a link to `GET /v3/accounts/verify-email`, valid once for 24 hours. One mail a minute and five a day (429 `too_many_attempts`). ' +
        'Mail goes out in the background: a mail that failed is in the outbox, and another can be asked for. ' + CSRF_NOTE,
      tags: [TAG],
      response: { 202: Type.Object({ sent_to: Type.String(), expires_at: Type.String({ format: 'date-time' }) }) },
    },
  }, async (request, reply) => {
    const { user } = signedIn(request);
    if (user.email_verified_at !== null) throw new ProblemError(emailAlreadyVerified, 'Your e-mail address is verified already.');
    const issued = await verifications.issue(user.id);
    if (issued.status === 'throttled') throw throttled(issued.retryAfterSeconds, 'verification mails');
    // A duplicate sign-up never gets a link: the address is someone else's (users/users.ts).
    if (user.duplicate_of === null) {
      const link = `${deps.publicUrl()}/v3/accounts/verify-email?token=${issued.token}`;
      mail.send(verificationMail(user.email, user.full_name, link));
    }
    return reply.code(202).send({ sent_to: user.email, expires_at: issued.expiresAt });
  });

  app.get('/v3/accounts/verify-email', {
    config: { public: true },
    onRequest: noStore,
    schema: {
      summary: 'Follow an e-mail verification link',
      description: 'Marks the address verified (onboarding step 3). 400 `verification_link_invalid` for an unknown, expired or used link.',
      tags: [TAG],
      querystring: Type.Object({ token: Type.String({ maxLength: 128 }) }),
      response: { 200: Type.Object({ email_verified: Type.Boolean(), next_step: Type.Enum(['identity']) }) },
    },
  }, async (request) => {
    const result = await verifications.redeem(request.query.token);
    if (result.status !== 'verified') {
      const detail = { unknown: 'This link is not known; ask for a new one.', expired: 'This link has expired (they work for 24 hours); ask for a new one.', used: 'This link has been used already.' };
      throw new ProblemError(verificationLinkInvalid, detail[result.status], { extra: { reason: result.status } });
    }
    return { email_verified: true, next_step: 'identity' as const };
  });

  app.post('/v3/accounts/sessions', {
    config: { public: true },
    onRequest: noStore,
    schema: {
      summary: 'Sign in',
      description:
        'Answers with the session (cookie `lamis_session`: HttpOnly, SameSite=Lax, Secure over HTTPS) and its CSRF token. ' +
        'Sessions end after 30 minutes without a request or 12 hours after sign-in (`LAMIS_SESSION_IDLE_MINUTES`, `LAMIS_SESSION_MAX_HOURS`). ' +
        'Failed sign-ins are throttled: 5 per account and 20 per client address in 15 minutes (429 `too_many_attempts`).',
      tags: [TAG],
      body: Type.Object({ email: Email, password: Password }),
      response: { 201: SignedInSchema },
    },
  }, async (request, reply) => {
    const address = normaliseEmail(request.body.email);
    if (!address.ok) throw invalidField('/body/email', address.message);
    const attempt = await signIns.attempt(address.key, request.ip);
    if (!attempt.ok) throw throttled(attempt.retryAfterSeconds, 'failed sign-ins');
    const user = await users.findByEmail(address.key);
    const matches = user ? await verifyPassword(request.body.password, user.password_hash) : (await spendPasswordCheck(request.body.password), false);
    if (!user || !matches) throw new ProblemError(signInFailed, 'The e-mail address or the password is wrong.');
    await attempt.succeeded();
    const started = await startSession(request, user);
    setSessionCookie(request, reply, started.secret, sessions.absoluteMs);
    return reply.code(201).send(started.body);
  });

  app.get('/v3/accounts/session', {
    config: { session: true },
    onRequest: guard,
    schema: {
      summary: 'The current session and its CSRF token',
      description: `For a dashboard page that was reloaded: the CSRF token is not kept anywhere a script can read. ${SESSION_NOTE}.`,
      tags: [TAG],
      response: { 200: Type.Object({ session: SessionSchema, csrf_token: Type.String() }) },
    },
  }, async (request) => {
    const { session, secret } = signedIn(request);
    return { session: { ...sessions.view(session), current: true }, csrf_token: csrfTokenFor(secret) };
  });

  app.delete('/v3/accounts/session', {
    config: { session: true },
    onRequest: guard,
    schema: { summary: 'Sign out', description: `Ends the current session and clears its cookie. ${CSRF_NOTE}`, tags: [TAG], response: { 204: Type.Null({ description: 'Signed out' }) } },
  }, async (request, reply) => {
    const { user, session } = signedIn(request);
    await sessions.revoke(user.id, session.id);
    return reply.code(204).headers(clearSessionCookie(request)).send(null);
  });

  app.get('/v3/accounts/sessions', {
    config: { session: true },
    onRequest: guard,
    schema: {
      summary: 'Your live sessions',
      description: `Newest first, cursor-paginated. ${SESSION_NOTE}.`,
      tags: [TAG],
      querystring: Type.Object({ ...PageQuery }),
      response: { 200: Page(SessionSchema) },
    },
  }, async (request) => {
    const { user, session: current } = signedIn(request);
    const before = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, isSessionKey);
    const page = await sessions.list(user.id, { limit: request.query.limit!, before });
    return { data: page.data.map((s) => ({ ...s, current: s.id === current.id })), next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  app.delete('/v3/accounts/sessions/:id', {
    config: { session: true },
    onRequest: guard,
    schema: {
      summary: 'End one of your sessions',
      description: `Signs that browser out (the current session too, if named). 404 \`session_not_found\` for an id none of your sessions has. ${CSRF_NOTE}`,
      tags: [TAG],
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      response: { 204: Type.Null({ description: 'Ended' }) },
    },
  }, async (request, reply) => {
    const { user, session } = signedIn(request);
    if (!(await sessions.revoke(user.id, request.params.id))) throw new ProblemError(sessionNotFound, `None of your sessions has the id ${request.params.id}.`);
    if (request.params.id === session.id) reply.headers(clearSessionCookie(request));
    return reply.code(204).send(null);
  });

  app.put('/v3/accounts/password', {
    config: { session: true },
    onRequest: guard,
    schema: {
      summary: 'Change your password',
      description: `Ends every other session of yours. A wrong current password counts as a failed sign-in. ${CSRF_NOTE}`,
      tags: [TAG],
      body: Type.Object({ current_password: Password, new_password: Password }),
      response: { 200: Type.Object({ ended_sessions: Type.Integer({ description: 'How many other sessions were ended' }) }) },
    },
  }, async (request) => {
    const { user, session } = signedIn(request);
    const attempt = await signIns.attempt(user.email_key);
    if (!attempt.ok) throw throttled(attempt.retryAfterSeconds, 'failed password checks');
    if (!(await verifyPassword(request.body.current_password, user.password_hash))) throw invalidField('/body/current_password', 'is not your current password');
    await attempt.succeeded();
    const weak = passwordProblem(request.body.new_password, user.email_key);
    if (weak) throw invalidField('/body/new_password', weak);
    await users.setPasswordHash(user.id, await hashPassword(request.body.new_password));
    return { ended_sessions: await sessions.revokeOthers(user.id, session.id) };
  });

  app.get('/v3/accounts/identity', {
    config: { session: true },
    onRequest: guard,
    schema: {
      summary: 'Your identity check (onboarding step 4)',
      description:
        '`none` before an upload; `pending` while it is checked; `manual_review` while a person looks at it (the document is kept, sealed, until then); ' +
        '`verified` or `rejected` once settled, when the document is deleted and only the outcome, reasons and SHA-256 remain. ' + `${SESSION_NOTE}.`,
      tags: [TAG],
      response: { 200: IdentitySchema },
    },
  }, async (request) => {
    const latest = await identity.latest(signedIn(request).user.id);
    return latest ? { status: latest.status, check: checkView(latest) } : { status: 'none' as const, check: null };
  });

  const DOCUMENT_TYPES = ['image/png', 'image/jpeg', 'application/pdf'];
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(DOCUMENT_TYPES, { parseAs: 'buffer', bodyLimit: MAX_DOCUMENT_BYTES }, (_request, body, done) => done(null, body));
    // The platform's message names the 1 MiB limit of JSON bodies; this route has its own.
    scope.setErrorHandler((error, _request, _reply) => {
      if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new ProblemError(documentTooLarge, 'Identity documents are limited to 10 MiB.');
      throw error;
    });
    scope.post('/v3/accounts/identity', {
      config: { session: true },
      onRequest: [guard, stepsBefore('identity', 'the identity check')],
      schema: {
        summary: 'Upload a government ID for the identity check (onboarding step 4)',
        description:
          'The body is the document: a passport data page or the MRZ side of an ID card as PNG or JPEG, or a PDF, up to 10 MiB; its type is judged from its bytes. ' +
          'It is checked in the background (`GET /v3/accounts/identity`). A new upload is taken only when there is no check or the last was rejected. ' +
          'Needs the e-mail address verified. ' + CSRF_NOTE,
        tags: [TAG],
        consumes: DOCUMENT_TYPES,
        response: { 202: IdentitySchema },
      },
    }, async (request, reply) => {
      const bytes = request.body as Buffer;
      const upload = inspectUpload(bytes);
      if (!upload.ok) {
        const detail = `The document was refused: ${upload.message}.`;
        if (upload.code === 'unsupported_type') throw new ProblemError(Problems.unsupportedMediaType, `${detail} Send a PNG, JPEG or PDF.`);
        if (upload.code === 'too_large' || upload.code === 'image_too_large') throw new ProblemError(documentTooLarge, detail);
        throw new ProblemError(documentUnreadable, detail, { extra: { reason: upload.code } });
      }
      const result = await identity.submit(signedIn(request).user.id, bytes, upload.type);
      if (result.status === 'exists') {
        throw new ProblemError(identityCheckExists, `Your identity check is ${result.check.status}; a new document is taken only after a rejection.`, { extra: { check_status: result.check.status } });
      }
      return reply.code(202).send({ status: result.check.status, check: result.check });
    });
  });

  app.post('/v3/accounts/keys', {
    config: { session: true },
    onRequest: guard,
    schema: {
      summary: 'Create an API key for one of your organisations',
      description:
        'For owners and admins of the organisation. Development keys need a verified e-mail address, production keys a verified identity (403 `identity_required`). ' +
        `The secret is in this answer only, so the route is not idempotent: a retry makes another key. ${CSRF_NOTE}`,
      tags: [TAG],
      body: Type.Object({
        org_id: Type.String({ maxLength: 64 }),
        environment: Type.Enum(['development', 'production']),
        name: Type.String({ minLength: 1, maxLength: 100 }),
        expires_at: Type.Optional(nullable(Type.String({ format: 'date-time' }))),
      }),
      response: {
        201: Type.Object({
          id: Type.String(),
          org_id: Type.String(),
          name: Type.String(),
          environment: Type.Enum(['development', 'production']),
          prefix: Type.String(),
          last4: Type.String(),
          created_at: Type.String({ format: 'date-time' }),
          expires_at: nullable(Type.String({ format: 'date-time' })),
          secret: Type.String({ description: 'Shown only this once' }),
        }),
      },
    },
  }, async (request, reply) => {
    const { user } = signedIn(request);
    const { org_id, environment, name, expires_at } = request.body;
    const membership = (await users.memberships(user.id)).find((m) => m.org_id === org_id);
    if (!membership || (membership.role !== 'owner' && membership.role !== 'admin')) {
      throw new ProblemError(notOrganisationAdmin, `You are not an owner or admin of ${org_id}.`);
    }
    if (user.email_verified_at === null) throw new ProblemError(identityRequired, 'Verify your e-mail address before creating API keys.');
    const identityVerified = (await identity.status(user.id)) === 'verified';
    let result;
    try {
      result = await keys.createKey({ orgId: org_id, environment, name, expiresAt: expires_at ?? null, actor: `user:${user.id}`, identityVerified });
    } catch (error) {
      if (error instanceof RangeError) throw validationFailed([{ path: '/body', message: error.message }]);
      throw error;
    }
    if (result.status === 'identity_required') throw new ProblemError(identityRequired, 'Production keys need your identity check verified; development keys work meanwhile.');
    if (result.status === 'org_not_found') throw new ProblemError(notOrganisationAdmin, `You are not an owner or admin of ${org_id}.`);
    const { key, secret } = result;
    return reply.code(201).send({
      id: key.id, org_id: key.org_id, name: key.name, environment: key.environment, prefix: key.prefix, last4: key.last4,
      created_at: key.created_at, expires_at: key.expires_at, secret,
    });
  });
}
