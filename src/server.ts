// Assembles the fastify app: platform plugins first, then the feature plugins. The app owns the
// storage and bus it is given and closes them when it closes.
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from './config.ts';
import { openBus, type Bus } from './platform/bus/index.ts';
import { openDatabase, type Database } from './platform/db/database.ts';
import { migrate } from './platform/db/migrate.ts';
import { Readiness } from './platform/health.ts';
import { installReferenceWait, ReferenceData } from './platform/reference-data.ts';
import { accounts, apiKeyChanges, KeyStore, openAccess, openMemberDirectory, openMemberGuard } from './accounts/index.ts';
import type { Access } from './platform/http/access.ts';
import { installAuth } from './platform/http/auth.ts';
import { installRateLimits, reportLoad } from './platform/ratelimit/index.ts';
import type { Feature } from './platform/feature.ts';
import { installDeprecation } from './platform/http/deprecation.ts';
import { installErrorHandling, sendProblem } from './platform/http/errors.ts';
import { createMetricsRegistry, instrumentRequests } from './platform/http/metrics.ts';
import { installOpenApi } from './platform/http/openapi.ts';
import { registerOpsRoutes } from './platform/http/ops.ts';
import { ProblemError, Problems } from './platform/http/problems.ts';
import { requestIdFor } from './platform/http/request-id.ts';
import { buildPending } from './platform/http/build-later.ts';
import { serializerFactory } from './platform/http/serialization.ts';
import { AJV_SETTINGS, validatorFactory } from './platform/http/validation.ts';
import { installDashboard } from './platform/http/web.ts';
import { RouteInventory } from './platform/http/routes.ts';
import { masterKey, type MasterKey } from './platform/crypto/index.ts';
import { aviation, LandingWatch } from './aviation/index.ts';
import { events, FeedFrames } from './events/index.ts';
import { fleet, fleetProfiles, openFleetStore } from './fleet/index.ts';
import { intelligence } from './intelligence/index.ts';
import { maritime, MaritimeWatch } from './maritime/index.ts';
import { notifications } from './notifications/index.ts';
import { watchList } from './watchlist/index.ts';
import { webhooks } from './webhooks/index.ts';
import { zones } from './zones/index.ts';
// After the features: the order they are first imported in is the order of the named schemas in the OpenAPI document.
import { MIGRATIONS } from './migrations.ts';

export const VERSION: string = packageJson.version;
export const BODY_LIMIT_BYTES = 1024 * 1024;


export interface Platform {
  config: Config;
  database: Database;
  bus: Bus;
  readiness: Readiness;
  reference: ReferenceData;
  access: Access;
  masterKey: MasterKey;
  /** In the order their routes are registered. */
  features: readonly Feature<Config>[];
}

export function loggerOptions(config: Config) {
  return {
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', 'headers.authorization', 'headers.cookie'],
      censor: '[redacted]',
    },
  };
}

export async function buildServer(platform: Platform, logger: FastifyBaseLogger) {
  const { config, database, bus, readiness, reference } = platform;
  const metrics = createMetricsRegistry();
  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdFor,
    requestIdHeader: false,
    // Fastify's own per-request lines are off: the onResponse hook below writes one line instead.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestTimeout: config.requestTimeoutSec * 1000,
    return503OnClosing: true,
    ajv: AJV_SETTINGS,
    schemaController: { compilersFactory: { buildSerializer: serializerFactory, buildValidator: validatorFactory } },
    frameworkErrors: (error, request, reply) => sendProblem(reply, request, new ProblemError(Problems.badRequest, error.message)),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // GET may carry a JSON body: the landing endpoint takes its fields either way.
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('Request-Id', request.id);
  });
  // One log line per request, after the response. Links mailed to users carry single-use secrets
  // as `token=`, which stay out of the logs.
  app.addHook('onResponse', async (request, reply) => {
    if (request.principal && !request.refusedByLimits) platform.access.recordRequest(request.principal);
    const url = request.url.replace(/([?&]token=)[^&]*/g, '$1[redacted]');
    request.log.info(
      { method: request.method, url, route: request.routeOptions.url, status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
  });
  // JSON only: endpoints that take another format (raw NMEA, METAR text) add their own parser.
  app.removeContentTypeParser('text/plain');

  const routes = new RouteInventory();
  routes.install(app);
  app.decorate('routeInventory', routes);
  installErrorHandling(app, routes);
  installAuth(app, platform.access.verifyKey);
  installReferenceWait(app, reference);
  // WebSocket upgrades authenticate on their own (a header, or a first message) through it.
  app.decorate('access', platform.access);
  installRateLimits(app, platform.access.rateLimits);
  installDeprecation(app);
  instrumentRequests(app, metrics);
  // The service is often reached over plain HTTP on a private network or behind a TLS proxy, so
  // browsers must not be told to rewrite its asset URLs to https.
  await app.register(helmet, { global: true, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
  await app.register(cors, { origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins.length ? config.corsOrigins : false });
  await installOpenApi(app, VERSION);

  readiness.register('storage', database.check);
  readiness.register('bus', bus.check);
  readiness.register('reference_data', reference.check);
  const { shedder } = platform.access.rateLimits;
  if (shedder) reportLoad(shedder, readiness, metrics);
  registerOpsRoutes(app, readiness, metrics);
  // The web dashboard at `/`: its assets, and index.html for the paths its router draws.
  await installDashboard(app);

  // The routes' validators and serialisers are built in the background from the moment the routes
  // are in, a slice a turn (build-later.ts): while the start waits for the AIS ingest thread (the
  // features' own onReady hooks come after this one), and after the listen.
  app.addHook('onReady', async () => {
    void buildPending().catch((error: unknown) => logger.error({ err: error }, 'request validators or response serialisers could not be built: their routes answer 500'));
  });
  // Fastify runs onClose hooks last registered first: added before the features' own, this one
  // closes storage and the bus once every feature has stopped its work (which may still write or
  // publish while it stops).
  app.addHook('onClose', async () => {
    await platform.access.close();
    await bus.close();
    await database.close();
  });
  for (const feature of platform.features) await feature({
    app, config, database, bus, readiness, reference, metrics, logger, masterKey: platform.masterKey,
    addOverloadSignal: (signal) => shedder?.addSignal(signal),
  });

  return app;
}

/** The features, in the order their routes register. */
export const FEATURES = ['aviation', 'maritime', 'fleet', 'zones', 'watchlist', 'events', 'webhooks', 'notifications', 'intelligence', 'accounts'] as const;
export type FeatureName = (typeof FEATURES)[number];

/**
 * Opens storage (migrated) and the bus and builds the app with its features, without listening:
 * `only` names some of them, so an in-process test starts one feature and calls it with `inject()`.
 */
export async function openService(config: Config, logger: FastifyBaseLogger, only: readonly FeatureName[] = FEATURES) {
  const database = openDatabase(config);
  try {
    const applied = await migrate(database.db, database.dialect, MIGRATIONS);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  } catch (error) {
    await database.close();
    throw error;
  }
  const bus = await openBus(config, (error) => logger.error({ err: error }, 'bus handler failed'));
  const key = masterKey({ fromEnv: config.masterKey, dataDir: config.dataDir });
  // The key id and where it came from, never the key: enough to tell which key sealed the data.
  logger.info({ master_key: key.id, source: key.source }, 'data at rest is sealed under this master key');
  // One key store for verifying keys on every request and for the accounts routes that revoke them.
  // Revocations and rotations are announced, so every instance forgets the key at once.
  const keys = new KeyStore(database, {
    announce: (change) => bus.publish(apiKeyChanges, change),
    onError: (error) => logger.warn({ err: error }, 'API key last use not recorded, or a key change not announced'),
  });
  const access = await openAccess(config, database, keys, logger);
  // One fleet store, for the fleet routes and the landing endpoint's look-up of the caller's fleet.
  const fleetStore = openFleetStore(database, key.key);
  // One guard of the routes under an organisation's path, for the fleet's and the notifications'.
  const memberGuard = openMemberGuard(database, config);
  // Whom the notifications and webhooks features mail about an organisation.
  const memberDirectory = openMemberDirectory(database);
  // Landing answers for the intelligence engine, from the aviation feature's services once it starts.
  const landingWatch = new LandingWatch();
  // Maritime answers for the watch list and the intelligence engine, from the maritime feature's services once it starts.
  const maritimeWatch = new MaritimeWatch();
  // The fleet feed's frames on the event stream, which starts before the feed.
  const feedFrames = new FeedFrames();
  const features: Record<FeatureName, () => Feature<Config>> = {
    aviation: () => aviation(fleetProfiles(fleetStore), landingWatch),
    maritime: () => maritime(maritimeWatch),
    fleet: () => fleet(fleetStore, memberGuard, (code) => landingWatch.airportIcao(code)),
    zones: () => zones,
    watchlist: () => watchList({ airport: (icao) => landingWatch.airportIcao(icao), port: async (id) => {
      await maritimeWatch.loaded();
      return maritimeWatch.port(id)?.id ?? null;
    } }),
    events: () => events(feedFrames),
    webhooks: () => webhooks(memberDirectory),
    notifications: () => notifications(memberDirectory, memberGuard),
    intelligence: () => intelligence(fleetStore, landingWatch, maritimeWatch, { frames: feedFrames, members: memberGuard }),
    accounts: () => accounts(keys, access.rateLimits.store),
  };
  const chosen = FEATURES.filter((name) => only.includes(name)).map((name) => features[name]());
  const app = await buildServer({ config, database, bus, readiness: new Readiness(), reference: new ReferenceData(), access, masterKey: key, features: chosen }, logger);
  return { app, storage: `${database.dialect} ${database.location}`, bus: bus.kind };
}

/**
 * Connections the kernel holds for the service before it accepts them (it caps them at
 * `net.core.somaxconn`). Node's 511 overflowed as 10,000 streams connected in bursts (as streams
 * reconnecting after a restart would): a connection past it waits for the client to send its SYN
 * again.
 */
const LISTEN_BACKLOG = 4096;

/**
 * The whole service, listening: what `lamis serve` runs. `beforeListen` may add to the app first
 * (integration tests add probe routes).
 */
export async function startServer(
  config: Config,
  logger: FastifyBaseLogger,
  beforeListen?: (app: Awaited<ReturnType<typeof buildServer>>) => void | Promise<void>,
) {
  const { app, storage, bus } = await openService(config, logger);
  await beforeListen?.(app);
  try {
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  } catch (error) {
    // A feature that cannot start (a configured feed that cannot run) leaves nothing running.
    await app.close().catch(() => undefined);
    throw error;
  }
  logger.info({ storage, bus, docs: '/docs' }, `LAMIS ${VERSION} ready`);
  return app;
}
