// The account settings as `loadConfig` reads them from the environment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { ConfigError } from '../../src/platform/config/index.ts';

test('LAMIS_PUBLIC_URL is an http(s) base without its trailing slash', () => {
  assert.equal(loadConfig({}).publicUrl, undefined);
  assert.equal(loadConfig({ LAMIS_PUBLIC_URL: 'https://lamis.example.com/' }).publicUrl, 'https://lamis.example.com');
  assert.equal(loadConfig({ LAMIS_PUBLIC_URL: 'https://example.com/lamis' }).publicUrl, 'https://example.com/lamis');
  for (const bad of ['ftp://example.com', 'https://example.com/?a=1', 'https://example.com/#x', 'lamis.example.com']) {
    assert.throws(() => loadConfig({ LAMIS_PUBLIC_URL: bad }), (error) => error instanceof ConfigError && /^LAMIS_PUBLIC_URL: /.test(error.problems[0]!), bad);
  }
});

test('session lifetimes are whole minutes and hours', () => {
  const config = loadConfig({ LAMIS_SESSION_IDLE_MINUTES: '15', LAMIS_SESSION_MAX_HOURS: '8' });
  assert.deepEqual([config.sessionIdleMinutes, config.sessionMaxHours], [15, 8]);
  assert.deepEqual([loadConfig({}).sessionIdleMinutes, loadConfig({}).sessionMaxHours], [30, 12]);
  assert.throws(() => loadConfig({ LAMIS_SESSION_IDLE_MINUTES: '0', LAMIS_SESSION_MAX_HOURS: '1.5' }),
    (error) => error instanceof ConfigError && error.problems.length === 2);
});
