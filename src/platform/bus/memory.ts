import { deliver, partOf, type Bus, type Handler, type Topic } from './bus.ts';
import { Subscribers } from './subscribers.ts';

const PUBLISHED = Promise.resolve();

export function createMemoryBus(onHandlerError: (error: unknown) => void): Bus {
  const subscribers = new Subscribers();
  let closed = false;
  // Messages published and not yet delivered, each after its handlers, delivered in order by one
  // microtask: a microtask a message made two objects a vessel change (20,000 a second under a
  // full feed). A message published during a delivery joins the same one, after those waiting.
  const waiting: unknown[] = [];
  const deliverWaiting = () => {
    for (let at = 0; at < waiting.length; at += 2) deliver(waiting[at] as readonly Handler<unknown>[], waiting[at + 1], onHandlerError);
    waiting.length = 0;
  };
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
        if (handlers.length > 0) {
          if (waiting.length === 0) queueMicrotask(deliverWaiting);
          waiting.push(handlers, message);
        }
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
