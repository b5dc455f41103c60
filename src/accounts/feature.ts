// The accounts feature: sign-up and onboarding, e-mail verification, dashboard sessions, the
// identity check (documents sealed under the master key, checked by one OCR engine in the
// background), API keys for signed-in users, forgotten passwords, the hourly clean-up of
// sign-ups whose address was never verified, and organisations: members, invitations, keys,
// usage, audit log, and the guard other features admit members by role with.
import { Envelope } from '../platform/crypto/index.ts';
import type { Database } from '../platform/db/database.ts';
import type { Feature } from '../platform/feature.ts';
import { publicUrlOf } from '../platform/http/public-url.ts';
import { mailerFor } from '../platform/mail/index.ts';
import type { CounterStore } from '../platform/ratelimit/index.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { registerAccountRoutes } from './accounts.routes.ts';
import { UnverifiedAccountCleanup } from './users/cleanup.ts';
import { DashboardKeys } from './keys/dashboard-keys.ts';
import { EmailVerifications } from './onboarding/email-verification.ts';
import { IdentityChecks } from './onboarding/identity-checks.ts';
import { OcrEngine } from './onboarding/identity/index.ts';
import { apiKeyChanges } from './keys/changes.ts';
import type { KeyStore } from './keys/keys.ts';
import { Invitations } from './organisations/invitations.ts';
import { BackgroundMail } from './mails.ts';
import { Members, type MemberDirectory } from './organisations/members.ts';
import { registerOrganisationRoutes } from './organisations/organisations.routes.ts';
import { memberGuard, type MemberGuard } from './organisations/organisation-access.ts';
import { Organisations } from './organisations/organisations.ts';
import { registerPasswordResetRoutes } from './password-reset/password-reset.routes.ts';
import { PasswordResets } from './password-reset/password-reset.ts';
import { SessionStore } from './sessions/sessions.ts';
import { SignInThrottle } from './sessions/sign-in-throttle.ts';
import { Throttle } from './sessions/throttle.ts';
import type { AccountsSettings } from './settings.ts';
import { Users } from './users/users.ts';

/** Sessions last as configured: LAMIS_SESSION_IDLE_MINUTES without a request, LAMIS_SESSION_MAX_HOURS in all. */
function sessionStore(database: Database, config: AccountsSettings): SessionStore {
  return new SessionStore(database, { idleMs: config.sessionIdleMinutes * 60_000, absoluteMs: config.sessionMaxHours * 3_600_000 });
}

/** The guard of the routes other features hang under an organisation's path (the fleet's). */
export function openMemberGuard(database: Database, config: AccountsSettings): MemberGuard {
  return memberGuard(sessionStore(database, config), new Users(database), new Members(database));
}

/** Whom other features may mail about an organisation. */
export function openMemberDirectory(database: Database): MemberDirectory {
  return new Members(database);
}

/**
 * `keys`: the store that also verifies API keys for every request (see keys/access.ts), told here of
 * the keys other instances revoke or rotate; `counters`: the
 * rate limits' counter store, which also counts failed sign-ins.
 */
export const accounts = (keys: KeyStore, counters: CounterStore): Feature<PlatformSettings & AccountsSettings> => async ({ app, config, database, bus, logger, masterKey: key }) => {
  const users = new Users(database);
  const throttle = new Throttle(database);
  const signIns = new SignInThrottle(counters);
  const ocr = new OcrEngine();
  const identity = new IdentityChecks({ database, envelope: new Envelope(key.key), users, ocr, logger });
  const mail = new BackgroundMail(mailerFor(config, database, { logger }), logger);
  const publicUrl = publicUrlOf(app, config);
  const cleanup = new UnverifiedAccountCleanup(database, { maxAgeDays: config.unverifiedAccountDays, logger });
  const sessions = sessionStore(database, config);
  app.decorateRequest('account', null);
  registerAccountRoutes(app, {
    users,
    sessions,
    verifications: new EmailVerifications(database, throttle),
    throttle,
    signIns,
    identity,
    keys,
    mail,
    publicUrl,
  });
  registerPasswordResetRoutes(app, { users, resets: new PasswordResets(database, users), throttle, signIns, mail, publicUrl });
  const members = new Members(database);
  registerOrganisationRoutes(app, {
    database,
    users,
    sessions,
    members,
    invitations: new Invitations(database, throttle),
    organisations: new Organisations(database),
    keys,
    dashboardKeys: new DashboardKeys(keys, key.key, config.sessionMaxHours),
    identity,
    mail,
    publicUrl,
  });
  // A key revoked or rotated on another instance stops working here as the news arrives.
  const unsubscribe = await bus.subscribe(apiKeyChanges, (change) => keys.forget(change.key_id));
  identity.start();
  cleanup.start();
  app.addHook('onClose', async () => {
    await unsubscribe();
    await identity.close();
    await Promise.all([ocr.close(), mail.close(), cleanup.close()]);
  });
};
