import { Redis } from 'ioredis';
import { deliver, type Bus, type Handler, type Topic } from './bus.ts';

export interface RedisBusOptions {
  url: string;
  /** Channel prefix, so several deployments (or test runs) can share one Redis. */
  prefix: string;
  onHandlerError: (error: unknown) => void;
}

export async function createRedisBus(options: RedisBusOptions): Promise<Bus> {
  const connect = () => new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3, enableAutoPipelining: true });
  // A connection in subscriber mode can do nothing else, hence two.
  const publisher = connect();
  const subscriber = connect();
  await Promise.all([publisher.connect(), subscriber.connect()]);

  const handlers = new Map<string, Set<Handler<unknown>>>();
  subscriber.on('messageBuffer', (channel: Buffer, payload: Buffer) => {
    const set = handlers.get(channel.toString().slice(options.prefix.length));
    if (!set || set.size === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(payload.toString());
    } catch (error) {
      options.onHandlerError(error);
      return;
    }
    deliver([...set], message, options.onHandlerError);
  });

  return {
    kind: 'redis',
    async publish(topic, message) {
      await publisher.publish(options.prefix + topic.name, JSON.stringify(message));
    },
    async subscribe<T>(topic: Topic<T>, handler: Handler<T>) {
      let set = handlers.get(topic.name);
      if (!set) {
        handlers.set(topic.name, (set = new Set()));
        await subscriber.subscribe(options.prefix + topic.name);
      }
      const entry = handler as Handler<unknown>;
      set.add(entry);
      return async () => {
        set.delete(entry);
        if (set.size === 0 && handlers.get(topic.name) === set) {
          handlers.delete(topic.name);
          await subscriber.unsubscribe(options.prefix + topic.name);
        }
      };
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
      handlers.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
