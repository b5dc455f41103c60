// What the clients of upstream services (aviationweather.gov, the FAA NOTAM API, Open-Meteo, the
// port data downloads) and the webhook deliveries share about reading their HTTP answers: one way
// to read an answer, within a timeout and a size limit, a Retry-After, a short excerpt of a body
// for messages, and a description of a request that got no usable answer.
//
// Every answer is read through `readAnswer`: the body is streamed and counted, and the request is
// aborted once it passes its source's limit, so an answer far larger than its source ever sends
// (a fault, a wrong URL, a hostile server) cannot fill the memory of the process.
import type { FastifyBaseLogger } from 'fastify';

/** Where an answer cut off at its size limit is reported. */
export type OutboundLogger = Pick<FastifyBaseLogger, 'warn'>;

export interface OutboundRequest {
  /** GET unless given (webhooks POST their body). */
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** For the whole exchange, the body included. */
  timeoutMs: number;
  /** Bytes of body (as decoded) read at most; past them the request is aborted. */
  maxBytes: number;
  logger?: OutboundLogger;
  fetch?: typeof fetch;
}

/** What fetch's Response tells, with the body already read. */
export interface OutboundAnswer {
  ok: boolean;
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
  /** The body as UTF-8 text, as `Response.text()` reads it. */
  text(): string;
}

/** The answer passed its size limit: the request was aborted. */
export class AnswerTooLargeError extends Error {
  constructor(url: URL, limitBytes: number) {
    super(`the answer from ${url.host} is over the limit of ${sizeText(limitBytes)}`);
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * GETs the URL (or POSTs `body` to it) and reads the answer whole. Throws AnswerTooLargeError past
 * `maxBytes`, and what fetch throws on a timeout or a network failure (`requestFailure` tells which).
 */
export async function readAnswer(url: URL, request: OutboundRequest): Promise<OutboundAnswer> {
  const cutOff = new AbortController();
  const response = await (request.fetch ?? fetch)(url, {
    method: request.method ?? 'GET',
    body: request.body,
    headers: request.headers,
    signal: AbortSignal.any([cutOff.signal, AbortSignal.timeout(request.timeoutMs)]),
  });
  const tooLarge = () => {
    cutOff.abort();
    request.logger?.warn({ upstream: url.host, path: url.pathname, limit_bytes: request.maxBytes }, 'upstream answer over its size limit; request aborted');
    return new AnswerTooLargeError(url, request.maxBytes);
  };
  if (Number(response.headers.get('content-length')) > request.maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > request.maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  const { ok, status, statusText, headers } = response;
  return { ok, status, statusText, headers, body, text: () => new TextDecoder().decode(body) };
}

function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** A Retry-After beyond this is cut to it, so one odd header cannot silence a feed for days. */
const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - nowMs;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : null;
}

/** The start of a body, on one line, for messages. */
export function excerpt(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** `prefix from host`, followed by the body's excerpt when it has one. */
export function answerMessage(prefix: string, url: URL, body: string): string {
  const text = excerpt(body);
  return `${prefix} from ${url.host}${text === '' ? '' : `: ${text}`}`;
}

export type RequestFailureReason = 'timeout' | 'network' | 'too_large';

/** Why `readAnswer` threw: the answer was too large, it timed out, or the network failed. */
export function requestFailure(error: unknown, url: URL, timeoutMs: number): { reason: RequestFailureReason; message: string } {
  if (error instanceof AnswerTooLargeError) return { reason: 'too_large', message: error.message };
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return { reason: 'timeout', message: `no complete answer from ${url.host} within ${timeoutMs} ms` };
  }
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return { reason: 'network', message: `request to ${url.host} failed: ${error instanceof Error ? error.message : String(error)}${cause}` };
}
