import type { PlatformSettings } from '../settings.ts';
import type { Bus } from './bus.ts';
import { createMemoryBus } from './memory.ts';
import { createRedisBus } from './redis.ts';

export { topic, type Bus, type Topic, type Handler, type Unsubscribe } from './bus.ts';

export function openBus(settings: Pick<PlatformSettings, 'redisUrl'>, onHandlerError: (error: unknown) => void, prefix = 'lamis:bus:'): Promise<Bus> {
  return settings.redisUrl
    ? createRedisBus({ url: settings.redisUrl, prefix, onHandlerError })
    : Promise.resolve(createMemoryBus(onHandlerError));
}
