// One feature of the service built in process, with no listening socket: route tests beside the
// route files call it with `inject()`, on a fresh SQLite file with the simulators off.
import { pino } from 'pino';
import type { Config } from '../../src/config.ts';
import { openService, type FeatureName } from '../../src/server.ts';
import { AUTH, testConfig } from './server.ts';

export type InProcess = Awaited<ReturnType<typeof featureApp>>;

export async function featureApp(features: readonly FeatureName[], overrides: Partial<Config> = {}) {
  const config = testConfig(overrides);
  const { app } = await openService(config, pino({ level: 'silent' }), features);
  await app.ready();
  return {
    app,
    /** The configuration it runs with: its storage, for seeding it. */
    config,
    /** A request with the operator key, answering status, headers and the body as JSON (or text). */
    async call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) {
      const response = await app.inject({ method, url, headers: { ...AUTH, ...headers }, ...(payload === undefined ? {} : typeof payload === 'string' ? { payload } : { payload: payload as object }) });
      const type = String(response.headers['content-type'] ?? '');
      return { status: response.statusCode, headers: response.headers, body: /json/.test(type) ? response.json() : response.body };
    },
    async close() {
      await app.close();
      config.cleanup();
    },
  };
}
