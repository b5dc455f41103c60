import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPaved, normaliseSurface, RUNWAY_SURFACES } from './surfaces.ts';
import type { RunwaySurface } from './surfaces.ts';

function assertSurface(texts: readonly (string | null)[], surface: RunwaySurface) {
  for (const text of texts) {
    assert.deepEqual(normaliseSurface(text), { surface, paved: isPaved(surface) }, `surface text ${JSON.stringify(text)}`);
  }
}

test('OurAirports surface texts', () => {
  assertSurface(['ASP', 'ASPH', 'ASPH-G', 'ASPH-F', 'asphalt', 'Asphalt', 'BIT', 'PEM', 'tarmac', 'ASPH-CONC'], 'ASPHALT');
  assertSurface(['CON', 'CONC', 'CONC-G', 'concrete', 'CONC-TURF', 'CONC/ASPH'], 'CONCRETE');
  assertSurface(['GRS', 'GRASS', 'grass', 'TURF', 'TURF-G', 'TURF-DIRT', 'Grass / Sod'], 'GRASS');
  assertSurface(['GRE', 'GRVL', 'GVL', 'gravel', 'GRVL-TRTD', 'GRAVEL-P'], 'GRAVEL');
  assertSurface(['DIRT', 'dirt', 'CLAY', 'SAND', 'SAN', 'LATERITE', 'Soil'], 'DIRT');
  assertSurface(['WATER', 'water', 'WAT'], 'WATER');
  assertSurface(['SNOW', 'ICE', 'snow/ice'], 'SNOW');
  assertSurface(['metal', 'MET', 'PSP', 'MATS', 'ROOF-TOP', 'WOOD', 'coral'], 'OTHER');
  assertSurface([null, '', 'unknown', 'U', 'UNK', '?', 'G', 'TRTD'], 'UNKNOWN');
});

test('the words the data package reduces surfaces to', () => {
  const expected: Record<string, RunwaySurface> = {
    asphalt: 'ASPHALT', concrete: 'CONCRETE', grass: 'GRASS', gravel: 'GRAVEL', dirt: 'DIRT', water: 'WATER',
    metal: 'OTHER', unknown: 'UNKNOWN',
  };
  for (const [word, surface] of Object.entries(expected)) assert.equal(normaliseSurface(word).surface, surface, word);
});

test('only asphalt and concrete are paved; unknown is neither', () => {
  const paved = RUNWAY_SURFACES.filter((surface) => isPaved(surface) === true);
  assert.deepEqual(paved, ['ASPHALT', 'CONCRETE']);
  assert.equal(isPaved('UNKNOWN'), null);
  assert.equal(isPaved('GRASS'), false);
  assert.equal(new Set(RUNWAY_SURFACES).size, RUNWAY_SURFACES.length);
});
