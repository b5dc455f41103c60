import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONDITIONS, SUBJECTS, decodeCondition, decodeSubject } from './qcodes.ts';

/** Codes per first letter: the ICAO tables' group sizes, so a lost or stray entry shows up. */
function countByGroup(table: Readonly<Record<string, string>>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const code of Object.keys(table)) counts[code[0]!] = (counts[code[0]!] ?? 0) + 1;
  return counts;
}

test('subjects cover every ICAO group', () => {
  assert.deepEqual(countByGroup(SUBJECTS), { A: 16, C: 12, F: 19, G: 2, I: 14, L: 23, M: 18, N: 12, O: 5, P: 18, R: 7, S: 13, W: 20, X: 1 });
  for (const code of Object.keys(SUBJECTS)) assert.match(code, /^[A-Z]{2}$/);
  // Spot checks across the groups the landing effects depend on.
  assert.equal(SUBJECTS.FA, 'Aerodrome');
  assert.equal(SUBJECTS.MR, 'Runway');
  assert.equal(SUBJECTS.MX, 'Taxiway');
  assert.equal(SUBJECTS.IC, 'Instrument landing system');
  assert.equal(SUBJECTS.IG, 'Glide path');
  assert.equal(SUBJECTS.IL, 'Localizer');
  assert.equal(SUBJECTS.LA, 'Approach lighting system');
  assert.equal(SUBJECTS.LR, 'All landing area lighting facilities');
  assert.equal(SUBJECTS.NV, 'VOR');
  assert.equal(SUBJECTS.CA, 'Air/ground facility');
  assert.equal(SUBJECTS.RD, 'Danger area');
  assert.equal(SUBJECTS.WM, 'Missile, gun or rocket firing');
});

test('conditions cover availability, changes, hazards and limitations', () => {
  assert.deepEqual(countByGroup(CONDITIONS), { A: 16, C: 16, H: 26, L: 19, T: 1, X: 1 });
  for (const code of Object.keys(CONDITIONS)) assert.match(code, /^[A-Z]{2}$/);
  assert.equal(CONDITIONS.AS, 'Unserviceable');
  assert.equal(CONDITIONS.LC, 'Closed');
  assert.equal(CONDITIONS.HW, 'Work in progress');
  assert.equal(CONDITIONS.CE, 'Erected');
  assert.equal(CONDITIONS.LW, 'Will take place');
  assert.equal(CONDITIONS.TT, 'Trigger NOTAM');
});

test('decoding splits the Q code into subject and condition', () => {
  assert.deepEqual(decodeSubject('QMRLC'), { code: 'MR', meaning: 'Runway' });
  assert.deepEqual(decodeCondition('QMRLC'), { code: 'LC', meaning: 'Closed' });
  assert.deepEqual(decodeSubject('QXXAS'), { code: 'XX', meaning: 'Plain language' });
});

test('codes missing from the tables decode to a null meaning', () => {
  assert.deepEqual(decodeSubject('QZZLC'), { code: 'ZZ', meaning: null });
  assert.deepEqual(decodeCondition('QMRZZ'), { code: 'ZZ', meaning: null });
});
