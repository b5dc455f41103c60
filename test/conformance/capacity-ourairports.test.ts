// The derived arrival capacity on OurAirports' own runway file (surfaces, closed runways and
// threshold positions as OurAirports publishes them), held to the same published rates as on the
// reference data the service compiles: the capacity rules must work on both.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { CALIBRATION, TOLERANCE } from '../../src/aviation/landing/capacity-calibration.ts';
import { deriveCapacity } from '../../src/aviation/landing/capacity.ts';
import type { LandingAirport, Runway, RunwayEnd } from '../../src/aviation/landing/types.ts';
import { loadAirports } from '../../src/aviation/reference/airports.ts';
import { normaliseSurface } from '../../src/aviation/reference/surfaces.ts';
import { REFERENCE_CACHE } from '../support/server.ts';
import { sharedFile } from '../support/shared.ts';

const runwaysCsv = sharedFile('data/aviation/ourairports/runways.csv');

type Row = Record<string, string>;

const numberOrNull = (text: string | undefined): number | null => (text === undefined || text.trim() === '' ? null : Number(text));

function endOf(row: Row, prefix: 'le' | 'he'): RunwayEnd | null {
  const ident = row[`${prefix}_ident`]?.trim();
  if (!ident) return null;
  return {
    ident,
    true_heading_deg: numberOrNull(row[`${prefix}_heading_degT`]),
    lat: numberOrNull(row[`${prefix}_latitude_deg`]),
    lon: numberOrNull(row[`${prefix}_longitude_deg`]),
    elevation_ft: numberOrNull(row[`${prefix}_elevation_ft`]),
    displaced_threshold_ft: numberOrNull(row[`${prefix}_displaced_threshold_ft`]),
    ils: null,
  };
}

function runwayOf(row: Row): Runway {
  const { surface, paved } = normaliseSurface(row.surface);
  return {
    id: row.id!,
    length_ft: numberOrNull(row.length_ft),
    width_ft: numberOrNull(row.width_ft),
    surface,
    paved,
    lighted: row.lighted === '1',
    closed: row.closed === '1',
    ends: [endOf(row, 'le'), endOf(row, 'he')].filter((end): end is RunwayEnd => end !== null),
  };
}

describe('derived arrival capacity on the OurAirports runway file', { skip: runwaysCsv.skip }, () => {
  const byAirport = new Map<string, Runway[]>();
  const types = new Map<string, string>();
  before(async () => {
    const wanted = new Set([...CALIBRATION.map((row) => row.icao), 'EGKA']);
    const rows = parse(readFileSync(runwaysCsv.path!, 'utf8'), { columns: true }) as Row[];
    for (const row of rows) {
      if (!wanted.has(row.airport_ident!)) continue;
      byAirport.set(row.airport_ident!, [...(byAirport.get(row.airport_ident!) ?? []), runwayOf(row)]);
    }
    // The airport type is not in the runway file: it comes from the compiled reference data.
    const airports = await loadAirports({ cacheDir: REFERENCE_CACHE });
    for (const icao of wanted) types.set(icao, airports.get(icao)!.type);
  });
  const airport = (icao: string): Pick<LandingAirport, 'type' | 'runways'> => ({ type: types.get(icao)!, runways: byAirport.get(icao) ?? [] });

  for (const row of CALIBRATION) {
    test(`${row.icao} ${row.category}: ${row.arrivals}/h within ${TOLERANCE * 100} %`, () => {
      const derived = deriveCapacity(airport(row.icao), [], { flightCategory: row.category });
      const error = Math.abs(derived.arrivals_per_hour - row.arrivals) / row.arrivals;
      assert.ok(error <= TOLERANCE, `${row.icao}: derived ${derived.arrivals_per_hour}, published ${row.arrivals}\n${derived.reasoning.join('\n')}`);
    });
  }

  test('Brighton City stays small, its asphalt runway now known as paved', () => {
    const derived = deriveCapacity(airport('EGKA'));
    assert.ok(derived.arrivals_per_hour > 0 && derived.arrivals_per_hour <= 20, derived.reasoning.join('\n'));
    assert.match(derived.runways[0]!.basis, /^paved/);
  });
});
