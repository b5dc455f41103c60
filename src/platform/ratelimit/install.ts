// Rate limits and load shedding for the API: every /v3 request made with an API key is checked
// against its budget (see `budgetFor`) and answers with the RateLimit headers (see
// `rateLimitHeaders`). Requests without a principal (public routes, failed authentication, routes
// outside /v3) are neither counted nor given the headers.
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../http/auth.ts';
import { ProblemError, problemType } from '../http/problems.ts';
import { RateLimiter, rateLimitHeaders, type Decision } from './limiter.ts';
import { WINDOW_SECONDS, type Plan } from '../../../common/plans.ts';
import type { LoadShedder, OverloadReason } from './shedder.ts';
import type { CounterStore } from './store.ts';

export const rateLimited = problemType({
  code: 'rate_limited',
  status: 429,
  title: 'Too many requests',
  description:
    "The request is over its rate limit. Production keys share their organisation's budget (Starter 100, Pro 1,000 " +
    'requests a minute, Enterprise no cap); each development key has a tenth of its plan\'s rate, at most 60 a minute. ' +
    'Retry after `Retry-After` seconds; the `RateLimit` and `X-RateLimit-*` headers of every response show what is left.',
});

export const overloaded = problemType({
  code: 'overloaded',
  status: 503,
  title: 'Service overloaded',
  description:
    'The service is under heavy load and turns development-key requests and streams away first so that production traffic keeps ' +
    'going. `reason` says why: `in_flight` (too many requests in flight), `event_loop` (the event loop running late for a ' +
    'sustained time) or `ingest` (AIS ingest falling behind: positions coalesce or feed lines are shed). Retry after `Retry-After` seconds.',
});

/** The 503 a development key gets while the instance is overloaded for `reason`. */
export function overloadRefused(shedder: LoadShedder, reason: OverloadReason): ProblemError {
  return new ProblemError(overloaded,
    `The service is overloaded (${shedder.describe(reason)}) and serves production keys first; retry with a production key or later.`, {
      headers: { 'Retry-After': String(shedder.retryAfterSeconds) },
      extra: { reason },
    });
}

export interface RateLimitOptions {
  store: CounterStore;
  /** The plan the principal's organisation is on; `null` exempts the principal from limits. */
  planOf(principal: Principal): Plan | null | Promise<Plan | null>;
  /** Sheds development-key requests under overload; none: nothing is shed. */
  shedder?: LoadShedder;
  clock?: () => number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Turned away by shedding or a spent budget: not served, so not counted as usage. */
    refusedByLimits: boolean;
  }
}

/** Like installAuth, call it on the root instance before the routes are registered. */
export function installRateLimits(app: FastifyInstance, options: RateLimitOptions): void {
  const limiter = new RateLimiter({ store: options.store, clock: options.clock });
  const { shedder } = options;
  // Routes that take an API key say in the OpenAPI document how limits and shedding answer
  // (installAuth has set their security by now).
  app.addHook('onRoute', (route) => {
    const security = route.schema?.security as Record<string, unknown>[] | undefined;
    if (!security?.some((scheme) => 'apiKey' in scheme)) return;
    const problems: Record<number, string> = {
      ...route.config?.problemResponses,
      429: "`rate_limited`: over the key's or the organisation's budget; retry after `Retry-After` seconds",
    };
    if (shedder) {
      problems[503] = '`overloaded`: a development key while this instance is overloaded, with `Retry-After` and `reason` ' +
        '(`in_flight`, `event_loop` or `ingest`); production keys are never shed. `service_unavailable` while the server shuts down';
    }
    route.config = { ...route.config, problemResponses: problems };
  });
  if (shedder) {
    // The event loop is judged from the moment the server listens: start-up work is no overload.
    app.addHook('onListen', async () => shedder.startMeasuring());
    // 'close' fires once for every response, including those whose client went away.
    app.addHook('onRequest', async (_request, reply) => {
      reply.raw.once('close', shedder.track());
    });
  }
  // preParsing runs after every onRequest hook, the per-route one installAuth adds included, so the
  // principal is known; and before the body is read, so a refused request costs little.
  app.decorateRequest('refusedByLimits', false);
  app.addHook('preParsing', async (request, reply) => {
    const principal = request.principal;
    if (!principal) return;
    const shed = shedder?.sheds(principal.environment);
    if (shedder && shed) {
      request.refusedByLimits = true;
      throw overloadRefused(shedder, shed);
    }
    const plan = await options.planOf(principal);
    let decision: Decision;
    try {
      decision = await limiter.check(principal, plan);
    } catch (error) {
      // A limiter that cannot reach its store must not take the API down with it.
      request.log.warn({ err: error }, 'rate limit not checked');
      return;
    }
    const headers = rateLimitHeaders(decision);
    if (decision.limited && !decision.allowed) {
      request.refusedByLimits = true;
      const whose = decision.policy === 'organisation' ? "The organisation's" : "This key's";
      throw new ProblemError(rateLimited,
        `${whose} budget of ${decision.quota} requests per ${WINDOW_SECONDS} s is used up; retry in ${decision.resetSeconds} s.`, {
          headers,
          extra: { retry_after: decision.resetSeconds, 'violated-policies': [decision.policy] },
        });
    }
    reply.headers(headers);
  });
}
