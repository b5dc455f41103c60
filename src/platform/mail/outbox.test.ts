// The local outbox transport and the outbox reader, on every storage back end.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { mailerFor } from './index.ts';
import { Outbox, OutboxMailer } from './outbox.ts';
import { outboxMigration } from '../migrations/0005_outbox.ts';

const START = Date.parse('2026-11-21T14:20:00.000Z');

for (const backend of STORAGE_BACKENDS) {
  describe(`outbox on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let outbox: Outbox;
    let now = START;

    before(async () => {
      handle = await backend.open([outboxMigration]);
      outbox = new Outbox(handle.database);
    });
    after(() => handle.cleanup());

    test('with no SMTP URL the mailer is the local outbox', () => {
      assert.equal(mailerFor({ smtpUrl: undefined }, handle.database).transport, 'outbox');
      assert.equal(mailerFor({ smtpUrl: '' }, handle.database).transport, 'outbox');
    });

    test('a message is stored whole, queued, and read back as sent', async () => {
      const mailer = new OutboxMailer(handle.database, { clock: () => now });
      const message = {
        to: 'dispatcher@lamis.example',
        subject: 'Bekräfta din e-postadress',
        text: 'Öppna https://lamis.example/verify?token=abc123 inom 24 timmar.',
        html: '<p><a href="https://lamis.example/verify?token=abc123">Bekräfta</a></p>',
        purpose: 'email_verification',
      };
      const sent = await mailer.send(message);
      assert.deepEqual(sent, { id: sent.id, transport: 'outbox', accepted_at: '2026-11-21T14:20:00.000Z' });
      // node:sqlite rows have no prototype: compare the fields.
      assert.deepEqual({ ...await outbox.get(sent.id) }, {
        id: sent.id,
        ...message,
        transport: 'outbox',
        status: 'queued',
        error: null,
        created_at: '2026-11-21T14:20:00.000Z',
        sent_at: null,
      });
    });

    test('a message without HTML keeps html null', async () => {
      now += 60_000;
      const sent = await new OutboxMailer(handle.database, { clock: () => now })
        .send({ to: 'master@lamis.example', subject: 'Text', text: 'Only text.', purpose: 'test' });
      const row = await outbox.get(sent.id);
      assert.equal(row?.text, 'Only text.');
      assert.equal(row?.html, null);
    });

    test('the list is newest first, without bodies, and honours its limit', async () => {
      const mailer = new OutboxMailer(handle.database, { clock: () => now });
      const ids: string[] = [];
      for (const subject of ['first', 'second', 'third']) {
        now += 60_000;
        ids.push((await mailer.send({ to: 'dispatch@lamis.example', subject, text: `${subject} body`, purpose: 'test' })).id);
      }
      const newest = await outbox.list(2);
      assert.deepEqual(newest.map((m) => m.id), [ids[2], ids[1]]);
      assert.deepEqual(Object.keys(newest[0]!).sort(), ['created_at', 'error', 'id', 'purpose', 'sent_at', 'status', 'subject', 'to', 'transport']);
      const all = await outbox.list();
      assert.equal(all.length, 5);
      assert.deepEqual(all.map((m) => m.created_at), [...all.map((m) => m.created_at)].sort().reverse());
    });

    test('an unknown id reads as undefined', async () => {
      assert.equal(await outbox.get('00000000-0000-4000-8000-000000000000'), undefined);
    });
  });
}
