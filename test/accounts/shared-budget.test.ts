// Two LAMIS instances on one storage (one SQLite data folder, or PostgreSQL with
// LAMIS_TEST_DATABASE_URL) and one Redis (LAMIS_TEST_REDIS_URL) enforce one budget over HTTP: a
// Starter organisation's production key made with the operator commands gets 100 requests a
// minute spread over both, and the 101st is refused on either with 429, `Retry-After`, a problem
// document and the rate-limit headers. The limiter's own suite (src/platform/ratelimit) races two
// stores without HTTP; test/accounts/keys-http.test.ts covers one instance.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import type { Config } from '../../src/config.ts';
import { freshPostgresSchema, postgresUrl, redisUrl, skipPostgres, skipRedis } from '../support/backends.ts';
import { json } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;
/** Where the server keeps its counters in Redis (src/platform/ratelimit/index.ts). */
const COUNTER_PREFIX = 'lamis:ratelimit:';

interface SharedStorage {
  /** What both servers and the `lamis` commands are given. */
  config: Partial<Config>;
  env: Record<string, string>;
  remove(): Promise<void>;
}

const STORAGE: { name: string; skip: string | false; open(): Promise<SharedStorage> }[] = [
  {
    name: 'one SQLite data folder',
    skip: skipRedis,
    async open() {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-shared-'));
      return { config: { dataDir }, env: { LAMIS_DATA_DIR: dataDir }, remove: async () => rmSync(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: skipRedis || skipPostgres,
    async open() {
      const { schema, drop } = await freshPostgresSchema();
      const url = new URL(postgresUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-shared-'));
      return {
        config: { databaseUrl: url.toString(), dataDir },
        env: { DATABASE_URL: url.toString(), LAMIS_DATA_DIR: dataDir },
        async remove() {
          await drop();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];

for (const storage of STORAGE) {
  describe(`two instances on ${storage.name} and Redis share one rate-limit budget`, { skip: storage.skip, timeout: 90_000 }, () => {
    let shared: SharedStorage;
    let instances: TestServer[] = [];
    let redis: Redis;

    async function lamis(...args: string[]): Promise<any> {
      const { stdout } = await run(process.execPath, [bin, ...args, '--json'], { env: { ...process.env, ...shared.env } });
      return JSON.parse(stdout);
    }

    async function starterKey(name: string): Promise<{ org: string; secret: string }> {
      const org = await lamis('org', 'create', '--name', name, '--plan', 'starter');
      const key = await lamis('keys', 'create', '--org', org.id, '--env', 'production', '--name', 'dispatch');
      return { org: org.id, secret: key.secret };
    }

    const call = (instance: TestServer, secret: string) =>
      fetch(`${instance.url}/v3/maritime/flags`, { headers: { authorization: `Bearer ${secret}` } });

    before(async () => {
      shared = await storage.open();
      // One after the other: the first migrates the storage and makes the master key file.
      for (let i = 0; i < 2; i++) instances.push(await startTestServer({ config: { ...shared.config, redisUrl } }));
      redis = new Redis(redisUrl!);
    });
    after(async () => {
      await Promise.all(instances.map((instance) => instance.close()));
      instances = [];
      await redis?.quit();
      await shared?.remove();
    });

    test('100 requests over both pass, counting down one budget; the 101st is refused on either', async () => {
      const { org, secret } = await starterKey('Two Harbours');
      const started = Date.now();
      for (let i = 1; i <= 100; i++) {
        const response = await call(instances[i % 2]!, secret);
        assert.equal(response.status, 200, `request ${i}`);
        await response.arrayBuffer();
        assert.equal(response.headers.get('ratelimit-policy'), '"organisation";q=100;w=60');
        assert.match(response.headers.get('ratelimit') ?? '', new RegExp(`^"organisation";r=${100 - i};t=\\d+$`), `request ${i}`);
        assert.equal(response.headers.get('x-ratelimit-limit'), '100');
        assert.equal(response.headers.get('x-ratelimit-remaining'), String(100 - i));
      }
      assert.ok(Date.now() - started < 50_000, 'the requests must fall within one window');
      // The budget is one log in Redis, not one per instance.
      assert.equal(await redis.zcard(`${COUNTER_PREFIX}req:org:${org}`), 100);

      for (const instance of instances) {
        const refused = await call(instance, secret);
        assert.equal(refused.status, 429);
        assert.equal(refused.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        const retryAfter = Number(refused.headers.get('retry-after'));
        assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
        assert.equal(refused.headers.get('ratelimit-policy'), '"organisation";q=100;w=60');
        assert.equal(refused.headers.get('ratelimit'), `"organisation";r=0;t=${retryAfter}`);
        assert.equal(refused.headers.get('x-ratelimit-limit'), '100');
        assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
        assert.equal(refused.headers.get('x-ratelimit-reset'), String(retryAfter));
        const problem = await json(refused);
        assert.equal(problem.type, '/problems/rate_limited');
        assert.equal(problem.code, 'rate_limited');
        assert.equal(problem.status, 429);
        assert.equal(problem.instance, '/v3/maritime/flags');
        assert.equal(problem.retry_after, retryAfter);
        assert.deepEqual(problem['violated-policies'], ['organisation']);
        assert.match(problem.detail, /organisation's budget of 100 requests per 60 s is used up/);
      }
      // Refusals are not counted.
      assert.equal(await redis.zcard(`${COUNTER_PREFIX}req:org:${org}`), 100);
    });

    test('another organisation on the same instances has a budget of its own', async () => {
      const { secret } = await starterKey('Third Harbour');
      for (const instance of instances) {
        const response = await call(instance, secret);
        assert.equal(response.status, 200);
        await response.arrayBuffer();
      }
      const third = await call(instances[0]!, secret);
      assert.equal(third.headers.get('x-ratelimit-remaining'), '97');
    });
  });
}
