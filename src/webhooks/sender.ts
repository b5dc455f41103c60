// One attempt of one delivery: the body POSTed as stored, signed afresh (the timestamp is the
// attempt's), through the address guard, within the timeout, reading at most a small answer. A
// 2xx is delivered; anything else, a redirect included, is a failure with the reason kept, and a
// 429's or 503's Retry-After with it.
import { answerMessage, readAnswer, requestFailure, retryAfterMs, type OutboundLogger } from '../platform/http/outbound.ts';
import { AddressRefusedError, guardedFetch } from './address-guard.ts';
import { signatureHeader } from './signing.ts';
import type { AttemptOutcome, DueDelivery, WebhookStore } from './webhooks.ts';

/** Receivers answer a status; a larger body is cut off there (and the attempt fails). */
const ANSWER_LIMIT_BYTES = 64 * 1024;

export interface SenderOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  logger: OutboundLogger;
}

export class WebhookSender {
  readonly #store: WebhookStore;
  readonly #options: SenderOptions;
  readonly #fetch: typeof fetch;

  constructor(store: WebhookStore, options: SenderOptions) {
    this.#store = store;
    this.#options = options;
    this.#fetch = guardedFetch(options.allowPrivate);
  }

  async send({ delivery, webhook }: DueDelivery): Promise<AttemptOutcome> {
    const url = new URL(webhook.url);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'LAMIS-Webhooks',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(this.#store.signingSecrets(webhook), delivery.id, timestamp, delivery.body),
    };
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    try {
      const answer = await readAnswer(url, {
        method: 'POST', body: delivery.body, headers, timeoutMs: this.#options.timeoutMs, maxBytes: ANSWER_LIMIT_BYTES,
        fetch: this.#fetch, logger: this.#options.logger,
      });
      if (answer.ok) return { ok: true, status_code: answer.status, latency_ms: latency(), error: null, retry_after_ms: null };
      const retryAfter = answer.status === 429 || answer.status === 503 ? retryAfterMs(answer.headers.get('retry-after'), Date.now()) : null;
      return { ok: false, status_code: answer.status, latency_ms: latency(), error: answerMessage(`HTTP ${answer.status}`, url, answer.text()), retry_after_ms: retryAfter };
    } catch (error) {
      const message = error instanceof AddressRefusedError ? error.message : requestFailure(error, url, this.#options.timeoutMs).message;
      return { ok: false, status_code: null, latency_ms: latency(), error: message, retry_after_ms: null };
    }
  }
}
