// Making attempts and deciding what follows: delivered on a 2xx; otherwise the next attempt after
// the configured delay (lengthened by up to 20 % of random jitter, so receivers that failed
// together are not retried together), or after the receiver's Retry-After when it asked for longer
// (a 429 or 503), and once the schedule is used up the delivery has failed.
// A delivery that fails for good while nothing at all reached the endpoint since it was made (the
// whole schedule, over a day by default) means the endpoint is gone: it is disabled and its
// organisation's owners and admins are told by mail. So does an endpoint that says it is gone (410
// Gone, permanent by RFC 9110): at once, its delivery failed without a retry.
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookSender } from './sender.ts';
import type { AttemptOutcome, DueDelivery, WebhookStore } from './webhooks.ts';
import type { WebhookRow } from './webhooks.table.ts';

const JITTER = 0.2;

export interface WorkerOptions {
  store: WebhookStore;
  sender: WebhookSender;
  retryDelaysSec: readonly number[];
  /** Tells the endpoint's owners it was disabled. */
  onDisabled: (webhook: WebhookRow, reason: string) => Promise<void>;
  logger: FastifyBaseLogger;
  random?: () => number;
}

export class DeliveryWorker {
  readonly #options: WorkerOptions;

  constructor(options: WorkerOptions) {
    this.#options = options;
  }

  /** Makes attempt `attempt` (0 for the first) of the delivery when it is still due, and records it. */
  async attempt(id: string, attempt: number): Promise<void> {
    const { store, sender } = this.#options;
    const due = await store.dueAttempt(id, attempt);
    if (!due) return;
    const sentAt = new Date().toISOString();
    const outcome = await sender.send(due);
    const gone = outcome.status_code === 410;
    const retryAt = outcome.ok || gone ? null : this.#retryAt(attempt, outcome.retry_after_ms);
    const recorded = await store.recordAttempt(due.delivery, attempt, outcome, retryAt);
    this.#options.logger.info({ delivery: id, webhook: due.webhook.id, attempt: attempt + 1, status: outcome.status_code, ok: outcome.ok }, 'webhook attempt');
    if (!recorded || outcome.ok || retryAt) return;
    if (gone) await this.#disable(due, sentAt, `The endpoint answered 410 Gone at ${sentAt}: ${outcome.error}`);
    else await this.#failedForGood(due, outcome);
  }

  /** Sends a delivery once, now, with no retry: `POST /v3/webhooks/{id}/test`. */
  async sendOnce(due: DueDelivery): Promise<AttemptOutcome> {
    const outcome = await this.#options.sender.send(due);
    await this.#options.store.recordAttempt(due.delivery, 0, outcome, null);
    return outcome;
  }

  #retryAt(attempt: number, retryAfterMs: number | null): Date | null {
    const delaySec = this.#options.retryDelaysSec[attempt];
    if (delaySec === undefined) return null;
    const delayMs = delaySec * 1000 * (1 + JITTER * (this.#options.random ?? Math.random)());
    return new Date(Date.now() + Math.max(delayMs, retryAfterMs ?? 0));
  }

  async #failedForGood(due: DueDelivery, outcome: AttemptOutcome): Promise<void> {
    const attempts = this.#options.retryDelaysSec.length + 1;
    await this.#disable(due, due.delivery.created_at, `Every delivery since ${due.delivery.created_at} failed, the last after ${attempts} attempts: ${outcome.error ?? 'no 2xx answer'}`);
  }

  /** Disables the endpoint unless something reached it since `since`, and tells its owners. */
  async #disable({ delivery, webhook }: DueDelivery, since: string, reason: string): Promise<void> {
    if (!(await this.#options.store.disableIfFailingSince(webhook.id, since, reason))) return;
    this.#options.logger.warn({ webhook: webhook.id, delivery: delivery.id, reason }, 'webhook disabled');
    await this.#options.onDisabled(webhook, reason);
  }
}
