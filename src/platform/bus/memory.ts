import { deliver, type Bus, type Handler, type Topic } from './bus.ts';

export function createMemoryBus(onHandlerError: (error: unknown) => void): Bus {
  const handlers = new Map<string, Set<Handler<unknown>>>();
  let closed = false;
  return {
    kind: 'memory',
    async publish(topic, message) {
      if (closed) throw new Error('bus is closed');
      const set = handlers.get(topic.name);
      if (!set || set.size === 0) return;
      // A snapshot, so a handler that unsubscribes during delivery does not skip another.
      const snapshot = [...set] as Handler<typeof message>[];
      queueMicrotask(() => deliver(snapshot, message, onHandlerError));
    },
    async subscribe<T>(topic: Topic<T>, handler: Handler<T>) {
      if (closed) throw new Error('bus is closed');
      let set = handlers.get(topic.name);
      if (!set) handlers.set(topic.name, (set = new Set()));
      const entry = handler as Handler<unknown>;
      set.add(entry);
      return async () => {
        set.delete(entry);
      };
    },
    async check() {
      return { state: closed ? 'down' : 'up', detail: { kind: 'memory' } };
    },
    async close() {
      closed = true;
      handlers.clear();
    },
  };
}
