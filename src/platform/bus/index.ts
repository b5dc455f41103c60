import type { PlatformSettings } from '../settings.ts';
import type { Bus } from './bus.ts';
import { createMemoryBus } from './memory.ts';
import { createNatsBus } from './nats.ts';
import { createRedisBus } from './redis.ts';

export { topic, type Bus, type Topic, type Handler, type Unsubscribe, type Parts, type PartSubscription } from './bus.ts';

/** On NATS when NATS_URL is set, else on Redis when REDIS_URL is, else in-process. */
export function openBus(
  settings: Pick<PlatformSettings, 'redisUrl'> & Partial<Pick<PlatformSettings, 'natsUrl'>>,
  onHandlerError: (error: unknown) => void,
  prefix = 'lamis:bus:',
): Promise<Bus> {
  if (settings.natsUrl) return createNatsBus({ url: settings.natsUrl, prefix, onHandlerError });
  if (settings.redisUrl) return createRedisBus({ url: settings.redisUrl, prefix, onHandlerError });
  return Promise.resolve(createMemoryBus(onHandlerError));
}
