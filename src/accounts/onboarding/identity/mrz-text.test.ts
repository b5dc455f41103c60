import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { correctOcrConfusions, findMrzBlocks, locateMrz, parseBlock } from './mrz-text.ts';
import { ANNA, checkDigit, td1Lines, td3Lines, withCharacter } from './sample-documents.ts';
import type { Holder } from './sample-documents.ts';

// The ICAO 9303 part 4 and part 5 specimens.
const SPECIMEN_TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const SPECIMEN_TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
const SPECIMEN_TD2 = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'];

describe('the test generator', () => {
  test('reproduces the ICAO specimens, check digits included', () => {
    const specimen: Holder = { ...ANNA, issuingState: 'UTO', nationality: 'UTO', expiryDate: '120415' };
    assert.deepEqual(td3Lines({ ...specimen, optional: 'ZE184226B' }), SPECIMEN_TD3);
    assert.deepEqual(td1Lines({ ...specimen, documentNumber: 'D23145890' }), SPECIMEN_TD1);
    assert.equal(checkDigit('520727'), '3');
  });
});

describe('what the mrz package reports', () => {
  const invalid = (lines: string[]) =>
    parseBlock({ format: lines.length === 3 ? 'TD1' : lines[0]!.length === 44 ? 'TD3' : 'TD2', lines })!
      .details.filter((detail) => !detail.valid)
      .map((detail) => detail.field);

  test('the specimens are valid except for the fictional state UTO, which it does not know', () => {
    assert.deepEqual(invalid(SPECIMEN_TD3), ['issuingState', 'nationality']);
    assert.deepEqual(invalid(SPECIMEN_TD1), ['issuingState', 'nationality']);
    assert.deepEqual(invalid(SPECIMEN_TD2), ['issuingState', 'nationality']);
  });

  test('it names each check digit that fails', () => {
    const td3 = td3Lines({ ...ANNA, optional: 'ZE184226B' });
    assert.deepEqual(invalid(withCharacter(td3, 1, 9, '7')), ['documentNumberCheckDigit', 'compositeCheckDigit']);
    assert.deepEqual(invalid(withCharacter(td3, 1, 27, '0')), ['expirationDateCheckDigit', 'compositeCheckDigit']);
    assert.deepEqual(invalid(withCharacter(td3, 1, 42, '2')), ['personalNumberCheckDigit', 'compositeCheckDigit']);
    assert.deepEqual(invalid(withCharacter(td3, 1, 43, '2')), ['compositeCheckDigit']);
    const td1 = td1Lines(ANNA);
    assert.deepEqual(invalid(withCharacter(td1, 1, 6, '0')), ['birthDateCheckDigit', 'compositeCheckDigit']);
  });

  test('property: every generated MRZ is valid, and any other digit in a check digit place is caught', () => {
    const letters = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    const alphanumeric = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    const date = fc
      .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
      .map(([y, m, d]) => [y, m, d].map((n) => String(n).padStart(2, '0')).join(''));
    const holder = fc.record({
      surnames: fc.array(fc.string({ unit: letters, minLength: 2, maxLength: 8 }), { minLength: 1, maxLength: 2 }),
      givenNames: fc.array(fc.string({ unit: letters, minLength: 2, maxLength: 8 }), { minLength: 1, maxLength: 2 }),
      documentNumber: fc.string({ unit: alphanumeric, minLength: 9, maxLength: 9 }),
      issuingState: fc.constant('NLD'),
      nationality: fc.constant('NLD'),
      birthDate: date,
      sex: fc.constantFrom('M' as const, 'F' as const, '<' as const),
      expiryDate: date,
      optional: fc.option(fc.string({ unit: alphanumeric, minLength: 1, maxLength: 9 }), { nil: undefined }),
    });
    const td3Digits = [9, 19, 27, 43];
    const td1Digits: [number, number][] = [[0, 14], [1, 6], [1, 14], [1, 29]];
    fc.assert(
      fc.property(holder, fc.integer({ min: 1, max: 9 }), (person, shift) => {
        const td3 = td3Lines(person);
        const td1 = td1Lines(person);
        assert.deepEqual(invalid(td3), []);
        assert.deepEqual(invalid(td1), []);
        for (const column of td3Digits) {
          const wrong = String((Number(td3[1][column]) + shift) % 10);
          assert.notDeepEqual(invalid(withCharacter(td3, 1, column, wrong)), []);
        }
        for (const [line, column] of td1Digits) {
          const wrong = String((Number(td1[line]![column]) + shift) % 10);
          assert.notDeepEqual(invalid(withCharacter(td1, line, column, wrong)), []);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('findMrzBlocks', () => {
  test('finds a passport MRZ in OCR output with split filler runs and surrounding noise', () => {
    const text = [
      'PASSPORTPASSEPORT',
      '',
      'SDB GWL',
      'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<< <<<<<<<<<<<',
      '',
      'L898902C36UTO7408122F1204159ZE184226B<<<<< 10',
    ].join('\n');
    assert.deepEqual(findMrzBlocks(text), [{ format: 'TD3', lines: SPECIMEN_TD3 }]);
  });

  test('finds TD1 and TD2 zones, and a zone a text layer gives as one line', () => {
    assert.deepEqual(findMrzBlocks(SPECIMEN_TD1.join('\n')), [{ format: 'TD1', lines: SPECIMEN_TD1 }]);
    assert.deepEqual(findMrzBlocks(SPECIMEN_TD2.join('\r\n')), [{ format: 'TD2', lines: SPECIMEN_TD2 }]);
    assert.deepEqual(findMrzBlocks(`Name: Anna\n${SPECIMEN_TD3.join('')}\n`), [{ format: 'TD3', lines: SPECIMEN_TD3 }]);
  });

  test('ignores lines of the wrong length, lower case or other characters, and lone lines', () => {
    assert.deepEqual(findMrzBlocks(SPECIMEN_TD3[0]!), []);
    assert.deepEqual(findMrzBlocks(`${SPECIMEN_TD3[0]}\n${SPECIMEN_TD3[1]!.slice(1)}`), []);
    assert.deepEqual(findMrzBlocks(SPECIMEN_TD3.map((line) => line.toLowerCase()).join('\n')), []);
    assert.deepEqual(findMrzBlocks(SPECIMEN_TD1.map((line) => line.replace(/</g, '«')).join('\n')), []);
    assert.deepEqual(findMrzBlocks(Array(3).fill('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123').join('\n')), []);
  });
});

describe('correctOcrConfusions', () => {
  test('letters in digit fields and digits in letter fields, nowhere else', () => {
    // Birth date 74O8I2 (O, I), nationality UT0, name ER1KSSON; the document number keeps its L
    // and the personal number its Z, E and B, though a digit field would turn them into 1, 2, 8.
    const lines = ['P<UTOER1KSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UT074O8I22F1204159ZE184226B<<<<<10'];
    const { block, corrections } = correctOcrConfusions({ format: 'TD3', lines });
    assert.deepEqual(block.lines, SPECIMEN_TD3);
    assert.deepEqual(
      corrections.map(({ line, column, from, to, rule }) => `${line}:${column} ${from}>${to} ${rule}`),
      ['1:8 1>I field_class', '2:13 0>O field_class', '2:16 O>0 field_class', '2:18 I>1 field_class'],
    );
  });

  test('swaps O and 0 in the document number only when exactly one swap makes its check digits hold', () => {
    const misread = withCharacter(SPECIMEN_TD3, 1, 5, 'O');
    const { block, corrections } = correctOcrConfusions({ format: 'TD3', lines: misread });
    assert.deepEqual(block.lines, SPECIMEN_TD3);
    assert.deepEqual(corrections, [{ line: 2, column: 6, from: 'O', to: '0', rule: 'check_digit' }]);
    // A wrong check digit is not "repaired" by a swap: none makes both digits hold.
    const tampered = withCharacter(SPECIMEN_TD3, 1, 9, '5');
    assert.deepEqual(correctOcrConfusions({ format: 'TD3', lines: tampered }).block.lines, tampered);
  });

  test('a TD1 document number continued in the optional data is left alone', () => {
    const long = ['I<UTOD23145890<7349<<<<<<<<<<<', '3407127M9507122UTO<<<<<<<<<<<2', 'STEVENSON<<PETER<JOHN<<<<<<<<<'];
    assert.deepEqual(correctOcrConfusions({ format: 'TD1', lines: long }).corrections, []);
  });
});

describe('locateMrz', () => {
  test('prefers the block whose check digits hold', () => {
    const noise = SPECIMEN_TD3.map((line) => line.replace(/[0-9]/g, '1'));
    assert.deepEqual(locateMrz([...SPECIMEN_TD3, '', ...noise].join('\n'), { correct: false })?.block.lines, SPECIMEN_TD3);
    assert.deepEqual(locateMrz([...noise, '', ...SPECIMEN_TD3].join('\n'), { correct: false })?.block.lines, SPECIMEN_TD3);
    assert.equal(locateMrz('no zone here', { correct: true }), null);
  });
});
