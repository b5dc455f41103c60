import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as reference from './index.ts';

test('index re-exports the public API', () => {
  assert.deepEqual(Object.keys(reference).sort(), [
    'MID_TABLE',
    'MMSI_KINDS',
    'VESSEL_CATEGORIES',
    'categoryForShipType',
    'classifyMmsi',
    'formatMmsi',
    'hazardCategoryForShipType',
    'imoCheckDigit',
    'imoFromPrefix',
    'isValidImo',
    'isValidMmsi',
    'isVesselCategory',
    'midInfo',
    'midsForFlag',
  ]);
  assert.equal(reference.classifyMmsi(232_000_001).flag?.alpha2, 'GB');
});
