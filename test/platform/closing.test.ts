// Closing the service: every feature stops its own work (which may still read, write or publish as
// it stops) before storage and the bus close. Fastify runs onClose hooks last registered first, so
// the order hooks are added in decides it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { pino } from 'pino';
import { KeyStore, openAccess } from '../../src/accounts/index.ts';
import type { Config } from '../../src/config.ts';
import { openBus, topic } from '../../src/platform/bus/index.ts';
import { masterKey } from '../../src/platform/crypto/index.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import type { Feature } from '../../src/platform/feature.ts';
import { Readiness } from '../../src/platform/health.ts';
import { ReferenceData } from '../../src/platform/reference-data.ts';
import { buildServer } from '../../src/server.ts';
import { testConfig } from '../support/server.ts';

test('a feature stopping in its onClose hook still has storage and the bus', async () => {
  const config = testConfig();
  const logger = pino({ level: 'silent' });
  const database = openDatabase(config);
  const bus = await openBus(config, () => {});
  const keys = new KeyStore(database, { announce: async () => {}, onError: () => {} });
  const access = await openAccess(config, database, keys, logger);
  const stopped: unknown[] = [];
  const lastWords = topic<{ word: string }>('test.last-words');
  const feature: Feature<Config> = async ({ app, database: storage, bus: channel }) => {
    app.addHook('onClose', async () => {
      stopped.push((await sql<{ one: number }>`select 1 as one`.execute(storage.db)).rows[0]!.one);
      await channel.publish(lastWords, { word: 'goodbye' });
      stopped.push('published');
    });
  };
  let app: Awaited<ReturnType<typeof buildServer>> | null = null;
  try {
    app = await buildServer({
      config, database, bus, readiness: new Readiness(), reference: new ReferenceData(), access,
      masterKey: masterKey({ fromEnv: config.masterKey, dataDir: config.dataDir }), features: [feature],
    }, logger);
    await app.ready();
    await app.close();
    assert.deepEqual(stopped, [1, 'published']);
    // And then they are closed.
    await assert.rejects(sql`select 1`.execute(database.db), /destroyed/);
  } finally {
    // Had the service not been built, what it would have closed is closed here.
    if (app === null) await Promise.all([access.close(), bus.close(), database.close()]);
    config.cleanup();
  }
});
