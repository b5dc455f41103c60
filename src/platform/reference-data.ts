// Reference data that loads after the service starts listening (the airport index, the port data
// and port areas, the sea-lane network): a start does not wait for it, and nothing answers from
// data that is not there yet.
//
// Each feature names what it loads (`load`) and the paths of its routes that read it (prefixes, or
// patterns for a route with a parameter before what it reads); until the load is done,
// `Loading.value` throws a 503 `reference_data_loading` with Retry-After, and after a failed load a
// 503 `service_unavailable`, so a half-loaded index never answers "not found".
// Requests to those paths that arrive while it loads first wait for it, up to REFERENCE_WAIT_MS
// (`installReferenceWait`), so a client that calls right after the start gets its answer, a
// moment late, rather than the 503; other routes are served at once (a check that reads the data
// from another route, as the fleet's and the watch list's of an airport code or a port, waits for
// the load itself).
// /readyz reports `reference_data` as degraded while loading (the instance takes requests), down
// when a load failed.
import type { FastifyInstance } from 'fastify';
import type { HealthResult } from './health.ts';
import { ProblemError, problemType, Problems } from './http/problems.ts';

/** How long a request waits for reference data still loading before it is answered with a 503. */
const REFERENCE_WAIT_MS = 20_000;
/** The Retry-After of that 503, in seconds. */
const RETRY_AFTER_SEC = 2;

const referenceDataLoading = problemType({
  code: 'reference_data_loading', status: 503, title: 'Reference data is still loading',
  description: `LAMIS has just started and is still loading the reference data this request needs (the airport index, the port data and port areas, the sea-lane network); a request waits for it up to ${REFERENCE_WAIT_MS / 1000} s, then gets this answer. Retry after \`Retry-After\` seconds.`,
});

type State<T> = { kind: 'loading' } | { kind: 'loaded'; value: T; ms: number } | { kind: 'failed'; error: Error };

/** One piece of reference data: loading, loaded or failed. */
export class Loading<T> {
  readonly name: string;
  /** Requests whose path starts with one of these strings, or matches one of these patterns, wait for the load. */
  readonly paths: readonly (string | RegExp)[];
  /** Settles when the load does; rejects when it failed. */
  readonly loaded: Promise<T>;
  #state: State<T> = { kind: 'loading' };

  constructor(name: string, paths: readonly (string | RegExp)[], load: () => Promise<T>) {
    this.name = name;
    this.paths = paths;
    const started = performance.now();
    this.loaded = load().then(
      (value) => {
        this.#state = { kind: 'loaded', value, ms: Math.round(performance.now() - started) };
        return value;
      },
      (error: unknown) => {
        this.#state = { kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) };
        throw this.#state.error;
      },
    );
    // Whoever awaits `loaded` sees the failure; unawaited, it is reported by readiness, not as an unhandled rejection.
    this.loaded.catch(() => {});
  }

  get done(): boolean {
    return this.#state.kind !== 'loading';
  }

  /** The data once loaded, else undefined. */
  get current(): T | undefined {
    return this.#state.kind === 'loaded' ? this.#state.value : undefined;
  }

  /** The data; a 503 problem while it loads or when it could not be loaded. */
  get value(): T {
    const state = this.#state;
    if (state.kind === 'loaded') return state.value;
    if (state.kind === 'loading') {
      throw new ProblemError(referenceDataLoading, `The ${this.name} are still loading; retry in a moment.`, { headers: { 'Retry-After': String(RETRY_AFTER_SEC) } });
    }
    throw new ProblemError(Problems.unavailable, `The ${this.name} could not be loaded: ${state.error.message}`, { headers: { 'Retry-After': '60' } });
  }

  /** For /readyz: how long the load took, or what failed. */
  report(): Record<string, unknown> {
    const state = this.#state;
    return state.kind === 'loaded' ? { state: 'loaded', ms: state.ms } : state.kind === 'failed' ? { state: 'failed', error: state.error.message } : { state: 'loading' };
  }
}

/** Every piece of reference data the features load in the background. */
export class ReferenceData {
  readonly #loads: Loading<unknown>[] = [];

  /**
   * Starts loading now. `name` is plural, as said to clients ("airports"); `paths` are the route
   * prefixes ("/v3/aviation/"), or patterns of routes with a parameter before what they read
   * (/^\/v3\/maritime\/vessels\/[^/]+\/eta/), whose requests wait for it.
   */
  load<T>(name: string, paths: readonly (string | RegExp)[], load: () => Promise<T>): Loading<T> {
    const loading = new Loading(name, paths, load);
    this.#loads.push(loading);
    return loading;
  }

  /** The loads still running that a request to `url` waits for. */
  awaitedBy(url: string): Loading<unknown>[] {
    return this.#loads.filter((loading) => !loading.done && loading.paths.some((path) => (typeof path === 'string' ? url.startsWith(path) : path.test(url))));
  }

  readonly check = async (): Promise<HealthResult> => {
    const detail = Object.fromEntries(this.#loads.map((loading) => [loading.name, loading.report()]));
    const states = Object.values(detail).map((report) => report.state);
    return { state: states.includes('failed') ? 'down' : states.includes('loading') ? 'degraded' : 'up', detail };
  };
}

/** Requests wait for the reference data their path reads while it loads, up to `waitMs`. */
export function installReferenceWait(app: FastifyInstance, reference: ReferenceData, waitMs = REFERENCE_WAIT_MS): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const awaited = reference.awaitedBy(request.url);
    if (awaited.length === 0) return done();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    void Promise.race([Promise.allSettled(awaited.map((loading) => loading.loaded)), timeout]).then(() => {
      clearTimeout(timer);
      done();
    });
  });
}
