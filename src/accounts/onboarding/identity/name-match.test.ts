import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accountNameParts, compareNames, splitMrzName } from './name-match.ts';

const TD3_NAME = 39;
const field = (name: string, length = TD3_NAME) => name.slice(0, length).padEnd(length, '<');

describe('splitMrzName', () => {
  test('surnames before <<, given names after, truncation when the field is full', () => {
    assert.deepEqual(splitMrzName(field('DE<BRUIJN<<WILLEKE<LISELOTTE')), {
      surnames: ['DE', 'BRUIJN'],
      givenNames: ['WILLEKE', 'LISELOTTE'],
      truncated: false,
    });
    assert.deepEqual(splitMrzName('WOJCIECHOWSKA<<JEAN<PIERRE<OLU'), {
      surnames: ['WOJCIECHOWSKA'],
      givenNames: ['JEAN', 'PIERRE', 'OLU'],
      truncated: true,
    });
    assert.deepEqual(splitMrzName(field('SUKARNO')), { surnames: ['SUKARNO'], givenNames: [], truncated: false });
  });
});

describe('accountNameParts', () => {
  test('ICAO transliteration: accents dropped, ligatures expanded, umlauts both ways, apostrophes dropped', () => {
    assert.deepEqual(accountNameParts("Zoë Müller-Lüdenscheidt"), [['ZOE'], ['MULLER', 'MUELLER'], ['LUDENSCHEIDT', 'LUEDENSCHEIDT']]);
    assert.deepEqual(accountNameParts("Seán O'Brien"), [['SEAN'], ['OBRIEN']]);
    assert.deepEqual(accountNameParts('Łukasz Strauß, Æsa Ødegård'), [['LUKASZ'], ['STRAUSS'], ['AESA'], ['OEDEGARD', 'OEDEGAARD']]);
    assert.deepEqual(accountNameParts('Иван'), []);
  });
});

describe('compareNames', () => {
  const level = (mrzName: string, account: string, length?: number) => compareNames(field(mrzName, length), account).level;

  test('exact: either order, any case, diacritics, hyphens, commas, extra spaces', () => {
    const mrz = 'ERIKSSON<<ANNA<MARIA';
    const accounts = [
      'Anna Maria Eriksson',
      'ERIKSSON Anna Maria',
      'Eriksson, Anna Maria',
      '  anna  maria   eriksson ',
      'Anna-Maria Eriksson',
      'Ánna Maria Eriksson',
    ];
    for (const account of accounts) assert.equal(level(mrz, account), 'exact', account);
    assert.equal(level('MUELLER<<ZOE', 'Zoë Müller'), 'exact');
    assert.equal(level('MULLER<<ZOE', 'Zoë Müller'), 'exact');
    assert.equal(level('OBRIEN<<SEAN', "Seán O'Brien"), 'exact');
    assert.equal(level('DE<BRUIJN<<WILLEKE', 'Willeke de Bruijn'), 'exact');
    assert.equal(level('SUKARNO', 'Sukarno'), 'exact');
  });

  test('exact: a truncated field matches the start of the name and may drop later given names', () => {
    const cut = 'WOJCIECHOWSKA<<JEAN<PIERRE<OLU'; // TD1: 30 characters, full
    assert.equal(level(cut, 'Jean Pierre Oluwaseun Wojciechowska', 30), 'exact');
    assert.equal(level(cut, 'Jean Pierre Oluwaseun Xavier Wojciechowska', 30), 'exact');
    assert.equal(level(cut, 'Jean Pierre Ola Wojciechowska', 30), 'different');
    // Not truncated: the last part must be whole.
    assert.equal(level('ERIKSSON<<AN', 'Anna Eriksson'), 'different');
  });

  test('close: a given name missing on either side, initials, one typo, another order', () => {
    const cases: [string, string][] = [
      ['ERIKSSON<<ANNA<MARIA', 'Anna Eriksson'],
      ['ERIKSSON<<ANNA', 'Anna Maria Eriksson'],
      ['GARCIA<LOPEZ<<MARIA', 'Maria Garcia'],
      ['ERIKSSON<<ANNA<MARIA', 'A. M. Eriksson'],
      ['ERIKSSON<<ANNA<MARIA', 'Anna Maria Erikson'],
      ['SMITH<<JOHN', 'Jon Smith'],
      ['ERIKSSON<<ANNA<MARIA', 'Maria Anna Eriksson'],
      ['SUKARNO', 'Budi Sukarno'],
    ];
    for (const [mrz, account] of cases) assert.equal(level(mrz, account), 'close', `${mrz} / ${account}`);
    assert.match(compareNames(field('ERIKSSON<<ANNA<MARIA'), 'Anna Eriksson').detail, /1 name part\(s\) on the document/);
  });

  test('different: another person, a shared surname only, a shared given name only, two typos', () => {
    const cases: [string, string][] = [
      ['MUELLER<<JONAS', 'Anna Maria Eriksson'],
      ['ERIKSSON<<ANNA', 'Lars Eriksson'],
      ['ERIKSSON<<ANNA', 'Anna Svensson'],
      ['ERIKSSON<<ANNA<MARIA', 'Anna Mario Eriksen'],
      ['ERIKSSON<<ANNA', 'Eriksson'],
    ];
    for (const [mrz, account] of cases) assert.equal(level(mrz, account), 'different', `${mrz} / ${account}`);
  });

  test('not comparable: no letters in A-Z on the account, or no surname in the MRZ', () => {
    assert.equal(level('IVANOV<<IVAN', 'Иван Иванов'), 'not_comparable');
    assert.equal(level('<<ANNA', 'Anna Eriksson'), 'not_comparable');
  });
});
