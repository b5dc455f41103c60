import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { parseFeedSpec } from './spec.ts';
import { TcpClientFeed, TcpListenFeed } from './tcp.ts';
import { recordingSink, SAMPLE, waitFor } from './testing.ts';

const A = SAMPLE.position;
const B = SAMPLE.position2;
const [C1, C2] = SAMPLE.voyage as [string, string];
const FAST = { initialMs: 20, maxMs: 100, jitter: 0 };

function tcpSpec(port: number, query = '') {
  const spec = parseFeedSpec(`tcp://127.0.0.1:${port}${query}`);
  assert.ok(spec.kind === 'tcp');
  return spec;
}

function listenSpec(query = '') {
  const spec = parseFeedSpec(`tcp-listen://127.0.0.1:0${query}`);
  assert.ok(spec.kind === 'tcp-listen');
  return spec;
}

/** A loopback server that hands each accepted socket to `onConnection`, keeping them to close at the end. */
async function server(onConnection: (socket: Socket, index: number) => void, port = 0): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const srv = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onConnection(socket, count++);
  });
  await new Promise<void>((resolve) => srv.listen(port, '127.0.0.1', resolve));
  const address = srv.address();
  assert.ok(address !== null && typeof address === 'object');
  return {
    server: srv,
    port: address.port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('TCP client: lines split across chunks are joined; it reconnects after the server drops it', async () => {
  const loopback = await server((socket, index) => {
    void (async () => {
      if (index === 0) {
        // Partial lines across chunks, then a drop in the middle of a line.
        socket.write(A.slice(0, 10));
        await pause(20);
        socket.write(`${A.slice(10)}\r\n${C1.slice(0, 30)}`);
        await pause(20);
        socket.write(`${C1.slice(30)}\r\n${C2}\r\n${B.slice(0, 12)}`);
        await pause(20);
        socket.destroy();
      } else {
        socket.write(`${B}\n`);
      }
    })();
  });
  const feed = new TcpClientFeed(tcpSpec(loopback.port), { backoff: FAST });
  const sink = recordingSink();
  try {
    await feed.start(sink);
    await waitFor(() => sink.received.includes(B), 'the line sent after the reconnect');
    // The cut line is still passed on (the pipeline counts it), then the full one after reconnecting.
    assert.deepEqual(sink.received, [A, C1, C2, B.slice(0, 12), B]);
    const status = feed.status();
    assert.equal(status.state, 'connected');
    assert.ok(status.reconnects >= 1);
    assert.equal(status.connections, 1);
    assert.equal(status.lines, 5);
    assert.match(status.detail!, /connected to 127\.0\.0\.1:/);
  } finally {
    await feed.stop();
    await loopback.close();
  }
  assert.equal(feed.status().state, 'stopped');
  assert.equal(feed.status().connections, 0);
});

test('TCP client: a refused connection does not hold up start(); it connects once the receiver is up', async () => {
  // Find a free port, then leave it closed for a while.
  const probe = await server(() => undefined);
  const port = probe.port;
  await probe.close();
  const log: string[] = [];
  const feed = new TcpClientFeed(tcpSpec(port), { backoff: FAST, onLog: (level, message) => log.push(`${level} ${message}`) });
  const sink = recordingSink();
  await feed.start(sink);
  let loopback: Awaited<ReturnType<typeof server>> | null = null;
  try {
    await waitFor(() => feed.status().state === 'reconnecting', 'reconnecting');
    assert.match(feed.status().detail!, /ECONNREFUSED.*retrying in/);
    await waitFor(() => feed.status().reconnects >= 2, 'two retries');
    loopback = await server((socket) => socket.write(`${A}\n`), port);
    await waitFor(() => sink.received.length === 1, 'a line');
    assert.equal(feed.status().state, 'connected');
    assert.ok(log.some((line) => line.startsWith('warn feed reconnecting: ')));
    assert.ok(log.some((line) => line.startsWith('info feed connected: ')));
  } finally {
    await feed.stop();
    await loopback?.close();
  }
});

test('TCP client: a silent connection is dropped after the idle timeout and reconnected', async () => {
  let connections = 0;
  const loopback = await server(() => {
    connections++;
  });
  const feed = new TcpClientFeed(tcpSpec(loopback.port), { backoff: FAST, idleTimeoutMs: 80, keepAliveMs: 1000 });
  await feed.start(recordingSink());
  try {
    await waitFor(() => connections >= 2, 'a second connection');
    assert.ok(feed.status().reconnects >= 1);
    // The spec's idle= wins over the option.
    const fromSpec = new TcpClientFeed(tcpSpec(loopback.port, '?idle=3600'), { idleTimeoutMs: 80 });
    await fromSpec.start(recordingSink());
    await pause(200);
    assert.equal(fromSpec.status().reconnects, 0);
    await fromSpec.stop();
  } finally {
    await feed.stop();
    await loopback.close();
  }
});

/** A receiver pushing to the feed. */
async function client(port: number): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return socket;
}

test('TCP listen: two receivers at once, each with its own partial lines', async () => {
  const feed = new TcpListenFeed(listenSpec());
  const sink = recordingSink();
  await feed.start(sink);
  try {
    assert.equal(feed.status().state, 'listening');
    const port = feed.port!;
    const one = await client(port);
    const two = await client(port);
    await waitFor(() => feed.status().connections === 2, 'two connections');
    assert.equal(feed.status().state, 'connected');
    assert.match(feed.status().detail!, /2 receivers connected/);
    // Interleaved halves: each connection keeps its own partial line.
    one.write(A.slice(0, 20));
    two.write(B.slice(0, 15));
    await pause(20);
    one.write(`${A.slice(20)}\r\n`);
    two.write(`${B.slice(15)}\n${C1}\n${C2}`);
    await waitFor(() => sink.received.length === 3, 'three lines');
    two.end(); // the unterminated C2 goes on when the receiver disconnects
    await waitFor(() => sink.received.length === 4, 'four lines');
    assert.deepEqual([...sink.received].sort(), [A, B, C1, C2].sort());
    assert.ok(sink.received.indexOf(C1) < sink.received.indexOf(C2));
    await waitFor(() => feed.status().connections === 1, 'one connection');
    one.destroy();
    await waitFor(() => feed.status().state === 'listening', 'listening again');
    assert.equal(feed.status().lines, 4);
  } finally {
    await feed.stop();
  }
  assert.equal(feed.status().state, 'stopped');
});

test('TCP listen: connections over the cap are refused; silent receivers are dropped', async () => {
  const log: string[] = [];
  const feed = new TcpListenFeed(listenSpec('?max_connections=2'), { idleTimeoutMs: 600, onLog: (_level, message) => log.push(message) });
  await feed.start(recordingSink());
  const sockets: Socket[] = [];
  try {
    const port = feed.port!;
    sockets.push(await client(port), await client(port));
    await waitFor(() => feed.status().connections === 2, 'two connections');
    const third = await client(port);
    sockets.push(third);
    await new Promise<void>((resolve) => third.once('close', () => resolve()));
    assert.equal(feed.refused, 1);
    assert.ok(log.some((line) => /refused .*already 2 connections/.test(line)));
    assert.equal(feed.status().connections, 2);
    // Nobody talks: both are dropped after the idle timeout.
    await waitFor(() => feed.status().connections === 0, 'idle connections dropped');
    assert.ok(log.some((line) => /silent for/.test(line)));
  } finally {
    for (const socket of sockets) socket.destroy();
    await feed.stop();
  }
});

test('TCP listen: stop() closes the server and every connection', async () => {
  const feed = new TcpListenFeed(listenSpec());
  await feed.start(recordingSink());
  const port = feed.port!;
  const socket = await client(port);
  await waitFor(() => feed.status().connections === 1, 'a connection');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await feed.stop();
  await closed;
  await feed.stop(); // twice is fine
  const refused = connect({ host: '127.0.0.1', port });
  const error = await new Promise<NodeJS.ErrnoException>((resolve) => refused.once('error', resolve));
  assert.equal(error.code, 'ECONNREFUSED');
});
