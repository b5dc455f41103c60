import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { Bus } from './bus.ts';
import { createWireBus } from './wire.ts';

export interface NatsBusOptions {
  /** nats://host:port (tls:// for TLS); the server tells the client of the rest of its cluster. */
  url: string;
  /** Subject prefix, so several deployments (or test runs) can share one NATS. */
  prefix: string;
  onHandlerError: (error: unknown) => void;
  /** Names the connection in the server's monitoring. */
  name?: string;
}

/**
 * Topics on NATS core subjects (at most once, like Redis pub/sub); every part of a partitioned
 * topic by a wildcard (`<name>.*`). One connection publishes and subscribes: NATS keeps one
 * publisher's messages in order to each subscriber, and subscriptions with a callback run in the
 * order messages arrive on the connection, across subjects.
 */
export function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  const { prefix } = options;
  return createWireBus('nats', async (receive) => {
    const connection: NatsConnection = await connect({
      servers: options.url,
      name: options.name ?? 'lamis',
      // Keep trying for as long as LAMIS runs: an instance cut off from NATS catches up on rejoining.
      maxReconnectAttempts: -1,
    });
    const subscriptions = new Map<string, Subscription>();
    const subject = (channel: string, everyPart: boolean) => (everyPart ? `${prefix + channel}.*` : prefix + channel);
    return {
      async publish(channel, payload) {
        connection.publish(prefix + channel, payload);
      },
      async listen(channel, everyPart) {
        const name = subject(channel, everyPart);
        subscriptions.set(name, connection.subscribe(name, {
          callback: (error, message) => {
            if (error) options.onHandlerError(error);
            else receive(message.subject.slice(prefix.length), message.string());
          },
        }));
        // The server has the subscription once it answers the ping that follows it.
        await connection.flush();
      },
      async unlisten(channel, everyPart) {
        const name = subject(channel, everyPart);
        subscriptions.get(name)?.unsubscribe();
        subscriptions.delete(name);
        await connection.flush();
      },
      async check() {
        try {
          const rtt = await connection.rtt();
          return { state: 'up', detail: { kind: 'nats', server: connection.getServer(), latency_ms: Math.round(rtt) } };
        } catch (error) {
          return { state: 'down', detail: { kind: 'nats', error: (error as Error).message } };
        }
      },
      async close() {
        subscriptions.clear();
        await connection.drain();
      },
    };
  }, options.onHandlerError);
}
