// Replay of a recorded NMEA file, read as a stream (files of any size), paced by the recording's
// own clock: the NMEA 4.10 tag-block `c:` time of each line (seconds since the epoch, or
// milliseconds when the value is above 1e11), divided by the speed factor.
//
// Pacing rules, in file time (wall time = file time / speed):
// - A line with a `c:` time is due that long after the first line: times are measured from the
//   latest time seen so far, so lines a little out of order go out at once without moving the clock
//   back. A forward jump longer than `maxGapMs` (an outage in the recording) is shortened to
//   `maxGapMs`; a back-step longer than that (two recordings joined) restarts the clock there.
// - A line without a time follows the last known time (the fragments of a message, receivers that
//   tag only some lines); before any time is known, such lines are paced at one per
//   `untaggedIntervalMs` (default 100 ms: 10 lines a second at speed 1).
// The sink gets the lines with the wall-clock time of the hand-over; the pipeline reads the `c:`
// times itself. The feed is `finished` at the end of the file.
import { open as openFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorText, FeedBase, timing } from './base.ts';
import type { FeedBaseOptions } from './base.ts';
import { DEFAULT_MAX_LINE_LENGTH, LineSplitter } from './lines.ts';
import type { FileFeedSpec } from './types.ts';

export interface ReplayFeedOptions extends FeedBaseOptions {
  /** File time (ms) between lines while no tag-block time is known; default 100. */
  untaggedIntervalMs?: number;
  /** Longest step of file time (ms) between two lines; longer jumps are shortened to it. Default 60 000. */
  maxGapMs?: number;
  /** Most lines per sink call, default 500. */
  batchSize?: number;
  /** Read size (bytes), default 64 KiB. */
  chunkBytes?: number;
  maxLineLength?: number;
}

/** `c:` values above this are milliseconds (1e11 s is the year 5138), as in the codec. */
const MILLISECONDS_THRESHOLD = 1e11;
/** Lines due within this much (ms) of now go out with the current batch. */
const DUE_SLACK_MS = 1;

/**
 * The tag-block `c:` time of a line in ms, or null. Reads only the tag block (checksum not
 * checked: this is for pacing; the pipeline still validates the line). Decimal seconds accepted.
 */
export function tagBlockTime(line: string): number | null {
  let start = 0;
  while (start < line.length && line.charCodeAt(start) <= 32) start++;
  if (line.charCodeAt(start) !== 92) return null; // backslash
  const close = line.indexOf('\\', start + 1);
  if (close < 0) return null;
  const star = line.lastIndexOf('*', close);
  const end = star > start ? star : close;
  let position = start + 1;
  while (position < end) {
    let comma = line.indexOf(',', position);
    if (comma < 0 || comma > end) comma = end;
    if (line.charCodeAt(position) === 99 && line.charCodeAt(position + 1) === 58) {
      // c:
      const text = line.slice(position + 2, comma);
      const value = Number(text);
      if (text === '' || !Number.isFinite(value) || value < 0) return null;
      return value > MILLISECONDS_THRESHOLD ? value : value * 1000;
    }
    position = comma + 1;
  }
  return null;
}

export class ReplayFeed extends FeedBase {
  readonly spec: FileFeedSpec;
  readonly #untaggedIntervalMs: number;
  readonly #maxGapMs: number;
  readonly #batchSize: number;
  readonly #chunkBytes: number;
  readonly #maxLineLength: number;
  readonly #abort = new AbortController();
  #handle: FileHandle | null = null;
  #stream: Readable | null = null;
  #run: Promise<void> | null = null;
  #batch: string[] = [];
  // Pacing state.
  #startWall = 0;
  #virtual = 0;
  #latestTag: number | null = null;
  #linesSeen = 0;

  constructor(spec: FileFeedSpec, options: ReplayFeedOptions = {}) {
    super(spec.id, 'file', 'replay', options);
    this.spec = spec;
    if (!(spec.speed > 0 && Number.isFinite(spec.speed))) throw new RangeError('speed must be a positive number');
    this.#untaggedIntervalMs = timing(options.untaggedIntervalMs, 100, 'untaggedIntervalMs');
    this.#maxGapMs = options.maxGapMs === Infinity ? Infinity : timing(options.maxGapMs, 60_000, 'maxGapMs');
    this.#batchSize = Math.max(1, Math.floor(timing(options.batchSize, 500, 'batchSize')));
    this.#chunkBytes = Math.max(1, Math.floor(timing(options.chunkBytes, 64 * 1024, 'chunkBytes')));
    this.#maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  }

  protected async open(): Promise<void> {
    const handle = await openFile(this.spec.path, 'r');
    this.#handle = handle;
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${this.spec.path} is not a regular file`);
    if (this.stopping) return;
    const stream = handle.createReadStream({ highWaterMark: this.#chunkBytes });
    this.#handle = null; // the stream owns it now and closes it
    this.#stream = stream;
    this.setState('connected', `replaying ${this.spec.path} at ${this.spec.speed}x`);
    this.#run = this.#replay(stream);
  }

  async #replay(stream: Readable): Promise<void> {
    const splitter = new LineSplitter(this.#maxLineLength);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        this.countBytes(chunk.length);
        const lines = splitter.push(chunk);
        this.counters.oversizedLines = splitter.oversized;
        for (const line of lines) {
          const wait = this.#line(line);
          if (wait !== undefined) await wait;
        }
        this.#flush();
      }
      for (const line of splitter.flush()) {
        const wait = this.#line(line);
        if (wait !== undefined) await wait;
      }
      this.#flush();
      if (!this.stopping) this.setState('finished', `replayed ${this.counters.lines} lines from ${this.spec.path}`);
    } catch (error) {
      if (!this.stopping) this.setState('failed', `reading ${this.spec.path}: ${errorText(error)}`);
    } finally {
      stream.destroy();
    }
  }

  /** Queues one line; returns a promise when the line is not due yet (the batch is flushed first). */
  #line(line: string): Promise<void> | undefined {
    const first = this.#linesSeen === 0;
    this.#linesSeen++;
    const tag = tagBlockTime(line);
    let step = 0;
    if (tag !== null) {
      if (this.#latestTag !== null) {
        const delta = tag - this.#latestTag;
        if (delta > 0) step = Math.min(delta, this.#maxGapMs);
        // Move on; or, after a back-step longer than maxGapMs (two recordings joined), re-anchor.
        if (delta > 0 || -delta > this.#maxGapMs) this.#latestTag = tag;
      } else {
        this.#latestTag = tag;
      }
    } else if (this.#latestTag === null && !first) {
      step = this.#untaggedIntervalMs;
    }
    if (first) this.#startWall = Date.now();
    this.#virtual += step;
    const due = this.#startWall + this.#virtual / this.spec.speed;
    const wait = due - Date.now();
    if (wait > DUE_SLACK_MS) {
      this.#flush();
      return sleep(wait, undefined, { signal: this.#abort.signal }).then(() => this.#queue(line));
    }
    this.#queue(line);
    return undefined;
  }

  #queue(line: string): void {
    this.#batch.push(line);
    if (this.#batch.length >= this.#batchSize) this.#flush();
  }

  #flush(): void {
    if (this.#batch.length === 0) return;
    const batch = this.#batch;
    this.#batch = [];
    this.deliverLines(batch);
  }

  protected async close(): Promise<void> {
    this.#abort.abort();
    this.#stream?.destroy();
    await this.#run;
    const handle = this.#handle;
    this.#handle = null;
    await handle?.close().catch(() => undefined);
    // A stream destroyed before it opened its handle still closes it; wait for that.
    const stream = this.#stream;
    if (stream !== null && !stream.closed) await new Promise<void>((resolve) => stream.once('close', () => resolve()));
  }
}
