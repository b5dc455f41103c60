// A real LAMIS server on a loopback port with its own temporary data folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { defaultConfig, type Config } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';

/** The API key every test server accepts. */
export const TEST_API_KEY = 'operator_test_key_0123456789';
export const AUTH = { authorization: `Bearer ${TEST_API_KEY}` };

/** Compiled reference data is shared by every test server, so only the first one compiles it. */
export const REFERENCE_CACHE = path.join(tmpdir(), 'lamis-test-reference-cache');

/**
 * Simulators are off unless a test turns them on, so each test sees only the data it sends. The AIS
 * streams are served on the serving thread unless a test asks for stream processes (the
 * stream-*processes tests do).
 */
export function testConfig(overrides: Partial<Config> = {}): Config & { cleanup(): void } {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-test-'));
  return {
    ...defaultConfig({ port: 0, host: '127.0.0.1', logLevel: 'silent', dataDir, apiKeys: [TEST_API_KEY], aisSimulator: 'off', aviationSimulators: 'off', streamProcesses: 0, referenceCacheDir: REFERENCE_CACHE, ...overrides }),
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

export async function startTestServer(
  options: { config?: Partial<Config>; logger?: FastifyBaseLogger; beforeListen?: Parameters<typeof startServer>[2] } = {},
) {
  const config = testConfig(options.config);
  const app = await startServer(config, options.logger ?? pino({ level: 'silent' }), options.beforeListen);
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  return {
    app,
    config,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close();
      config.cleanup();
    },
  };
}
