import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkIdentity, expiryDate, outcomeOf } from './check.ts';
import type { IdentityCheck } from './check.ts';
import { ANNA, td1Lines, td3Lines, withCharacter } from './sample-documents.ts';
import type { Holder } from './sample-documents.ts';

const NOW = new Date('2025-06-15T10:00:00Z');
const ACCOUNT = 'Anna Maria Eriksson';

function check(lines: readonly string[], accountName = ACCOUNT, now = NOW): IdentityCheck {
  return checkIdentity({ mrzText: lines.join('\n'), accountName, now });
}

const codes = (result: IdentityCheck) =>
  result.reasons.map((reason) => (reason.field ? `${reason.code}:${reason.field}` : reason.code));

describe('checkIdentity', () => {
  test('verified: valid check digits, not expired, the same name; the summary keeps no name or birth date', () => {
    const result = check(td3Lines({ ...ANNA, optional: 'ZE184226B' }));
    assert.deepEqual(result, {
      outcome: 'verified',
      reasons: [],
      document: {
        format: 'TD3',
        document_code: 'P',
        issuing_state: 'SWE',
        nationality: 'SWE',
        number_last4: '02C3',
        expiry: '2032-04-15',
      },
      name_match: 'exact',
    });
    assert.equal(check(td1Lines(ANNA)).outcome, 'verified');
  });

  test('a TD2 card and the MRZ inside longer text', () => {
    const td2 = ['I<SWEERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907SWE7408122F3204153<<<<<<<2'];
    assert.deepEqual([check(td2).outcome, check(td2).document?.format], ['verified', 'TD2']);
    const text = `PASSPORT\nSurname Eriksson\n${td3Lines(ANNA).join('\n')}\n`;
    assert.equal(checkIdentity({ mrzText: text, accountName: ACCOUNT, now: NOW }).outcome, 'verified');
  });

  test('rejected, naming each check digit that fails', () => {
    const lines = td3Lines({ ...ANNA, optional: 'ZE184226B' });
    const birth = check(withCharacter(lines, 1, 19, '0'));
    assert.equal(birth.outcome, 'rejected');
    assert.deepEqual(codes(birth), ['check_digit_invalid:birth_date', 'check_digit_invalid:composite']);
    assert.match(birth.reasons[0]!.message, /birth date check digit/);
    const failing = (mrz: string[]) => codes(check(mrz)).map((code) => code.replace('check_digit_invalid:', ''));
    assert.deepEqual(failing(withCharacter(lines, 1, 9, '0')), ['document_number', 'composite']);
    assert.equal(check(withCharacter(lines, 1, 9, '0')).document?.number_last4, null);
    assert.deepEqual(failing(withCharacter(lines, 1, 42, '7')), ['personal_number', 'composite']);
    assert.deepEqual(failing(withCharacter(lines, 1, 43, '7')), ['composite']);
    assert.deepEqual(failing(withCharacter(td1Lines(ANNA), 1, 14, '0')), ['expiry_date', 'composite']);
  });

  test('rejected when expired; valid through its expiry day (UTC)', () => {
    const lines = td3Lines({ ...ANNA, expiryDate: '250614' });
    assert.deepEqual([check(lines).outcome, codes(check(lines))], ['rejected', ['expired']]);
    assert.match(check(lines).reasons[0]!.message, /expired on 2025-06-14/);
    assert.equal(check(td3Lines({ ...ANNA, expiryDate: '250615' })).outcome, 'verified');
    assert.equal(check(td3Lines({ ...ANNA, expiryDate: '250615' }), ACCOUNT, new Date('2025-06-15T23:59:59Z')).outcome, 'verified');
    assert.equal(check(td3Lines({ ...ANNA, expiryDate: '250615' }), ACCOUNT, new Date('2025-06-16T00:00:00Z')).outcome, 'rejected');
  });

  test('names: different → rejected, close → manual review', () => {
    const lines = td3Lines(ANNA);
    const other = check(lines, 'Jonas Mueller');
    assert.deepEqual([other.outcome, codes(other), other.name_match], ['rejected', ['name_mismatch'], 'different']);
    const close = check(lines, 'Anna Eriksson');
    assert.deepEqual([close.outcome, codes(close), close.name_match], ['manual_review', ['name_close'], 'close']);
    const cyrillic = check(lines, 'Анна Эрикссон');
    assert.deepEqual([cyrillic.outcome, codes(cyrillic)], ['manual_review', ['name_not_comparable']]);
  });

  test('every rejecting reason is listed, not only the first', () => {
    const lines = withCharacter(td3Lines({ ...ANNA, expiryDate: '200101' }), 1, 19, '0');
    assert.deepEqual(codes(check(lines, 'Jonas Mueller')), [
      'check_digit_invalid:birth_date',
      'check_digit_invalid:composite',
      'expired',
      'name_mismatch',
    ]);
  });

  test('manual review: no MRZ, an unknown state, a date that does not exist, a non-ICAO zone', () => {
    const none = checkIdentity({ mrzText: null, accountName: ACCOUNT, now: NOW });
    assert.deepEqual([none.outcome, codes(none), none.document], ['manual_review', ['mrz_not_found'], null]);
    assert.deepEqual(codes(checkIdentity({ mrzText: 'no zone', accountName: ACCOUNT, now: NOW })), ['mrz_not_found']);

    const utopia = check(td3Lines({ ...ANNA, issuingState: 'UTO', nationality: 'UTO' }));
    assert.deepEqual(
      [utopia.outcome, codes(utopia)],
      ['manual_review', ['mrz_field_invalid:issuing_state', 'mrz_field_invalid:nationality']],
    );

    const february31 = check(td3Lines({ ...ANNA, expiryDate: '310231' }));
    assert.deepEqual(
      [february31.outcome, codes(february31), february31.document?.expiry],
      ['manual_review', ['mrz_field_invalid:expiry_date'], null],
    );

    // 2 × 36 with digits where a TD2 has its name: the old French ID card layout.
    const french = ['IDFRAERIKSSON<<<<<<<<<<<<<<<<<123456', '8806923102858ANNA<<MARIA<<<7408122F4'];
    assert.deepEqual(codes(check(french)), ['unsupported_format']);
  });

  test('sex X is accepted although ICAO writes `<`', () => {
    const holder: Holder = { ...ANNA, sex: 'X' };
    assert.equal(check(td3Lines(holder)).outcome, 'verified');
    assert.equal(check(td3Lines({ ...ANNA, sex: '<' })).outcome, 'verified');
  });
});

describe('expiryDate', () => {
  test('20YY unless more than 50 years ahead; impossible days are null', () => {
    assert.equal(expiryDate('320415', NOW)?.toISOString(), '2032-04-15T00:00:00.000Z');
    assert.equal(expiryDate('750101', NOW)?.toISOString(), '2075-01-01T00:00:00.000Z');
    assert.equal(expiryDate('760101', NOW)?.toISOString(), '1976-01-01T00:00:00.000Z');
    assert.equal(expiryDate('240229', NOW)?.toISOString(), '2024-02-29T00:00:00.000Z');
    assert.equal(expiryDate('250229', NOW), null);
    assert.equal(expiryDate('2502<<', NOW), null);
  });
});

describe('outcomeOf', () => {
  test('rejecting reasons win over review reasons; none is verified', () => {
    assert.equal(outcomeOf([]), 'verified');
    assert.equal(outcomeOf([{ code: 'name_close', message: '' }]), 'manual_review');
    assert.equal(outcomeOf([{ code: 'name_close', message: '' }, { code: 'expired', message: '' }]), 'rejected');
  });
});
