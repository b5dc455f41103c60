import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AisPipeline } from '../ais/index.ts';
import { LineSplitter, splitLines } from './lines.ts';
import { SAMPLE } from './testing.ts';

const A = SAMPLE.position;
const B = SAMPLE.position2;

test('CRLF, LF and lone CR all end lines; blank lines are skipped', () => {
  const splitter = new LineSplitter();
  assert.deepEqual(splitter.push(`${A}\r\n${B}\n\n\r\n   \n${A}\r${B}\r\n`), [A, B, A, B]);
  assert.deepEqual(splitter.flush(), []);
});

test('a line split across chunks is joined, whatever the split point (CRLF split too)', () => {
  const text = `${A}\r\n${B}\r\n`;
  for (let cut = 0; cut <= text.length; cut++) {
    const splitter = new LineSplitter();
    const lines = [...splitter.push(text.slice(0, cut)), ...splitter.push(text.slice(cut)), ...splitter.flush()];
    assert.deepEqual(lines, [A, B], `cut at ${cut}`);
  }
});

test('byte chunks are read as latin1, so no character is split and garbage survives as it was', () => {
  const splitter = new LineSplitter();
  const bytes = Buffer.from([0xc3, 0x0a, 0xa9, 0x21, 0x0a]);
  assert.deepEqual(splitter.push(bytes.subarray(0, 1)), []);
  assert.deepEqual(splitter.push(bytes.subarray(1)), ['\u00c3', '\u00a9!']);
});

test('the unterminated last line comes out of flush()', () => {
  const splitter = new LineSplitter();
  assert.deepEqual(splitter.push(`${A}\n${B}`), [A]);
  assert.equal(splitter.pendingLength, B.length);
  assert.deepEqual(splitter.flush(), [B]);
  assert.deepEqual(splitter.flush(), []);
});

test('an over-long line is cut at the cap and passed on, the rest dropped up to its line end', () => {
  const splitter = new LineSplitter(100);
  const garbage = 'x'.repeat(250);
  // Fed in pieces so the cap is crossed while buffering.
  const out = [...splitter.push(garbage.slice(0, 60)), ...splitter.push(garbage.slice(60, 180)), ...splitter.push(`${garbage.slice(180)}\n${A}\n`)];
  assert.deepEqual(out, ['x'.repeat(100), A]);
  assert.equal(splitter.oversized, 1);
  assert.ok(splitter.pendingLength <= 100);
  // In one chunk, terminated.
  assert.deepEqual(splitter.push(`${'y'.repeat(300)}\r\n${B}\r\n`), ['y'.repeat(100), B]);
  assert.equal(splitter.oversized, 2);
});

test('the pipeline counts the cut line as a rejection: nothing is lost silently', () => {
  const splitter = new LineSplitter(64);
  const pipeline = new AisPipeline();
  const lines = splitter.push(`${'!AIVDM,1,1,,A,' + '1'.repeat(200)}\n${A}\n`);
  for (const line of lines) pipeline.push(line);
  assert.equal(pipeline.counts.lines, 2);
  assert.equal(pipeline.counts.messages, 1);
  assert.equal(pipeline.counts.rejected.framing, 1);
});

test('splitLines treats a block (a datagram) as complete', () => {
  assert.deepEqual(splitLines(`${A}\r\n${B}`), { lines: [A, B], oversized: 0 });
  assert.deepEqual(splitLines(Buffer.from(`${A}\n`)), { lines: [A], oversized: 0 });
  assert.deepEqual(splitLines('z'.repeat(20), 10), { lines: ['z'.repeat(10)], oversized: 1 });
  assert.throws(() => new LineSplitter(0), RangeError);
});
