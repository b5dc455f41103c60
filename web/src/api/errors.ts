// Readable messages from what the API calls throw: problem documents (RFC 9457) carried by the
// SDK's errors, connection failures and timeouts, and the dashboard's own key errors.
import { LamisApiError, LamisConnectionError, LamisTimeoutError } from '@lamis/sdk';
import { fieldKey, fieldLabel, fieldSentence } from '../app/field-labels.ts';

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
      message = error.fieldErrors.map((field) => fieldSentence(fieldLabel(field.path), field.message)).join('; ');
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

/** Field messages by `fieldKey`, for forms that show each under its input. */
export function fieldErrors(error: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (!(error instanceof LamisApiError)) return result;
  for (const field of error.fieldErrors) result[fieldKey(field.path)] ??= field.message;
  return result;
}
