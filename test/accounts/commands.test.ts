// `lamis org`, `lamis keys` and `lamis usage`: run() in a process of its own, as an operator would
// run it beside a server, so the test reads the real standard output and exit code. The server's
// side is a store on a database handle of its own, opened before the command runs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freshPostgresSchema, postgresUrl, skipPostgres } from '../support/backends.ts';
import { testConfig } from '../support/server.ts';
import type { Config } from '../../src/config.ts';
import { UsageError } from '../../src/platform/command.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { listAudit } from '../../src/accounts/audit/audit.ts';
import { keysCommand, orgCommand, usageCommand } from '../../src/accounts/index.ts';
import { KeyStore } from '../../src/accounts/keys/keys.ts';
import { OrganisationGrants } from '../../src/accounts/organisations/grants.ts';
import { accountsMigration } from '../../src/accounts/migrations/0006_accounts.ts';
import { Organisations } from '../../src/accounts/organisations/organisations.ts';
import { UsageMeter } from '../../src/accounts/keys/usage.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

type CommandName = 'orgCommand' | 'keysCommand' | 'usageCommand';

function run(config: Config, command: CommandName, positionals: string[], values: Record<string, string | boolean> = {}): Promise<Run> {
  const module = JSON.stringify(fileURLToPath(new URL('../../src/accounts/index.ts', import.meta.url)));
  const script = `
    import * as commands from ${module};
    const [name, config, positionals, values] = JSON.parse(process.argv[1]);
    process.exitCode = await commands[name].run({ config, positionals, values });`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([command, config, positionals, values])], (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** The one JSON object a `--json` run prints. */
function printed(result: Run): Record<string, unknown> {
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trimEnd().split('\n').length, 1);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

interface Storage {
  config: Config;
  cleanup(): Promise<void>;
}

const BACKENDS: { name: string; skip: string | false; open(): Promise<Storage> }[] = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const config = testConfig();
      return { config, cleanup: async () => config.cleanup() };
    },
  },
  {
    name: 'PostgreSQL',
    skip: skipPostgres,
    async open() {
      // The command opens storage from the settings alone, so the test schema goes in the URL.
      const { schema, drop } = await freshPostgresSchema();
      const url = new URL(postgresUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const config = testConfig({ databaseUrl: url.toString() });
      return { config, cleanup: async () => { await drop(); config.cleanup(); } };
    },
  },
];

for (const backend of BACKENDS) {
  describe(`operator commands on ${backend.name}`, { skip: backend.skip }, () => {
    let storage: Storage;
    let config: Config;
    /** The running server's handle on the same storage. */
    let server: Database;
    let serverKeys: KeyStore;

    before(async () => {
      storage = await backend.open();
      config = storage.config;
      server = openDatabase(config);
      await migrate(server.db, server.dialect, [accountsMigration]);
      serverKeys = new KeyStore(server);
    });
    after(async () => {
      await server?.close();
      await storage?.cleanup();
    });

    async function newOrg(plan = 'starter'): Promise<string> {
      const org = printed(await run(config, 'orgCommand', ['create'], { name: 'Pilot Boats', plan, json: true }));
      return org.id as string;
    }

    test('org create --json prints the organisation', async () => {
      const org = printed(await run(config, 'orgCommand', ['create'], { name: 'Pilot Boats', plan: 'pro', json: true }));
      assert.match(org.id as string, /^org_[0-9A-Za-z]{16}$/);
      assert.equal(org.name, 'Pilot Boats');
      assert.equal(org.plan, 'pro');
      assert.match(org.created_at as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const text = await run(config, 'orgCommand', ['create'], { name: 'Tug Co', plan: 'enterprise' });
      assert.equal(text.code, 0);
      assert.match(text.stdout, /^Created organisation org_[0-9A-Za-z]{16} "Tug Co" on the Enterprise plan\.\n$/);
    });

    test('org set-plan changes the plan, audited as the operator\'s', async () => {
      const id = await newOrg();
      assert.deepEqual(
        { ...printed(await run(config, 'orgCommand', ['set-plan', id, 'pro'], { json: true })), created_at: 'x' },
        { id, name: 'Pilot Boats', plan: 'pro', previous_plan: 'starter', changed: true, created_at: 'x' },
      );
      const again = printed(await run(config, 'orgCommand', ['set-plan', id, 'pro'], { json: true }));
      assert.equal(again.changed, false);
      const text = await run(config, 'orgCommand', ['set-plan', id, 'enterprise']);
      assert.equal(text.stdout, `${id} "Pilot Boats": plan changed from Pro to Enterprise.\n`);
      const audit = await listAudit(server, id);
      assert.deepEqual(audit.data.filter((e) => e.action === 'plan.changed').map((e) => [e.actor, e.detail]), [
        ['operator', { from: 'pro', to: 'enterprise' }],
        ['operator', { from: 'starter', to: 'pro' }],
      ]);
      const missing = await run(config, 'orgCommand', ['set-plan', 'org_nosuchorg00000', 'pro'], { json: true });
      assert.equal(missing.code, 1);
      assert.equal(missing.stdout, '');
      assert.match(missing.stderr, /^lamis org: no organisation "org_nosuchorg00000"/);
    });

    test('org set-ais-upload shares an organisation\'s AIS uploads and stops it, audited as the operator\'s', async () => {
      const id = await newOrg();
      assert.deepEqual(
        printed(await run(config, 'orgCommand', ['set-ais-upload', id, 'shared'], { json: true })),
        { id, name: 'Pilot Boats', ais_upload: 'shared', previous: 'off', changed: true },
      );
      assert.equal((await new OrganisationGrants(server).of(id)).ais_upload, 'shared', 'a running server sees it at once');
      assert.equal(printed(await run(config, 'orgCommand', ['set-ais-upload', id, 'shared'], { json: true })).changed, false);
      const text = await run(config, 'orgCommand', ['set-ais-upload', id, 'off']);
      assert.equal(text.stdout, `${id} "Pilot Boats": AIS uploads off (were shared); its keys may not upload.\n`);
      assert.equal((await new OrganisationGrants(server).of(id)).ais_upload, 'off');
      const audit = await listAudit(server, id);
      assert.deepEqual(audit.data.filter((e) => e.action === 'ais_upload.changed').map((e) => [e.actor, e.target, e.detail]), [
        ['operator', id, { from: 'shared', to: 'off' }],
        ['operator', id, { from: 'off', to: 'shared' }],
      ]);
      const missing = await run(config, 'orgCommand', ['set-ais-upload', 'org_nosuchorg00000', 'shared']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /^lamis org: no organisation "org_nosuchorg00000"/);
    });

    test('org set-slot-share grants an organisation another share of each airport hour, audited', async () => {
      const id = await newOrg();
      assert.equal((await new OrganisationGrants(server).of(id)).slot_share, null, 'the instance\'s share until an operator grants another');
      assert.deepEqual(
        printed(await run(config, 'orgCommand', ['set-slot-share', id, '0.8'], { json: true })),
        { id, name: 'Pilot Boats', slot_share: 0.8, previous: null, changed: true },
      );
      assert.equal((await new OrganisationGrants(server).of(id)).slot_share, 0.8);
      const text = await run(config, 'orgCommand', ['set-slot-share', id, 'default']);
      assert.equal(text.stdout, `${id} "Pilot Boats": slot share back to the instance's (LAMIS_SLOT_FAIR_SHARE; was 0.8).\n`);
      assert.equal((await new OrganisationGrants(server).of(id)).slot_share, null);
      const audit = await listAudit(server, id);
      assert.deepEqual(audit.data.filter((e) => e.action === 'slot_share.changed').map((e) => e.detail), [{ from: 0.8, to: null }, { from: null, to: 0.8 }]);
    });

    test('keys create prints the secret once, and a running server accepts it at once', async () => {
      const org = await newOrg();
      const created = printed(await run(config, 'keysCommand', ['create'], { org, env: 'production', name: 'ais feed', json: true }));
      assert.equal(created.org, org);
      assert.equal(created.env, 'production');
      assert.equal(created.name, 'ais feed');
      assert.match(created.id as string, /^key_[0-9A-Za-z]{16}$/);
      assert.match(created.secret as string, /^lamis_live_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
      assert.deepEqual(await serverKeys.verify(created.secret as string), {
        ok: true,
        principal: { key_id: created.id, organisation_id: org, environment: 'production', admin: false },
      });

      const text = await run(config, 'keysCommand', ['create'], { org, env: 'development', name: 'laptop', expires: '2099-01-01T00:00:00Z' });
      assert.equal(text.code, 0);
      const [line, secret] = text.stdout.trimEnd().split('\n');
      assert.match(line!, new RegExp(`^Created development key key_[0-9A-Za-z]{16} "laptop" for ${org}\\. Its secret, shown only this once:$`));
      assert.equal((await serverKeys.verify(secret!)).ok, true);
    });

    test('keys list shows prefix and last four characters, never the secret', async () => {
      const org = await newOrg();
      const created = printed(await run(config, 'keysCommand', ['create'], { org, env: 'development', name: 'ci', json: true }));
      const secret = created.secret as string;
      const listing = await run(config, 'keysCommand', ['list'], { org, json: true });
      const listed = printed(listing);
      assert.equal(listed.org, org);
      const [key] = listed.data as Record<string, unknown>[];
      assert.equal((listed.data as unknown[]).length, 1);
      assert.equal(key!.id, created.id);
      assert.equal(key!.prefix, 'lamis_test_');
      assert.equal(key!.last4, secret.slice(-4));
      assert.equal(key!.status, 'active');
      assert.equal(listing.stdout.includes(secret.slice(11, -7)), false);
      assert.equal('secret' in key! || 'secret_hash' in key!, false);

      const table = await run(config, 'keysCommand', ['list'], { org });
      const lines = table.stdout.trimEnd().split('\n');
      assert.match(lines[0]!, /^ID +ENV +KEY +STATUS +CREATED +LAST USED +NAME$/);
      assert.match(lines[1]!, new RegExp(`^${created.id} +development +lamis_test_…${secret.slice(-4)} +active +\\S+ +- +ci$`));
      assert.equal(table.stdout.includes(secret.slice(11, -7)), false);
    });

    test('keys revoke: the key is refused (by running servers once their key cache time is over)', async () => {
      const org = await newOrg();
      const created = printed(await run(config, 'keysCommand', ['create'], { org, env: 'development', name: 'old', json: true }));
      const revoked = printed(await run(config, 'keysCommand', ['revoke', created.id as string], { json: true }));
      assert.equal(revoked.id, created.id);
      assert.equal(revoked.status, 'revoked');
      assert.equal(typeof revoked.revoked_at, 'string');
      // A store that has not cached the key yet, as a server would be once its cache time is over.
      assert.deepEqual(await new KeyStore(server).verify(created.secret as string), { ok: false, reason: 'revoked' });
      const audit = await listAudit(server, org);
      assert.ok(audit.data.some((e) => e.action === 'key.revoked' && e.actor === 'operator' && e.target === created.id));
      const missing = await run(config, 'keysCommand', ['revoke', 'key_nosuchkey00000']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /^lamis keys: no key "key_nosuchkey00000"/);
    });

    test('keys create and list need an existing organisation', async () => {
      for (const [action, values] of [['create', { env: 'development', name: 'x' }], ['list', {}]] as const) {
        const result = await run(config, 'keysCommand', [action], { org: 'org_nosuchorg00000', ...values, json: true });
        assert.equal(result.code, 1);
        assert.equal(result.stdout, '');
        assert.match(result.stderr, /no organisation "org_nosuchorg00000"/);
      }
    });

    test('usage shows what the servers flushed, per key and day', async () => {
      const org = await newOrg('pro');
      const created = printed(await run(config, 'keysCommand', ['create'], { org, env: 'production', name: 'feed', json: true }));
      const check = await serverKeys.verify(created.secret as string);
      assert.equal(check.ok, true);
      const meter = new UsageMeter(server);
      if (check.ok) {
        meter.record(check.principal, 'request');
        meter.record(check.principal, 'request');
        meter.record(check.principal, 'stream');
      }
      await meter.close();
      // Two days: the one the meter counted in is among them even if midnight UTC has passed since.
      const shown = printed(await run(config, 'usageCommand', [], { org, days: '2', json: true }));
      assert.equal(shown.org, org);
      const [row, ...more] = shown.data as { day: string }[];
      assert.equal(more.length, 0);
      assert.deepEqual(row, { day: row!.day, key_id: created.id, requests: 2, streams: 1 });
      assert.ok((shown.from as string) <= row!.day && row!.day <= (shown.to as string));
      const text = await run(config, 'usageCommand', [], { org: await newOrg() });
      assert.match(text.stdout, /^No usage recorded for org_\w+ from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\.\n$/);
    });
  });
}

describe('operator command arguments', () => {
  const config = testConfig();
  after(() => config.cleanup());

  test('wrong arguments are usage errors, raised before storage is opened', async () => {
    const cases: [typeof orgCommand, string[], Record<string, string>, RegExp][] = [
      [orgCommand, [], {}, /give a subcommand: create, set-plan, set-ais-upload or set-slot-share/],
      [orgCommand, ['delete'], {}, /unknown subcommand "delete"/],
      [orgCommand, ['create'], { plan: 'pro' }, /--name is required/],
      [orgCommand, ['create'], { name: 'x', plan: 'gold' }, /--plan must be one of starter\|pro\|enterprise/],
      [orgCommand, ['set-plan', 'org_x'], {}, /set-plan takes the organisation id and the plan/],
      [orgCommand, ['set-plan', 'org_x', 'free'], {}, /the plan must be one of/],
      [orgCommand, ['set-ais-upload', 'org_x'], {}, /set-ais-upload takes the organisation id and shared or off/],
      [orgCommand, ['set-ais-upload', 'org_x', 'on'], {}, /AIS uploads are shared or off \(got "on"\)/],
      [orgCommand, ['set-slot-share', 'org_x'], {}, /set-slot-share takes the organisation id and a share/],
      [orgCommand, ['set-slot-share', 'org_x', '1.5'], {}, /the share is a fraction from 0 to 1, or default \(got "1.5"\)/],
      [orgCommand, ['set-slot-share', 'org_x', 'half'], {}, /the share is a fraction from 0 to 1/],
      [keysCommand, ['rotate'], {}, /unknown subcommand "rotate"/],
      [keysCommand, ['create'], { env: 'development', name: 'x' }, /--org is required/],
      [keysCommand, ['create'], { org: 'org_x', env: 'staging', name: 'x' }, /--env must be development or production/],
      [keysCommand, ['create'], { org: 'org_x', env: 'production' }, /--name is required/],
      [keysCommand, ['revoke'], {}, /revoke takes the id of one key/],
      [keysCommand, ['list'], {}, /--org is required/],
      [usageCommand, [], {}, /--org is required/],
      [usageCommand, [], { org: 'org_x', days: '0' }, /--days must be a whole number from 1 to 366/],
      [usageCommand, [], { org: 'org_x', days: 'week' }, /--days must be a whole number/],
    ];
    // A database URL nothing listens on: opening storage would fail differently.
    const unreachable = { ...config, databaseUrl: 'postgres://nobody@127.0.0.1:1/none', databaseTimeoutMs: 100 };
    for (const [command, positionals, values, message] of cases) {
      await assert.rejects(command.run({ config: unreachable, positionals, values }), (error: Error) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.match(error.message, message);
        return true;
      });
    }
  });

  test('input the stores refuse is a usage error too', async () => {
    const database = openDatabase(config);
    let orgId: string;
    try {
      await migrate(database.db, database.dialect, [accountsMigration]);
      orgId = (await new Organisations(database).create({ name: 'Expiry', plan: 'pro', actor: 'operator' })).id;
    } finally {
      await database.close();
    }
    const values = { org: orgId, env: 'development', name: 'x', expires: '2001-01-01T00:00:00Z' };
    await assert.rejects(keysCommand.run({ config, positionals: ['create'], values }), (error: Error) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.message, /the expiry must be in the future/);
      return true;
    });
  });
});
