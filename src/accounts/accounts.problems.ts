// The problem codes of the account endpoints (sign-up, onboarding, sessions, identity check).
import { problemType } from '../platform/http/problems.ts';

export const sessionRequired = problemType({
  code: 'session_required',
  status: 401,
  title: 'Sign in first',
  description: 'The route needs the session cookie of a signed-in user (`POST /v3/accounts/sessions`); `reason` says why it was refused: `missing`, `unknown`, `expired` (idle too long, or too long after sign-in: 30 minutes and 12 hours unless configured otherwise) or `revoked` (signed out, revoked, or the password changed).',
});

export const csrfTokenInvalid = problemType({
  code: 'csrf_token_invalid',
  status: 403,
  title: 'The CSRF token is missing or wrong',
  description: 'Requests that change something with a session cookie must send the session\'s `csrf_token` (from signing in, or `GET /v3/accounts/session`) in the `X-CSRF-Token` header.',
});

export const signInFailed = problemType({
  code: 'sign_in_failed',
  status: 401,
  title: 'Wrong e-mail address or password',
  description: 'The e-mail address and password do not match an account. Failed attempts are counted per account and per address and throttled (`too_many_attempts`).',
});

export const tooManyAttempts = problemType({
  code: 'too_many_attempts',
  status: 429,
  title: 'Too many attempts',
  description: 'Sign-ins, sign-ups and verification mails are throttled (see the README, "Accounts and onboarding"): 5 failed sign-ins per account and 20 per address in 15 minutes, 10 sign-ups per address an hour, one verification mail a minute and five a day. Retry after `Retry-After` seconds.',
});

export const onboardingStepMissing = problemType({
  code: 'onboarding_step_missing',
  status: 409,
  title: 'An earlier onboarding step is not done',
  description: 'Onboarding goes in order: details, vehicle, email, identity. `missing_step` names the first step to do before this one.',
});

export const emailAlreadyVerified = problemType({
  code: 'email_already_verified',
  status: 409,
  title: 'The e-mail address is already verified',
  description: 'This account\'s e-mail address is verified; no new link is needed.',
});

export const verificationLinkInvalid = problemType({
  code: 'verification_link_invalid',
  status: 400,
  title: 'The verification link does not work',
  description: 'The link is unknown (mistyped, or the address was verified through another link), `expired` (links work for 24 hours) or `used` (links work once); `reason` says which. Sign in and ask for a new link.',
});

export const sessionNotFound = problemType({
  code: 'session_not_found',
  status: 404,
  title: 'No such session',
  description: 'None of your sessions has this id.',
});

export const identityCheckExists = problemType({
  code: 'identity_check_exists',
  status: 409,
  title: 'An identity check is already under way or done',
  description: 'A new document can be uploaded only when there is no check yet or the last one was rejected. `check_status` gives the current check\'s status.',
});

export const documentTooLarge = problemType({
  code: 'document_too_large',
  status: 413,
  title: 'The document is too large',
  description: 'Identity documents are limited to 10 MiB, and images to 25 megapixels.',
});

export const documentUnreadable = problemType({
  code: 'document_unreadable',
  status: 400,
  title: 'The document cannot be read',
  description: 'The upload is empty, or a PNG or JPEG whose header is damaged. `reason` gives the check\'s code (`empty`, `image_unreadable`).',
});

export const identityRequired = problemType({
  code: 'identity_required',
  status: 403,
  title: 'The identity check must pass first',
  description: 'Production API keys are for users whose identity check is verified; development keys need a verified e-mail address.',
});

export const notOrganisationAdmin = problemType({
  code: 'not_organisation_admin',
  status: 403,
  title: 'Not an owner or admin of the organisation',
  description: 'Only the owners and admins of an organisation may create its API keys.',
});
