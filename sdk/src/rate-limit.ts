// What an answer's headers say about the caller's rate limit. LAMIS sends the IETF headers
// (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "organisation";q=100;w=60` and
// `RateLimit: "organisation";r=57;t=23`), the older `X-RateLimit-Limit/Remaining/Reset`, and
// `Retry-After` when a request is refused. The IETF headers win where both are present.

export interface RateLimitInfo {
  /** Whose budget the request drew on, e.g. `organisation` or `key`; null when not named. */
  policy: string | null;
  /** True for keys without a cap (the other numbers are then null). */
  unlimited: boolean;
  /** Requests allowed per window. */
  limit: number | null;
  /** Length of the window in seconds. */
  windowSec: number | null;
  /** Requests left in the window. */
  remaining: number | null;
  /** Seconds until the budget has room again. */
  resetSec: number | null;
  /** When the refused request may be retried, in seconds (from `Retry-After`). */
  retryAfterSec: number | null;
}

/** The rate limit an answer reports, or null when it carries none of the headers. */
export function parseRateLimit(headers: Headers, now: number = Date.now()): RateLimitInfo | null {
  const policyHeader = headers.get('ratelimit-policy');
  const limitHeader = headers.get('ratelimit');
  const legacyLimit = headers.get('x-ratelimit-limit');
  const retryAfterSec = parseRetryAfter(headers.get('retry-after'), now);
  if (policyHeader === null && limitHeader === null && legacyLimit === null && retryAfterSec === null) return null;

  const current = limitHeader === null ? undefined : parseList(limitHeader)[0];
  const policies = policyHeader === null ? [] : parseList(policyHeader);
  const policy = policies.find((item) => current === undefined || item.value === current.value) ?? policies[0];
  const unlimited = legacyLimit?.trim().toLowerCase() === 'unlimited';
  const name = (current ?? policy)?.value;
  return {
    policy: typeof name === 'string' ? name : null,
    unlimited,
    limit: integerParameter(policy, 'q') ?? (unlimited ? null : integerHeader(legacyLimit)),
    windowSec: integerParameter(policy, 'w'),
    remaining: integerParameter(current, 'r') ?? integerHeader(headers.get('x-ratelimit-remaining')),
    resetSec: integerParameter(current, 't') ?? integerHeader(headers.get('x-ratelimit-reset')),
    retryAfterSec,
  };
}

/** `Retry-After` as seconds from now: either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function integerHeader(value: string | null): number | null {
  return value !== null && /^\s*\d+\s*$/.test(value) ? Number(value) : null;
}

function integerParameter(item: ListItem | undefined, name: string): number | null {
  const value = item?.parameters.get(name);
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

type BareItem = string | number | boolean;
interface ListItem {
  value: BareItem;
  parameters: Map<string, BareItem>;
}

/**
 * An RFC 9651 structured-field list of items with parameters, as far as these headers use it:
 * strings, tokens, integers, decimals and booleans. A malformed member ends the list there.
 */
function parseList(text: string): ListItem[] {
  const items: ListItem[] = [];
  let at = 0;
  const skipSpaces = () => {
    while (text[at] === ' ' || text[at] === '\t') at++;
  };
  const bareItem = (): BareItem | undefined => {
    const char = text[at];
    if (char === '"') {
      let value = '';
      for (at++; at < text.length; at++) {
        if (text[at] === '\\') value += text[++at] ?? '';
        else if (text[at] === '"') {
          at++;
          return value;
        } else value += text[at];
      }
      return undefined;
    }
    if (char === '?') {
      at += 2;
      return text[at - 1] === '1';
    }
    const match = /^-?\d+(\.\d+)?|^[A-Za-z*][\w:/!#$%&'*+.^`|~-]*/.exec(text.slice(at));
    if (!match) return undefined;
    at += match[0].length;
    return /^-?\d/.test(match[0]) ? Number(match[0]) : match[0];
  };
  while (at < text.length) {
    skipSpaces();
    const value = bareItem();
    if (value === undefined) break;
    const parameters = new Map<string, BareItem>();
    while (text[at] === ';') {
      at++;
      skipSpaces();
      const key = /^[a-z*][a-z0-9_.*-]*/.exec(text.slice(at))?.[0];
      if (!key) break;
      at += key.length;
      if (text[at] === '=') {
        at++;
        const parameter = bareItem();
        if (parameter === undefined) break;
        parameters.set(key, parameter);
      } else parameters.set(key, true);
    }
    items.push({ value, parameters });
    skipSpaces();
    if (text[at] !== ',') break;
    at++;
  }
  return items;
}
