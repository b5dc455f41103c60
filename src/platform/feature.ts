// What a feature (maritime, aviation, ...) gets to plug itself into the service: the app to add
// routes to, storage, the bus, readiness checks and the metrics registry. A feature stops its own
// background work in an onClose hook; storage and bus close after every feature has stopped.
import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';
import type { Bus } from './bus/index.ts';
import type { MasterKey } from './crypto/index.ts';
import type { Database } from './db/database.ts';
import type { Readiness } from './health.ts';
import type { App } from './http/app.ts';

export interface FeatureContext {
  app: App;
  config: Config;
  database: Database;
  bus: Bus;
  readiness: Readiness;
  metrics: Registry;
  /** The key that seals data at rest, read once at start. */
  masterKey: MasterKey;
  logger: FastifyBaseLogger;
}

export type Feature = (context: FeatureContext) => Promise<void>;
