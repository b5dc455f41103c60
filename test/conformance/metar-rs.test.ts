// metar-rs test features (MIT): tricky METARs with the values metar-rs expects, and malformed
// METARs that must be rejected. Read from ../shared, never copied into the project.
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sharedFile } from '../support/shared.ts';
import { parse as parseCsv } from 'csv-parse/sync';
import { parseMetar } from '../../src/aviation/weather/metar.ts';
import type { Metar } from '../../src/aviation/weather/types.ts';

const expectedFile = sharedFile('conformance/metar/metar-rs-expected.csv');
const mustFailFile = sharedFile('conformance/metar/metar-rs-must-fail.csv');

/** Late in a 31-day month, so every day-of-month in the file resolves to the same month. */
const NOW = new Date('2025-01-31T23:59:00Z');

/**
 * Where LAMIS deliberately reads a report differently from metar-rs. Each entry must still
 * diverge exactly as described, so a fixed or new difference shows up as a failure.
 */
const KNOWN_DIVERGENCES: Record<string, { field: Field; reason: string }> = {
  'METAR LSZL 112350Z AUTO 00000KT 9999NDV NCD M02/M02 Q1027': {
    field: 'visibility',
    reason:
      'metar-rs reads 9999NDV as unknown; WMO defines NDV as a suffix to a valid visibility (10 km or more, no directional variation), so LAMIS reports 9999 m',
  },
};

type Field = 'station' | 'time' | 'wind_dir' | 'wind_spd' | 'wind_vryng' | 'wind_gusts' | 'visibility' | 'temperature' | 'pressure';

type Row = Record<string, string>;

function rows(path: string): Row[] {
  const [header = [], ...records] = parseCsv(readFileSync(path, 'utf8'), { relax_column_count: true }) as string[][];
  return records.map((record) => Object.fromEntries(header.map((name, index) => [name, record[index] ?? ''])));
}

/** "15 kt" -> { value: 15, unit: "kt" }. */
function quantity(text: string): { value: number; unit: string } {
  const [value = '', unit = ''] = text.split(' ');
  return { value: Number(value), unit };
}

const CHECKS: Record<Field, (row: Row, metar: Metar) => boolean> = {
  station: (row, metar) => metar.station === row.station,
  time: (row, metar) => {
    const observed = new Date(metar.observed_at);
    return (
      observed.getUTCDate() === Number(row.date) &&
      observed.getUTCHours() === Number(row.hour) &&
      observed.getUTCMinutes() === Number(row.minute)
    );
  },
  wind_dir: (row, metar) => {
    if (row.wind_dir === 'unknown') return metar.wind === null;
    if (row.wind_dir === 'variable') return metar.wind?.variable === true;
    return metar.wind?.direction_deg === Number(row.wind_dir);
  },
  wind_spd: (row, metar) => {
    if (row.wind_spd === 'unknown') return metar.wind === null;
    const { value, unit } = quantity(row.wind_spd ?? '');
    return metar.wind?.reported.speed === value && metar.wind.reported.unit === unit.toUpperCase();
  },
  wind_vryng: (row, metar) => {
    if (row.wind_vryng === 'none') return metar.wind?.variable_from_deg == null;
    // "unk unk": the station sent ///V///.
    if (row.wind_vryng === 'unk unk') return metar.wind?.variable_from_deg == null && metar.missing_groups.includes('///V///');
    const [from, to] = (row.wind_vryng ?? '').split(' ').map(Number);
    return metar.wind?.variable_from_deg === from && metar.wind.variable_to_deg === to;
  },
  wind_gusts: (row, metar) => {
    if (row.wind_gusts === 'none') return metar.wind === null || metar.wind.gust_kt === null;
    return metar.wind?.reported.gust === quantity(row.wind_gusts ?? '').value;
  },
  visibility: (row, metar) => {
    const visibility = metar.visibility;
    if (row.visibility === 'unknown') return visibility === null;
    if (row.visibility === 'CAVOK') return metar.sky_clear_code === 'CAVOK' && visibility?.lower_bound === true;
    const { value, unit } = quantity(row.visibility ?? '');
    if (unit === 'm') return visibility?.unit === 'm' && visibility.metres === value;
    return visibility?.unit === 'SM' && visibility.statute_mi === value;
  },
  temperature: (row, metar) =>
    (row.temp === 'unk' ? metar.temperature_c === null : metar.temperature_c === Number(row.temp)) &&
    (row.dewp === 'unk' ? metar.dewpoint_c === null : metar.dewpoint_c === Number(row.dewp)),
  pressure: (row, metar) => {
    if (row.pressure === 'unknown') return metar.altimeter === null;
    const { value, unit } = quantity(row.pressure ?? '');
    if (unit === 'hPa') return metar.altimeter?.reported_unit === 'hPa' && metar.altimeter.hpa === value;
    return metar.altimeter?.reported_unit === 'inHg' && metar.altimeter.inhg === value;
  },
};

test('metar-rs expected decodes: every field matches', { skip: expectedFile.skip }, (t) => {
  const expected = rows(expectedFile.path ?? '');
  const fields = Object.keys(CHECKS) as Field[];
  const matches = new Map<Field, number>(fields.map((field) => [field, 0]));
  const mismatches: string[] = [];
  const divergences: string[] = [];
  for (const row of expected) {
    const raw = row.metar ?? '';
    const result = parseMetar(raw, { now: NOW });
    if (!result.ok) {
      mismatches.push(`${raw}: rejected (${result.error.message})`);
      continue;
    }
    const known = KNOWN_DIVERGENCES[raw];
    for (const field of fields) {
      const matched = CHECKS[field](row, result.metar);
      if (known?.field === field) {
        assert.equal(matched, false, `${raw}: documented divergence on ${field} no longer diverges`);
        divergences.push(`${raw}: ${field}: ${known.reason}`);
      } else if (matched) {
        matches.set(field, (matches.get(field) ?? 0) + 1);
      } else {
        mismatches.push(`${raw}: ${field} expected ${JSON.stringify(row)}`);
      }
    }
  }
  for (const field of fields) {
    t.diagnostic(`metar-rs ${field}: ${matches.get(field)} of ${expected.length}`);
  }
  for (const divergence of divergences) t.diagnostic(`documented divergence: ${divergence}`);
  assert.equal(expected.length, 56, 'the corpus holds 56 reports');
  assert.deepEqual(mismatches, []);
});

test('metar-rs must-fail reports are all rejected with a message naming the bad group', { skip: mustFailFile.skip }, (t) => {
  const reports = rows(mustFailFile.path ?? '').map((row) => row.metar ?? '');
  let rejected = 0;
  for (const raw of reports) {
    const result = parseMetar(raw, { now: NOW });
    assert.equal(result.ok, false, `accepted: ${raw}`);
    if (result.ok) continue;
    rejected += 1;
    // The message quotes a group that really is in the report.
    const quoted = /"([^"]+)"/.exec(result.error.message)?.[1];
    assert.ok(quoted !== undefined && raw.includes(quoted), `${raw}: ${result.error.message}`);
    t.diagnostic(`${raw} -> ${result.error.message}`);
  }
  t.diagnostic(`metar-rs must-fail: ${rejected} of ${reports.length} rejected`);
  assert.equal(reports.length, 7);
});
