// What a feature (maritime, aviation, ...) gets to plug itself into the service: the app to add
// routes to, its settings, storage, the bus, readiness checks, the metrics registry and the load
// shedder's overload signals. A feature
// stops its own background work in an onClose hook; storage and bus close after every feature has
// stopped.
import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import type { Bus } from './bus/index.ts';
import type { MasterKey } from './crypto/index.ts';
import type { Database } from './db/database.ts';
import type { Readiness } from './health.ts';
import type { App } from './http/app.ts';
import type { OverloadSignal } from './ratelimit/index.ts';
import type { ReferenceData } from './reference-data.ts';
import type { PlatformSettings } from './settings.ts';

/**
 * `Settings`: the settings the feature reads, e.g. `PlatformSettings & AviationSettings`; the
 * server hands every feature the whole configuration, which has them all.
 */
export interface FeatureContext<Settings = PlatformSettings> {
  app: App;
  config: Settings;
  database: Database;
  bus: Bus;
  readiness: Readiness;
  /** Where the feature loads its reference data after the start (see reference-data.ts). */
  reference: ReferenceData;
  metrics: Registry;
  /** Adds a condition under which this instance counts as overloaded and sheds development keys. */
  addOverloadSignal(signal: OverloadSignal): void;
  /** The key that seals data at rest, read once at start. */
  masterKey: MasterKey;
  logger: FastifyBaseLogger;
}

export type Feature<Settings = PlatformSettings> = (context: FeatureContext<Settings>) => Promise<void>;
