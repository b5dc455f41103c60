import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { after, before, test } from 'node:test';
import { WebSocket, WebSocketServer } from 'ws';
import { FrameWriter, textFrame, textFramePayload } from './wire.ts';

// A real ws server whose connections are written to with FrameWriter, and real ws clients reading them.
let wss: WebSocketServer;
let url: string;
const accepted: { ws: WebSocket; socket: Duplex; writes: number }[] = [];

before(async () => {
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  wss.on('connection', (ws, request) => {
    const socket = request.socket;
    const entry = { ws, socket, writes: 0 };
    // Counts the writes that reach the socket, each passed on as it is.
    const write = socket.write.bind(socket) as (chunk: Buffer) => boolean;
    socket.write = ((chunk: Buffer) => {
      entry.writes++;
      return write(chunk);
    }) as typeof socket.write;
    accepted.push(entry);
  });
});
after(() => new Promise<void>((resolve) => {
  for (const client of wss.clients) client.terminate();
  wss.close(() => resolve());
}));

async function connect(): Promise<{ client: WebSocket; server: (typeof accepted)[number]; received: string[] }> {
  const client = new WebSocket(url);
  const received: string[] = [];
  client.on('message', (data, isBinary) => {
    assert.equal(isBinary, false);
    received.push(data.toString());
  });
  await new Promise((resolve) => client.once('open', resolve));
  await waitUntil(() => accepted.length > 0 && accepted.at(-1)!.ws.readyState === WebSocket.OPEN);
  return { client, server: accepted.at(-1)!, received };
}

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), 'in time');
}

test('text frames of every length class reach a ws client intact', async () => {
  const { client, server, received } = await connect();
  const writer = new FrameWriter(server.ws, server.socket, 1 << 30);
  // The length fits in 7 bits up to 125, then 16 bits up to 65,535, then 64 bits.
  const texts = [0, 1, 125, 126, 127, 65_535, 65_536, 200_000].map((length) => 'x'.repeat(length));
  texts.push('{"name":"ÅLESUND ⚓ 港"}');
  for (const text of texts) {
    assert.deepEqual(textFramePayload(textFrame(text)).toString(), text);
    writer.write(textFrame(text));
  }
  await waitUntil(() => received.length === texts.length);
  assert.deepEqual(received, texts);
  client.close();
});

test('frames waiting together leave in one write, in order', async () => {
  const { client, server, received } = await connect();
  const writer = new FrameWriter(server.ws, server.socket, 1 << 20);
  const writesBefore = server.writes;
  for (let i = 0; i < 50; i++) writer.write(textFrame(`{"n":${i}}`));
  assert.equal(writer.bufferedAmount, 50 * textFrame('{"n":10}').length - 10, 'waiting frames count as unsent');
  assert.equal(server.writes, writesBefore, 'nothing written as they come');
  await waitUntil(() => received.length === 50);
  assert.equal(server.writes, writesBefore + 1);
  assert.deepEqual(received, Array.from({ length: 50 }, (_, i) => `{"n":${i}}`));
  client.close();
});

test('past flushBytes the frames waiting are written at once', async () => {
  const { client, server, received } = await connect();
  const writer = new FrameWriter(server.ws, server.socket, 1000);
  const writesBefore = server.writes;
  const text = 'y'.repeat(398);
  // 402 bytes a frame: 1,000 are passed at every third.
  for (let i = 0; i < 6; i++) writer.write(textFrame(text));
  assert.equal(server.writes, writesBefore + 2, 'after the third and the sixth frame');
  await waitUntil(() => received.length === 6);
  assert.equal(server.writes, writesBefore + 2, 'nothing was left to wait');
  client.close();
});

test('frames waiting when the WebSocket closes are dropped, never written after the close frame', async () => {
  const { client, server, received } = await connect();
  const writer = new FrameWriter(server.ws, server.socket, 1 << 20);
  writer.write(textFrame('"sent"'));
  writer.flush();
  writer.write(textFrame('"dropped"'));
  const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
  server.ws.close(1001);
  writer.flush();
  assert.equal(await closed, 1001);
  assert.deepEqual(received, ['"sent"']);
  assert.equal(writer.bufferedAmount, 0);
});
