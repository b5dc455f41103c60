// What the intelligence engine's end-to-end tests share: a real server on real storage whose event
// changes are counted on the shared Redis bus it publishes on, calls with the operator key, and
// waiting for an event to reach a state.
import { eventChanges, type EventChange } from '../../src/events/index.ts';
import type { Config } from '../../src/config.ts';
import { openBus, type Bus } from '../../src/platform/bus/index.ts';
import { redisUrl } from '../support/backends.ts';
import { callOk } from '../support/http.ts';
import { AUTH, startTestServer, testConfig, type TestServer } from '../support/server.ts';

export interface EngineServer {
  config: Config & { cleanup(): void };
  server: TestServer;
  /** A call with the operator key; asserts a 2xx answer and answers its JSON body (null for 204). */
  call(method: string, path: string, body?: unknown): Promise<any>;
  /** The events of this kind about this subject, newest first. */
  events(kind: string, subjectId: string): Promise<any[]>;
  /** Waits (at most `seconds`) for the newest such event to be in `state`. */
  until(kind: string, subjectId: string, state: 'open' | 'cleared', what: string, seconds?: number): Promise<any>;
  /** After the server had a moment to evaluate, the changes of events about this subject seen so far. */
  settledChanges(subjectId: string, kinds?: string | readonly string[]): Promise<string[]>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startEngine(overrides: Partial<Config>): Promise<EngineServer> {
  const config = testConfig({ redisUrl, ...overrides });
  const bus: Bus = await openBus(config, (error) => { throw error; });
  const changes: EventChange[] = [];
  await bus.subscribe(eventChanges, (change) => changes.push(change));
  let server = await startTestServer({ config });
  const engine: EngineServer = {
    config,
    get server() {
      return server;
    },
    call: (method, path, body) => callOk(server.url, method, path, body, AUTH),
    async events(kind, subjectId) {
      return (await engine.call('GET', `/v3/events?kind=${kind}&subject_id=${encodeURIComponent(subjectId)}`)).data;
    },
    async until(kind, subjectId, state, what, seconds = 10) {
      const deadline = Date.now() + seconds * 1000;
      for (;;) {
        const [newest] = await engine.events(kind, subjectId);
        if (newest?.state === state) return newest;
        if (Date.now() > deadline) throw new Error(`no ${what} within ${seconds} s (newest: ${JSON.stringify(newest)})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async settledChanges(subjectId, kinds) {
      const wanted = kinds === undefined ? null : [kinds].flat();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return changes.filter((change) => change.event.subject.id === subjectId && (wanted === null || wanted.includes(change.event.kind))).map((change) => change.change);
    },
    async restart() {
      await server.close();
      server = await startTestServer({ config });
    },
    async close() {
      await server?.close();
      await bus.close();
      config.cleanup();
    },
  };
  return engine;
}
