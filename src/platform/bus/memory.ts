import { deliver, partOf, type Bus, type Handler, type Topic } from './bus.ts';
import { Subscribers } from './subscribers.ts';

const PUBLISHED = Promise.resolve();

export function createMemoryBus(onHandlerError: (error: unknown) => void): Bus {
  const subscribers = new Subscribers();
  let closed = false;
  const open = () => {
    if (closed) throw new Error('bus is closed');
  };
  return {
    kind: 'memory',
    // Not an async function: a message per vessel change would make a promise each.
    publish<T>(topic: Topic<T>, message: T) {
      try {
        open();
        // A snapshot, so a handler that unsubscribes during delivery does not skip another.
        const handlers = subscribers.handlers(topic.name, topic.part ? partOf(topic, message) : undefined);
        if (handlers.length > 0) queueMicrotask(() => deliver(handlers, message, onHandlerError));
        return PUBLISHED;
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async subscribe<T>(topic: Topic<T>, handler: Handler<T>) {
      open();
      const remove = subscribers.add(topic, handler);
      return async () => remove();
    },
    async subscribeParts<T>(topic: Topic<T>, handler: Handler<T>) {
      open();
      return subscribers.partSubscription(topic, handler);
    },
    async check() {
      return { state: closed ? 'down' : 'up', detail: { kind: 'memory' } };
    },
    async close() {
      closed = true;
    },
  };
}
