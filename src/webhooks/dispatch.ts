// Who makes which attempt. Storage holds every delivery and says which attempts are due; an
// instance takes a due attempt by leasing it in the table (`claimDue`), so each is taken once
// however many instances look. Without Redis the instance that took it makes it. With Redis the
// taken attempts go on a stream (XADD) read by a consumer group, each instance one consumer
// (XREADGROUP): whichever instance is free makes it, records the outcome, and only then confirms
// it (XACK). An attempt handed to an instance that dies stays unconfirmed; once it has been so for
// `reclaimMs`, another instance takes it over (XAUTOCLAIM) and makes it: at least once, with the
// same `webhook-id`, never lost. The lease outlasts that, so the table does not hand it out again
// meanwhile. The stream only distributes work: a message whose attempt was recorded already is
// confirmed and dropped.
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { randomBase62 } from '../platform/ids.ts';
import type { WebhookStore } from './webhooks.ts';
import type { DeliveryWorker } from './worker.ts';

/** How often the table is asked for due attempts, besides every event change. */
const POLL_MS = 1000;
/** Due attempts taken at once. */
const BATCH = 20;
/**
 * The stream of one storage's deliveries: deployments that share a Redis but not a storage must
 * not take each other's attempts (a consumer of another storage finds no such delivery and drops
 * it). Named by the storage's address (`storageName`), so instances given the same one share the
 * stream; ones given different addresses of one storage each use their own, and every attempt is
 * still made once (the table's lease decides who takes it), only not taken over between them.
 */
export function dueStream(storage: string): string {
  return `lamis:webhooks:${storage}:due`;
}
export const GROUP = 'lamis-webhooks';
/** The stream keeps about this many entries; confirmed ones are not needed again. */
const STREAM_LENGTH = 100_000;

export interface Dispatcher {
  /** Look for due attempts now (an event changed). */
  kick(): void;
  /** Stops taking work and waits for the attempts under way. */
  close(): Promise<void>;
}

interface DispatchOptions {
  store: WebhookStore;
  worker: DeliveryWorker;
  /** How long a taken attempt stays this instance's. */
  leaseMs: number;
  logger: FastifyBaseLogger;
}

/** Runs `step` now and every POLL_MS, never twice at once; `kick` runs it again as soon as it may. */
function poller(step: () => Promise<void>, logger: FastifyBaseLogger) {
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  const run = (): void => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = step().catch((error: unknown) => logger.error({ err: error }, 'webhook dispatch failed')).finally(() => {
      running = null;
      if (again) {
        again = false;
        run();
      }
    });
  };
  const timer = setInterval(run, POLL_MS);
  run();
  return {
    kick: run,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** Without Redis: this instance makes the attempts it takes from the table. */
export function tableDispatcher({ store, worker, leaseMs, logger }: DispatchOptions): Dispatcher {
  const underWay = new Set<Promise<void>>();
  const polling = poller(async () => {
    for (const { id, attempt } of await store.claimDue(leaseMs, BATCH)) {
      const made = worker.attempt(id, attempt).catch((error: unknown) => logger.error({ err: error, delivery: id }, 'webhook attempt failed'));
      underWay.add(made);
      void made.finally(() => underWay.delete(made));
    }
  }, logger);
  return {
    kick: polling.kick,
    async close() {
      await polling.close();
      await Promise.all(underWay);
    },
  };
}

type StreamEntry = [id: string, fields: string[]];

/** With Redis: attempts taken from the table go on the stream, and this instance makes those the group hands it. */
export async function streamDispatcher(options: DispatchOptions & { redisUrl: string; reclaimMs: number; stream: string }): Promise<Dispatcher> {
  const { store, worker, leaseMs, logger, reclaimMs, stream } = options;
  // Loaded here: an instance without Redis never needs the client.
  const { Redis } = await import('ioredis');
  const connect = () => new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  // A blocked XREADGROUP holds its connection, hence two.
  const commands = connect();
  const reader = connect();
  await Promise.all([commands.connect(), reader.connect()]);
  try {
    await commands.xgroup('CREATE', stream, GROUP, '0', 'MKSTREAM');
  } catch (error) {
    if (!/BUSYGROUP/.test((error as Error).message)) throw error;
  }
  const consumer = `${hostname()}:${process.pid}:${randomBase62(6)}`;
  let closed = false;

  /** Makes the entry's attempt, then confirms it; an attempt that throws stays unconfirmed for another to take over. */
  const make = async ([entryId, fields]: StreamEntry) => {
    const field = (name: string) => fields[fields.indexOf(name) + 1];
    const id = field('delivery');
    const attempt = Number(field('attempt'));
    try {
      if (id !== undefined && Number.isInteger(attempt)) await worker.attempt(id, attempt);
      await commands.xack(stream, GROUP, entryId);
    } catch (error) {
      logger.error({ err: error, delivery: id }, 'webhook attempt failed; left for another instance');
    }
  };

  const handOut = poller(async () => {
    for (const { id, attempt } of await store.claimDue(leaseMs, BATCH)) {
      await commands.xadd(stream, 'MAXLEN', '~', STREAM_LENGTH, '*', 'delivery', id, 'attempt', String(attempt));
    }
  }, logger);

  const reclaim = setInterval(() => {
    void commands.xautoclaim(stream, GROUP, consumer, reclaimMs, '0-0', 'COUNT', BATCH)
      .then(async (answer) => {
        const entries = (answer as [string, StreamEntry[]])[1].filter((entry) => entry[1] !== null);
        if (entries.length) logger.warn({ taken_over: entries.length }, 'webhook attempts of an unresponsive instance taken over');
        await Promise.all(entries.map(make));
      })
      .catch((error: unknown) => { if (!closed) logger.error({ err: error }, 'webhook take-over failed'); });
  }, Math.max(250, reclaimMs / 2));

  const reading = (async () => {
    while (!closed) {
      try {
        const answer = await reader.xreadgroup('GROUP', GROUP, consumer, 'COUNT', BATCH, 'BLOCK', POLL_MS, 'STREAMS', stream, '>') as [string, StreamEntry[]][] | null;
        await Promise.all((answer?.[0]?.[1] ?? []).map(make));
      } catch (error) {
        if (closed) return;
        logger.error({ err: error }, 'webhook stream read failed');
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
  })();

  return {
    kick: handOut.kick,
    async close() {
      closed = true;
      clearInterval(reclaim);
      await handOut.close();
      reader.disconnect();
      await reading;
      await commands.quit();
    },
  };
}
