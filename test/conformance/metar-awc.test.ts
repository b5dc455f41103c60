// aviationweather.gov's METAR cache of 2025-01-27 (public domain): raw_text plus AWC's own
// decode. LAMIS must give AWC's flight category for every report AWC classifies, and its wind,
// visibility and observation time are compared where AWC gives them.
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sharedFile } from '../support/shared.ts';
import { parse as parseCsv } from 'csv-parse/sync';
import { flightCategory, flightCategoryAtBest } from '../../src/aviation/weather/derive.ts';
import { parseMetar } from '../../src/aviation/weather/metar.ts';
import type { Metar, MetarResult } from '../../src/aviation/weather/types.ts';
import { METRES_PER_STATUTE_MILE } from '../../src/aviation/weather/units.ts';

const file = sharedFile('conformance/metar/awc-metars-2025-01-27.csv');

/** The cache was written late on 2025-01-27 UTC. */
const NOW = new Date('2025-01-28T00:00:00Z');
const PREAMBLE_LINES = 5;

/**
 * Differences that are AWC's, not LAMIS's. Each must still differ exactly so, so a change in
 * either shows up.
 */
const KNOWN_DIFFERENCES: Record<string, string> = {
  'KJXI 280035Z AUTO 00000KT 10SM CLR 11/05 A3020 RMK AO2 T01070046: time 2025-01-28T00:35:00Z, AWC 2025-01-27T22:12:05Z':
    'the station stamped 00:35 on the 28th, after the cache was written; AWC gives its receipt time instead',
};

interface AwcReport {
  raw: string;
  observation_time: string;
  wind_dir_degrees: string;
  wind_speed_kt: string;
  wind_gust_kt: string;
  visibility_statute_mi: string;
  flight_category: string;
}

function readReports(path: string): AwcReport[] {
  const text = readFileSync(path, 'utf8');
  let start = 0;
  for (let line = 0; line < PREAMBLE_LINES; line += 1) start = text.indexOf('\n', start) + 1;
  const [header = [], ...records] = parseCsv(text.slice(start), { relax_column_count: true }) as string[][];
  // sky_cover/cloud_base_ft_agl repeat four times; the columns used here are unique.
  const column = (name: string): number => {
    const index = header.indexOf(name);
    assert.notEqual(index, -1, `column ${name}`);
    return index;
  };
  const columns = {
    raw: column('raw_text'),
    observation_time: column('observation_time'),
    wind_dir_degrees: column('wind_dir_degrees'),
    wind_speed_kt: column('wind_speed_kt'),
    wind_gust_kt: column('wind_gust_kt'),
    visibility_statute_mi: column('visibility_statute_mi'),
    flight_category: column('flight_category'),
  };
  return records.map((record) => {
    const field = (index: number): string => record[index] ?? '';
    return {
      raw: field(columns.raw),
      observation_time: field(columns.observation_time),
      wind_dir_degrees: field(columns.wind_dir_degrees),
      wind_speed_kt: field(columns.wind_speed_kt),
      wind_gust_kt: field(columns.wind_gust_kt),
      visibility_statute_mi: field(columns.visibility_statute_mi),
      flight_category: field(columns.flight_category),
    };
  });
}

/** AWC writes "6+" for 9999/CAVOK/P6SM and "10+" for 10SM; other values rounded to 0.01 SM. */
function sameVisibility(awc: string, metar: Metar): boolean {
  const visibility = metar.visibility;
  if (visibility === null) return false;
  if (awc.endsWith('+')) return visibility.lower_bound && Math.floor(visibility.statute_mi) === Number(awc.slice(0, -1));
  const miles = visibility.unit === 'm' ? visibility.metres / METRES_PER_STATUTE_MILE : visibility.statute_mi;
  return !visibility.lower_bound && Math.round(miles * 100) === Math.round(Number(awc) * 100);
}

function count(label: string, matched: number, total: number): string {
  return `${label}: ${matched.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}

/** A report LAMIS refuses to decode in full: rejected, or a group skipped as malformed. */
function refused(result: MetarResult): boolean {
  return !result.ok || result.metar.invalid_groups.length > 0;
}

test('AWC flight category, wind, visibility and time', { skip: file.skip }, (t) => {
  const reports = readReports(file.path ?? '');
  assert.equal(reports.length, 4909, 'the cache holds 4,909 METARs');

  const categoryMismatches: string[] = [];
  const unexplained: string[] = [];
  const known: string[] = [];
  const strictRejections: string[] = [];
  const tally = { classified: 0, category: 0, skyUnknown: 0, direction: [0, 0], speed: [0, 0], gust: [0, 0], visibility: [0, 0], time: [0, 0] };
  const compare = (key: 'direction' | 'speed' | 'gust' | 'visibility' | 'time', matched: boolean, result: MetarResult, what: string): void => {
    tally[key][1] += 1;
    if (matched) tally[key][0] += 1;
    else if (KNOWN_DIFFERENCES[what] !== undefined) known.push(`${what} (${KNOWN_DIFFERENCES[what]})`);
    else if (!refused(result)) unexplained.push(what);
  };

  for (const report of reports) {
    // Lenient: a malformed wind or temperature group (36004KTT, 22/2) must not hide a
    // category AWC can give; strict mode's rejections are counted below.
    const result = parseMetar(report.raw, { now: NOW, lenient: true });
    const metar = result.ok ? result.metar : null;
    if (report.flight_category !== '') {
      tally.classified += 1;
      const category = metar === null ? null : flightCategory(metar);
      if (category === report.flight_category) tally.category += 1;
      else if (metar !== null && !metar.sky_reported && category === null) {
        // AWC reads no sky group as no ceiling; LAMIS leaves the ceiling unknown and so the category,
        // and its best case must be AWC's.
        if (flightCategoryAtBest(metar) === report.flight_category) tally.skyUnknown += 1;
        else categoryMismatches.push(`${report.raw}: AWC ${report.flight_category}, LAMIS at best ${flightCategoryAtBest(metar)}`);
      } else categoryMismatches.push(`${report.raw}: AWC ${report.flight_category}, LAMIS ${category ?? (result.ok ? 'none' : result.error.message)}`);
      const strict = parseMetar(report.raw, { now: NOW });
      if (!strict.ok) strictRejections.push(`${report.raw} -> ${strict.error.message}`);
    }
    const wind = metar?.wind ?? null;
    if (report.wind_dir_degrees !== '') {
      const direction = wind === null ? 'none' : wind.variable ? 'VRB' : String(wind.direction_deg);
      compare('direction', direction === report.wind_dir_degrees, result, `${report.raw}: direction ${direction}, AWC ${report.wind_dir_degrees}`);
    }
    if (report.wind_speed_kt !== '') {
      compare('speed', wind?.speed_kt === Number(report.wind_speed_kt), result, `${report.raw}: speed ${wind?.speed_kt}, AWC ${report.wind_speed_kt}`);
    }
    if (report.wind_gust_kt !== '') {
      compare('gust', wind?.gust_kt === Number(report.wind_gust_kt), result, `${report.raw}: gust ${wind?.gust_kt}, AWC ${report.wind_gust_kt}`);
    }
    if (report.visibility_statute_mi !== '') {
      const matched = metar !== null && sameVisibility(report.visibility_statute_mi, metar);
      compare('visibility', matched, result, `${report.raw}: visibility ${metar?.visibility?.reported}, AWC ${report.visibility_statute_mi}`);
    }
    if (report.observation_time !== '') {
      compare('time', metar?.observed_at === report.observation_time, result, `${report.raw}: time ${metar?.observed_at}, AWC ${report.observation_time}`);
    }
  }

  t.diagnostic(count('AWC flight category', tally.category, tally.classified));
  t.diagnostic(
    `${tally.skyUnknown} more have no sky group: AWC reads that as no ceiling, LAMIS as an unknown ceiling ` +
      '(no category; at best AWC\'s, as `flight_category_at_best` says)',
  );
  t.diagnostic(count('AWC wind direction', tally.direction[0] ?? 0, tally.direction[1] ?? 0));
  t.diagnostic(count('AWC wind speed', tally.speed[0] ?? 0, tally.speed[1] ?? 0));
  t.diagnostic(count('AWC wind gust', tally.gust[0] ?? 0, tally.gust[1] ?? 0));
  t.diagnostic(count('AWC visibility', tally.visibility[0] ?? 0, tally.visibility[1] ?? 0));
  t.diagnostic(count('AWC observation time', tally.time[0] ?? 0, tally.time[1] ?? 0));
  t.diagnostic(`strict mode rejects ${strictRejections.length} of ${tally.classified.toLocaleString('en-US')} classified reports (each has a malformed group):`);
  for (const rejection of strictRejections) t.diagnostic(`  ${rejection}`);
  for (const difference of known) t.diagnostic(`known AWC difference: ${difference}`);

  assert.equal(tally.classified, 4533);
  assert.deepEqual(categoryMismatches.slice(0, 10), [], `${categoryMismatches.length} category mismatches`);
  // Every wind/visibility/time difference must be a report LAMIS refused to decode in full.
  assert.deepEqual(unexplained.slice(0, 10), [], `${unexplained.length} unexplained differences`);
  assert.equal(known.length, Object.keys(KNOWN_DIFFERENCES).length, 'every known AWC difference still occurs');
});

/** Trends LAMIS does not decode as a forecast, each for a group no trend forecasts in ICAO's code. */
const UNREAD_TRENDS: Record<string, string> = {
  'VGHS 272200Z 00000KT 1300 BR NSC 16/14 Q1010 TEMPO S/VIS 1200M': 'S/VIS, a national group',
  'OPST 272200Z 05004KT 1500 BR NSC 08/05 Q1012 BECMG 1000 RH86': 'RH86, a relative humidity',
  'ETSH 272120Z 17004KT 9999 BKN110 OVC180 09/05 Q0999 BLU BLU TEMPO WHT': 'WHT, a military colour state',
  'ETMN 272120Z 19007KT 9999 BKN150 07/04 Q0992 BLU BLU TEMPO BLU+': 'BLU+, a military colour state',
};

test('AWC trends: every BECMG, TEMPO and INTER trend decodes as a forecast but those with a group ICAO\'s trends do not have', { skip: file.skip }, (t) => {
  const unread: string[] = [];
  let trends = 0;
  for (const report of readReports(file.path ?? '')) {
    const result = parseMetar(report.raw, { now: NOW, lenient: true });
    if (!result.ok) continue;
    for (const trend of result.metar.trends) {
      if (trend.type === 'NOSIG') continue;
      trends += 1;
      if (trend.forecast === null) unread.push(report.raw);
    }
  }
  t.diagnostic(count('trends decoded as a forecast', trends - unread.length, trends));
  assert.equal(trends, 82);
  assert.deepEqual(unread.sort(), Object.keys(UNREAD_TRENDS).sort());
});
