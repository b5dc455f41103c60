// The mails of onboarding, and sending them without making the request wait. Waiting would let
// the time an answer takes tell whether a mail went out, and so whether an address has an
// account; a mail that fails stays in the outbox marked `failed` (`lamis mail list`), and the
// user can ask for another link. Closing waits for the mails under way.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, OutgoingMail } from '../platform/mail/index.ts';

export class BackgroundMail {
  readonly #mailer: Mailer;
  readonly #logger: FastifyBaseLogger;
  readonly #sending = new Set<Promise<void>>();

  constructor(mailer: Mailer, logger: FastifyBaseLogger) {
    this.#mailer = mailer;
    this.#logger = logger;
  }

  send(mail: OutgoingMail): void {
    this.sendPrepared(async () => mail);
  }

  /**
   * Sends the mail `prepare` makes, when it makes one (null: nothing to send). For mails that need
   * a lookup first: the request waits for that no more than for the sending, so a password-reset
   * request takes as long for an address without an account as for one with. `prepare` starts on
   * the event loop's next turn, after the answer is written: SQLite answers queries synchronously,
   * and they would otherwise run between the handler's return and the reply.
   */
  sendPrepared(prepare: () => Promise<OutgoingMail | null>): void {
    let purpose: string | undefined;
    const sending = nextTurn().then(prepare).then(async (mail) => {
      if (!mail) return;
      purpose = mail.purpose;
      await this.#mailer.send(mail);
    }).then(
      () => undefined,
      // The mailer has logged and recorded a failure to send; never the recipient here either.
      (error: unknown) => this.#logger.warn({ err: error, purpose }, 'account mail not sent'),
    );
    this.#sending.add(sending);
    void sending.then(() => this.#sending.delete(sending));
  }

  async close(): Promise<void> {
    await Promise.all(this.#sending);
  }
}

export function verificationMail(to: string, fullName: string, link: string): OutgoingMail {
  return {
    to,
    purpose: 'email_verification',
    subject: 'Verify your e-mail address for LAMIS',
    text: [
      `Hello ${fullName},`,
      '',
      'Open this link to verify your e-mail address and continue setting up your LAMIS account:',
      '',
      link,
      '',
      'The link works once, for 24 hours. If you did not sign up for LAMIS, ignore this mail.',
    ].join('\n'),
  };
}

export function accountExistsMail(to: string, fullName: string, signInUrl: string): OutgoingMail {
  return {
    to,
    purpose: 'account_exists',
    subject: 'Someone tried to sign up to LAMIS with your address',
    text: [
      `Hello ${fullName},`,
      '',
      'Someone just tried to create a LAMIS account with this e-mail address, which already has one.',
      'If it was you, sign in instead:',
      '',
      signInUrl,
      '',
      'If it was not you, there is nothing to do: no new account can use your address.',
    ].join('\n'),
  };
}

export function passwordResetMail(to: string, fullName: string, link: string): OutgoingMail {
  return {
    to,
    purpose: 'password_reset',
    subject: 'Choose a new password for LAMIS',
    text: [
      `Hello ${fullName},`,
      '',
      'Someone, hopefully you, asked to reset the password of your LAMIS account. Open this link to choose a new one:',
      '',
      link,
      '',
      'The link works once, for 1 hour. Choosing a new password signs you out everywhere.',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}
