// Identity checks on SQLite (always) and PostgreSQL (LAMIS_TEST_DATABASE_URL): documents stored
// sealed, checked in the background by the real check (PDF text layers here; OCR in the HTTP
// test), deleted once settled, and settled by operators when a person has to look.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { Envelope } from '../../platform/crypto/index.ts';
import { listAudit } from '../audit/audit.ts';
import { documentHash, OcrEngine } from './identity/index.ts';
import { ANNA, pdfWithMrzText, pdfWithoutText, td3Lines } from './identity/sample-documents.ts';
import { IdentityChecks } from './identity-checks.ts';
import { accountsMigration } from '../migrations/0006_accounts.ts';
import { usersMigration } from '../migrations/0008_users.ts';
import type { IdentityStatus } from './identity-checks.table.ts';
import { Users } from '../users/users.ts';

const POLL_MS = 20;
const WAIT_LIMIT_MS = 30_000;

for (const backend of STORAGE_BACKENDS) {
  describe(`identity checks on ${backend.name}`, { skip: backend.skip }, () => {
    let handle: StorageHandle;
    let users: Users;
    let checks: IdentityChecks;
    let ocr: OcrEngine;
    let serial = 0;
    const now = Date.parse('2026-03-01T08:00:00.000Z');
    const envelope = new Envelope(Buffer.alloc(32, 9));

    before(async () => {
      handle = await backend.open([accountsMigration, usersMigration]);
      users = new Users(handle.database, () => now);
      ocr = new OcrEngine();
      checks = new IdentityChecks({ database: handle.database, envelope, users, ocr, clock: () => now });
      checks.start();
    });
    after(async () => {
      await checks?.close();
      await ocr?.close();
      await handle?.cleanup();
    });

    async function newUser(fullName = 'Anna Maria Eriksson') {
      const email = `holder${++serial}@example.com`;
      return (await users.signUp({ fullName, email, emailKey: email, passwordHash: 'x' })).user;
    }

    /** The check's status once the background worker has moved it on from `pending`. */
    async function decided(userId: string): Promise<IdentityStatus> {
      for (let waited = 0; waited < WAIT_LIMIT_MS; waited += POLL_MS) {
        const status = await checks.status(userId);
        if (status !== 'pending') return status!;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      assert.fail(`the check of ${userId} is still pending`);
    }

    test('a genuine document verifies; only its outcome, reasons, summary and hash remain', async () => {
      const user = await newUser();
      const bytes = Buffer.from(await pdfWithMrzText(td3Lines(ANNA)));
      const submitted = await checks.submit(user.id, bytes, 'pdf');
      assert.equal(submitted.status, 'submitted');
      assert.equal(await decided(user.id), 'verified');
      const row = (await checks.latest(user.id))!;
      assert.equal(row.document_sealed, null);
      assert.equal(row.document_sha256, documentHash(bytes));
      assert.deepEqual([row.settled_by, row.settled_at, JSON.parse(row.reasons)], ['automatic', '2026-03-01T08:00:00.000Z', []]);
      assert.deepEqual(JSON.parse(row.document_summary!), {
        format: 'TD3', document_code: 'P', issuing_state: 'SWE', nationality: 'SWE', number_last4: '02C3', expiry: '2032-04-15',
      });
      const org = (await users.memberships(user.id))[0]!.org_id;
      const entry = (await listAudit(handle.database, org)).data[0]!;
      assert.deepEqual([entry.actor, entry.action, entry.target, entry.detail], [
        `user:${user.id}`, 'identity.result', user.id, { check_id: row.id, outcome: 'verified', decided_by: 'automatic', reasons: [] },
      ]);
    });

    test('another name on the document rejects it; a new upload is taken after a rejection only', async () => {
      const user = await newUser('Peter Olsen');
      await checks.submit(user.id, Buffer.from(await pdfWithMrzText(td3Lines(ANNA))), 'pdf');
      assert.equal(await decided(user.id), 'rejected');
      assert.deepEqual(JSON.parse((await checks.latest(user.id))!.reasons).map((r: { code: string }) => r.code), ['name_mismatch']);
      const again = await checks.submit(user.id, Buffer.from(await pdfWithoutText()), 'pdf');
      assert.equal(again.status, 'submitted');
      const third = await checks.submit(user.id, Buffer.from(await pdfWithoutText()), 'pdf');
      assert.equal(third.status, 'exists');
    });

    test('a document nobody can read waits, sealed, for an operator, who settles it', async () => {
      const user = await newUser();
      const bytes = Buffer.from(await pdfWithoutText());
      await checks.submit(user.id, bytes, 'pdf');
      assert.equal(await decided(user.id), 'manual_review');
      const waiting = (await checks.latest(user.id))!;
      // Kept as an envelope token bound to the check, not as the bytes.
      assert.match(waiting.document_sealed ?? '', /^v1\./);
      assert.deepEqual(envelope.open(waiting.document_sealed!, `accounts.identity:${waiting.id}`), bytes);
      assert.throws(() => envelope.open(waiting.document_sealed!, 'accounts.identity:idc_other'));
      assert.deepEqual(JSON.parse(waiting.reasons).map((r: { code: string }) => r.code), ['no_text_layer']);
      assert.ok((await checks.awaitingReview()).some((row) => row.id === waiting.id));
      assert.deepEqual(checks.document(waiting), bytes);

      const settled = await checks.settle(user.id, 'verified', 'checked the passport in person');
      assert.equal(settled.status, 'settled');
      const row = (await checks.latest(user.id))!;
      assert.deepEqual([row.status, row.settled_by, row.document_sealed], ['verified', 'operator', null]);
      assert.deepEqual(JSON.parse(row.reasons).map((r: { code: string }) => r.code), ['no_text_layer', 'operator_decision']);
      assert.equal(checks.document(row), null);
      const org = (await users.memberships(user.id))[0]!.org_id;
      const entry = (await listAudit(handle.database, org)).data[0]!;
      assert.deepEqual([entry.actor, entry.detail.outcome, entry.detail.decided_by], ['operator', 'verified', 'operator']);

      assert.equal((await checks.settle(user.id, 'rejected', 'second thoughts')).status, 'already_settled');
      assert.equal((await checks.settle('usr_none', 'rejected', 'nobody')).status, 'not_found');
    });
  });
}
