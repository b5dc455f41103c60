// A real HTTP server on a loopback port that receives webhook deliveries as a customer's endpoint
// would: it keeps every request (headers and the raw body), answers each with the next status a
// test queued (200 once the queue is empty), or holds it unanswered until the test releases it.
// Also what a receiver does with a delivery: the Standard Webhooks signature check, written from
// the specification rather than taken from LAMIS's code.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The sender's TCP port: which process sent it can be told from it. */
  remotePort: number;
  /** Answers a held request (with `status`); a no-op once answered. */
  answer(status: number): void;
  /** Whether the connection closed before an answer (the sender went away). */
  closed(): boolean;
}

export interface QueuedAnswer {
  status: number;
  headers: Record<string, string>;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/path` */
  url(path?: string): string;
  received: ReceivedDelivery[];
  /** Statuses the next requests are answered with, in order (a status with headers of its own); 'hold' keeps one unanswered. */
  queue(...statuses: (number | QueuedAnswer | 'hold')[]): void;
  /** Resolves once `count` requests have come, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const statuses: (number | QueuedAnswer | 'hold')[] = [];
  const held = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let closed = false;
      response.on('close', () => { closed = !response.writableEnded; held.delete(response); });
      const answer = (status: number, headers: Record<string, string> = {}) => {
        if (response.writableEnded || response.destroyed) return;
        held.delete(response);
        response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(status < 300 ? 'ok' : 'no');
      };
      received.push({
        path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8'),
        remotePort: request.socket.remotePort ?? 0, answer, closed: () => closed,
      });
      const next = statuses.shift() ?? 200;
      if (next === 'hold') held.add(response);
      else if (typeof next === 'number') answer(next);
      else answer(next.status, next.headers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks/lamis') => `http://127.0.0.1:${port}${path}`,
    received,
    queue: (...next) => statuses.push(...next),
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} requests within ${timeoutMs} ms, not ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received.slice(0, count);
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Whether the request carries a valid signature by `secret` (`whsec_<base64>`): some `v1,<sig>`
 * in `webhook-signature` equals base64(HMAC-SHA256(secret bytes, "id.timestamp.body")).
 */
export function signedBy(secret: string, delivery: Pick<ReceivedDelivery, 'headers' | 'body'>): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const content = `${delivery.headers['webhook-id']}.${delivery.headers['webhook-timestamp']}.${delivery.body}`;
  const expected = createHmac('sha256', key).update(content).digest();
  return String(delivery.headers['webhook-signature'] ?? '').split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
