import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { simulateTaf } from '../feeds/weather-simulator.ts';
import { weatherAtEta, windShearAtEta } from './at-eta.ts';
import { flightCategory } from './derive.ts';
import { parseMetar } from './metar.ts';
import { parseTaf, tafConditionsAt } from './taf.ts';
import type { Metar, Taf } from './types.ts';

const NOW = new Date('2025-06-21T12:00:00Z');

function metar(raw: string): Metar {
  const result = parseMetar(raw, { now: NOW });
  if (!result.ok) assert.fail(result.error.message);
  return result.metar;
}

function taf(raw: string): Taf {
  const result = parseTaf(raw, { now: NOW });
  if (!result.ok) assert.fail(result.error.message);
  return result.taf;
}

// In the form Heathrow's TAFs take: a thunderstorm TEMPO in the afternoon, fog forming overnight.
const EGLL_TAF = taf(
  'TAF EGLL 211100Z 2112/2218 24010KT 9999 SCT035 TEMPO 2114/2118 25018G30KT 4000 TSRA BKN012CB ' +
    'BECMG 2200/2203 VRB03KT 3000 BR BKN004 PROB30 TEMPO 2203/2207 0400 FG VV001 FM221200 28012KT 9999 FEW030',
);
// US form: FM groups and a PROB30 without TEMPO.
const KJFK_TAF = taf(
  'TAF KJFK 211120Z 2112/2218 20012KT P6SM SCT040 FM211800 22015G25KT P6SM BKN050 PROB30 2120/2124 3SM TSRA BKN025CB FM220200 30010KT P6SM FEW050',
);
const EGLL_METAR = metar('METAR EGLL 211150Z 27008KT CAVOK 22/12 Q1020');

const at = (iso: string, report: Metar | null = EGLL_METAR, forecast: Taf | null = EGLL_TAF) =>
  weatherAtEta({ metar: report, taf: forecast, etaMs: Date.parse(iso) });

describe('the basis by the ETA', () => {
  test('within an hour of the observation: the METAR', () => {
    const weather = at('2025-06-21T12:20:00Z');
    assert.equal(weather.basis, 'observation');
    assert.equal(weather.summary, 'Observed 11:50Z');
    assert.equal(weather.valid_until, '2025-06-21T12:50:00Z');
    assert.equal(weather.wind?.direction_deg, 270);
    assert.deepEqual(weather.periods, []);
    assert.equal(weather.metar, EGLL_METAR);
    assert.match(weather.reasoning[0]!, /30 min after the METAR observed at 11:50Z/);
  });

  test('NOSIG keeps the observation for two hours', () => {
    const nosig = metar('EGLL 211150Z 27008KT CAVOK 22/12 Q1020 NOSIG');
    assert.equal(at('2025-06-21T13:40:00Z', nosig).basis, 'observation');
    assert.equal(at('2025-06-21T13:40:00Z').basis, 'forecast');
    assert.equal(at('2025-06-21T13:55:00Z', nosig).basis, 'forecast');
  });

  test("a METAR's trend forecast keeps the observation for two hours, its changes applied as a TAF's", () => {
    const showers = metar('EGLL 211150Z 27008KT CAVOK 22/12 Q1020 BECMG TL1230 27020G35KT TEMPO FM1300 3000 SHRA BKN008');
    // Before the BECMG has completed: it may have happened; the TEMPO not begun.
    const early = at('2025-06-21T12:10:00Z', showers);
    assert.deepEqual(early.periods.map((period) => `${period.kind} ${period.role}`), ['BECMG possible']);
    assert.deepEqual([early.wind?.speed_kt, early.wind?.gust_kt], [8, 35]);
    assert.equal(early.summary, 'Observed 11:50Z, trend BECMG TL1230 27020G35KT');
    // Past the hour, within the two the trend covers: the BECMG is the state, the showers may come.
    const later = at('2025-06-21T13:30:00Z', showers);
    assert.equal(later.basis, 'observation');
    assert.equal(later.valid_until, '2025-06-21T13:50:00Z');
    assert.deepEqual(later.periods.map((period) => `${period.kind} ${period.role} ${period.from} ${period.to}`), [
      'BECMG prevailing 2025-06-21T11:50:00Z 2025-06-21T12:30:00Z',
      'TEMPO possible 2025-06-21T13:00:00Z 2025-06-21T13:50:00Z',
    ]);
    assert.deepEqual([later.wind?.speed_kt, later.wind?.gust_kt], [20, 35]);
    assert.equal(later.visibility?.metres, 3000);
    assert.equal(later.ceiling_ft, 800);
    assert.equal(later.flight_category, 'IFR');
    assert.equal(later.metar, showers);
    assert.match(later.reasoning.join(' '), /within the 120 min its trend forecast covers.*"BECMG TL1230 27020G35KT" has happened; "TEMPO FM1300 3000 SHRA BKN008" may, taken at its worst/);
    // The wind shear risk counts the trend's groups as a forecast's: the BECMG's gusts.
    assert.deepEqual(windShearAtEta(early)!.reasons.map((reason) => reason.rule), ['gust_spread']);
    const storm = at('2025-06-21T12:30:00Z', metar('EGLL 211150Z 27008KT CAVOK 22/12 Q1020 TEMPO FM1215 TSRA BKN025CB'));
    assert.equal(windShearAtEta(storm)!.level, 'HIGH');
    assert.ok(windShearAtEta(storm)!.reasons.some((reason) => reason.rule === 'thunderstorm'));
    assert.equal(windShearAtEta(at('2025-06-21T12:10:00Z', metar('EGLL 211150Z 27008KT CAVOK 22/12 Q1020 TEMPO FM1215 TSRA BKN025CB')))!.level, 'LOW');
    // Past the two hours: the TAF.
    assert.equal(at('2025-06-21T13:55:00Z', showers).basis, 'forecast');
    // An ETA before the observation takes the report as it is.
    assert.deepEqual(at('2025-06-21T11:40:00Z', showers).periods, []);
  });

  test('a trend that cannot be read keeps the observation for the hour only, and says so', () => {
    const unread = metar('EGLL 211150Z 27008KT CAVOK 22/12 Q1020 TEMPO FM1500 3000 SHRA');
    const within = at('2025-06-21T12:20:00Z', unread);
    assert.deepEqual([within.basis, within.periods, within.visibility?.metres], ['observation', [], 9999]);
    assert.match(within.reasoning.join(' '), /"TEMPO FM1500 3000 SHRA" could not be read: nothing of it is assumed/);
    const past = at('2025-06-21T13:30:00Z', unread);
    assert.equal(past.basis, 'forecast');
    assert.match(past.reasoning.join(' '), /could not be read, so it covers no more than the hour/);
  });

  test('an ETA inside a thunderstorm TEMPO gets the storm at its worst', () => {
    const weather = at('2025-06-21T15:00:00Z');
    assert.equal(weather.basis, 'forecast');
    assert.equal(weather.summary, 'Forecast: TAF TEMPO 2114/2118 25018G30KT 4000 TSRA BKN012CB');
    assert.deepEqual(weather.periods.map((period) => [period.kind, period.role, period.from, period.to]), [
      ['BASE', 'prevailing', '2025-06-21T12:00:00Z', '2025-06-22T12:00:00Z'],
      ['TEMPO', 'possible', '2025-06-21T14:00:00Z', '2025-06-21T18:00:00Z'],
    ]);
    assert.equal(weather.conditions[0], 'THUNDERSTORM');
    assert.equal(weather.visibility?.metres, 4000);
    assert.equal(weather.ceiling_ft, 1200);
    assert.equal(weather.flight_category, 'IFR');
    // The prevailing mean for the headwind; the TEMPO's gust over both directions for the limits.
    assert.deepEqual([weather.wind?.direction_deg, weather.wind?.speed_kt, weather.wind?.gust_kt], [240, 10, 30]);
    assert.deepEqual([weather.wind?.variable_from_deg, weather.wind?.variable_to_deg], [240, 250]);
    const shear = windShearAtEta(weather, '27L')!;
    assert.equal(shear.level, 'HIGH');
    assert.deepEqual(shear.reasons.map((reason) => reason.rule).sort(), ['convection_nearby', 'thunderstorm']);
  });

  test('between the groups: the base forecast alone', () => {
    const weather = at('2025-06-21T20:00:00Z');
    assert.equal(weather.basis, 'forecast');
    assert.equal(weather.summary, 'Forecast: TAF 24010KT 9999 SCT035');
    assert.equal(weather.conditions[0], 'PARTLY_CLOUDY');
    assert.equal(weather.flight_category, 'VFR');
    assert.equal(windShearAtEta(weather)?.level, 'LOW');
  });

  test('a BECMG in transition is possible; once complete it is the state, with a PROB30 TEMPO fog on top', () => {
    const transition = at('2025-06-22T01:00:00Z');
    assert.deepEqual(transition.periods.map((period) => `${period.kind} ${period.role}`), ['BASE prevailing', 'BECMG possible']);
    assert.equal(transition.ceiling_ft, 400);
    const fog = at('2025-06-22T05:00:00Z');
    assert.deepEqual(fog.periods.map((period) => `${period.kind} ${period.role} ${period.probability}`), [
      'BASE prevailing null',
      'BECMG prevailing null',
      'TEMPO possible 30',
    ]);
    assert.equal(fog.conditions[0], 'FOG');
    assert.equal(fog.visibility?.metres, 400);
    assert.equal(fog.ceiling_ft, 100);
    assert.equal(fog.flight_category, 'LIFR');
  });

  test('an FM group replaces the state', () => {
    const weather = at('2025-06-22T13:00:00Z');
    assert.deepEqual(weather.periods.map((period) => period.kind), ['FM']);
    assert.equal(weather.wind?.direction_deg, 280);
  });

  test('past the TAF, before it, or without one: no forecast', () => {
    const beyond = at('2025-07-01T12:00:00Z');
    assert.equal(beyond.basis, 'none');
    assert.equal(beyond.summary, 'No forecast reaches the ETA');
    assert.match(beyond.reasoning.at(-1)!, /the TAF issued at 2025-06-21 11:00Z ends at 2025-06-22 18:00Z/);
    assert.deepEqual([beyond.wind, beyond.visibility, beyond.ceiling_ft, beyond.flight_category, beyond.valid_until], [null, null, null, null, null]);
    assert.deepEqual(beyond.conditions, ['UNKNOWN']);
    assert.equal(windShearAtEta(beyond), null);
    assert.match(at('2025-06-21T14:00:00Z', EGLL_METAR, null).reasoning.at(-1)!, /no TAF is held/);
    assert.equal(at('2025-06-21T14:00:00Z', null, null).basis, 'none');
  });

  test('US form: FM groups and a PROB30 thunderstorm', () => {
    const kjfk = metar('KJFK 211151Z 20010KT 10SM FEW040 24/14 A3002');
    const weather = at('2025-06-21T21:00:00Z', kjfk, KJFK_TAF);
    assert.deepEqual(weather.periods.map((period) => [period.kind, period.probability]), [['FM', null], ['PROB', 30]]);
    assert.equal(weather.summary, 'Forecast: TAF PROB30 2120/2124 3SM TSRA BKN025CB');
    assert.equal(weather.conditions[0], 'THUNDERSTORM');
    assert.equal(weather.ceiling_ft, 2500);
    assert.equal(weather.flight_category, 'MVFR');
    assert.deepEqual([weather.wind?.direction_deg, weather.wind?.gust_kt], [220, 25]);
  });
});

describe('the worst wind of the groups in force', () => {
  const base = 'TAF EGLL 211100Z 2112/2218 24010KT 9999 SCT035';

  test('directions far apart make one range over them, with the strongest gust', () => {
    const weather = at('2025-06-21T15:00:00Z', null, taf(`${base} TEMPO 2114/2118 31025G40KT`));
    assert.deepEqual([weather.wind?.direction_deg, weather.wind?.speed_kt, weather.wind?.gust_kt], [240, 10, 40]);
    assert.deepEqual([weather.wind?.variable_from_deg, weather.wind?.variable_to_deg], [240, 310]);
    assert.equal(weather.wind?.reported.group, '24010KT / 31025G40KT');
    // The gust is compared with its own group's mean: 15 kt above 25 kt, not 30 kt above 10 kt.
    assert.deepEqual(windShearAtEta(weather)!.reasons.map((reason) => [reason.rule, reason.level]), [['gust_spread', 'MODERATE']]);
  });

  test('a range across north', () => {
    const weather = at('2025-06-21T15:00:00Z', null, taf('TAF EGLL 211100Z 2112/2218 35010KT 9999 SCT035 TEMPO 2114/2118 02020KT'));
    assert.deepEqual([weather.wind?.variable_from_deg, weather.wind?.variable_to_deg], [350, 20]);
  });

  test('a variable wind of 5 kt or more in a TEMPO leaves the direction unknown; a light one does not', () => {
    const strong = at('2025-06-21T15:00:00Z', null, taf(`${base} TEMPO 2114/2118 VRB15G25KT TSRA`));
    assert.deepEqual([strong.wind?.direction_deg, strong.wind?.variable, strong.wind?.gust_kt], [null, true, 25]);
    const light = at('2025-06-21T15:00:00Z', null, taf(`${base} TEMPO 2114/2118 VRB03KT 2000 BR`));
    assert.deepEqual([light.wind?.direction_deg, light.wind?.gust_kt, light.wind?.variable_from_deg], [240, null, null]);
  });

  test('an improvement in a TEMPO changes nothing', () => {
    const weather = at('2025-06-21T15:00:00Z', null, taf('TAF EGLL 211100Z 2112/2218 24010KT 3000 BR OVC008 TEMPO 2114/2118 9999 NSW SCT030'));
    assert.equal(weather.visibility?.metres, 3000);
    assert.equal(weather.ceiling_ft, 800);
    assert.equal(weather.flight_category, 'IFR');
  });
});

describe('over many TAFs', () => {
  const RANK = { VFR: 0, MVFR: 1, IFR: 2, LIFR: 3 } as const;
  const airports = [
    { icao: 'EGLL', lat: 51.4775, lon: -0.4614, elevation_ft: 83 },
    { icao: 'KDEN', lat: 39.8617, lon: -104.6731, elevation_ft: 5434 },
    { icao: 'WSSS', lat: 1.3502, lon: 103.9944, elevation_ft: 22 },
    { icao: 'ENTC', lat: 69.6833, lon: 18.9189, elevation_ft: 31 },
  ];

  test('the worst case is never better than the state in force, and every group used is in force at the ETA', () => {
    let possible = 0;
    for (const airport of airports) {
      for (let day = 0; day < 40; day += 1) {
        const issuedMs = Date.parse('2026-01-03T00:00:00Z') + day * 86_400_000 + (day % 4) * 6 * 3_600_000;
        const simulated = simulateTaf(airport, issuedMs, 7);
        const parsed = parseTaf(simulated.raw, { now: new Date(issuedMs) });
        if (!parsed.ok) assert.fail(`${simulated.raw}: ${parsed.error.message}`);
        for (let hour = 1; hour < 24; hour += 2) {
          const etaMs = Date.parse(simulated.valid_from) + hour * 3_600_000 + 17 * 60_000;
          const weather = weatherAtEta({ metar: null, taf: parsed.taf, etaMs });
          assert.equal(weather.basis, 'forecast', simulated.raw);
          const inForce = tafConditionsAt(parsed.taf, new Date(etaMs));
          assert.ok(inForce.ok);
          const prevailing = inForce.conditions.prevailing;
          const label = `${simulated.raw} at ${weather.eta}`;
          if (prevailing.visibility !== null) assert.ok(weather.visibility!.metres <= prevailing.visibility.metres, label);
          if (prevailing.ceiling_ft !== null) assert.ok(weather.ceiling_ft !== null && weather.ceiling_ft <= prevailing.ceiling_ft, label);
          const before = flightCategory(prevailing);
          if (before !== null && weather.flight_category !== null) assert.ok(RANK[weather.flight_category] >= RANK[before], label);
          if (prevailing.wind !== null) assert.ok((weather.wind!.gust_kt ?? weather.wind!.speed_kt) >= (prevailing.wind.gust_kt ?? prevailing.wind.speed_kt), label);
          for (const period of weather.periods) {
            assert.ok(Date.parse(period.from) <= etaMs, label);
            if (period.role === 'possible') assert.ok(etaMs < Date.parse(period.to), label);
          }
          possible += weather.periods.filter((period) => period.role === 'possible').length;
        }
      }
    }
    assert.ok(possible > 20, `only ${possible} TEMPO/PROB/BECMG groups met: the check saw too few`);
  });
});

