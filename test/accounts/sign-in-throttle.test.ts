// The sign-in throttle under concurrency, over HTTP: 200 guesses at one account sent at once are
// not all checked. Each attempt takes its place in the account's count before its password is
// checked, so at most 5 passwords are ever checked (answered 401 `sign_in_failed`); the rest are
// refused unchecked with 429 `too_many_attempts`, the right password among them. On one instance
// (counters in the process) and on two instances sharing Redis (LAMIS_TEST_REDIS_URL), the
// guesses spread over both. One at a time, sessions.test.ts covers the same limits.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Config } from '../../src/config.ts';
import { redisUrl, skipRedis } from '../support/backends.ts';
import { json } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const PASSWORD = 'the right password at last';
const GUESSES = 200;

/** An address of its own per run, so runs sharing a Redis do not share its count. */
const randomAddress = () => `10.${[...randomBytes(3)].join('.')}`;

const SETUPS: { name: string; skip: string | false; instances: number; config(): Partial<Config> & { cleanup?(): void } }[] = [
  { name: 'one instance, counters in the process', skip: false, instances: 1, config: () => ({}) },
  {
    name: 'two instances sharing Redis',
    skip: skipRedis,
    instances: 2,
    config() {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-shared-'));
      return { dataDir, redisUrl, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
    },
  },
];

for (const setup of SETUPS) {
  describe(`sign-in throttle under concurrency: ${setup.name}`, { skip: setup.skip, timeout: 120_000 }, () => {
    let instances: TestServer[] = [];
    let cleanup: (() => void) | undefined;

    const signIn = (instance: TestServer, email: string, password: string, address: string) =>
      fetch(`${instance.url}/v3/accounts/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ email, password }),
      });

    before(async () => {
      const { cleanup: remove, ...config } = setup.config();
      cleanup = remove;
      // One after the other: the first migrates the shared storage.
      for (let i = 0; i < setup.instances; i++) instances.push(await startTestServer({ config: { ...config, trustProxy: true } }));
    });
    after(async () => {
      await Promise.all(instances.map((instance) => instance.close()));
      instances = [];
      cleanup?.();
    });

    test(`${GUESSES} guesses at once: at most 5 passwords are checked, the right one is refused`, async () => {
      const email = `target-${randomBytes(4).toString('hex')}@example.com`;
      const signUp = await fetch(`${instances[0]!.url}/v3/accounts/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': randomAddress() },
        body: JSON.stringify({ full_name: 'Target Account', email, password: PASSWORD }),
      });
      assert.equal(signUp.status, 201, await signUp.text());

      const address = randomAddress();
      const statuses: number[] = [];
      let firstRefusal!: () => void;
      const refused = new Promise<void>((resolve) => (firstRefusal = resolve));
      const wrong = Array.from({ length: GUESSES - 1 }, async (_, i) => {
        const response = await signIn(instances[i % instances.length]!, email, `wrong guess ${i}`, address);
        statuses.push(response.status);
        if (response.status === 429) firstRefusal();
        return response;
      });
      // Once one guess is refused, the account's places are all taken: the right password, sent
      // while the other guesses are still in flight, must be refused without being checked.
      await Promise.race([refused, Promise.allSettled(wrong)]);
      const right = await signIn(instances.at(-1)!, email, PASSWORD, address);
      const answers = await Promise.all(wrong);

      const checked = statuses.filter((status) => status === 401).length;
      const throttled = statuses.filter((status) => status === 429).length;
      console.log(`${setup.name}: ${GUESSES - 1} wrong guesses at once: ${checked} checked (401), ${throttled} refused unchecked (429); the right password: ${right.status}`);
      assert.equal(checked + throttled, GUESSES - 1, `only 401 and 429: ${statuses.join(',')}`);
      assert.equal(checked, 5, 'passwords checked');
      for (const answer of answers) {
        const body = await json(answer);
        assert.equal(body.code, answer.status === 401 ? 'sign_in_failed' : 'too_many_attempts');
        if (answer.status === 429) assert.ok(Number(answer.headers.get('retry-after')) > 14 * 60);
      }
      assert.equal(right.status, 429, 'the right password came after the fifth guess');
      assert.equal((await json(right)).code, 'too_many_attempts');
    });
  });
}
