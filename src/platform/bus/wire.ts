// A bus through a server (NATS or Redis): the server carries channels, this does the rest.
// A topic travels on the channel of its name, a partitioned one on `<name>.<part>`. Each message
// goes out as `<origin> <seq> <json>`: the publishing bus's id and its count on the topic. The
// servers deliver one publisher's messages to one subscriber in order, across channels, so a copy
// of a message the bus already took (two subscriptions covering one channel while the parts
// change) shows as a count not above the last one seen, and is dropped.
import { randomBytes } from 'node:crypto';
import type { HealthResult } from '../health.ts';
import { deliver, partOf, type Bus, type Handler, type Topic } from './bus.ts';
import { Subscribers, type Wanted } from './subscribers.ts';

/** What a server connection does for a bus; channel names come without the bus's prefix. */
export interface Wire {
  publish(channel: string, payload: string): Promise<void>;
  /** `everyPart`: every `<channel>.<part>`; resolves once the server delivers them. */
  listen(channel: string, everyPart: boolean): Promise<void>;
  unlisten(channel: string, everyPart: boolean): Promise<void>;
  check(): Promise<HealthResult>;
  close(): Promise<void>;
}

/** A channel a bus listens to: the whole topic, every part, or one part. */
const WHOLE = '';
const EVERY_PART = '*';

function listenKeys(wanted: Wanted, partitioned: boolean): Set<string> {
  if (wanted === null) return new Set();
  if (wanted === 'all') return new Set([partitioned ? EVERY_PART : WHOLE]);
  return new Set(wanted);
}

export async function createWireBus(
  kind: 'redis' | 'nats',
  connect: (receive: (channel: string, payload: string) => void) => Promise<Wire>,
  onHandlerError: (error: unknown) => void,
): Promise<Bus> {
  const origin = randomBytes(6).toString('hex');
  const subscribers = new Subscribers();
  const sent = new Map<string, number>();
  /** The last count taken per topic and origin. */
  const seen = new Map<string, number>();
  /** What the wire listens to, per topic, as keys (WHOLE, EVERY_PART or a part). */
  const listening = new Map<string, Set<string>>();

  const receive = (channel: string, payload: string) => {
    const dot = channel.lastIndexOf('.');
    const inPart = dot > 0 && subscribers.isPartitioned(channel.slice(0, dot));
    const name = inPart ? channel.slice(0, dot) : channel;
    const part = inPart ? channel.slice(dot + 1) : undefined;
    const first = payload.indexOf(' ');
    const second = payload.indexOf(' ', first + 1);
    if (first < 0 || second < 0) {
      onHandlerError(new Error(`message on "${channel}" is not a LAMIS bus message`));
      return;
    }
    const from = `${name} ${payload.slice(0, first)}`;
    const seq = Number(payload.slice(first + 1, second));
    if (seq <= (seen.get(from) ?? 0)) return;
    seen.set(from, seq);
    const handlers = subscribers.handlers(name, part);
    if (handlers.length === 0) return;
    let message: unknown;
    try {
      message = JSON.parse(payload.slice(second + 1));
    } catch (error) {
      onHandlerError(error);
      return;
    }
    deliver(handlers, message, onHandlerError);
  };
  const wire = await connect(receive);

  // Changes to what the wire listens to run one at a time; new channels are listened to before
  // old ones are left, so a part kept is never uncovered.
  let changes: Promise<void> = Promise.resolve();
  let closed = false;
  const update = (topic: Topic<unknown>): Promise<void> => {
    const run = async () => {
      // A closed bus listens to nothing: what an unsubscribe would undo is gone already.
      if (closed) return;
      const partitioned = topic.part !== undefined;
      const wanted = listenKeys(subscribers.wanted(topic.name), partitioned);
      const current = listening.get(topic.name) ?? new Set<string>();
      listening.set(topic.name, current);
      const channel = (key: string) => (key === WHOLE || key === EVERY_PART ? topic.name : `${topic.name}.${key}`);
      for (const key of wanted) {
        if (current.has(key)) continue;
        await wire.listen(channel(key), key === EVERY_PART);
        current.add(key);
      }
      for (const key of current) {
        if (wanted.has(key)) continue;
        await wire.unlisten(channel(key), key === EVERY_PART);
        current.delete(key);
      }
      if (current.size === 0) listening.delete(topic.name);
    };
    changes = changes.then(run, run);
    return changes;
  };

  const open = () => {
    if (closed) throw new Error('bus is closed');
  };
  return {
    kind,
    async publish<T>(topic: Topic<T>, message: T) {
      open();
      const seq = (sent.get(topic.name) ?? 0) + 1;
      sent.set(topic.name, seq);
      const channel = topic.part ? `${topic.name}.${partOf(topic, message)}` : topic.name;
      await wire.publish(channel, `${origin} ${seq} ${JSON.stringify(message)}`);
    },
    async subscribe<T>(topic: Topic<T>, handler: Handler<T>) {
      open();
      const remove = subscribers.add(topic, handler);
      await update(topic as Topic<unknown>);
      return async () => {
        remove();
        await update(topic as Topic<unknown>);
      };
    },
    async subscribeParts<T>(topic: Topic<T>, handler: Handler<T>) {
      open();
      return subscribers.partSubscription(topic, handler, () => update(topic as Topic<unknown>));
    },
    check: () => wire.check(),
    async close() {
      closed = true;
      await changes.catch(() => {});
      await wire.close();
    },
  };
}
