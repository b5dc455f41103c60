// AIS six-bit payload armouring (ITU-R M.1371 / IEC 61162-1) and the bit reader and writer the
// decoder and encoder are built on. Bits are numbered from 0 at the most significant bit of the first
// payload character, as in the ITU tables.

/** Six-bit value of each payload character code, or -1 for characters outside the armour alphabet. */
const ARMOR_VALUE = new Int8Array(128).fill(-1);
/** Payload character of each six-bit value. */
const ARMOR_CHAR: string[] = [];
for (let value = 0; value < 64; value++) {
  const code = value < 40 ? value + 48 : value + 56;
  ARMOR_VALUE[code] = value;
  ARMOR_CHAR.push(String.fromCharCode(code));
}

/** ASCII character of each six-bit text value ('@' is 0 and pads unused characters). */
const TEXT_CHAR: string[] = [];
/** Six-bit text value of each ASCII code, or -1 for characters AIS text cannot carry. */
const TEXT_VALUE = new Int8Array(128).fill(-1);
for (let value = 0; value < 64; value++) {
  const code = value < 32 ? value + 64 : value;
  TEXT_CHAR.push(String.fromCharCode(code));
  TEXT_VALUE[code] = value;
}

const HEX_BYTE: string[] = [];
for (let byte = 0; byte < 256; byte++) HEX_BYTE.push(byte.toString(16).padStart(2, '0'));

const TWO_POW_32 = 4294967296;

/** Six-bit value of one payload character code, or -1 when it is not part of the armour alphabet. */
export function armorValue(charCode: number): number {
  return charCode < 128 ? ARMOR_VALUE[charCode] : -1;
}

/** Payload character for a six-bit value (0..63). */
export function armorChar(value: number): string {
  return ARMOR_CHAR[value & 63];
}

/** True when every character of the payload belongs to the six-bit armour alphabet. */
export function isValidArmor(payload: string): boolean {
  for (let i = 0; i < payload.length; i++) {
    if (armorValue(payload.charCodeAt(i)) < 0) return false;
  }
  return true;
}

/** Six-bit text value of an ASCII character, or -1 when AIS text cannot carry it. */
export function textValue(charCode: number): number {
  return charCode < 128 ? TEXT_VALUE[charCode] : -1;
}

/**
 * Reads fields out of an armoured payload. The payload is packed once into 32-bit words, so a field
 * read touches at most two words and allocates nothing. Bits past the end of the message read as
 * zero, which is how short-but-accepted messages leave their missing trailing fields.
 * One reader can be reused for many payloads with `reset`.
 */
export class SixBitReader {
  #words: Uint32Array = new Uint32Array(64);
  #wordCount = 0;
  #bitLength = 0;

  /**
   * Loads a payload. Returns false (and holds an empty message) when a character is outside the
   * armour alphabet or the fill bits are not 0..5 within the payload.
   */
  reset(payload: string, fillBits: number): boolean {
    const totalBits = payload.length * 6;
    if (!(fillBits >= 0 && fillBits <= 5 && fillBits <= totalBits) || !Number.isInteger(fillBits)) {
      this.#wordCount = 0;
      this.#bitLength = 0;
      return false;
    }
    const wordCount = (totalBits + 31) >>> 5;
    if (wordCount > this.#words.length) this.#words = new Uint32Array(wordCount * 2);
    const words = this.#words;
    words.fill(0, 0, wordCount);
    for (let i = 0, bit = 0; i < payload.length; i++, bit += 6) {
      const code = payload.charCodeAt(i);
      const value = code < 128 ? ARMOR_VALUE[code] : -1;
      if (value < 0) {
        this.#wordCount = 0;
        this.#bitLength = 0;
        return false;
      }
      const word = bit >>> 5;
      const offset = bit & 31;
      if (offset <= 26) {
        words[word] |= value << (26 - offset);
      } else {
        const spill = offset - 26;
        words[word] |= value >>> spill;
        words[word + 1] |= value << (32 - spill);
      }
    }
    const bitLength = totalBits - fillBits;
    // Fill bits are not part of the message: clear them so reads past the end see zeros.
    const tailBits = bitLength & 31;
    const lastWord = bitLength >>> 5;
    if (lastWord < wordCount) {
      words[lastWord] = tailBits === 0 ? 0 : (words[lastWord] >>> (32 - tailBits)) << (32 - tailBits);
      words.fill(0, lastWord + 1, wordCount);
    }
    this.#wordCount = wordCount;
    this.#bitLength = bitLength;
    return true;
  }

  /** Number of message bits (payload bits minus fill bits). */
  get bitLength(): number {
    return this.#bitLength;
  }

  /** Unsigned integer of `width` bits (0..53) starting at bit `start`. */
  uint(start: number, width: number): number {
    if (width <= 0) return 0;
    if (width > 32) {
      const highWidth = width - 32;
      return this.uint(start, highWidth) * TWO_POW_32 + this.uint(start + highWidth, 32);
    }
    const words = this.#words;
    const index = start >>> 5;
    const offset = start & 31;
    const first = index < this.#wordCount ? words[index] : 0;
    if (offset + width <= 32) return (first << offset) >>> (32 - width);
    const second = index + 1 < this.#wordCount ? words[index + 1] : 0;
    return ((first << offset) | (second >>> (32 - offset))) >>> (32 - width);
  }

  /** Two's-complement signed integer of `width` bits (1..53) starting at bit `start`. */
  int(start: number, width: number): number {
    const value = this.uint(start, width);
    if (width <= 32) {
      const shift = 32 - width;
      return (value << shift) >> shift;
    }
    const half = 2 ** (width - 1);
    return value >= half ? value - 2 * half : value;
  }

  /** One bit as a boolean. */
  bool(start: number): boolean {
    return this.uint(start, 1) === 1;
  }

  /**
   * Six-bit text of up to `chars` characters. Like gpsd, the text ends at the first '@' (the padding
   * character) and trailing spaces are trimmed.
   */
  text(start: number, chars: number): string {
    let text = '';
    let keep = 0;
    for (let i = 0; i < chars; i++) {
      const value = this.uint(start + i * 6, 6);
      if (value === 0) break;
      text += TEXT_CHAR[value];
      if (value !== 32) keep = text.length;
    }
    return keep === text.length ? text : text.slice(0, keep);
  }

  /** Like `text` without the trimming: stops at the first '@', so a result shorter than `chars` ended early. */
  untrimmedText(start: number, chars: number): string {
    let text = '';
    for (let i = 0; i < chars; i++) {
      const value = this.uint(start + i * 6, 6);
      if (value === 0) break;
      text += TEXT_CHAR[value];
    }
    return text;
  }

  /** `bits` bits from `start` as lower-case hex, the last byte padded with zero bits. */
  hex(start: number, bits: number): string {
    let hex = '';
    const fullBytes = bits >>> 3;
    for (let i = 0; i < fullBytes; i++) hex += HEX_BYTE[this.uint(start + i * 8, 8)];
    const rest = bits & 7;
    if (rest > 0) hex += HEX_BYTE[this.uint(start + fullBytes * 8, rest) << (8 - rest)];
    return hex;
  }
}

/** Builds a payload field by field, most significant bit first, for the encoder. */
export class SixBitWriter {
  #bits: Uint8Array = new Uint8Array(1024);
  #length = 0;

  /** Number of bits written so far. */
  get bitLength(): number {
    return this.#length;
  }

  #ensure(extra: number): void {
    if (this.#length + extra <= this.#bits.length) return;
    const grown = new Uint8Array(Math.max(this.#bits.length * 2, this.#length + extra));
    grown.set(this.#bits.subarray(0, this.#length));
    this.#bits = grown;
  }

  /** Writes `value` as `width` bits (0..53); values outside the width wrap, so negatives come out as two's complement. */
  uint(value: number, width: number): this {
    this.#ensure(width);
    const modulus = 2 ** width;
    let wrapped = Math.trunc(value) % modulus;
    if (wrapped < 0) wrapped += modulus;
    if (width > 32) {
      this.uint(Math.floor(wrapped / TWO_POW_32), width - 32);
      return this.uint(wrapped % TWO_POW_32, 32);
    }
    for (let i = width - 1; i >= 0; i--) this.#bits[this.#length++] = (wrapped >>> i) & 1;
    return this;
  }

  /** Writes a signed integer as `width`-bit two's complement. */
  int(value: number, width: number): this {
    return this.uint(value, width);
  }

  bool(value: boolean): this {
    return this.uint(value ? 1 : 0, 1);
  }

  /**
   * Writes `chars` six-bit characters: the text upper-cased, characters AIS cannot carry written as
   * '?', padded with '@' (zero), and cut to `chars`.
   */
  text(value: string, chars: number): this {
    for (let i = 0; i < chars; i++) {
      if (i >= value.length) {
        this.uint(0, 6);
        continue;
      }
      let code = value.charCodeAt(i);
      if (code >= 97 && code <= 122) code -= 32;
      const sixBit = textValue(code);
      this.uint(sixBit < 0 ? 63 : sixBit, 6);
    }
    return this;
  }

  /** Writes `bits` bits taken from a hex string, most significant first (missing digits are zero). */
  hex(hex: string, bits: number): this {
    for (let i = 0; i < bits; i += 4) {
      const digit = Number.parseInt(hex.charAt(i >>> 2) || '0', 16);
      const nibble = Number.isNaN(digit) ? 0 : digit;
      const width = Math.min(4, bits - i);
      this.uint(nibble >>> (4 - width), width);
    }
    return this;
  }

  /** The armoured payload and the number of fill bits added to complete the last character. */
  toPayload(): { payload: string; fillBits: number } {
    const fillBits = (6 - (this.#length % 6)) % 6;
    let payload = '';
    for (let start = 0; start < this.#length; start += 6) {
      let value = 0;
      for (let i = 0; i < 6; i++) {
        const index = start + i;
        value = (value << 1) | (index < this.#length ? this.#bits[index] : 0);
      }
      payload += ARMOR_CHAR[value];
    }
    return { payload, fillBits };
  }
}
