// The accounts feature: sign-up and onboarding, e-mail verification, dashboard sessions, the
// identity check (documents sealed under the master key, checked by one OCR engine in the
// background) and API keys for signed-in users.
import type { Config } from '../config.ts';
import { Envelope } from '../platform/crypto/index.ts';
import type { Feature } from '../platform/feature.ts';
import type { App } from '../platform/http/app.ts';
import { mailerFor } from '../platform/mail/index.ts';
import { registerAccountRoutes } from './api.ts';
import { EmailVerifications } from './email-verification.ts';
import { IdentityChecks } from './identity-checks.ts';
import { OcrEngine } from './identity/index.ts';
import type { KeyStore } from './keys.ts';
import { BackgroundMail } from './mails.ts';
import { SessionStore } from './sessions.ts';
import { Throttle } from './throttle.ts';
import { Users } from './users.ts';

/** Without LAMIS_PUBLIC_URL, links point at the address the server listens on. */
function listeningUrl(app: App, config: Config): string {
  const address = app.server.address();
  const port = address !== null && typeof address === 'object' ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}

/** `keys`: the store that also verifies API keys for every request (see access.ts). */
export const accounts = (keys: KeyStore): Feature => async ({ app, config, database, logger, masterKey: key }) => {
  const users = new Users(database);
  const throttle = new Throttle(database);
  const ocr = new OcrEngine();
  const identity = new IdentityChecks({ database, envelope: new Envelope(key.key), users, ocr, logger });
  const mail = new BackgroundMail(mailerFor(config, database, { logger }), logger);
  app.decorateRequest('account', null);
  registerAccountRoutes(app, {
    users,
    sessions: new SessionStore(database, { idleMs: config.sessionIdleMinutes * 60_000, absoluteMs: config.sessionMaxHours * 3_600_000 }),
    verifications: new EmailVerifications(database, throttle),
    throttle,
    identity,
    keys,
    mail,
    publicUrl: () => config.publicUrl ?? listeningUrl(app, config),
  });
  identity.start();
  app.addHook('onClose', async () => {
    await identity.close();
    await Promise.all([ocr.close(), mail.close()]);
  });
};
