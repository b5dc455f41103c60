import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIELD_LABELS, fieldLabel, fieldSentence } from './field-labels.ts';

test('an API field path reads as the label its form shows', () => {
  assert.equal(fieldLabel('/body/destination_icao'), 'Destination airport');
  assert.equal(fieldLabel('/body/email'), FIELD_LABELS.email);
  assert.equal(fieldLabel('/body/overlap_hours'), 'Old key keeps working for (hours)');
  assert.equal(fieldLabel('/body/operational_regions/2'), 'Operational regions', 'an item of a list is named by its list');
  assert.equal(fieldLabel('/querystring/home_base_icao'), 'Home base');
  assert.equal(fieldLabel('/body/thresholds/crosswind_kt_above'), 'Crosswind', 'a nested field by its whole path');
  assert.equal(fieldLabel('/body/some_new_field'), 'Some new field', 'a field no form shows reads as its words');
  assert.equal(fieldLabel('/body'), 'The request');
});

test('a message follows its label; a sentence of its own stands alone', () => {
  assert.equal(fieldSentence('Destination airport', 'must be 4 letters or digits'), 'Destination airport: must be 4 letters or digits');
  assert.equal(fieldSentence('Password', 'Choose a longer one.'), 'Choose a longer one.');
});
