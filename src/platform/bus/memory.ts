import { deliver, partOf, type Bus, type Handler, type Topic } from './bus.ts';
import { Subscribers } from './subscribers.ts';

export function createMemoryBus(onHandlerError: (error: unknown) => void): Bus {
  const subscribers = new Subscribers();
  let closed = false;
  const open = () => {
    if (closed) throw new Error('bus is closed');
  };
  return {
    kind: 'memory',
    async publish<T>(topic: Topic<T>, message: T) {
      open();
      // A snapshot, so a handler that unsubscribes during delivery does not skip another.
      const handlers = subscribers.handlers(topic.name, topic.part ? partOf(topic, message) : undefined);
      if (handlers.length === 0) return;
      queueMicrotask(() => deliver(handlers, message, onHandlerError));
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
