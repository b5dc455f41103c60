// Splits a byte stream into lines: CRLF, LF or lone CR endings, lines split across chunks joined,
// blank lines skipped. Bytes are read as latin1, one character per byte, so a chunk boundary never
// splits a character and garbage bytes reach the AIS pipeline as they were (to be rejected there).
//
// A line longer than the cap is not buffered further: its first `maxLineLength` characters are
// passed on (the pipeline counts them, normally as a framing rejection) and the rest is dropped up
// to the next line end. `oversized` counts such lines, so nothing is lost silently.

/** NMEA sentences are at most 82 characters; tag blocks and receiver trailers add some. */
export const DEFAULT_MAX_LINE_LENGTH = 1024;

const LF = 10;
const CR = 13;

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 32 && (code < 9 || code > 13)) return false;
  }
  return true;
}

export class LineSplitter {
  readonly maxLineLength: number;
  /** Lines cut at the cap so far. */
  oversized = 0;
  #partial = '';
  /** True while dropping the rest of an over-long line, until its line end. */
  #discarding = false;

  constructor(maxLineLength: number = DEFAULT_MAX_LINE_LENGTH) {
    if (!Number.isInteger(maxLineLength) || maxLineLength < 1) throw new RangeError('maxLineLength must be a positive integer');
    this.maxLineLength = maxLineLength;
  }

  /** Characters held of an unterminated line. */
  get pendingLength(): number {
    return this.#partial.length;
  }

  /** Takes the next chunk; returns the lines it completes (without line endings). */
  push(chunk: string | Uint8Array): string[] {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    const out: string[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== LF && code !== CR) continue;
      this.#take(text, start, i, true, out);
      start = i + 1;
    }
    if (start < text.length) this.#take(text, start, text.length, false, out);
    return out;
  }

  /** Ends the stream: returns the unterminated last line, if any, and resets. */
  flush(): string[] {
    const rest = this.#partial;
    this.#partial = '';
    this.#discarding = false;
    return rest === '' || isBlank(rest) ? [] : [rest];
  }

  #take(text: string, start: number, end: number, terminated: boolean, out: string[]): void {
    if (this.#discarding) {
      if (terminated) this.#discarding = false;
      return;
    }
    if (start === end && this.#partial === '') return; // the LF of a CRLF, or an empty line
    const piece = this.#partial === '' ? text.slice(start, end) : this.#partial + text.slice(start, end);
    this.#partial = '';
    if (piece.length > this.maxLineLength) {
      this.oversized++;
      out.push(piece.slice(0, this.maxLineLength));
      this.#discarding = !terminated;
      return;
    }
    if (!terminated) {
      this.#partial = piece;
      return;
    }
    if (!isBlank(piece)) out.push(piece);
  }
}

/** Splits one self-contained block (a UDP datagram): the last line needs no line ending. */
export function splitLines(chunk: string | Uint8Array, maxLineLength: number = DEFAULT_MAX_LINE_LENGTH): { lines: string[]; oversized: number } {
  const splitter = new LineSplitter(maxLineLength);
  const lines = splitter.push(chunk);
  for (const line of splitter.flush()) lines.push(line);
  return { lines, oversized: splitter.oversized };
}
