// The identity check (onboarding step 4) against a real server: uploads checked in the background
// by real OCR or the PDF text layer, the document gone once settled, manual review settled with
// `lamis identity`, and production API keys only after a verified check.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { documentHash } from '../../src/accounts/onboarding/identity/index.ts';
import { ANNA, passportPng, pdfWithMrzText, pdfWithoutText, td3Lines } from '../../src/accounts/onboarding/identity/sample-documents.ts';
import { json } from '../support/http.ts';
import { ACCOUNT_BACKENDS, Browser, problem, type AccountsServer } from './support.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
const PDF = { 'content-type': 'application/pdf' };

for (const backend of ACCOUNT_BACKENDS) {
  describe(`identity check on ${backend.name}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;
    let serial = 0;
    const newEmail = () => `captain${++serial}@example.com`;

    before(async () => {
      accounts = await backend.start();
    });
    after(() => accounts?.close());

    async function lamis(...args: string[]): Promise<any> {
      const { stdout } = await run(process.execPath, [bin, 'identity', ...args, '--json'], { env: { ...process.env, ...accounts.env } });
      return JSON.parse(stdout);
    }

    /** The check once the background worker has moved it on from `pending`. */
    async function settled(client: Browser): Promise<any> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const identity = await json(await client.call('GET', '/v3/accounts/identity'));
        if (identity.status !== 'pending' || Date.now() > deadline) return identity;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    test('a passport photo is read by OCR and verified; then production keys can be made', { timeout: 120_000 }, async () => {
      const client = new Browser(accounts.server.url);
      const account = await client.onboard(accounts.smtp, newEmail());
      const org = account.account.organisations[0].org_id;
      const key = (environment: string) => client.call('POST', '/v3/accounts/keys', { org_id: org, environment, name: 'dispatch' });
      assert.equal((await json(await client.call('GET', '/v3/accounts/identity'))).status, 'none');
      assert.equal((await key('development')).status, 201);
      await problem(await key('production'), 403, 'identity_required');

      const photo = Buffer.from(await passportPng(ANNA, td3Lines(ANNA)));
      const upload = await client.call('POST', '/v3/accounts/identity', photo, { 'content-type': 'image/png' });
      assert.equal(upload.status, 202, await upload.clone().text());
      const accepted = await json(upload);
      assert.equal(accepted.status, 'pending');
      assert.equal(accepted.check.document_sha256, documentHash(photo));
      const again = await problem(await client.call('POST', '/v3/accounts/identity', photo, { 'content-type': 'image/png' }), 409, 'identity_check_exists');
      assert.ok(['pending', 'verified'].includes(again.check_status), again.check_status);

      const identity = await settled(client);
      assert.equal(identity.status, 'verified', JSON.stringify(identity));
      assert.deepEqual([identity.check.settled_by, identity.check.document_type, identity.check.document.issuing_state], ['automatic', 'png', 'SWE']);
      assert.equal(identity.check.document_sha256, documentHash(photo));
      // Nothing of the document is left for an operator to read.
      const cli = await run(process.execPath, [bin, 'identity', 'document', account.account.user.id, '--out', path.join(accounts.server.config.dataDir, 'x')], { env: { ...process.env, ...accounts.env } })
        .then(() => 0, (error: { code: number }) => error.code);
      assert.equal(cli, 1);

      const me = await json(await client.call('GET', '/v3/accounts/me'));
      assert.equal(me.onboarding.next_step, null);
      const production = await key('production');
      assert.equal(production.status, 201);
      const created = await json(production);
      assert.match(created.secret, /^lamis_live_/);
      assert.equal((await fetch(`${accounts.server.url}/v3/maritime/flags`, { headers: { authorization: `Bearer ${created.secret}` } })).status, 200);
      await problem(await client.call('POST', '/v3/accounts/keys', { org_id: 'org_someone_else', environment: 'development', name: 'x' }), 403, 'not_organisation_admin');
    });

    test('a document nobody can read waits for an operator, who can see it and settle it', { timeout: 60_000 }, async () => {
      const client = new Browser(accounts.server.url);
      const email = newEmail();
      const account = await client.onboard(accounts.smtp, email);
      const scan = Buffer.from(await pdfWithoutText());
      assert.equal((await client.call('POST', '/v3/accounts/identity', scan, PDF)).status, 202);
      const waiting = await settled(client);
      assert.equal(waiting.status, 'manual_review');
      assert.deepEqual(waiting.check.reasons.map((r: any) => r.code), ['no_text_layer']);

      const listed = await lamis('list');
      assert.ok(listed.data.some((check: any) => check.id === waiting.check.id && check.user_id === account.account.user.id));
      const file = path.join(accounts.server.config.dataDir, 'review.pdf');
      assert.deepEqual(await lamis('document', email, '--out', file), { file, bytes: scan.length });
      assert.deepEqual(readFileSync(file), scan);

      const decided = await lamis('settle', email, '--rejected', '--reason', 'the scan shows a library card');
      assert.deepEqual([decided.status, decided.settled_by], ['rejected', 'operator']);
      const identity = await json(await client.call('GET', '/v3/accounts/identity'));
      assert.equal(identity.status, 'rejected');
      assert.deepEqual(identity.check.reasons.at(-1), { code: 'operator_decision', message: 'the scan shows a library card' });

      // After a rejection a new document is taken; a text layer with the holder's MRZ verifies.
      assert.equal((await client.call('POST', '/v3/accounts/identity', Buffer.from(await pdfWithMrzText(td3Lines(ANNA))), PDF)).status, 202);
      assert.equal((await settled(client)).status, 'verified');
    });

    test('uploads are judged by their bytes and size', async () => {
      const client = new Browser(accounts.server.url);
      await client.onboard(accounts.smtp, newEmail());
      const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
      await problem(await client.call('POST', '/v3/accounts/identity', gif, { 'content-type': 'image/png' }), 415, 'unsupported_media_type');
      await problem(await client.call('POST', '/v3/accounts/identity', { document: 'base64...' }), 415, 'unsupported_media_type');
      const empty = await problem(await client.call('POST', '/v3/accounts/identity', Buffer.alloc(0), { 'content-type': 'image/jpeg' }), 400, 'document_unreadable');
      assert.equal(empty.reason, 'empty');
      const large = Buffer.alloc(10 * 1024 * 1024 + 1);
      large.write('%PDF-1.7');
      await problem(await client.call('POST', '/v3/accounts/identity', large, PDF), 413, 'document_too_large');
      assert.equal((await json(await client.call('GET', '/v3/accounts/identity'))).status, 'none');
    });

    test('the upload needs the session and its CSRF token before the body is read', async () => {
      const client = new Browser(accounts.server.url);
      await client.onboard(accounts.smtp, newEmail());
      const csrf = client.csrf;
      client.csrf = undefined;
      await problem(await client.call('POST', '/v3/accounts/identity', Buffer.from('%PDF-1.7'), PDF), 403, 'csrf_token_invalid');
      client.csrf = csrf;
      await problem(await new Browser(accounts.server.url).call('POST', '/v3/accounts/identity', Buffer.from('%PDF-1.7'), PDF), 401, 'session_required');
    });

    test('operators get clear refusals', async () => {
      await assert.rejects(run(process.execPath, [bin, 'identity', 'settle', 'nobody@example.com', '--verified', '--reason', 'x'], { env: { ...process.env, ...accounts.env } }),
        (error: { code: number; stderr: string }) => error.code === 1 && /has no identity check/.test(error.stderr));
      await assert.rejects(run(process.execPath, [bin, 'identity', 'settle', 'nobody@example.com', '--verified', '--rejected', '--reason', 'x'], { env: { ...process.env, ...accounts.env } }),
        (error: { code: number; stderr: string }) => error.code === 2 && /exactly one of --verified and --rejected/.test(error.stderr));
    });
  });
}
