// `lamis mail list` / `lamis mail show`: run() in a process of its own, so the test reads the real
// standard output and exit code, against the SQLite storage of a test config.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config.ts';
import { testConfig } from '../../../test/support/server.ts';
import { UsageError } from '../command.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { mailCommand } from './mail.command.ts';
import { OutboxMailer } from './outbox.ts';
import { outboxMigration } from '../migrations/0005_outbox.ts';
import { SmtpMailer } from './smtp.ts';
import { startTestSmtpServer } from '../../../test/support/smtp.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runMail(config: Config, positionals: string[], values: Record<string, string | boolean> = {}): Promise<Run> {
  const module = JSON.stringify(fileURLToPath(new URL('./mail.command.ts', import.meta.url)));
  const script = `
    import { mailCommand } from ${module};
    const [config, positionals, values] = JSON.parse(process.argv[1]);
    process.exitCode = await mailCommand.run({ config, positionals, values });`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([config, positionals, values])], (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe('lamis mail', () => {
  const config = testConfig();
  let database: Database;

  before(async () => {
    database = openDatabase(config);
    await migrate(database.db, database.dialect, [outboxMigration]);
  });
  after(async () => {
    await database.close();
    config.cleanup();
  });

  test('list says so when the outbox is empty', async () => {
    const run = await runMail(config, ['list']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^The outbox is empty \(sqlite: .*lamis\.sqlite\)\.\n$/);
    assert.deepEqual(JSON.parse((await runMail(config, ['list'], { json: true })).stdout), []);
  });

  describe('with messages', () => {
    let kept: string;
    let sent: string;
    let newest: string;

    before(async () => {
      const outbox = new OutboxMailer(database, { clock: () => Date.parse('2026-11-21T14:20:00.000Z') });
      kept = (await outbox.send({
        to: 'pilot@lamis.example',
        subject: 'Confirm your e-mail address',
        text: 'Open https://lamis.example/verify?token=abc123',
        html: '<a href="https://lamis.example/verify?token=abc123">Confirm</a>',
        purpose: 'email_verification',
      })).id;
      const smtp = await startTestSmtpServer();
      try {
        const mailer = new SmtpMailer(database, { url: smtp.url(), clock: () => Date.parse('2026-11-21T14:21:00.000Z') });
        sent = (await mailer.send({ to: 'dispatch@lamis.example', subject: 'Sent for real', text: 'https://lamis.example/secret', purpose: 'test' })).id;
      } finally {
        await smtp.close();
      }
      newest = (await new OutboxMailer(database, { clock: () => Date.parse('2026-11-21T14:22:00.000Z') })
        .send({ to: 'master@lamis.example', subject: 'Newest', text: 'n', purpose: 'test' })).id;
    });

    test('list prints a table, newest first', async () => {
      const run = await runMail(config, ['list']);
      assert.equal(run.code, 0);
      const lines = run.stdout.trimEnd().split('\n');
      assert.match(lines[0]!, /^ID +CREATED +TRANSPORT +STATUS +PURPOSE +TO +SUBJECT$/);
      assert.equal(lines.length, 4);
      assert.match(lines[1]!, new RegExp(`^${newest} +2026-11-21T14:22:00.000Z +outbox +queued +test +master@lamis.example +Newest$`));
      assert.match(lines[2]!, new RegExp(`^${sent} +2026-11-21T14:21:00.000Z +smtp +sent +test +dispatch@lamis.example +Sent for real$`));
      assert.match(lines[3]!, new RegExp(`^${kept} +2026-11-21T14:20:00.000Z +outbox +queued +email_verification +pilot@lamis.example +Confirm your e-mail address$`));
    });

    test('list --json --limit gives the newest messages without bodies', async () => {
      const run = await runMail(config, ['list'], { json: true, limit: '2' });
      assert.equal(run.code, 0);
      const rows = JSON.parse(run.stdout) as Record<string, unknown>[];
      assert.deepEqual(rows.map((r) => r.id), [newest, sent]);
      assert.equal(rows[1]!.status, 'sent');
      assert.equal('text' in rows[0]!, false);
    });

    test('show prints a kept message with its text and HTML', async () => {
      const run = await runMail(config, ['show', kept]);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, [
        `ID:        ${kept}`,
        'To:        pilot@lamis.example',
        'Subject:   Confirm your e-mail address',
        'Purpose:   email_verification',
        'Transport: outbox',
        'Status:    queued',
        'Created:   2026-11-21T14:20:00.000Z',
        '',
        'Open https://lamis.example/verify?token=abc123',
        '',
        '--- HTML ---',
        '<a href="https://lamis.example/verify?token=abc123">Confirm</a>',
        '',
      ].join('\n'));
    });

    test('show of a message sent over SMTP says its body was not kept', async () => {
      const run = await runMail(config, ['show', sent]);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^Status: {4}sent$/m);
      assert.match(run.stdout, /^Sent: {6}2026-11-21T14:21:00.000Z$/m);
      assert.match(run.stdout, /body not kept/);
      assert.doesNotMatch(run.stdout, /secret/);
    });

    test('show --json prints the whole row', async () => {
      const run = await runMail(config, ['show', kept], { json: true });
      assert.equal(run.code, 0);
      const row = JSON.parse(run.stdout) as Record<string, unknown>;
      assert.equal(row.id, kept);
      assert.equal(row.text, 'Open https://lamis.example/verify?token=abc123');
      assert.equal(row.status, 'queued');
    });

    test('show of an unknown id fails with a message and prints nothing on stdout', async () => {
      const run = await runMail(config, ['show', 'no-such-id']);
      assert.equal(run.code, 1);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^lamis mail: no message "no-such-id" in the outbox \(sqlite: /);
    });
  });

  test('wrong arguments are usage errors, raised before storage is opened', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [[], {}, /give a subcommand: list or show ID/],
      [['send'], {}, /unknown subcommand "send"/],
      [['list', 'extra'], {}, /list takes no arguments/],
      [['show'], {}, /show takes the ID of one message/],
      [['list'], { limit: '0' }, /--limit must be a whole number from 1 to 1000/],
      [['list'], { limit: 'ten' }, /--limit must be a whole number/],
    ];
    // A database URL nothing listens on: opening storage would fail differently.
    const unreachable = { ...config, databaseUrl: 'postgres://nobody@127.0.0.1:1/none', databaseTimeoutMs: 100 };
    for (const [positionals, values, message] of cases) {
      await assert.rejects(mailCommand.run({ config: unreachable, positionals, values }), (error: Error) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.match(error.message, message);
        return true;
      });
    }
  });
});
