// Readable messages from what the API calls throw: problem documents (RFC 9457) carried by the
// SDK's errors, connection failures and timeouts, and the dashboard's own key errors.
import { LamisApiError, LamisConnectionError, LamisTimeoutError } from '@lamis/sdk';

/** An error the dashboard raises itself, with a message written for the user. */
export class DashboardError extends Error {
  /** Where the user can fix it, e.g. `/settings/keys`. */
  readonly fixAt: string | null;

  constructor(message: string, fixAt: string | null = null) {
    super(message);
    this.name = 'DashboardError';
    this.fixAt = fixAt;
  }
}

function waitText(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.ceil(seconds))} s`;
  return `${Math.ceil(seconds / 60)} min`;
}

/** One sentence or two for a message box. */
export function errorMessage(error: unknown): string {
  if (error instanceof LamisApiError) {
    let message = error.detail || error.title;
    if (error.fieldErrors.length) {
      message = error.fieldErrors.map((field) => `${fieldLabel(field.path)} ${field.message}`).join('; ');
    }
    if (error.retryAfterSec !== null && (error.status === 429 || error.status === 503)) {
      message += ` Try again in ${waitText(error.retryAfterSec)}.`;
    }
    if (error.status >= 500 && error.requestId) message += ` (Request id ${error.requestId}: quote it when reporting this.)`;
    return message;
  }
  if (error instanceof LamisTimeoutError) return 'LAMIS took too long to answer. Try again.';
  if (error instanceof LamisConnectionError || error instanceof TypeError) {
    return 'LAMIS cannot be reached. Check your connection and try again.';
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The problem `code` of an API error (`session_required`, `slot_full`...), else null. */
export function errorCode(error: unknown): string | null {
  return error instanceof LamisApiError ? error.code : null;
}

/**
 * A validation error's field path without its location: `/body/email` → `email`,
 * `/body/thresholds/crosswind_kt_above` → `thresholds/crosswind_kt_above`, `/querystring/from` → `from`.
 */
export function fieldKey(path: string): string {
  return path.replace(/^\/(body|querystring|query|params|headers)\/?/, '');
}

/** The last part of a field path, words spaced: `/body/full_name` → `full name`. */
function fieldLabel(path: string): string {
  const key = fieldKey(path);
  const last = key.slice(key.lastIndexOf('/') + 1) || key;
  const words = last.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Field messages by `fieldKey`, for forms that show each under its input. */
export function fieldErrors(error: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (!(error instanceof LamisApiError)) return result;
  for (const field of error.fieldErrors) result[fieldKey(field.path)] ??= field.message;
  return result;
}
