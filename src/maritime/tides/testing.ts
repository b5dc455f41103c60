// Test support: which field a tide function names when it refuses its input.
import assert from 'node:assert/strict';
import { TideInputError } from './errors.ts';

/** The `field` of the TideInputError `run` throws; null when it throws nothing. */
export function refusedField(run: () => unknown): string | null {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof TideInputError);
    return error.field;
  }
  return null;
}
