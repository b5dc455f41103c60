// Reading upstream answers against a loopback server: whole answers within the limit, answers cut
// off past it (announced by Content-Length or not), and the timeout covering the body.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { startEndlessUpstream } from '../../../test/support/endless-upstream.ts';
import { AnswerTooLargeError, readAnswer, requestFailure } from './outbound.ts';

const servers: ReturnType<typeof createServer>[] = [];
after(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

async function serve(listener: RequestListener): Promise<URL> {
  const server = createServer(listener);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/data`);
}

test('an answer within the limit is read whole, with its status and headers', async () => {
  const url = await serve((request, response) => {
    response.writeHead(203, { 'content-type': 'text/plain', 'retry-after': '7' }).end(`${request.headers['user-agent']}: ${'x'.repeat(1000)}`);
  });
  const answer = await readAnswer(url, { headers: { 'user-agent': 'probe' }, timeoutMs: 5000, maxBytes: 1007 });
  assert.equal(answer.status, 203);
  assert.equal(answer.headers.get('retry-after'), '7');
  assert.equal(answer.body.toString(), `probe: ${'x'.repeat(1000)}`);
});

test('an answer past the limit is cut off, whether or not Content-Length announces it', async () => {
  const announced = await serve((_request, response) => response.writeHead(200, { 'content-length': '2000' }).end('y'.repeat(2000)));
  await assert.rejects(readAnswer(announced, { timeoutMs: 5000, maxBytes: 1999 }), (error: unknown) => {
    assert.ok(error instanceof AnswerTooLargeError);
    assert.deepEqual(requestFailure(error, announced, 5000), { reason: 'too_large', message: `the answer from ${announced.host} is over the limit of 1999 bytes` });
    return true;
  });

  const endless = await startEndlessUpstream();
  try {
    const logged: unknown[][] = [];
    const url = new URL(endless.url);
    await assert.rejects(readAnswer(url, { timeoutMs: 60_000, maxBytes: 3 * 1024 * 1024, logger: { warn: (...line: unknown[]) => logged.push(line) } }), AnswerTooLargeError);
    assert.deepEqual(logged, [[{ upstream: url.host, path: '/', limit_bytes: 3 * 1024 * 1024 }, 'upstream answer over its size limit; request aborted']]);
    assert.equal(requestFailure(new AnswerTooLargeError(url, 3 * 1024 * 1024), url, 1).message, `the answer from ${url.host} is over the limit of 3 MiB`);
  } finally {
    await endless.close();
  }
  assert.ok(endless.answers.every((answer) => !answer.complete), JSON.stringify(endless.answers));
});

test('the timeout covers the body: an answer that stops halfway times out', async () => {
  const url = await serve((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('[');
  });
  await assert.rejects(readAnswer(url, { timeoutMs: 100, maxBytes: 1024 }), (error: unknown) => {
    assert.deepEqual(requestFailure(error, url, 100), { reason: 'timeout', message: `no complete answer from ${url.host} within 100 ms` });
    return true;
  });
});
