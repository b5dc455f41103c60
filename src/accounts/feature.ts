// The accounts feature: sign-up and onboarding, e-mail verification, dashboard sessions, the
// identity check (documents sealed under the master key, checked by one OCR engine in the
// background), API keys for signed-in users, forgotten passwords, the hourly clean-up of
// sign-ups whose address was never verified, and organisations: members, invitations, keys,
// usage, audit log, and the fleet for members by role.
import { registerOrganisationFleetRoutes } from '../fleet/index.ts';
import { Envelope } from '../platform/crypto/index.ts';
import type { Feature } from '../platform/feature.ts';
import type { App } from '../platform/http/app.ts';
import { mailerFor } from '../platform/mail/index.ts';
import type { CounterStore } from '../platform/ratelimit/index.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { registerAccountRoutes } from './api.ts';
import { UnverifiedAccountCleanup } from './cleanup.ts';
import { DashboardKeys } from './dashboard-keys.ts';
import { EmailVerifications } from './email-verification.ts';
import { IdentityChecks } from './identity-checks.ts';
import { OcrEngine } from './identity/index.ts';
import type { KeyStore } from './keys.ts';
import { Invitations } from './invitations.ts';
import { BackgroundMail } from './mails.ts';
import { Members } from './members.ts';
import { registerOrganisationRoutes } from './organisation-api.ts';
import { Organisations } from './organisations.ts';
import { registerPasswordResetRoutes } from './password-reset-api.ts';
import { PasswordResets } from './password-reset.ts';
import { SessionStore } from './sessions.ts';
import type { AccountsSettings } from './settings.ts';
import { SignInThrottle } from './sign-in-throttle.ts';
import { Throttle } from './throttle.ts';
import { Users } from './users.ts';

/** Without LAMIS_PUBLIC_URL, links point at the address the server listens on. */
function listeningUrl(app: App, config: PlatformSettings): string {
  const address = app.server.address();
  const port = address !== null && typeof address === 'object' ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}

/**
 * `keys`: the store that also verifies API keys for every request (see access.ts); `counters`: the
 * rate limits' counter store, which also counts failed sign-ins.
 */
export const accounts = (keys: KeyStore, counters: CounterStore): Feature<PlatformSettings & AccountsSettings> => async ({ app, config, database, logger, masterKey: key }) => {
  const users = new Users(database);
  const throttle = new Throttle(database);
  const signIns = new SignInThrottle(counters);
  const ocr = new OcrEngine();
  const identity = new IdentityChecks({ database, envelope: new Envelope(key.key), users, ocr, logger });
  const mail = new BackgroundMail(mailerFor(config, database, { logger }), logger);
  const publicUrl = () => config.publicUrl ?? listeningUrl(app, config);
  const cleanup = new UnverifiedAccountCleanup(database, { maxAgeDays: config.unverifiedAccountDays, logger });
  const sessions = new SessionStore(database, { idleMs: config.sessionIdleMinutes * 60_000, absoluteMs: config.sessionMaxHours * 3_600_000 });
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
  registerOrganisationFleetRoutes(app, { database, masterKey: key.key, members, sessions, users });
  identity.start();
  cleanup.start();
  app.addHook('onClose', async () => {
    await identity.close();
    await Promise.all([ocr.close(), mail.close(), cleanup.close()]);
  });
};
