import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AisPipeline, encodeAisSentences, formatTagBlock } from '../ais/index.ts';
import { positionReport } from '../vessels/fixtures.ts';
import { ReplayFeed, tagBlockTime } from './replay.ts';
import { parseFeedSpec } from './spec.ts';
import { recordingSink, SAMPLE, waitFor } from './testing.ts';

const T0 = Date.UTC(2025, 2, 1, 12, 0, 0);

function tempFile(name: string, text: string): { path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'lamis-replay-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function fileSpec(path: string, speed: number) {
  const spec = parseFeedSpec(`file:${path}?speed=${speed}`);
  assert.ok(spec.kind === 'file');
  return spec;
}

/** A position report of vessel `mmsi` tagged with receiver time `time` (ms). */
function tagged(mmsi: number, time: number): string {
  return encodeAisSentences(positionReport(mmsi, 52, 4), { tagBlock: { source: 'rx1', time } })[0]!;
}

test('tag-block times: seconds, milliseconds, decimals; none when absent', () => {
  assert.equal(tagBlockTime(tagged(1, T0)), T0);
  assert.equal(tagBlockTime(`${formatTagBlock(['s:x', `c:${T0 + 250}`])}${SAMPLE.position}`), T0 + 250);
  assert.equal(tagBlockTime(`  ${formatTagBlock(['c:1740830400.5'])}${SAMPLE.position}`), 1740830400500);
  assert.equal(tagBlockTime(`${formatTagBlock(['s:x'])}${SAMPLE.position}`), null);
  assert.equal(tagBlockTime(SAMPLE.position), null);
  assert.equal(tagBlockTime('\\c:abc*00\\!AIVDM'), null);
  assert.equal(tagBlockTime('\\c:17408304'), null); // no closing backslash
});

test('replay: lines in file order, paced by their tag times divided by speed, then finished', async () => {
  // Six reports a second apart in file time, at 50x: ~20 ms apart, ~100 ms in all.
  const lines = [0, 1, 2, 3, 4, 5].map((i) => tagged(244660000 + i, T0 + i * 1000));
  const file = tempFile('six.nmea', `${lines.join('\r\n')}\r\n`);
  const feed = new ReplayFeed(fileSpec(file.path, 50));
  const sink = recordingSink();
  try {
    const started = Date.now();
    await feed.start(sink);
    assert.equal(feed.status().state, 'connected');
    assert.equal(feed.source, 'replay');
    await waitFor(() => feed.status().state === 'finished', 'the end of the file');
    const elapsed = Date.now() - started;
    assert.deepEqual(sink.received, lines);
    // Loose pacing checks: each line went out on its own, spread over about 100 ms.
    assert.equal(sink.batches.length, 6);
    assert.ok(elapsed >= 80, `took ${elapsed} ms`);
    assert.ok(elapsed < 2000, `took ${elapsed} ms`);
    const times = sink.batches.map((batch) => batch.receivedAt);
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! >= times[i - 1]!);
    assert.ok(times[5]! - times[0]! >= 80, `spread ${times[5]! - times[0]!} ms`);
    // The pipeline still reads the receiver's times from the lines.
    const pipeline = new AisPipeline();
    const decoded = sink.received.map((line) => pipeline.push(line)).filter((m) => m !== null);
    assert.deepEqual(decoded.map((m) => m.tagTime), lines.map((_, i) => T0 + i * 1000));
    const status = feed.status();
    assert.equal(status.lines, 6);
    assert.match(status.detail!, /replayed 6 lines/);
    await feed.stop();
    assert.equal(feed.status().state, 'finished');
  } finally {
    await feed.stop();
    file.cleanup();
  }
});

test('replay: untagged lines follow the last known time; before any time, a fixed rate scaled by speed', async () => {
  const [v1, v2] = SAMPLE.voyage as [string, string];
  // Untagged first: 3 lines at 100 ms each of file time; then a tagged line with an untagged second fragment.
  const text = [SAMPLE.position, SAMPLE.position2, SAMPLE.position, tagged(1, T0), v1, v2, tagged(2, T0 + 2000)].join('\n');
  const file = tempFile('mixed.nmea', text); // no line end after the last line
  const feed = new ReplayFeed(fileSpec(file.path, 10), { untaggedIntervalMs: 100 });
  const sink = recordingSink();
  try {
    const started = Date.now();
    await feed.start(sink);
    await waitFor(() => feed.status().state === 'finished', 'the end of the file');
    const elapsed = Date.now() - started;
    assert.equal(sink.received.length, 7);
    assert.deepEqual(sink.received.slice(3, 6), [tagged(1, T0), v1, v2]);
    // File time: 2 x 100 ms untagged + 0 + 0 + 0 + 2 s = 2.2 s; at 10x about 220 ms.
    assert.ok(elapsed >= 180 && elapsed < 3000, `took ${elapsed} ms`);
    // The untagged fragments went out together with the tagged line before them.
    const batch = sink.batches.find((b) => b.lines.includes(v1));
    assert.ok(batch && batch.lines.includes(tagged(1, T0)) && batch.lines.includes(v2));
  } finally {
    await feed.stop();
    file.cleanup();
  }
});

test('replay: gaps in the recording are shortened, back-steps do not wait', async () => {
  // Millisecond `c:` values: an hour's gap, a small back-step, a step on from the latest time.
  const at = (ms: number) => `${formatTagBlock([`c:${ms}`])}${SAMPLE.position}`;
  const lines = [at(T0), at(T0 + 3_600_000), at(T0 + 3_599_900), at(T0 + 3_600_100)];
  const file = tempFile('gaps.nmea', lines.join('\n'));
  // At speed 1 the hour would never finish here; capped to 200 ms, the whole file takes ~300 ms.
  const feed = new ReplayFeed(fileSpec(file.path, 1), { maxGapMs: 200 });
  const sink = recordingSink();
  try {
    const started = Date.now();
    await feed.start(sink);
    await waitFor(() => feed.status().state === 'finished', 'the end of the file');
    const elapsed = Date.now() - started;
    assert.deepEqual(sink.received, lines);
    assert.ok(elapsed >= 250 && elapsed < 3000, `took ${elapsed} ms`);
    // The back-step went out with the line before it.
    assert.ok(sink.batches.some((batch) => batch.lines.length === 2 && batch.lines[1] === lines[2]));
  } finally {
    await feed.stop();
    file.cleanup();
  }
});

test('replay: a large file streams through at high speed, batched', async () => {
  const count = 20_000;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(tagged(200_000_000 + i, T0 + i * 100));
  const file = tempFile('large.nmea', `${lines.join('\n')}\n`);
  const feed = new ReplayFeed(fileSpec(file.path, 1e9), { chunkBytes: 4096, batchSize: 256 });
  const sink = recordingSink();
  try {
    await feed.start(sink);
    await waitFor(() => feed.status().state === 'finished', 'the end of the file', 20_000);
    assert.equal(sink.received.length, count);
    assert.equal(sink.received[0], lines[0]);
    assert.equal(sink.received[count - 1], lines[count - 1]);
    assert.ok(sink.batches.every((batch) => batch.lines.length <= 256));
    assert.equal(feed.status().bytes, lines.join('\n').length + 1);
  } finally {
    await feed.stop();
    file.cleanup();
  }
});

test('replay: stop() mid-file ends it at once; a missing file fails start()', async () => {
  const lines = Array.from({ length: 50 }, (_, i) => tagged(1, T0 + i * 60_000));
  const file = tempFile('slow.nmea', lines.join('\n'));
  const feed = new ReplayFeed(fileSpec(file.path, 1));
  const sink = recordingSink();
  try {
    await feed.start(sink);
    await waitFor(() => sink.received.length === 1, 'the first line');
    const before = Date.now();
    await feed.stop();
    assert.ok(Date.now() - before < 1000);
    assert.equal(feed.status().state, 'stopped');
    assert.equal(sink.received.length, 1);
  } finally {
    await feed.stop();
    file.cleanup();
  }

  const missing = new ReplayFeed(fileSpec('/nonexistent/lamis/recording.nmea', 1));
  await assert.rejects(missing.start(recordingSink()), /could not start: ENOENT/);
  assert.equal(missing.status().state, 'failed');
  await missing.stop();

  const dir = mkdtempSync(join(tmpdir(), 'lamis-replay-'));
  try {
    const directory = new ReplayFeed(fileSpec(dir, 1));
    await assert.rejects(directory.start(recordingSink()), /not a regular file/);
    await directory.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
