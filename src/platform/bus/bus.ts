// Publish/subscribe between features. In-process by default; Redis pub/sub when REDIS_URL is set,
// so an event published on one instance reaches subscribers on all of them. Either way delivery is
// asynchronous (never inside `publish`), at most once, and in publish order per topic.
import type { HealthCheck } from '../health.ts';

/** A named channel carrying messages of one type; features export their topics. */
export interface Topic<T> {
  readonly name: string;
  /** Carries the message type only; never set. */
  readonly _message?: T;
}

export function topic<T>(name: string): Topic<T> {
  if (!/^[a-z0-9]+(\.[a-z0-9_-]+)*$/.test(name)) throw new Error(`bad topic name "${name}"`);
  return { name };
}

export type Handler<T> = (message: T) => void;
export type Unsubscribe = () => Promise<void>;

export interface Bus {
  readonly kind: 'memory' | 'redis';
  /** Messages must be JSON-serialisable: on Redis they cross process boundaries. */
  publish<T>(topic: Topic<T>, message: T): Promise<void>;
  subscribe<T>(topic: Topic<T>, handler: Handler<T>): Promise<Unsubscribe>;
  check: HealthCheck;
  close(): Promise<void>;
}

/** Handlers are isolated: one that throws is reported and the others still run. */
export function deliver<T>(handlers: Iterable<Handler<T>>, message: T, onError: (error: unknown) => void): void {
  for (const handler of handlers) {
    try {
      handler(message);
    } catch (error) {
      onError(error);
    }
  }
}
