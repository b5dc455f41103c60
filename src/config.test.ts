import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SETTINGS, loadConfig } from './config.ts';
import { ConfigError } from './platform/config/index.ts';

test('the embedded defaults need no environment', () => {
  const config = loadConfig({});
  assert.equal(config.port, 8080);
  assert.equal(config.dataDir, './data');
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.redisUrl, undefined);
  assert.equal(config.natsUrl, undefined);
  assert.equal(config.logLevel, 'info');
  assert.deepEqual(config.corsOrigins, []);
});

test('environment variables are read and flags win over them', () => {
  const config = loadConfig(
    { PORT: '9000', DATABASE_URL: 'postgres://u@db:5432/lamis', LOG_LEVEL: 'DEBUG', LAMIS_CORS_ORIGINS: 'https://a.example, https://b.example:8443' },
    { port: '9100' },
  );
  assert.equal(config.port, 9100);
  assert.equal(config.databaseUrl, 'postgres://u@db:5432/lamis');
  assert.equal(config.logLevel, 'debug');
  assert.deepEqual(config.corsOrigins, ['https://a.example', 'https://b.example:8443']);
});

test('every bad value is reported at once, naming its variable or flag', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty', REDIS_URL: 'localhost:6379', NATS_URL: 'http://127.0.0.1:4222', LAMIS_CORS_ORIGINS: 'https://a.example/path' }, { 'log-level': 'loud' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 5);
      assert.match(error.message, /PORT: must be a whole number from 0 to 65535 \(got "eighty"\)/);
      assert.match(error.message, /REDIS_URL: must be a URL starting with redis:\/\/ or rediss:\/\//);
      assert.match(error.message, /NATS_URL: must be a URL starting with nats:\/\/ or tls:\/\//);
      assert.match(error.message, /LAMIS_CORS_ORIGINS: "https:\/\/a.example\/path" is not an origin/);
      assert.match(error.message, /--log-level: must be one of fatal/);
      return true;
    },
  );
});

test('an empty URL variable means unset', () => {
  assert.equal(loadConfig({ DATABASE_URL: '' }).databaseUrl, undefined);
});

test('every setting has a distinct key, variable and flag', () => {
  // The platform's and each feature's tables are concatenated: a key twice would merge their types.
  assert.equal(new Set(SETTINGS.map((s) => s.key)).size, SETTINGS.length);
  assert.equal(new Set(SETTINGS.map((s) => s.env)).size, SETTINGS.length);
  assert.equal(new Set(SETTINGS.map((s) => s.flag)).size, SETTINGS.length);
});

test('the slot fair share is a fraction from 0 to 1', () => {
  assert.equal(loadConfig({}).slotFairShare, 0.5);
  assert.equal(loadConfig({ LAMIS_SLOT_FAIR_SHARE: '0.25' }).slotFairShare, 0.25);
  assert.equal(loadConfig({ LAMIS_SLOT_FAIR_SHARE: '1' }).slotFairShare, 1);
  for (const bad of ['1.5', '-0.1', 'half', '']) {
    assert.throws(() => loadConfig({ LAMIS_SLOT_FAIR_SHARE: bad }), /LAMIS_SLOT_FAIR_SHARE: must be a fraction from 0 to 1/, bad);
  }
});
