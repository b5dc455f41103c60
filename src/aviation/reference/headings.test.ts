import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  headingFromIdent,
  parseRunwayNumber,
  reciprocalHeading,
  reciprocalIdent,
  resolveTrueHeading,
} from './headings.ts';
import type { HeadingEvidence } from './headings.ts';
import { initialBearingDeg } from './geo.ts';

test('runway numbers and suffixes', () => {
  assert.deepEqual(parseRunwayNumber('09L'), { number: 9, suffix: 'L', twoDigits: true });
  assert.deepEqual(parseRunwayNumber('9'), { number: 9, suffix: '', twoDigits: false });
  assert.deepEqual(parseRunwayNumber('36'), { number: 36, suffix: '', twoDigits: true });
  assert.deepEqual(parseRunwayNumber('20T'), { number: 20, suffix: 'T', twoDigits: true });
  assert.deepEqual(parseRunwayNumber('09ES'), { number: 9, suffix: 'ES', twoDigits: true });
  for (const ident of ['00', '37', 'N', 'SE', 'H1', 'H27R', '341', '25.', '']) {
    assert.equal(parseRunwayNumber(ident), null, ident);
  }
});

test('reciprocal idents', () => {
  const pairs: Array<[string, string]> = [
    ['09L', '27R'], ['27R', '09L'], ['09R', '27L'], ['18C', '36C'], ['36', '18'], ['01', '19'], ['19', '01'],
    ['4', '22'], ['13', '31'], ['9W', '27W'], ['20T', '02T'], ['17T', '35T'], ['N', 'S'], ['NE', 'SW'], ['se', 'NW'],
  ];
  for (const [ident, opposite] of pairs) assert.equal(reciprocalIdent(ident), opposite, ident);
  assert.equal(reciprocalIdent('H1'), null);
  assert.equal(reciprocalIdent('341'), null);
});

test('heading from the runway number: magnetic plus variation, unless true (T)', () => {
  assert.equal(headingFromIdent(parseRunwayNumber('27')!, -1), 269);
  assert.equal(headingFromIdent(parseRunwayNumber('36')!, 5), 5);
  assert.equal(headingFromIdent(parseRunwayNumber('01')!, -15), 355);
  assert.equal(headingFromIdent(parseRunwayNumber('20T')!, 30), 200);
});

const WEST = { lat: 51.4775, lon: -0.4894 };
const EAST = { lat: 51.4777, lon: -0.4333 };

function evidence(overrides: Partial<HeadingEvidence>): HeadingEvidence {
  return { ident: '09L', recorded: null, threshold: WEST, oppositeThreshold: EAST, magneticVariation: () => 0, ...overrides };
}

test('a recorded heading that fits the runway number is kept as data', () => {
  assert.deepEqual(resolveTrueHeading(evidence({ recorded: 89.6 })), { heading: 89.6, source: 'data' });
  assert.deepEqual(resolveTrueHeading(evidence({ ident: '36', recorded: 0, threshold: null })), { heading: 360, source: 'data' });
});

test('a recorded heading the thresholds confirm is kept even when the number disagrees', () => {
  // Runway numbered 12 in a place with 22° W variation, but built on about 137° true.
  const from = { lat: -22.18, lon: -51.43 };
  const to = { lat: -22.2, lon: -51.41 };
  const result = resolveTrueHeading({ ident: '12', recorded: 137, threshold: from, oppositeThreshold: to, magneticVariation: () => -22 });
  assert.deepEqual(result, { heading: 137, source: 'data' });
});

test('an implausible recorded heading gives way to the thresholds', () => {
  const result = resolveTrueHeading(evidence({ recorded: 180 }));
  assert.deepEqual(result, { heading: Math.round(initialBearingDeg(WEST, EAST) * 100) / 100, source: 'thresholds' });
  assert.ok(Math.abs(result!.heading - 89.66) < 0.01, `heading ${result?.heading}`);
});

test('with neither data nor thresholds fitting, the number and the variation decide', () => {
  const result = resolveTrueHeading(evidence({ ident: '27', recorded: 10, magneticVariation: () => -2.5 }));
  assert.deepEqual(result, { heading: 267.5, source: 'ident' });
  assert.deepEqual(
    resolveTrueHeading(evidence({ ident: '27', threshold: null, oppositeThreshold: null, magneticVariation: () => 1 })),
    { heading: 271, source: 'ident' },
  );
});

test('idents without a number are taken as recorded, without consulting the variation model', () => {
  let consulted = 0;
  const magneticVariation = () => {
    consulted++;
    return 0;
  };
  assert.deepEqual(resolveTrueHeading(evidence({ ident: 'N', recorded: 2, magneticVariation })), { heading: 2, source: 'data' });
  assert.equal(consulted, 0);
  assert.equal(resolveTrueHeading(evidence({ ident: 'H1', threshold: null, magneticVariation })), null);
});

test('identical thresholds give no bearing', () => {
  const result = resolveTrueHeading(evidence({ ident: '09', recorded: 200, oppositeThreshold: WEST, magneticVariation: () => 1 }));
  assert.deepEqual(result, { heading: 91, source: 'ident' });
});

test('reciprocal headings', () => {
  assert.deepEqual(reciprocalHeading(89.6), { heading: 269.6, source: 'reciprocal' });
  assert.deepEqual(reciprocalHeading(270), { heading: 90, source: 'reciprocal' });
  assert.deepEqual(reciprocalHeading(180), { heading: 360, source: 'reciprocal' });
});
