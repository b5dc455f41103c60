// `lamis identity`: the operators' side of the identity check, on the storage the server uses.
//
//   lamis identity list                                  checks awaiting manual review
//   lamis identity document USER --out FILE              the document of a user's open check
//   lamis identity settle USER --verified|--rejected --reason TEXT
//
// USER is a user id (`usr_…`) or the account's e-mail address. Settling deletes the document and
// is audited as the operator's decision; the reason is kept with the check's other reasons.
import { writeFileSync } from 'node:fs';
import { UsageError, type Command } from '../../platform/command.ts';
import { Envelope, masterKey } from '../../platform/crypto/index.ts';
import type { PlatformSettings } from '../../platform/settings.ts';
import { fail, withStorage } from '../command-support.ts';
import { normaliseEmail } from '../users/credentials.ts';
import { checkView, IdentityChecks } from './identity-checks.ts';
import type { UserRow } from '../users/users.table.ts';
import { Users } from '../users/users.ts';

const MAX_REASON_LENGTH = 500;

function withChecks<T>(config: PlatformSettings, work: (checks: IdentityChecks, users: Users) => Promise<T>): Promise<T> {
  return withStorage(config, (database) => {
    const { key } = masterKey({ fromEnv: config.masterKey, dataDir: config.dataDir });
    const users = new Users(database);
    return work(new IdentityChecks({ database, envelope: new Envelope(key), users }), users);
  });
}

async function findUser(users: Users, given: string): Promise<UserRow | undefined> {
  if (!given.includes('@')) return users.get(given);
  const address = normaliseEmail(given);
  return address.ok ? users.findByEmail(address.key) : undefined;
}

export const identityCommand: Command = {
  args: 'list | document USER --out FILE | settle USER --verified|--rejected --reason TEXT',
  usesSettings: true,
  options: {
    verified: { type: 'boolean', description: 'settle: the document is genuine and the holder\'s' },
    rejected: { type: 'boolean', description: 'settle: it is not' },
    reason: { type: 'string', description: `settle: why, kept with the check (at most ${MAX_REASON_LENGTH} characters)` },
    out: { type: 'string', description: 'document: the file to write the document to (made readable by its owner only)' },
    json: { type: 'boolean', description: 'Print one JSON object' },
  },
  async run({ config, positionals, values }) {
    const [action, ...rest] = positionals;
    if (action === 'list') {
      if (rest.length > 0) throw new UsageError('list takes no arguments');
      const rows = await withChecks(config, (checks) => checks.awaitingReview());
      if (values.json) console.log(JSON.stringify({ data: rows.map((row) => ({ user_id: row.user_id, ...checkView(row) })) }));
      else if (rows.length === 0) console.log('No identity check awaits review.');
      else for (const row of rows) console.log(`${row.user_id}  ${row.id}  ${row.document_type}  submitted ${row.created_at}  ${checkView(row).reasons.map((r) => r.code).join(', ')}`);
      return 0;
    }
    if (action === 'document') {
      if (rest.length !== 1) throw new UsageError('document takes one user id or e-mail address');
      const out = values.out;
      if (typeof out !== 'string' || out === '') throw new UsageError('--out FILE is required');
      const document = await withChecks(config, async (checks, users) => {
        const user = await findUser(users, rest[0]!);
        const latest = user && (await checks.latest(user.id));
        return latest ? checks.document(latest) : undefined;
      });
      if (!document) return fail('identity', `no document is kept for "${rest[0]}" (no check, or it is settled)`);
      writeFileSync(out, document, { mode: 0o600 });
      console.log(values.json ? JSON.stringify({ file: out, bytes: document.length }) : `Wrote ${document.length} bytes to ${out}.`);
      return 0;
    }
    if (action === 'settle') {
      if (rest.length !== 1) throw new UsageError('settle takes one user id or e-mail address');
      if (Boolean(values.verified) === Boolean(values.rejected)) throw new UsageError('give exactly one of --verified and --rejected');
      const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
      if (reason === '' || reason.length > MAX_REASON_LENGTH) throw new UsageError(`--reason is required, at most ${MAX_REASON_LENGTH} characters`);
      const outcome = values.verified ? 'verified' : 'rejected';
      const result = await withChecks(config, async (checks, users) => {
        const user = await findUser(users, rest[0]!);
        return user ? checks.settle(user.id, outcome, reason) : { status: 'not_found' as const };
      });
      if (result.status === 'not_found') return fail('identity', `"${rest[0]}" has no identity check`);
      if (result.status === 'already_settled') return fail('identity', `the identity check of "${rest[0]}" is already ${result.check.status}`);
      console.log(values.json ? JSON.stringify(result.check) : `Identity check ${result.check.id} is ${result.check.status}; its document is deleted.`);
      return 0;
    }
    throw new UsageError(action === undefined ? 'give a subcommand: list, document or settle' : `unknown subcommand "${action}": use list, document or settle`);
  },
};
