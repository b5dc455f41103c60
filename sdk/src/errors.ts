// Everything the client throws is a LamisError. An answer with an error status becomes a
// LamisApiError carrying the RFC 9457 problem document; the statuses a caller typically handles
// on their own (401, 403, 404, 429) have their own subclasses, so `instanceof` picks them out.
import type { Problem } from './generated/api.ts';
import type { RateLimitInfo } from './rate-limit.ts';

export type { Problem };

export class LamisError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

export interface ApiErrorContext {
  status: number;
  problem: Problem;
  headers: Headers;
  rateLimit: RateLimitInfo | null;
}

export class LamisApiError extends LamisError {
  /** The HTTP status. */
  readonly status: number;
  /** The stable error code, e.g. `vessel_not_found` (see `/problems/{code}`). */
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** The whole problem document, with any members the code adds (e.g. `reason`). */
  readonly problem: Problem;
  /** The `Request-Id` to quote when reporting a problem. */
  readonly requestId: string | null;
  readonly rateLimit: RateLimitInfo | null;
  /** Seconds to wait before retrying, when the answer said (`Retry-After`). */
  readonly retryAfterSec: number | null;
  readonly headers: Headers;

  constructor(context: ApiErrorContext) {
    const { problem } = context;
    super(`${context.status} ${problem.code}: ${problem.detail}`);
    this.status = context.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.problem = problem;
    this.requestId = context.headers.get('request-id') ?? (problem.request_id || null);
    this.rateLimit = context.rateLimit;
    this.retryAfterSec = context.rateLimit?.retryAfterSec ?? null;
    this.headers = context.headers;
  }

  /** The invalid fields of a validation failure (`errors[]`), else empty. */
  get fieldErrors(): { path: string; message: string }[] {
    return this.problem.errors ?? [];
  }
}

/** 401: the API key is missing, malformed, unknown, expired or revoked. */
export class LamisUnauthorizedError extends LamisApiError {
  /** Which check failed: `missing`, `bad_header`, `malformed`, `unknown`, `expired` or `revoked`. */
  get reason(): string | null {
    return typeof this.problem.reason === 'string' ? this.problem.reason : null;
  }
}

/** 403: the key may not do this (an operator route, a plan without the feature). */
export class LamisForbiddenError extends LamisApiError {}

/** 404: no such resource (e.g. `vessel_not_found`, `airport_not_found`). */
export class LamisNotFoundError extends LamisApiError {}

/** 429: over the rate limit; `retryAfterSec` says when to try again. */
export class LamisRateLimitError extends LamisApiError {}

/** The error for an answer with an error status. */
export function apiError(context: ApiErrorContext): LamisApiError {
  switch (context.status) {
    case 401: return new LamisUnauthorizedError(context);
    case 403: return new LamisForbiddenError(context);
    case 404: return new LamisNotFoundError(context);
    case 429: return new LamisRateLimitError(context);
    default: return new LamisApiError(context);
  }
}

/**
 * The problem document of an error answer. An answer that is not one (an HTML page from a proxy
 * in front of LAMIS) gets a document built from its status: `type` `about:blank`, code `http_<status>`.
 */
export function problemFrom(status: number, statusText: string, body: unknown, text: string, instance: string): Problem {
  if (body && typeof body === 'object' && typeof (body as Problem).code === 'string') {
    const received = body as Partial<Problem>;
    return {
      ...received,
      type: received.type ?? 'about:blank',
      title: received.title ?? statusText,
      status: received.status ?? status,
      detail: received.detail ?? received.title ?? statusText,
      instance: received.instance ?? instance,
      code: received.code!,
      request_id: received.request_id ?? '',
    };
  }
  return {
    type: 'about:blank',
    title: statusText || `HTTP ${status}`,
    status,
    detail: text.trim().slice(0, 500) || statusText || `HTTP ${status}`,
    instance,
    code: `http_${status}`,
    request_id: '',
  };
}

/** The request took longer than its timeout. */
export class LamisTimeoutError extends LamisError {
  readonly timeoutMs: number;

  constructor(timeoutMs: number, options?: ErrorOptions) {
    super(`no complete answer within ${timeoutMs} ms`, options);
    this.timeoutMs = timeoutMs;
  }
}

/** LAMIS could not be reached (refused connection, DNS failure, reset). `cause` has the details. */
export class LamisConnectionError extends LamisError {}
