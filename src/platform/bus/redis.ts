import { Redis } from 'ioredis';
import type { Bus } from './bus.ts';
import { createWireBus } from './wire.ts';

export interface RedisBusOptions {
  url: string;
  /** Channel prefix, so several deployments (or test runs) can share one Redis. */
  prefix: string;
  onHandlerError: (error: unknown) => void;
}

/** Topics on Redis pub/sub channels; every part of a partitioned topic by a pattern (`<name>.*`). */
export function createRedisBus(options: RedisBusOptions): Promise<Bus> {
  const { prefix } = options;
  return createWireBus('redis', async (receive) => {
    const connect = () => new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3, enableAutoPipelining: true });
    // A connection in subscriber mode can do nothing else, hence two.
    const publisher = connect();
    const subscriber = connect();
    await Promise.all([publisher.connect(), subscriber.connect()]);
    const received = (channel: Buffer, payload: Buffer) => receive(channel.toString().slice(prefix.length), payload.toString());
    subscriber.on('messageBuffer', received);
    subscriber.on('pmessageBuffer', (_pattern: Buffer, channel: Buffer, payload: Buffer) => received(channel, payload));
    return {
      async publish(channel, payload) {
        await publisher.publish(prefix + channel, payload);
      },
      async listen(channel, everyPart) {
        if (everyPart) await subscriber.psubscribe(`${prefix + channel}.*`);
        else await subscriber.subscribe(prefix + channel);
      },
      async unlisten(channel, everyPart) {
        if (everyPart) await subscriber.punsubscribe(`${prefix + channel}.*`);
        else await subscriber.unsubscribe(prefix + channel);
      },
      async check() {
        const started = performance.now();
        try {
          await publisher.ping();
          return { state: 'up', detail: { kind: 'redis', latency_ms: Math.round(performance.now() - started) } };
        } catch (error) {
          return { state: 'down', detail: { kind: 'redis', error: (error as Error).message } };
        }
      },
      async close() {
        await Promise.allSettled([publisher.quit(), subscriber.quit()]);
      },
    };
  }, options.onHandlerError);
}
