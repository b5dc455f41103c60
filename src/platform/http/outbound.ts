// What the clients of upstream services (aviationweather.gov, the FAA NOTAM API, Open-Meteo) share
// about reading their HTTP answers: a Retry-After, a short excerpt of a body for messages, and a
// description of a request that got no answer.

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

/** Why a fetch threw: it timed out (or was aborted), or the network failed. */
export function requestFailure(error: unknown, url: URL, timeoutMs: number): { timedOut: boolean; message: string } {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return { timedOut: true, message: `no complete answer from ${url.host} within ${timeoutMs} ms` };
  }
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return { timedOut: false, message: `request to ${url.host} failed: ${error instanceof Error ? error.message : String(error)}${cause}` };
}
