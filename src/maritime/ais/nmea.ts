// NMEA 0183 framing of AIS sentences (!AIVDM / !AIVDO from any talker) with optional NMEA 4.10 tag
// blocks. Parsing is done by index scanning rather than split/regex: it runs once per received line.
import { isValidArmor } from './sixbit.ts';
import type { AisRejectReason } from './reasons.ts';

/** NMEA 4.10 sentence-grouping parameter `g:sentence-total-id`. */
export interface TagBlockGroup {
  sentence: number;
  total: number;
  id: string;
}

/** The parsed `\...*hh\` tag block that may precede a sentence. */
export interface TagBlock {
  /** `s:` source / station identifier. */
  source: string | null;
  /** `c:` time in milliseconds since the epoch (sent as seconds, or milliseconds when above 1e11). */
  time: number | null;
  /** `g:` group. */
  group: TagBlockGroup | null;
  /** `n:` line count. */
  lineCount: number | null;
  /** `d:` destination. */
  destination: string | null;
  /** `t:` free text. */
  text: string | null;
  /** The tag block content between the backslashes, checksum included. */
  raw: string;
}

export interface AisSentence {
  /** Two-letter talker: AI, AB, BS, SA, ... */
  talker: string;
  /** VDM (other stations) or VDO (own ship). */
  formatter: 'VDM' | 'VDO';
  fragmentCount: number;
  fragmentNumber: number;
  /** Sequential message identifier linking the fragments of one message; null when empty. */
  sequenceId: number | null;
  /** Radio channel: A, B, 1, 2, or '' when not given. */
  channel: string;
  payload: string;
  fillBits: number;
  tagBlock: TagBlock | null;
  /** Anything after the checksum (receiver timestamps, `rssi=` and such); kept, never interpreted. */
  trailer: string;
  /** The line with surrounding whitespace removed. */
  line: string;
}

export type FrameResult = { ok: true; sentence: AisSentence } | { ok: false; reason: AisRejectReason };

const MAX_FRAGMENTS = 9;
const CHAR_BACKSLASH = 92;
const CHAR_BANG = 33;
const CHAR_DOLLAR = 36;

/** `c:` values above this are milliseconds rather than seconds (1e11 s is the year 5138). */
const MILLISECONDS_THRESHOLD = 1e11;

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** XOR of the character codes in [start, end). */
export function nmeaChecksum(text: string, start = 0, end = text.length): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum ^= text.charCodeAt(i);
  return sum;
}

/** Two-digit upper-case hex of a checksum, as written after `*`. */
export function checksumHex(sum: number): string {
  return (sum & 0xff).toString(16).toUpperCase().padStart(2, '0');
}

/** Reads `*hh` at `star`; returns the value or -1 when the two hex digits are missing. */
function readChecksum(text: string, star: number): number {
  if (star + 2 >= text.length) return -1;
  const high = hexDigit(text.charCodeAt(star + 1));
  const low = hexDigit(text.charCodeAt(star + 2));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/** Parses a non-negative decimal integer in [start, end); -1 when empty or not all digits. */
function parseDigits(text: string, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Parses tag block content (without the backslashes); null when malformed. */
function parseTagBlockContent(content: string): TagBlock | null {
  const star = content.lastIndexOf('*');
  if (star < 0) return null;
  const block: TagBlock = { source: null, time: null, group: null, lineCount: null, destination: null, text: null, raw: content };
  let start = 0;
  while (start < star) {
    let end = content.indexOf(',', start);
    if (end < 0 || end > star) end = star;
    const colon = content.indexOf(':', start);
    if (colon < 0 || colon >= end) return null;
    const key = content.slice(start, colon);
    const valueStart = colon + 1;
    switch (key) {
      case 's':
        block.source = content.slice(valueStart, end);
        break;
      case 'c': {
        const value = parseDigits(content, valueStart, end);
        if (value < 0) return null;
        block.time = value > MILLISECONDS_THRESHOLD ? value : value * 1000;
        break;
      }
      case 'g': {
        const group = parseGroup(content.slice(valueStart, end));
        if (group === null) return null;
        block.group = group;
        break;
      }
      case 'n': {
        const value = parseDigits(content, valueStart, end);
        if (value < 0) return null;
        block.lineCount = value;
        break;
      }
      case 'd':
        block.destination = content.slice(valueStart, end);
        break;
      case 't':
        block.text = content.slice(valueStart, end);
        break;
      default:
        // Other parameters (r: relative time, i: info, vendor keys) are kept only in `raw`.
        break;
    }
    start = end + 1;
  }
  return block;
}

function parseGroup(value: string): TagBlockGroup | null {
  const firstDash = value.indexOf('-');
  const secondDash = firstDash < 0 ? -1 : value.indexOf('-', firstDash + 1);
  if (secondDash < 0) return null;
  const sentence = parseDigits(value, 0, firstDash);
  const total = parseDigits(value, firstDash + 1, secondDash);
  const id = value.slice(secondDash + 1);
  if (sentence < 1 || total < 1 || sentence > total || id.length === 0) return null;
  return { sentence, total, id };
}

/**
 * Frames one received line as an AIS sentence. Accepts CRLF/LF and surrounding whitespace, an
 * optional tag block before the sentence, and any trailer after the checksum. Never throws.
 */
export function parseAisSentence(input: string): FrameResult {
  let start = 0;
  let end = input.length;
  while (start < end && isSpace(input.charCodeAt(start))) start++;
  while (end > start && isSpace(input.charCodeAt(end - 1))) end--;
  if (start === end) return { ok: false, reason: 'empty' };
  const line = start === 0 && end === input.length ? input : input.slice(start, end);

  let position = 0;
  let tagBlock: TagBlock | null = null;
  if (line.charCodeAt(0) === CHAR_BACKSLASH) {
    const close = line.indexOf('\\', 1);
    if (close < 0) return { ok: false, reason: 'framing' };
    const star = line.lastIndexOf('*', close);
    if (star < 1) return { ok: false, reason: 'framing' };
    const expected = readChecksum(line, star);
    if (expected < 0 || star + 3 !== close) return { ok: false, reason: 'framing' };
    if (nmeaChecksum(line, 1, star) !== expected) return { ok: false, reason: 'checksum' };
    tagBlock = parseTagBlockContent(line.slice(1, close));
    if (tagBlock === null) return { ok: false, reason: 'framing' };
    position = close + 1;
  }

  const lead = line.charCodeAt(position);
  if (lead !== CHAR_BANG && lead !== CHAR_DOLLAR) return { ok: false, reason: 'framing' };
  const star = line.indexOf('*', position + 1);
  if (star < 0) return { ok: false, reason: 'framing' };

  // Address field: two-letter talker and formatter, e.g. AIVDM.
  const addressEnd = line.indexOf(',', position + 1);
  if (addressEnd < 0 || addressEnd > star) return { ok: false, reason: 'framing' };
  const isAis =
    addressEnd - position === 6 &&
    line.charCodeAt(position + 3) === 86 && // V
    line.charCodeAt(position + 4) === 68 && // D
    (line.charCodeAt(position + 5) === 77 || line.charCodeAt(position + 5) === 79); // M or O
  if (!isAis) return { ok: false, reason: 'not_ais' };

  const expected = readChecksum(line, star);
  if (expected < 0) return { ok: false, reason: 'framing' };
  if (nmeaChecksum(line, position + 1, star) !== expected) return { ok: false, reason: 'checksum' };

  // Six data fields: count, number, sequence id, channel, payload, fill bits.
  const fieldEnds: number[] = [0, 0, 0, 0, 0, 0];
  let cursor = addressEnd;
  for (let field = 0; field < 6; field++) {
    const next = field === 5 ? star : line.indexOf(',', cursor + 1);
    if (next < 0 || next > star) return { ok: false, reason: 'framing' };
    fieldEnds[field] = next;
    cursor = next;
  }
  const extraComma = line.indexOf(',', fieldEnds[4] + 1);
  if (extraComma !== -1 && extraComma < star) return { ok: false, reason: 'framing' };

  const fragmentCount = parseDigits(line, addressEnd + 1, fieldEnds[0]);
  const fragmentNumber = parseDigits(line, fieldEnds[0] + 1, fieldEnds[1]);
  if (fragmentCount < 1 || fragmentCount > MAX_FRAGMENTS || fragmentNumber < 1 || fragmentNumber > fragmentCount) {
    return { ok: false, reason: 'framing' };
  }
  const sequenceStart = fieldEnds[1] + 1;
  let sequenceId: number | null = null;
  if (fieldEnds[2] > sequenceStart) {
    sequenceId = parseDigits(line, sequenceStart, fieldEnds[2]);
    if (sequenceId < 0 || fieldEnds[2] - sequenceStart > 2) return { ok: false, reason: 'framing' };
  }
  const channel = line.slice(fieldEnds[2] + 1, fieldEnds[3]);
  if (channel !== '' && channel !== 'A' && channel !== 'B' && channel !== '1' && channel !== '2') {
    return { ok: false, reason: 'framing' };
  }
  const payload = line.slice(fieldEnds[3] + 1, fieldEnds[4]);
  const fillBits = parseDigits(line, fieldEnds[4] + 1, fieldEnds[5]);
  if (fillBits < 0 || fillBits > 5 || !isValidArmor(payload)) return { ok: false, reason: 'invalid_payload' };

  return {
    ok: true,
    sentence: {
      talker: line.slice(position + 1, position + 3),
      formatter: line.charCodeAt(position + 5) === 77 ? 'VDM' : 'VDO',
      fragmentCount,
      fragmentNumber,
      sequenceId,
      channel,
      payload,
      fillBits,
      tagBlock,
      trailer: line.slice(star + 3),
      line,
    },
  };
}

export interface SentenceOptions {
  /** Two-letter talker, default AI. */
  talker?: string;
  /** Default VDM. */
  formatter?: 'VDM' | 'VDO';
  /** Sequential message id for multi-sentence messages (0..9); single sentences leave it empty. */
  sequenceId?: number | null;
  /** Channel A, B, 1, 2 or '' (default A). */
  channel?: string;
  /**
   * Payload characters per sentence (default 60, which keeps sentences within NMEA's 82 characters);
   * raised when the payload would otherwise need more than 9 sentences.
   */
  maxPayloadChars?: number;
  /** Adds a tag block before every sentence. */
  tagBlock?: TagBlockOptions;
}

export interface TagBlockOptions {
  source?: string;
  /** Milliseconds since the epoch; written as whole seconds. */
  time?: number;
  /** Group id: when set and the message needs several sentences, each gets `g:i-n-id`. */
  groupId?: number;
}

/** Formats a tag block (`\...*hh\`) from its parameter list, e.g. ['s:rx1', 'c:1700000000']. */
export function formatTagBlock(parameters: readonly string[]): string {
  const content = parameters.join(',');
  return `\\${content}*${checksumHex(nmeaChecksum(content))}\\`;
}

/** Splits an armoured payload into complete sentences with checksums (and optional tag blocks). */
export function buildAisSentences(payload: string, fillBits: number, options: SentenceOptions = {}): string[] {
  const talker = options.talker ?? 'AI';
  const formatter = options.formatter ?? 'VDM';
  const channel = options.channel ?? 'A';
  // NMEA allows at most 9 fragments; longer sentences win over exceeding that.
  const chunk = Math.max(1, options.maxPayloadChars ?? 60, Math.ceil(payload.length / MAX_FRAGMENTS));
  const count = Math.max(1, Math.ceil(payload.length / chunk));
  const sequence = count > 1 && options.sequenceId != null ? String(options.sequenceId) : '';
  const sentences: string[] = [];
  for (let index = 0; index < count; index++) {
    const part = payload.slice(index * chunk, (index + 1) * chunk);
    const fill = index === count - 1 ? fillBits : 0;
    const body = `${talker}${formatter},${count},${index + 1},${sequence},${channel},${part},${fill}`;
    const sentence = `!${body}*${checksumHex(nmeaChecksum(body))}`;
    sentences.push(options.tagBlock ? tagBlockFor(options.tagBlock, index, count) + sentence : sentence);
  }
  return sentences;
}

function tagBlockFor(tag: TagBlockOptions, index: number, count: number): string {
  const parameters: string[] = [];
  if (count > 1 && tag.groupId !== undefined) parameters.push(`g:${index + 1}-${count}-${tag.groupId}`);
  if (tag.source !== undefined) parameters.push(`s:${tag.source}`);
  if (tag.time !== undefined) parameters.push(`c:${Math.floor(tag.time / 1000)}`);
  return formatTagBlock(parameters);
}
