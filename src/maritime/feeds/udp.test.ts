import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { AisPipeline } from '../ais/index.ts';
import { parseFeedSpec } from './spec.ts';
import { recordingSink, SAMPLE, waitFor } from './testing.ts';
import { UdpFeed } from './udp.ts';

const A = SAMPLE.position;
const B = SAMPLE.position2;
const [C1, C2] = SAMPLE.voyage as [string, string];

function udpSpec(port = 0) {
  const spec = parseFeedSpec(`udp://127.0.0.1:${port}`);
  assert.ok(spec.kind === 'udp');
  return spec;
}

async function send(port: number, datagrams: string[]): Promise<void> {
  const client = createSocket('udp4');
  for (const datagram of datagrams) {
    await new Promise<void>((resolve, reject) => client.send(datagram, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
  }
  await new Promise<void>((resolve) => client.close(() => resolve()));
}

test('UDP: datagrams carrying several lines reach the sink line by line, and decode', async () => {
  const feed = new UdpFeed(udpSpec());
  const sink = recordingSink();
  await feed.start(sink);
  try {
    assert.equal(feed.status().state, 'listening');
    const port = feed.port!;
    assert.ok(port > 0);
    assert.match(feed.status().detail!, new RegExp(`127\\.0\\.0\\.1:${port}`));
    // AIS-catcher style (CRLF, several per datagram), a bare last line, a two-sentence message.
    const before = Date.now();
    await send(port, [`${A}\r\n${B}\r\n`, A, `${C1}\n${C2}\n\n`]);
    await waitFor(() => sink.received.length >= 5, 'five lines');
    assert.deepEqual(sink.received, [A, B, A, C1, C2]);
    assert.ok(sink.batches.every((batch) => batch.receivedAt >= before && batch.receivedAt <= Date.now()));
    const pipeline = new AisPipeline();
    const decoded = sink.received.map((line) => pipeline.push(line)).filter((m) => m !== null);
    assert.deepEqual(decoded.map((m) => m.message.mmsi), [244660000, 211281610, 244660000, 244660000]);
    assert.deepEqual(decoded.map((m) => m.message.type), [1, 1, 1, 5]);
    const status = feed.status();
    assert.equal(status.lines, 5);
    assert.equal(status.bytes, `${A}\r\n${B}\r\n`.length + A.length + `${C1}\n${C2}\n\n`.length);
    assert.ok(status.last_data_at !== null);
    assert.equal(status.source, 'live');
  } finally {
    await feed.stop();
  }
  assert.equal(feed.status().state, 'stopped');
  assert.equal(feed.port, null);
});

test('UDP: an over-long datagram line is cut and counted', async () => {
  const feed = new UdpFeed(udpSpec(), { maxLineLength: 50 });
  const sink = recordingSink();
  await feed.start(sink);
  try {
    await send(feed.port!, [`${'#'.repeat(120)}\n${A.slice(0, 40)}`]);
    await waitFor(() => sink.received.length >= 2, 'two lines');
    assert.deepEqual(sink.received, ['#'.repeat(50), A.slice(0, 40)]);
    assert.equal(feed.status().oversized_lines, 1);
  } finally {
    await feed.stop();
  }
});

test('UDP: a port already in use fails start() with state failed', async () => {
  const first = new UdpFeed(udpSpec());
  await first.start(recordingSink());
  try {
    const second = new UdpFeed(udpSpec(first.port!));
    await assert.rejects(second.start(recordingSink()), /could not start: .*EADDRINUSE/);
    assert.equal(second.status().state, 'failed');
    assert.match(second.status().detail!, /EADDRINUSE/);
    await second.stop();
    // start() is called once.
    await assert.rejects(first.start(recordingSink()), /already started/);
  } finally {
    await first.stop();
  }
});

test('UDP: a sink that throws is logged, and the feed goes on', async () => {
  const log: string[] = [];
  const feed = new UdpFeed(udpSpec(), { onLog: (level, message) => log.push(`${level} ${message}`) });
  let calls = 0;
  await feed.start({
    lines: () => {
      calls++;
      if (calls === 1) throw new Error('sink broke');
    },
    messages: () => undefined,
  });
  try {
    await send(feed.port!, [A, B]);
    await waitFor(() => calls === 2, 'two deliveries');
    assert.ok(log.includes('error sink failed on 1 lines: sink broke'), log.join('\n'));
    assert.equal(feed.status().state, 'listening');
    assert.equal(feed.status().lines, 2);
  } finally {
    await feed.stop();
  }
});
