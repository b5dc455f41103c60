import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deriveEffects, expandRunways, runwaysIn } from './effects.ts';
import type { EffectInput } from './effects.ts';
import { decodeCondition, decodeSubject } from './qcodes.ts';

function withQCode(qCode: string, text: string): EffectInput {
  return { type: 'NEW', subject: decodeSubject(qCode), condition: decodeCondition(qCode), text, keyword: null };
}

function textOnly(text: string, keyword: string | null = null): EffectInput {
  return { type: 'NEW', subject: null, condition: null, text, keyword };
}

describe('effects from the Q code', () => {
  test('aerodrome closed', () => {
    assert.deepEqual(deriveEffects(withQCode('QFALC', 'AD CLSD DUE WIP')), [{ kind: 'aerodrome_closed', runways: [] }]);
  });

  test('runway closed lists both ends of the closed runway', () => {
    assert.deepEqual(deriveEffects(withQCode('QMRLC', 'RWY 09L/27R CLSD. USE RWY 09R/27L')), [
      { kind: 'runway_closed', runways: ['09L', '27R'] },
    ]);
  });

  test('runway closed without CLSD beside the designator falls back to the runways named', () => {
    assert.deepEqual(deriveEffects(withQCode('QMRLC', 'RWY 4/22 NOT AVBL FOR TKOF OR LDG')), [
      { kind: 'runway_closed', runways: ['04', '22'] },
    ]);
  });

  test('ILS, localizer and glide path unserviceable, with the runway', () => {
    assert.deepEqual(deriveEffects(withQCode('QICAS', 'ILS RWY 27L U/S')), [{ kind: 'ils_unserviceable', runways: ['27L'] }]);
    assert.deepEqual(deriveEffects(withQCode('QITAU', 'ILS CAT II RWY 27L NOT AVBL')), [{ kind: 'ils_unserviceable', runways: ['27L'] }]);
    assert.deepEqual(deriveEffects(withQCode('QILAS', 'LOC RWY 09 U/S')), [{ kind: 'localizer_unserviceable', runways: ['09'] }]);
    assert.deepEqual(deriveEffects(withQCode('QIGAS', 'ILS RWY 35L GP U/S')), [{ kind: 'glide_path_unserviceable', runways: ['35L'] }]);
    assert.deepEqual(deriveEffects(withQCode('QIGCT', 'GP RWY 35L ON TEST DO NOT USE')), [
      { kind: 'glide_path_unserviceable', runways: ['35L'] },
    ]);
  });

  test('runway and approach lighting unserviceable', () => {
    assert.deepEqual(deriveEffects(withQCode('QLEAS', 'RWY 09L/27R EDGE LGT U/S')), [
      { kind: 'runway_lighting_unserviceable', runways: ['09L', '27R'] },
    ]);
    assert.deepEqual(deriveEffects(withQCode('QLRAS', 'ALL LDG AREA LGT U/S')), [{ kind: 'runway_lighting_unserviceable', runways: [] }]);
    assert.deepEqual(deriveEffects(withQCode('QLAAS', 'RWY 36R HIGH INTST ALS WITH SEQUENCE FLASHER U/S')), [
      { kind: 'approach_lighting_unserviceable', runways: ['36R'] },
    ]);
  });

  test('the condition decides: an ILS back in service or a runway limited is "other"', () => {
    assert.deepEqual(deriveEffects(withQCode('QICAK', 'ILS RWY 27L RESUMED NORMAL OPS')), [{ kind: 'other', runways: [] }]);
    assert.deepEqual(deriveEffects(withQCode('QMRLT', 'RWY 09R/27L ENTRY POINT N1 CLSD')), [{ kind: 'other', runways: [] }]);
    assert.deepEqual(deriveEffects(withQCode('QMXLC', 'TWY A CLSD')), [{ kind: 'other', runways: [] }]);
  });

  test('a Q code with XX reads the text', () => {
    assert.deepEqual(deriveEffects(withQCode('QMRXX', 'RWY 13R/31L CLSD')), [{ kind: 'runway_closed', runways: ['13R', '31L'] }]);
    assert.deepEqual(deriveEffects(withQCode('QXXXX', 'AD CLSD')), [{ kind: 'aerodrome_closed', runways: [] }]);
  });

  test('procedure, obstacle and warning NOTAMs do not read equipment out of their text', () => {
    const text = 'RNAV (GPS) RWY 36R, AMDT 2...\nCHANGE NOTE TO READ: FOR INOP ALS, INCREASE VISIBILITY';
    assert.deepEqual(deriveEffects(withQCode('QPIXX', text)), [{ kind: 'other', runways: [] }]);
    assert.deepEqual(deriveEffects(textOnly(text, 'IAP')), [{ kind: 'other', runways: [] }]);
  });

  test('a cancellation has no effect of its own', () => {
    assert.deepEqual(deriveEffects({ ...withQCode('QMRLC', 'RWY 09L/27R CLSD'), type: 'CANCEL' }), []);
  });
});

describe('effects from the text', () => {
  test('aerodrome closure, but not a closure to some traffic only', () => {
    assert.deepEqual(deriveEffects(textOnly('AD AP CLSD')), [{ kind: 'aerodrome_closed', runways: [] }]);
    assert.deepEqual(deriveEffects(textOnly('AERODROME CLOSED')), [{ kind: 'aerodrome_closed', runways: [] }]);
    assert.deepEqual(deriveEffects(textOnly('AD CLSD TO NON-SKED TFC')), [{ kind: 'other', runways: [] }]);
  });

  test('runway closures, taxiway closures and lower case', () => {
    assert.deepEqual(deriveEffects(textOnly('rwy 4r/22l clsd')), [{ kind: 'runway_closed', runways: ['04R', '22L'] }]);
    assert.deepEqual(deriveEffects(textOnly('RWY 18L CLSD, RWY 36R\nCLOSED')), [{ kind: 'runway_closed', runways: ['18L', '36R'] }]);
    assert.deepEqual(deriveEffects(textOnly('TWY Z BTN RWY 04L/22R AND TWY Y CLSD')), [{ kind: 'other', runways: [] }]);
    assert.deepEqual(deriveEffects(textOnly('RWY 13R/31L CLSD TO ACFT WINGSPAN MORE THAN 171FT')), [{ kind: 'other', runways: [] }]);
  });

  test('ILS components out of service', () => {
    assert.deepEqual(deriveEffects(textOnly('ILS RWY 04R OTS', 'NAV')), [{ kind: 'ils_unserviceable', runways: ['04R'] }]);
    assert.deepEqual(deriveEffects(textOnly('ILS RWY 22L GP OTS', 'NAV')), [{ kind: 'glide_path_unserviceable', runways: ['22L'] }]);
    assert.deepEqual(deriveEffects(textOnly('RWY 13L LOC UNSERVICEABLE')), [{ kind: 'localizer_unserviceable', runways: ['13L'] }]);
    assert.deepEqual(deriveEffects(textOnly('RWY 27 GLIDE PATH OUT OF SERVICE')), [{ kind: 'glide_path_unserviceable', runways: ['27'] }]);
  });

  test('lighting out of service, taxiway lights excluded', () => {
    assert.deepEqual(deriveEffects(textOnly('RWY 04L/22R HIRL OTS')), [{ kind: 'runway_lighting_unserviceable', runways: ['04L', '22R'] }]);
    assert.deepEqual(deriveEffects(textOnly('RWY 31L CL LGT U/S')), [{ kind: 'runway_lighting_unserviceable', runways: ['31L'] }]);
    assert.deepEqual(deriveEffects(textOnly('RWY 04R ALSF2 OTS')), [{ kind: 'approach_lighting_unserviceable', runways: ['04R'] }]);
    assert.deepEqual(deriveEffects(textOnly('RWY 22L MALSR U/S')), [{ kind: 'approach_lighting_unserviceable', runways: ['22L'] }]);
    assert.deepEqual(deriveEffects(textOnly('TWY H CL LGT U/S')), [{ kind: 'other', runways: [] }]);
  });

  test('an outage in another clause is not pinned on the ILS', () => {
    assert.deepEqual(deriveEffects(textOnly('ILS OR LOC RWY 4L, AMDT 11E...\nDME REQUIRED,\nCMK VOR U/S.')), [{ kind: 'other', runways: [] }]);
  });

  test('several effects in one NOTAM', () => {
    assert.deepEqual(deriveEffects(textOnly('RWY 09/27 CLSD. ILS RWY 27 U/S. RWY 09 ALS U/S')), [
      { kind: 'runway_closed', runways: ['09', '27'] },
      { kind: 'ils_unserviceable', runways: ['27'] },
      { kind: 'approach_lighting_unserviceable', runways: ['09'] },
    ]);
  });
});

describe('runway designators', () => {
  test('pairs expand to both ends, single digits are padded, impossible numbers dropped', () => {
    assert.deepEqual(expandRunways('09L/27R'), ['09L', '27R']);
    assert.deepEqual(expandRunways('4R'), ['04R']);
    assert.deepEqual(expandRunways('18C / 36C'), ['18C', '36C']);
    assert.deepEqual(expandRunways('00/99'), []);
  });

  test('runwaysIn finds every designator after RWY or RUNWAY', () => {
    assert.deepEqual(runwaysIn('RWY 04L/22R AND RUNWAY 13R, RWYS 9/27'), ['04L', '22R', '13R', '09', '27']);
    assert.deepEqual(runwaysIn('TWY A BTN TWY B AND TWY C'), []);
  });
});
