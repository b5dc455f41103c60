import type { Config } from '../../config.ts';
import type { Bus } from './bus.ts';
import { createMemoryBus } from './memory.ts';
import { createRedisBus } from './redis.ts';

export { topic, type Bus, type Topic, type Handler, type Unsubscribe } from './bus.ts';

export function openBus(config: Config, onHandlerError: (error: unknown) => void, prefix = 'lamis:bus:'): Promise<Bus> {
  return config.redisUrl
    ? createRedisBus({ url: config.redisUrl, prefix, onHandlerError })
    : Promise.resolve(createMemoryBus(onHandlerError));
}
