// An upstream HTTP server on a loopback port whose answer has no end: it writes as fast as the
// client reads, up to a ceiling far beyond any limit under test, and records for each answer how
// many bytes it got out and whether the client hung up before the end.
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EndlessAnswer {
  /** Bytes handed to the connection before it closed. */
  sent: number;
  /** The whole ceiling went out: the client read on instead of hanging up. */
  complete: boolean;
}

export interface EndlessUpstream {
  url: string;
  ceilingBytes: number;
  /** One entry per answer, once its connection has closed. */
  answers: EndlessAnswer[];
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, '[');
const DEFAULT_CEILING_BYTES = 64 * 1024 * 1024;

/** Answers 200 with a body that runs on until the ceiling or until the client hangs up, then records it. */
export function answerEndlessly(response: ServerResponse, answers: EndlessAnswer[], options: { contentType?: string; ceilingBytes?: number } = {}): void {
  const ceilingBytes = options.ceilingBytes ?? DEFAULT_CEILING_BYTES;
  let sent = 0;
  response.on('close', () => answers.push({ sent, complete: response.writableFinished }));
  response.writeHead(200, { 'content-type': options.contentType ?? 'application/json' });
  const pump = () => {
    while (sent < ceilingBytes && !response.destroyed) {
      sent += CHUNK.length;
      if (!response.write(CHUNK)) {
        response.once('drain', pump);
        return;
      }
    }
    if (!response.destroyed) response.end();
  };
  pump();
}

export async function startEndlessUpstream(options: { contentType?: string; ceilingBytes?: number } = {}): Promise<EndlessUpstream> {
  const answers: EndlessAnswer[] = [];
  const server = createServer((_request, response) => answerEndlessly(response, answers, options));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ceilingBytes: options.ceilingBytes ?? DEFAULT_CEILING_BYTES,
    answers,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
