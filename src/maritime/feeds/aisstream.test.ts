import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { AisMessage } from '../ais/index.ts';
import { AisstreamFeed } from './aisstream.ts';
import { parseFeedSpec } from './spec.ts';
import { recordingSink, waitFor } from './testing.ts';

const KEY = 'test-key-0123456789';
const FAST = { initialMs: 20, maxMs: 100, jitter: 0 };

interface Loopback {
  port: number;
  /** Subscription messages received, parsed, in order. */
  subscriptions: Record<string, unknown>[];
  connections: number;
  close(): Promise<void>;
}

/** A loopback aisstream stand-in: `onSubscribe` gets each connection's subscription and its socket. */
async function loopback(onSubscribe: (socket: WebSocket, subscription: Record<string, unknown>, index: number) => void, options: { autoPong?: boolean } = {}): Promise<Loopback> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/v0/stream', autoPong: options.autoPong ?? true });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const state: Loopback = {
    port: (server.address() as { port: number }).port,
    subscriptions: [],
    connections: 0,
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', (socket) => {
    const index = state.connections++;
    socket.once('message', (data) => {
      const subscription = JSON.parse(String(data)) as Record<string, unknown>;
      state.subscriptions.push(subscription);
      onSubscribe(socket, subscription, index);
    });
  });
  return state;
}

function spec(port: number, query = '') {
  const parsed = parseFeedSpec(`aisstream+ws://127.0.0.1:${port}/v0/stream${query}`);
  assert.ok(parsed.kind === 'aisstream');
  return parsed;
}

function envelope(messageType: string, body: Record<string, unknown>): string {
  return JSON.stringify({ MessageType: messageType, MetaData: { MMSI: body.UserID, ShipName: '', time_utc: '2025-03-01 12:00:00 +0000 UTC' }, Message: { [messageType]: body } });
}

const POSITION = { MessageID: 1, UserID: 244660000, Latitude: 52.1, Longitude: 4.2, Sog: 12.3, Cog: 271.5, TrueHeading: 270, NavigationalStatus: 0, RateOfTurn: 0, Timestamp: 30, Valid: true };
const STATIC = { MessageID: 5, UserID: 244660000, Name: 'NORDIC SPIRIT', CallSign: 'PDGS', ImoNumber: 9074729, Type: 80, Destination: 'NLRTM', MaximumStaticDraught: 11.8, Dimension: { A: 150, B: 30, C: 15, D: 17 }, Eta: { Month: 12, Day: 3, Hour: 14, Minute: 30 }, Valid: true };
const CLASS_B = { MessageID: 18, UserID: 503123456, Latitude: -33.856, Longitude: 151.215, Sog: 5.4, Cog: 45.5, TrueHeading: 511, Valid: true };
const PART_A = { MessageID: 24, UserID: 503123456, PartNumber: false, ReportA: { Valid: true, Name: 'SALTY DOG' }, Valid: true };

function scaled(message: AisMessage): Record<string, unknown> {
  return message.scaled as unknown as Record<string, unknown>;
}

test('aisstream: subscribes with key and boxes, converts several message types, counts what it cannot use', async () => {
  const server = await loopback((socket) => {
    socket.send(envelope('PositionReport', POSITION));
    socket.send(envelope('ShipStaticData', STATIC));
    socket.send('this is not json');
    socket.send(envelope('SafetyBroadcastMessage', { MessageID: 14, UserID: 1, Text: 'SECURITE' }));
    socket.send(Buffer.from(envelope('StandardClassBPositionReport', CLASS_B))); // binary frames too
    socket.send(envelope('PositionReport', { ...POSITION, Sog: 500 }));
    socket.send(envelope('StaticDataReport', PART_A));
  });
  const log: string[] = [];
  const feed = new AisstreamFeed(spec(server.port, '?bbox=50,-5,60,10;-40,150,-30,160&mmsi=244660000,503123456&types=PositionReport'), {
    apiKey: KEY,
    backoff: FAST,
    onLog: (level, message, detail) => log.push(`${level} ${message} ${JSON.stringify(detail)}`),
  });
  const sink = recordingSink();
  const before = Date.now();
  await feed.start(sink);
  try {
    await waitFor(() => sink.messages_.length === 4, 'four messages');
    assert.deepEqual(server.subscriptions[0], {
      APIKey: KEY,
      BoundingBoxes: [
        [[50, -5], [60, 10]],
        [[-40, 150], [-30, 160]],
      ],
      FiltersShipMMSI: ['244660000', '503123456'],
      FilterMessageTypes: ['PositionReport'],
    });
    const [position, voyage, classB, partA] = sink.messages_.map((entry) => entry.message) as [AisMessage, AisMessage, AisMessage, AisMessage];
    assert.deepEqual([position.type, position.mmsi], [1, 244660000]);
    assert.ok(Math.abs((scaled(position).lat as number) - 52.1) < 1e-6);
    assert.ok(Math.abs((scaled(position).lon as number) - 4.2) < 1e-6);
    assert.equal(scaled(position).sog, 12.3);
    assert.equal(scaled(position).cog, 271.5);
    assert.equal(scaled(position).heading, 270);
    assert.deepEqual([voyage.type, scaled(voyage).shipname, scaled(voyage).callsign, scaled(voyage).imo, scaled(voyage).destination, scaled(voyage).draught, scaled(voyage).length], [5, 'NORDIC SPIRIT', 'PDGS', 9074729, 'NLRTM', 11.8, 180]);
    assert.deepEqual([classB.type, classB.mmsi, scaled(classB).sog, scaled(classB).heading], [18, 503123456, 5.4, null]);
    assert.deepEqual([partA.type, scaled(partA).shipname], [24, 'SALTY DOG']);
    for (const entry of sink.messages_) assert.ok(entry.receivedAt >= before && entry.receivedAt <= Date.now());

    const status = feed.status();
    assert.equal(status.state, 'connected');
    assert.equal(status.messages, 4);
    assert.equal(status.lines, 0);
    assert.deepEqual(status.rejected, { malformed: 1, unsupported: 1, invalid: 1 });
    assert.equal(status.connections, 1);
    assert.ok(status.bytes > 0);
    assert.equal(status.source, 'live');
    // The key never reaches the log.
    assert.ok(log.length > 0);
    assert.ok(log.every((line) => !line.includes(KEY)), log.join('\n'));
  } finally {
    await feed.stop();
    await server.close();
  }
  assert.equal(feed.status().state, 'stopped');
});

test('aisstream: reconnects with backoff after the server closes, and subscribes again', async () => {
  const server = await loopback((socket, _subscription, index) => {
    socket.send(envelope('PositionReport', { ...POSITION, UserID: 244660000 + index }));
    if (index === 0) setTimeout(() => socket.close(1011, 'going away'), 20);
  });
  const log: string[] = [];
  const feed = new AisstreamFeed(spec(server.port), { apiKey: KEY, backoff: FAST, onLog: (_level, message) => log.push(message) });
  const sink = recordingSink();
  await feed.start(sink);
  try {
    await waitFor(() => sink.messages_.length === 2, 'a message from each connection');
    assert.deepEqual(sink.messages_.map((entry) => entry.message.mmsi), [244660000, 244660001]);
    assert.equal(server.subscriptions.length, 2);
    assert.deepEqual(server.subscriptions[1]!.BoundingBoxes, [[[-90, -180], [90, 180]]]);
    assert.equal(server.subscriptions[1]!.FiltersShipMMSI, undefined);
    assert.equal(feed.status().reconnects, 1);
    assert.equal(feed.status().state, 'connected');
    assert.ok(log.some((line) => /reconnecting: closed by the server \(1011 going away\); retrying in 20 ms/.test(line)), log.join('\n'));
  } finally {
    await feed.stop();
    await server.close();
  }
});

test('aisstream: a frame over the size limit drops the connection unread (1009) and is reported', async () => {
  let closedWith: number | null = null;
  const server = await loopback((socket, _subscription, index) => {
    socket.once('close', (code) => {
      if (index === 0) closedWith = code;
    });
    // Past the limit by one byte: the client closes before reading it.
    if (index === 0) socket.send('x'.repeat(4097));
    else socket.send(envelope('PositionReport', POSITION));
  });
  const log: string[] = [];
  const feed = new AisstreamFeed(spec(server.port), { apiKey: KEY, backoff: FAST, maxFrameBytes: 4096, onLog: (_level, message) => log.push(message) });
  const sink = recordingSink();
  await feed.start(sink);
  try {
    await waitFor(() => sink.messages_.length === 1, 'a message after reconnecting');
    assert.equal(closedWith, 1009);
    assert.ok(log.some((line) => /reconnecting: WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: Max payload size exceeded/.test(line)), log.join('\n'));
  } finally {
    await feed.stop();
    await server.close();
  }
});

test('aisstream: an error from the service fails the feed with its message, then retries slowly until it works', async () => {
  let accept = false;
  const server = await loopback((socket) => {
    if (!accept) {
      socket.send(JSON.stringify({ error: 'Api Key Is Not Valid' }));
      socket.close();
      return;
    }
    socket.send(envelope('PositionReport', POSITION));
  });
  const feed = new AisstreamFeed(spec(server.port), { apiKey: 'wrong-key', backoff: FAST, errorRetryMs: 300 });
  const sink = recordingSink();
  await feed.start(sink);
  try {
    await waitFor(() => feed.status().state === 'failed' && /retrying in/.test(feed.status().detail ?? ''), 'failed with a retry planned');
    assert.match(feed.status().detail!, /service error: Api Key Is Not Valid; retrying in 300 ms/);
    // Slowly: not at the 20 ms backoff.
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(server.connections, 1);
    await waitFor(() => server.connections === 2, 'the slow retry');
    assert.equal(feed.status().state, 'failed'); // still rejected
    accept = true;
    await waitFor(() => sink.messages_.length === 1, 'data once the service accepts');
    assert.equal(feed.status().state, 'connected');
    assert.equal(feed.status().detail, `subscribed at ws://127.0.0.1:${server.port}/v0/stream`);
  } finally {
    await feed.stop();
    await server.close();
  }
});

test('aisstream: a connection that neither sends data nor answers pings is dropped', async () => {
  const server = await loopback(() => undefined, { autoPong: false });
  const feed = new AisstreamFeed(spec(server.port), { apiKey: KEY, backoff: FAST, pingIntervalMs: 30, idleTimeoutMs: 120 });
  await feed.start(recordingSink());
  try {
    await waitFor(() => server.connections >= 2, 'a second connection');
    assert.ok(feed.status().reconnects >= 1);
  } finally {
    await feed.stop();
    await server.close();
  }
  // With pongs, a quiet connection stays up.
  const answering = await loopback(() => undefined);
  const quiet = new AisstreamFeed(spec(answering.port), { apiKey: KEY, backoff: FAST, pingIntervalMs: 30, idleTimeoutMs: 1500 });
  await quiet.start(recordingSink());
  try {
    await waitFor(() => quiet.status().state === 'connected', 'connected');
    await new Promise((resolve) => setTimeout(resolve, 300)); // ten pings
    assert.equal(answering.connections, 1);
    assert.equal(quiet.status().state, 'connected');
  } finally {
    await quiet.stop();
    await answering.close();
  }
});

test('aisstream: without an API key start() fails; a server that is down is retried', async () => {
  const noKey = new AisstreamFeed(spec(1), {});
  await assert.rejects(noKey.start(recordingSink()), /no aisstream API key/);
  assert.equal(noKey.status().state, 'failed');
  await noKey.stop();

  const server = await loopback(() => undefined);
  const port = server.port;
  await server.close();
  const feed = new AisstreamFeed(spec(port), { apiKey: KEY, backoff: FAST });
  await feed.start(recordingSink());
  try {
    await waitFor(() => feed.status().reconnects >= 2, 'retries');
    assert.equal(feed.status().state, 'reconnecting');
    assert.match(feed.status().detail!, /ECONNREFUSED/);
  } finally {
    await feed.stop();
  }
  assert.equal(feed.status().state, 'stopped');
});

test('aisstream: an HTTP error instead of the WebSocket upgrade is reported and retried', async () => {
  const { createServer } = await import('node:http');
  const http = createServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'text/plain' });
    response.end('unauthorized');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as { port: number }).port;
  const feed = new AisstreamFeed(spec(port), { apiKey: KEY, backoff: FAST });
  await feed.start(recordingSink());
  try {
    await waitFor(() => /HTTP 401/.test(feed.status().detail ?? ''), 'the HTTP status in the detail');
    assert.equal(feed.status().state, 'reconnecting');
    assert.match(feed.status().detail!, /server answered HTTP 401 Unauthorized; retrying in/);
  } finally {
    await feed.stop();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
});
