// Test support for the SDK: real LAMIS servers (the project's own test servers), organisation keys
// made with the `lamis` operator commands, and AIS sentences made with the project's encoder.
import { execFile } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { positionReport, sentences, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';
import { imoCheckDigit } from '../../src/maritime/vessels/reference/index.ts';
import type { TestServer } from '../../test/support/server.ts';

export { startTestServer, TEST_API_KEY, type TestServer } from '../../test/support/server.ts';
export { waitFor } from '../../src/maritime/feeds/testing.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;

/** Runs a `lamis` operator command on the server's storage and answers its JSON. */
export async function lamis(server: TestServer, ...args: string[]): Promise<any> {
  const env = { ...process.env, LAMIS_DATA_DIR: server.config.dataDir, ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : {}) };
  const { stdout } = await run(process.execPath, [bin, ...args, '--json'], { env });
  return JSON.parse(stdout);
}

let organisations = 0;

/** A new organisation on `plan` and a key of it. */
export async function organisationKey(server: TestServer, plan: 'starter' | 'pro' | 'enterprise', env: 'production' | 'development' = 'production'): Promise<string> {
  const org = await lamis(server, 'org', 'create', '--name', `SDK Test ${++organisations}`, '--plan', plan);
  const key = await lamis(server, 'keys', 'create', '--org', org.id, '--env', env, '--name', 'sdk');
  return key.secret as string;
}

export function validImo(prefix: number): number {
  return prefix * 10 + imoCheckDigit(prefix);
}

/** NMEA lines of a position report (type 1). */
export function positionLines(mmsi: number, lat: number, lon: number): string[] {
  return sentences(positionReport(mmsi, lat, lon));
}

/** NMEA lines of static and voyage data (type 5, two sentences). */
export function staticLines(mmsi: number, fields: { imo: number; shipname: string; shiptype: number }, sequenceId = 1): string[] {
  return sentences(staticVoyage(mmsi, fields), sequenceId);
}

export interface TcpProxy {
  /** The proxy's http:// address. */
  url: string;
  /** Connections through the proxy so far. */
  readonly connections: number;
  /** Drops every connection through it at once, as a network failure would (no close frame). */
  cut(): void;
  /** Stops forwarding on every open connection, without closing them: a silently dead link. */
  blackhole(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy to `target`, to fail connections the way networks do. */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { port } = new URL(target);
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((client) => {
    connections++;
    const upstream = connect(Number(port), '127.0.0.1');
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    cut() {
      for (const socket of sockets) socket.destroy();
    },
    blackhole() {
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
