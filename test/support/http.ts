import assert from 'node:assert/strict';

/** A response body as JSON, for assertions. */
export async function json(response: Response): Promise<any> {
  return response.json();
}

/**
 * A call to a running server that must succeed: a string body goes as text (METARs, NMEA), any
 * other as JSON. Answers the JSON body, or null for 204.
 */
export async function callOk(baseUrl: string, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<any> {
  const text = typeof body === 'string';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': text ? 'text/plain' : 'application/json' }) },
    body: body === undefined ? undefined : text ? body : JSON.stringify(body),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`);
  return response.status === 204 ? null : json(response);
}
