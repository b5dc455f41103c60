// What the HTTP platform needs to admit a request: a key check, rate limits, a usage counter, and
// the stream entitlement.
// Accounts provide it; the platform only asks.
import type { Principal, KeyVerifier } from './auth.ts';
import type { ProblemError } from './problems.ts';
import type { Plan, RateLimitOptions } from '../ratelimit/index.ts';

/** Whether a principal may open one more WebSocket stream. */
export type StreamAdmission =
  /** `plan` is null for operator keys (no organisation), which stream without a cap. */
  | { ok: true; plan: Plan | null; release(): Promise<void> }
  /** `plan`: the plan has no streams; `cap`: the organisation has its plan's streams open. */
  | { ok: false; reason: 'plan' | 'cap'; plan: Plan }
  /** A development key while the instance is overloaded: `refusal` is its 503 problem. */
  | { ok: false; reason: 'overloaded'; refusal: ProblemError };

export interface Access {
  verifyKey: KeyVerifier;
  rateLimits: RateLimitOptions;
  /** Counts one answered request of an authenticated caller. */
  recordRequest(principal: Principal): void;
  /**
   * A slot for one more stream by the plan of the principal's organisation, counted across
   * instances; a granted stream is recorded as used. Release it when the stream ends. Development
   * keys are refused while the instance is overloaded.
   */
  admitStream(principal: Principal): Promise<StreamAdmission>;
  /**
   * Whether to close an open stream of the principal now: a development key's while the instance
   * has been overloaded for `LAMIS_OVERLOAD_STREAM_CLOSE_SEC`. Why (`ingest`, ...), or null.
   */
  closesStream(principal: Principal): string | null;
  /** Flushes counters and closes connections; storage closes after. */
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Key checks and entitlements, for routes that authenticate on their own (WebSocket upgrades). */
    access: Access;
  }
}
