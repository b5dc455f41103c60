import type { PlatformSettings } from '../settings.ts';
import { storageName } from '../db/database.ts';
import type { Bus } from './bus.ts';
import { createMemoryBus } from './memory.ts';

export { topic, type Bus, type Topic, type Handler, type Unsubscribe, type Parts, type PartSubscription } from './bus.ts';

/** What picks the bus and names it: its server, and the deployment's storage address or bus name. */
export type BusSettings = Pick<PlatformSettings, 'redisUrl'> & Partial<Pick<PlatformSettings, 'natsUrl' | 'busName' | 'databaseUrl' | 'dataDir'>>;

/**
 * Where a deployment's topics travel on a NATS or Redis that other deployments may share:
 * `lamis:bus:<name>:`, the name LAMIS_BUS_NAME or else the storage's (`storageName`), so the
 * instances on one storage share a bus and other deployments' messages never reach them.
 */
export function busPrefix(settings: Omit<BusSettings, 'redisUrl'>): string {
  if (settings.busName !== undefined) return `lamis:bus:${settings.busName}:`;
  if (settings.databaseUrl === undefined && settings.dataDir === undefined) throw new Error('a bus on NATS or Redis is named by the storage address or LAMIS_BUS_NAME; neither is given');
  return `lamis:bus:${storageName({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir! })}:`;
}

/**
 * On NATS when NATS_URL is set, else on Redis when REDIS_URL is, else in-process. `prefix`: another
 * than the deployment's (`busPrefix`). A client is loaded only where it is configured.
 */
export async function openBus(settings: BusSettings, onHandlerError: (error: unknown) => void, prefix?: string): Promise<Bus> {
  if (settings.natsUrl) {
    const { createNatsBus } = await import('./nats.ts');
    return createNatsBus({ url: settings.natsUrl, prefix: prefix ?? busPrefix(settings), onHandlerError });
  }
  if (settings.redisUrl) {
    const { createRedisBus } = await import('./redis.ts');
    return createRedisBus({ url: settings.redisUrl, prefix: prefix ?? busPrefix(settings), onHandlerError });
  }
  return createMemoryBus(onHandlerError);
}
