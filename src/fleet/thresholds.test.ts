// Alert thresholds: the documented set passes as given; bad values and unknown keys are named.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { THRESHOLD_NAMES, validateThresholds } from './thresholds.ts';
import { FleetValidationError } from './validation.ts';

const fieldsOf = (error: unknown) => (error instanceof FleetValidationError ? error.issues.map((issue) => issue.field) : []);

test('a full set of valid thresholds comes back as given, and an empty one is valid', () => {
  const all = {
    safety_score_below: 0, crosswind_kt_above: 17.5, wind_shear_at_least: 'SEVERE', visibility_nm_below: 1.5,
    weather_hold: false, eta_delay_minutes_above: 1440,
  };
  assert.deepEqual(Object.keys(all).sort(), [...THRESHOLD_NAMES].sort());
  assert.deepEqual(validateThresholds(all), all);
  assert.deepEqual(validateThresholds({}), {});
  assert.deepEqual(validateThresholds({ safety_score_below: 100, eta_delay_minutes_above: 1 }), { safety_score_below: 100, eta_delay_minutes_above: 1 });
});

test('each out-of-range or mistyped threshold is named under the path', () => {
  const bad = {
    safety_score_below: 100.5, crosswind_kt_above: -1, wind_shear_at_least: 'low', visibility_nm_below: 51,
    weather_hold: 'yes', eta_delay_minutes_above: 0,
  };
  assert.throws(() => validateThresholds(bad, 'body'), (error) => {
    assert.deepEqual(fieldsOf(error).sort(), THRESHOLD_NAMES.map((name) => `body/${name}`).sort());
    return true;
  });
  assert.throws(() => validateThresholds({ safety_score_below: null }), (error) => {
    assert.deepEqual(fieldsOf(error), ['thresholds/safety_score_below']);
    assert.match((error as Error).message, /an integer from 0 to 100 \(leave it out for no such alert\)/);
    return true;
  });
});

test('unknown thresholds are named, beside the bad known ones', () => {
  assert.throws(() => validateThresholds({ colour: 'red', crosswind_kt_above: 'high', safety_score: 50 }), (error) => {
    assert.deepEqual(fieldsOf(error), ['thresholds/colour', 'thresholds/crosswind_kt_above', 'thresholds/safety_score']);
    assert.match((error as Error).message, /thresholds\/colour is not a known threshold; the known ones are safety_score_below, /);
    return true;
  });
});

test('anything but an object is refused as a whole', () => {
  for (const value of [null, [], 'LOW', 5, undefined]) {
    assert.throws(() => validateThresholds(value), (error) => fieldsOf(error).join() === 'thresholds', JSON.stringify(value));
  }
});
