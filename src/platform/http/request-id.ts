// Every request gets an id, echoed as `Request-Id` on every response and in every log line. A
// caller's own `X-Request-Id` is kept when it is sane, so ids can follow a request across systems.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const inbound = request.headers['x-request-id'];
  return typeof inbound === 'string' && SANE_ID.test(inbound) ? inbound : `req_${randomUUID().replaceAll('-', '')}`;
}
