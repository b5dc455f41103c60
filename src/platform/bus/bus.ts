// Publish/subscribe between features. In-process by default; on NATS (NATS_URL) or Redis pub/sub
// (REDIS_URL), so an event published on one instance reaches subscribers on all of them. Either
// way delivery is asynchronous (never inside `publish`), at most once, and in publish order per
// topic and publishing instance.
import type { HealthCheck } from '../health.ts';

/**
 * A named channel carrying messages of one type; features export their topics. A partitioned
 * topic names each message's part (e.g. its region), and travels on one channel per part, so an
 * instance can take only the parts it needs; its parts are few (hundreds), each a channel.
 */
export interface Topic<T> {
  readonly name: string;
  readonly part?: (message: T) => string;
  /** Carries the message type only; never set. */
  readonly _message?: T;
}

const NAME = /^[a-z0-9]+(\.[a-z0-9_-]+)*$/;
const PART = /^[a-z0-9_-]+$/;

export function topic<T>(name: string, part?: (message: T) => string): Topic<T> {
  if (!NAME.test(name)) throw new Error(`bad topic name "${name}"`);
  return part ? { name, part } : { name };
}

/** The part a message of a partitioned topic travels on (one channel token: no dots). */
export function partOf<T>(topic: Topic<T>, message: T): string {
  const part = topic.part!(message);
  if (!PART.test(part)) throw new Error(`bad part "${part}" of topic "${topic.name}"`);
  return part;
}

export type Handler<T> = (message: T) => void;
export type Unsubscribe = () => Promise<void>;
/** Which parts of a partitioned topic a subscription takes. */
export type Parts = ReadonlySet<string> | 'all';

export interface PartSubscription {
  /**
   * Takes these parts from now on (none at first). Resolves once the bus delivers them; a
   * message is neither lost nor delivered twice while the parts change, in any part kept.
   */
  watch(parts: Parts): Promise<void>;
  close(): Promise<void>;
}

export interface Bus {
  readonly kind: 'memory' | 'redis' | 'nats';
  /** Messages must be JSON-serialisable: on NATS and Redis they cross process boundaries. */
  publish<T>(topic: Topic<T>, message: T): Promise<void>;
  /** Every message of the topic (all parts of a partitioned one). */
  subscribe<T>(topic: Topic<T>, handler: Handler<T>): Promise<Unsubscribe>;
  /** Some parts of a partitioned topic, changed with `watch`. */
  subscribeParts<T>(topic: Topic<T>, handler: Handler<T>): Promise<PartSubscription>;
  check: HealthCheck;
  close(): Promise<void>;
}

/** Handlers are isolated: one that throws is reported and the others still run. */
export function deliver<T>(handlers: readonly Handler<T>[], message: T, onError: (error: unknown) => void): void {
  for (let at = 0; at < handlers.length; at++) {
    try {
      handlers[at]!(message);
    } catch (error) {
      onError(error);
    }
  }
}

export function partitioned(topic: Topic<unknown>): void {
  if (!topic.part) throw new Error(`topic "${topic.name}" has no parts`);
}
