// SmtpMailer against a real SMTP server on loopback, on every storage back end: what arrives,
// authentication, refusals and an absent server, and what the outbox keeps in each case.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import type { Database } from '../db/database.ts';
import { mailerFor } from './index.ts';
import { MailError, RecipientRejectedError, SmtpAuthError, SmtpUnreachableError, type OutgoingMail } from './mailer.ts';
import { Outbox } from './outbox.ts';
import { outboxMigration } from '../migrations/0005_outbox.ts';
import { SmtpMailer } from './smtp.ts';
import { linksIn, startTestSmtpServer, type TestSmtpServer } from '../../../test/support/smtp.ts';

// Long enough that quoted-printable breaks the line inside the link, and `=` gets escaped.
const LINK = `https://lamis.example/verify-email?token=${'k9Qz'.repeat(20)}&next=%2Fdashboard`;

function verification(to: string): OutgoingMail {
  return {
    to,
    subject: 'Confirm your e-mail address',
    text: `Hello from Ålesund,\n\nconfirm your address: ${LINK}\n\nThe link works once, for 24 hours.`,
    html: `<p>Confirm your address: <a href="${LINK}">confirm</a></p>`,
    purpose: 'email_verification',
  };
}

async function expectFailure<E extends MailError>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(() => assert.fail('send should have failed'), (e: unknown) => e);
  assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
  return error;
}

/** The failed row keeps the bodies (the only copy) and the reason. */
async function assertKeptAsFailed(database: Database, error: MailError, message: OutgoingMail): Promise<void> {
  const row = await new Outbox(database).get(error.outboxId);
  assert.ok(row);
  assert.equal(row.status, 'failed');
  assert.equal(row.transport, 'smtp');
  assert.equal(row.error, error.message);
  assert.equal(row.text, message.text);
  assert.equal(row.html, message.html);
  assert.equal(row.sent_at, null);
}

for (const backend of STORAGE_BACKENDS) {
  describe(`SMTP mailer on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let database: Database;
    let smtp: TestSmtpServer;

    before(async () => {
      handle = await backend.open([outboxMigration]);
      database = handle.database;
      smtp = await startTestSmtpServer({ refuse: ['nobody@lamis.example'] });
    });
    after(async () => {
      await smtp.close();
      await handle.cleanup();
    });

    test('the server receives the message with its headers and bodies, and the link can be followed', async () => {
      const mailer = mailerFor({ smtpUrl: smtp.url() }, database);
      assert.equal(mailer.transport, 'smtp');
      const count = smtp.received.length;
      const sent = await mailer.send(verification('pilot@lamis.example'));
      assert.equal(sent.transport, 'smtp');
      assert.equal(smtp.received.length, count + 1);
      const mail = smtp.received.at(-1)!;
      assert.equal(mail.envelopeFrom, 'no-reply@localhost');
      assert.deepEqual(mail.envelopeTo, ['pilot@lamis.example']);
      assert.equal(mail.headers.get('from'), 'LAMIS <no-reply@localhost>');
      assert.equal(mail.headers.get('to'), 'pilot@lamis.example');
      assert.equal(mail.headers.get('subject'), 'Confirm your e-mail address');
      assert.equal(mail.headers.get('message-id'), `<${sent.id}@localhost>`);
      assert.equal(mail.headers.get('auto-submitted'), 'auto-generated');
      assert.equal(mail.text, verification('pilot@lamis.example').text);
      assert.equal(mail.html, verification('pilot@lamis.example').html);
      assert.deepEqual(linksIn(mail.text!), [LINK]);
    });

    test('a message\'s own headers go with it; Auto-Submitted stays the mailer\'s', async () => {
      const headers = { 'List-Unsubscribe': '<https://lamis.example/unsubscribe?token=t>', 'Auto-Submitted': 'no' };
      await mailerFor({ smtpUrl: smtp.url() }, database).send({ ...verification('pilot@lamis.example'), headers });
      const mail = smtp.received.at(-1)!;
      assert.equal(mail.headers.get('list-unsubscribe'), '<https://lamis.example/unsubscribe?token=t>');
      assert.equal(mail.headers.get('auto-submitted'), 'auto-generated');
    });

    test('a sent message keeps its metadata in the outbox, not its bodies', async () => {
      const sent = await mailerFor({ smtpUrl: smtp.url() }, database).send(verification('pilot@lamis.example'));
      const row = await new Outbox(database).get(sent.id);
      assert.deepEqual(
        { ...row, created_at: typeof row?.created_at },
        {
          id: sent.id,
          to: 'pilot@lamis.example',
          subject: 'Confirm your e-mail address',
          text: null,
          html: null,
          purpose: 'email_verification',
          transport: 'smtp',
          status: 'sent',
          error: null,
          created_at: 'string',
          sent_at: sent.accepted_at,
        },
      );
    });

    test('the From address is configurable and names the Message-ID domain', async () => {
      const sent = await mailerFor({ smtpUrl: smtp.url(), mailFrom: 'LAMIS Operations <ops@harbour.example>' }, database)
        .send({ to: 'dispatch@lamis.example', subject: 'Plain', text: 'Text only.', purpose: 'test' });
      const mail = smtp.received.at(-1)!;
      assert.equal(mail.headers.get('from'), 'LAMIS Operations <ops@harbour.example>');
      assert.equal(mail.envelopeFrom, 'ops@harbour.example');
      assert.equal(mail.headers.get('message-id'), `<${sent.id}@harbour.example>`);
      assert.equal(mail.text, 'Text only.');
      assert.equal(mail.html, undefined);
    });

    test('a refused recipient is a RecipientRejectedError and the message is kept as failed', async () => {
      const message = verification('nobody@lamis.example');
      const count = smtp.received.length;
      const error = await expectFailure(mailerFor({ smtpUrl: smtp.url() }, database).send(message), RecipientRejectedError);
      assert.equal(error.code, 'recipient_rejected');
      assert.equal(error.recipient, 'nobody@lamis.example');
      assert.equal(error.responseCode, 550);
      assert.match(error.message, /550 No such user here/);
      assert.equal(smtp.received.length, count);
      await assertKeptAsFailed(database, error, message);
    });

    test('a server that is down is an SmtpUnreachableError and the message is kept as failed', async () => {
      const gone = await startTestSmtpServer();
      const url = gone.url();
      await gone.close();
      const message = verification('pilot@lamis.example');
      const error = await expectFailure(mailerFor({ smtpUrl: url }, database).send(message), SmtpUnreachableError);
      assert.equal(error.code, 'smtp_unreachable');
      assert.match(error.message, /ECONNREFUSED/);
      await assertKeptAsFailed(database, error, message);
    });

    test('a server that never greets runs into the timeout and counts as unreachable', async () => {
      const sockets = new Set<Socket>();
      const silent = createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = silent.address() as AddressInfo;
        const mailer = mailerFor({ smtpUrl: `smtp://127.0.0.1:${port}`, smtpTimeoutMs: 200 }, database);
        const error = await expectFailure(mailer.send(verification('pilot@lamis.example')), SmtpUnreachableError);
        assert.match(error.message, /greeting|timeout/i);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    });

    test('nothing logged holds the recipient or the bodies', async () => {
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }));
      const mailer = mailerFor({ smtpUrl: smtp.url() }, database, { logger });
      const sent = await mailer.send(verification('pilot@lamis.example'));
      const failed = await expectFailure(mailer.send(verification('nobody@lamis.example')), RecipientRejectedError);
      assert.equal(lines.length, 2);
      assert.match(lines[0]!, new RegExp(sent.id));
      assert.match(lines[1]!, new RegExp(failed.outboxId));
      for (const line of lines) {
        assert.doesNotMatch(line, /k9Qz|Ålesund|pilot@|nobody@/);
      }
    });

    describe('with authentication', () => {
      const account = { user: 'lamis@harbour.example', password: 'p@ss w:rd/%' };
      let authSmtp: TestSmtpServer;
      before(async () => {
        authSmtp = await startTestSmtpServer({ credentials: account });
      });
      after(() => authSmtp.close());

      test('credentials from the URL (percent-encoded) log in', async () => {
        await mailerFor({ smtpUrl: authSmtp.url(account) }, database).send(verification('pilot@lamis.example'));
        assert.equal(authSmtp.received.length, 1);
        assert.equal(authSmtp.received[0]!.user, account.user);
        assert.deepEqual(linksIn(authSmtp.received[0]!.text!), [LINK]);
      });

      test('a wrong password is an SmtpAuthError and the message is kept as failed', async () => {
        const message = verification('pilot@lamis.example');
        const mailer = mailerFor({ smtpUrl: authSmtp.url({ ...account, password: 'wrong' }) }, database);
        const error = await expectFailure(mailer.send(message), SmtpAuthError);
        assert.equal(error.code, 'smtp_auth_failed');
        assert.match(error.message, /535/);
        await assertKeptAsFailed(database, error, message);
      });

      test('no credentials where the server wants them is an SmtpAuthError', async () => {
        const error = await expectFailure(mailerFor({ smtpUrl: authSmtp.url() }, database).send(verification('pilot@lamis.example')), SmtpAuthError);
        assert.match(error.message, /530/);
      });
    });
  });
}

describe('SMTP settings', () => {
  test('a URL that is not smtp:// or smtps:// is refused without echoing its password', async () => {
    const handle = await STORAGE_BACKENDS[0]!.open([outboxMigration]);
    try {
      for (const url of ['https://ops:hunter2secret@mail.example', 'not a url hunter2secret']) {
        assert.throws(() => new SmtpMailer(handle.database, { url }), (error: Error) => {
          assert.ok(error instanceof TypeError);
          assert.doesNotMatch(error.message, /hunter2secret/);
          return true;
        });
      }
    } finally {
      await handle.cleanup();
    }
  });
});
