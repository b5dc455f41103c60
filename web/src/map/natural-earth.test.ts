import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import type { Topology } from 'topojson-specification';
import { bordersFromTopology, countryLabels, landFromTopology, unwrapLine, unwrapRing } from './natural-earth.ts';

const require = createRequire(import.meta.url);
const load = (name: string) => JSON.parse(readFileSync(require.resolve(`world-atlas/${name}.json`), 'utf8')) as Topology;
const land50 = landFromTopology(load('land-50m'));
const countries110 = load('countries-110m');

test('a line across the antimeridian carries on past it instead of jumping round the world', () => {
  assert.deepEqual(unwrapLine([[179, 65], [-179, 66], [-177, 67]]), [[179, 65], [181, 66], [183, 67]]);
  assert.deepEqual(unwrapLine([[-179, 0], [179, 1]]), [[-179, 0], [-181, 1]]);
});

test('a ring round a pole is closed along the edge of the Mercator world, and begins within the first world', () => {
  const ring = unwrapRing([[-180, -80], [-90, -75], [0, -70], [90, -75], [180, -80]]);
  assert.deepEqual(ring.at(-1), ring[0]);
  assert.ok(ring.some(([, lat]) => lat! < -85 && lat! > -85.1));
  assert.deepEqual(unwrapRing([[190, 10], [200, 10], [200, 20], [190, 10]]).map(([lon]) => lon), [-170, -160, -160, -170]);
});

test('every land ring of Natural Earth 1:50m is continuous and begins (its westmost point) within [-180, 180)', () => {
  const polygons = land50.features[0]!.geometry.coordinates;
  assert.ok(polygons.length > 1000);
  for (const polygon of polygons) {
    for (const ring of polygon) {
      const west = Math.min(...ring.map(([lon]) => lon!));
      assert.ok(west >= -180 && west < 180);
      for (let i = 1; i < ring.length; i++) {
        // Only the closing edge of Antarctica, along the bottom of the map, spans the world.
        const alongEdge = Math.abs(ring[i]![1]!) > 85 && Math.abs(ring[i - 1]![1]!) > 85;
        assert.ok(alongEdge || Math.abs(ring[i]![0]! - ring[i - 1]![0]!) <= 180);
      }
    }
  }
});

test('borders leave the coasts out and cross the antimeridian without a seam', () => {
  const lines = bordersFromTopology(countries110).features[0]!.geometry.coordinates;
  assert.ok(lines.length > 100);
  for (const line of lines) for (let i = 1; i < line.length; i++) assert.ok(Math.abs(line[i]![0]! - line[i - 1]![0]!) <= 180);
});

test('each country gets one label, on its largest polygon, the largest countries first', () => {
  const labels = countryLabels(countries110).features;
  const names = labels.map((label) => label.properties.name);
  assert.equal(new Set(names).size, names.length);
  assert.ok(names.slice(0, 3).includes('Russia'), names.slice(0, 3).join());
  const france = labels.find((label) => label.properties.name === 'France')!;
  const [lon, lat] = france.geometry.coordinates as [number, number];
  // Metropolitan France, not the average of it and French Guiana.
  assert.ok(lon > -2 && lon < 6 && lat > 44 && lat < 49, `France at ${lon}, ${lat}`);
  const fiji = labels.find((label) => label.properties.name === 'Fiji')!;
  assert.ok(Math.abs(fiji.geometry.coordinates[0]!) > 175);
});
