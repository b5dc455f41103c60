import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { armorChar, armorValue, isValidArmor, SixBitReader, SixBitWriter } from './sixbit.ts';

const ARMOR_ALPHABET = '0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVW`abcdefghijklmnopqrstuvw';
const TEXT_ALPHABET = '@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_ !"#$%&\'()*+,-./0123456789:;<=>?';

/** Reference: the payload as a string of '0'/'1', fill bits removed. */
function bitString(payload: string, fillBits: number): string {
  let bits = '';
  for (const char of payload) bits += ARMOR_ALPHABET.indexOf(char).toString(2).padStart(6, '0');
  return bits.slice(0, bits.length - fillBits);
}

function referenceUint(bits: string, start: number, width: number): number {
  const slice = bits.slice(start, start + width).padEnd(width, '0');
  return width === 0 ? 0 : Number.parseInt(slice, 2);
}

const payloadArbitrary = fc.string({ unit: fc.constantFrom(...ARMOR_ALPHABET), minLength: 1, maxLength: 90 });

test('armour maps the 64 payload characters to 0..63 and back', () => {
  assert.equal(ARMOR_ALPHABET.length, 64);
  for (let value = 0; value < 64; value++) {
    const char = ARMOR_ALPHABET[value]!;
    assert.equal(armorValue(char.charCodeAt(0)), value);
    assert.equal(armorChar(value), char);
  }
  for (const char of 'XYZ[\\]^_xyz{|}~ !*,$') assert.equal(armorValue(char.charCodeAt(0)), -1, char);
  assert.equal(armorValue(0x2603), -1);
  assert.equal(isValidArmor('13nUgBWP01PkHvDU7<kC4wvJ2>`<'), true);
  assert.equal(isValidArmor('13nUg*'), false);
});

test('reader rejects characters outside the armour and bad fill bits', () => {
  const reader = new SixBitReader();
  assert.equal(reader.reset('1x', 0), false);
  assert.equal(reader.bitLength, 0);
  assert.equal(reader.reset('15', 6), false);
  assert.equal(reader.reset('1', -1), false);
  assert.equal(reader.reset('', 1), false);
  assert.equal(reader.reset('15', 2), true);
  assert.equal(reader.bitLength, 10);
});

test('reader reads unsigned and signed fields of any width like a bit-string reference (property)', () => {
  const reader = new SixBitReader();
  fc.assert(
    fc.property(payloadArbitrary, fc.nat(5), fc.nat(600), fc.integer({ min: 1, max: 53 }), (payload, fill, start, width) => {
      const fillBits = Math.min(fill, payload.length * 6);
      assert.equal(reader.reset(payload, fillBits), true);
      const bits = bitString(payload, fillBits);
      const expected = referenceUint(bits, start, width);
      assert.equal(reader.uint(start, width), expected);
      const signed = expected >= 2 ** (width - 1) ? expected - 2 ** width : expected;
      assert.equal(reader.int(start, width), signed);
    }),
    { numRuns: 3000 },
  );
});

test('bits past the message (fill bits included) read as zero', () => {
  const reader = new SixBitReader();
  reader.reset('w', 4); // 111111 with the last four bits being fill
  assert.equal(reader.bitLength, 2);
  assert.equal(reader.uint(0, 6), 0b110000);
  assert.equal(reader.uint(2, 30), 0);
  assert.equal(reader.uint(1000, 8), 0);
});

test('reader can be reused for a shorter payload without leftovers', () => {
  const reader = new SixBitReader();
  reader.reset('wwwwwwwwwwwwwwwwwwww', 0);
  reader.reset('w', 0);
  assert.equal(reader.uint(0, 12), 0b111111000000);
});

test('text stops at the first @ and trims trailing spaces', () => {
  const writer = new SixBitWriter();
  writer.text('AB C  ', 8); // 'AB C  @@'
  writer.text('X@Y', 3);
  const { payload, fillBits } = writer.toPayload();
  const reader = new SixBitReader();
  reader.reset(payload, fillBits);
  assert.equal(reader.text(0, 8), 'AB C');
  assert.equal(reader.untrimmedText(0, 8), 'AB C  ');
  assert.equal(reader.text(48, 3), 'X');
  assert.equal(reader.text(0, 0), '');
});

test('text maps all 64 six-bit characters', () => {
  const writer = new SixBitWriter();
  for (let value = 0; value < 64; value++) writer.uint(value, 6);
  const { payload } = writer.toPayload();
  const reader = new SixBitReader();
  reader.reset(payload, 0);
  for (let value = 1; value < 64; value++) assert.equal(reader.text(value * 6, 1), TEXT_ALPHABET[value]!.trimEnd());
});

test('writer upper-cases text and writes unsupported characters as ?', () => {
  const { payload, fillBits } = new SixBitWriter().text('ab~é', 4).toPayload();
  const reader = new SixBitReader();
  reader.reset(payload, fillBits);
  assert.equal(reader.text(0, 4), 'AB??');
});

test('hex reads whole bytes and pads the last partial byte with zeros', () => {
  const { payload, fillBits } = new SixBitWriter().uint(0xab, 8).uint(0b101, 3).toPayload();
  const reader = new SixBitReader();
  reader.reset(payload, fillBits);
  assert.equal(reader.bitLength, 11);
  assert.equal(reader.hex(0, 11), 'aba0');
  assert.equal(reader.hex(0, 0), '');
});

test('writer then reader gives the same fields back (property)', () => {
  const field = fc.integer({ min: 1, max: 53 }).chain((width) =>
    fc.record({
      width: fc.constant(width),
      signed: fc.boolean(),
      value: fc.bigInt({ min: 0n, max: 2n ** BigInt(width) - 1n }).map(Number),
    }),
  );
  const reader = new SixBitReader();
  fc.assert(
    fc.property(fc.array(field, { minLength: 1, maxLength: 30 }), (fields) => {
      const writer = new SixBitWriter();
      for (const { width, signed, value } of fields) {
        const asSigned = value >= 2 ** (width - 1) ? value - 2 ** width : value;
        if (signed) writer.int(asSigned, width);
        else writer.uint(value, width);
      }
      const { payload, fillBits } = writer.toPayload();
      assert.equal((payload.length * 6 - fillBits), writer.bitLength);
      assert.ok(fillBits >= 0 && fillBits <= 5);
      reader.reset(payload, fillBits);
      let start = 0;
      for (const { width, signed, value } of fields) {
        const asSigned = value >= 2 ** (width - 1) ? value - 2 ** width : value;
        assert.equal(signed ? reader.int(start, width) : reader.uint(start, width), signed ? asSigned : value);
        start += width;
      }
    }),
    { numRuns: 1000 },
  );
});

test('writer writes hex data bit-exactly', () => {
  const { payload, fillBits } = new SixBitWriter().hex('f0a5', 13).toPayload();
  const reader = new SixBitReader();
  reader.reset(payload, fillBits);
  assert.equal(reader.bitLength, 13);
  assert.equal(reader.hex(0, 13), 'f0a0');
});
