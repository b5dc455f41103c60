// Failed sign-ins: 5 per account (by address, whether it has an account or not) and 20 per client
// address in 15 minutes. They are counted in the rate-limit counter store (in the process, or in
// Redis when REDIS_URL is set, so every instance shares the counts), and each attempt takes its
// place in both counts, in one atomic step, before its password is checked. So however many
// attempts arrive at once, no more passwords are ever checked than the limits allow. A wrong
// password keeps its place for the window; the right one gives its place back and clears the
// account's count, which a password reset clears too. Subjects are SHA-256 hashes, so the store
// holds no e-mail or client address in clear.
import { createHash, randomUUID } from 'node:crypto';
import type { CounterStore } from '../../platform/ratelimit/index.ts';

const WINDOW_MS = 15 * 60_000;
export const SIGN_IN_ACCOUNT_LIMIT = 5;
export const SIGN_IN_ADDRESS_LIMIT = 20;

const hashed = (subject: string) => createHash('sha256').update(subject).digest('hex');
const accountKey = (emailKey: string) => `sign-in:account:${hashed(emailKey)}`;
const addressKey = (address: string) => `sign-in:address:${hashed(address)}`;

/** A place taken for one password check, or how long until there is one. */
export type SignInAttempt =
  | { ok: true; succeeded(): Promise<void> }
  | { ok: false; retryAfterSeconds: number };

export class SignInThrottle {
  readonly #store: CounterStore;
  readonly #clock: () => number;

  constructor(store: CounterStore, clock: () => number = Date.now) {
    this.#store = store;
    this.#clock = clock;
  }

  /** A place for checking one password of the account, from the client `address` if given. */
  async attempt(emailKey: string, address?: string): Promise<SignInAttempt> {
    const account = accountKey(emailKey);
    const claims = [{ key: account, cap: SIGN_IN_ACCOUNT_LIMIT, leaseMs: WINDOW_MS }];
    if (address !== undefined) claims.push({ key: addressKey(address), cap: SIGN_IN_ADDRESS_LIMIT, leaseMs: WINDOW_MS });
    const holder = randomUUID();
    const result = await this.#store.claimAll(claims, holder, this.#clock());
    if (!result.claimed) return { ok: false, retryAfterSeconds: Math.ceil(result.retryAfterMs / 1000) };
    return {
      ok: true,
      succeeded: async () => {
        await Promise.all([this.#store.clear(account), ...claims.slice(1).map((claim) => this.#store.release(claim.key, holder))]);
      },
    };
  }

  /** Forgets the account's failed sign-ins (a password reset). */
  clear(emailKey: string): Promise<void> {
    return this.#store.clear(accountKey(emailKey));
  }
}
