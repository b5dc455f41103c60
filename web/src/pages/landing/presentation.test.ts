// The briefing's words: METARs decoded by the server's own parser, NOTAMs parsed by the server's
// own NOTAM parser, and a landing bundle as the API answered it, put into words by the dashboard.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNotam } from '../../../../src/aviation/notams/index.ts';
import { parseMetar } from '../../../../src/aviation/weather/index.ts';
import { BASES, basisNote, periodWords } from './basis.ts';
import { factorName, ilsCategoryWords, ilsWords, orderedFactors, scoreTone, slotWords, STATUS } from './briefing.ts';
import { age, utcFromInput, utcInputValue } from './format.ts';
import { anySimulated, freshnessRows } from './freshness.ts';
import { cloudWords, conditionWords, describeMetar, FLIGHT_CATEGORIES, weatherWords, windWords } from './metar.ts';
import { briefingNotams, decodeNotam, plainNotamText } from './notams.ts';
import type { DecodedMetar, LandingBundle, LandingNotam } from './types.ts';

function decoded(raw: string): DecodedMetar {
  const parsed = parseMetar(raw, { now: new Date('2026-11-21T21:00:00Z'), lenient: true });
  assert.ok(parsed.ok, `the server's parser takes ${raw}`);
  return parsed.metar as DecodedMetar;
}

const term = (lines: { term: string; text: string }[], name: string) => lines.filter((l) => l.term === name).map((l) => l.text);

describe('describeMetar', () => {
  it('reads a quiet METAR', () => {
    const lines = describeMetar(decoded('METAR EGLL 212050Z 30012KT 9999 SCT044 01/00 Q1006'));
    assert.deepEqual(term(lines, 'Report'), ['EGLL, observed 21 Nov 2026 20:50 UTC']);
    assert.deepEqual(term(lines, 'Wind'), ['From 300° true at 12 kt']);
    assert.deepEqual(term(lines, 'Visibility'), ['10 km or more (5.4 nm)']);
    assert.deepEqual(term(lines, 'Cloud'), ['Scattered (3–4 oktas) at 4,400 ft']);
    assert.deepEqual(term(lines, 'Ceiling'), ['None (no broken or overcast layer)']);
    assert.deepEqual(term(lines, 'Temperature'), ['1 °C, dew point 0 °C (spread 1 °C)']);
    assert.deepEqual(term(lines, 'Pressure'), ['QNH 1006 hPa (29.71 inHg)']);
  });

  it('reads a stormy one, group by group', () => {
    const lines = describeMetar(decoded('METAR KJFK 211751Z 31025G38KT 280V340 3/4SM R04R/2200V3000FT -TSRA BR VCSH BKN008CB OVC015 M02/M04 A2992 RMK AO2 PK WND 32045/1730 WSHFT 1715'));
    assert.deepEqual(term(lines, 'Wind'), ['From 310° true at 25 kt, gusting 38 kt, varying between 280° and 340°']);
    assert.deepEqual(term(lines, 'Visibility'), ['3/4 SM (0.7 nm)']);
    assert.deepEqual(term(lines, 'RVR runway 04R'), ['2,200 ft to 3,000 ft']);
    assert.deepEqual(term(lines, 'Weather'), ['Light thunderstorm with rain; Mist; Showers in the vicinity']);
    assert.deepEqual(term(lines, 'Cloud'), ['Broken (5–7 oktas) at 800 ft, cumulonimbus; Overcast (8 oktas) at 1,500 ft']);
    assert.deepEqual(term(lines, 'Ceiling'), ['800 ft']);
    assert.deepEqual(term(lines, 'Temperature'), ['-2 °C, dew point -4 °C (spread 2 °C)']);
    assert.deepEqual(term(lines, 'Pressure'), ['QNH 29.92 inHg (1013.2 hPa)']);
    assert.equal(term(lines, 'Remarks').length, 1);
    assert.match(term(lines, 'Remarks')[0]!, /peak wind of 45 knots/);
  });

  it('reads calm wind, CAVOK, fog, an obscured sky and a trend', () => {
    const cavok = describeMetar(decoded('METAR LFPG 210600Z 00000KT CAVOK 05/04 Q1020 NOSIG'));
    assert.deepEqual(term(cavok, 'Wind'), ['Calm']);
    assert.deepEqual(term(cavok, 'Visibility'), ['10 km or more (5.4 nm; CAVOK)']);
    assert.match(term(cavok, 'Sky')[0]!, /^Ceiling and visibility OK/);
    assert.deepEqual(term(cavok, 'Trend'), ['No significant change expected in the next two hours']);
    const fog = describeMetar(decoded('METAR EGPH 210620Z AUTO VRB02KT 0150 R24/0300N FG VV001 03/03 Q1011'));
    assert.deepEqual(term(fog, 'Report'), ['EGPH, observed 21 Nov 2026 06:20 UTC (automatic station)']);
    assert.deepEqual(term(fog, 'Wind'), ['Variable in direction at 2 kt']);
    assert.deepEqual(term(fog, 'Visibility'), ['150 m (0.1 nm)']);
    assert.deepEqual(term(fog, 'Weather'), ['Fog']);
    assert.deepEqual(term(fog, 'Sky obscured'), ['Vertical visibility 100 ft']);
    assert.deepEqual(term(fog, 'RVR runway 24'), ['300 m, steady']);
  });

  it('says the ceiling is unknown when the report has no sky group, not that there is none', () => {
    const lines = describeMetar(decoded('EGKK 212050Z 26008KT 10SM 18/12 A3001 RMK AO1'));
    assert.deepEqual(term(lines, 'Ceiling'), ['Unknown: the sky was not reported']);
  });

  it('says each weather group and cloud layer in words', () => {
    const w = (raw: string) => weatherWords(decoded(`METAR EGLL 212050Z 30012KT 5000 ${raw} BKN010 01/00 Q1006`).weather[0]!);
    assert.equal(w('+SHSN'), 'Heavy snow showers');
    assert.equal(w('FZDZ'), 'Freezing drizzle');
    assert.equal(w('BCFG'), 'Patches of fog');
    assert.equal(w('VCTS'), 'Thunderstorm in the vicinity');
    assert.equal(cloudWords({ cover: null, base_ft: null, type: 'TCU', raw: '/////TCU' }), 'Cloud of unreported amount base not reported, towering cumulus');
    assert.equal(windWords(decoded('METAR UUEE 212050Z 24008MPS 9999 FEW030 01/00 Q1006').wind!), 'From 240° true at 16 kt (reported 8 m/s)');
    assert.equal(conditionWords('PARTLY_CLOUDY'), 'Partly cloudy');
    assert.equal(conditionWords('SOMETHING_NEW'), 'something new');
    assert.equal(FLIGHT_CATEGORIES.LIFR.colour, '#a0169b');
  });
});

function notam(text: string, source: LandingNotam['source'] = 'simulated'): LandingNotam {
  const parsed = parseNotam(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);
  const n = parsed.notam;
  return {
    id: n.id, type: n.type, q_code: n.q_code, subject: n.subject, condition: n.condition, start_time: n.start_time, end_time: n.end_time,
    end_estimated: n.end_estimated, permanent: n.permanent, schedule: n.schedule, text: n.text, effects: n.effects, source,
  };
}

const NOW = Date.parse('2026-11-21T21:00:00Z');
const taxiway = notam('A7489/26 NOTAMN\nQ) EGTT/QMXLC/IV/M/A/000/999/5128N00028W005\nA) EGLL B) 2611091250 C) 2612201250\nE) TWY S BTN TWY S1 AND TWY S4 CLSD');
const runway = notam('A1234/26 NOTAMN\nQ) EGTT/QMRLC/IV/NBO/A/000/999/5128N00028W005\nA) EGLL B) 2611200000 C) 2612200000 EST\nD) DLY 2200-0430\nE) RWY 09L/27R CLSD DUE TO MAINT');
const crane = notam('A4825/26 NOTAMN\nQ) EGTT/QOBCE/IV/M/AE/000/003/5127N00027W001\nA) EGLL B) 2607231900 C) PERM\nE) TOWER CRANE ERECTED PSN 512719N 0002658W, 1.0NM SE OF ARP.\nHGT 230FT AGL. DAY MARKED');
const ils = notam('A2000/26 NOTAMN\nQ) EGTT/QICAS/I/NBO/A/000/999/5128N00028W005\nA) EGLL B) 2611212130 C) 2611220600\nE) ILS RWY 27L U/S');

describe('NOTAMs', () => {
  it('writes the abbreviations out and keeps identifiers as written', () => {
    assert.equal(plainNotamText(taxiway.text), 'Taxiway S between taxiway S1 and taxiway S4 closed');
    assert.equal(plainNotamText(crane.text), 'Tower crane erected position 512719N 0002658W, 1.0 NM SE of aerodrome reference point. Height 230 ft above ground level. Day marked');
    assert.equal(plainNotamText('AD HR OF SER MON-FRI 0600-2200'), 'Aerodrome hours of service MON-FRI 0600-2200');
    assert.equal(plainNotamText(ils.text), 'ILS runway 27L unserviceable');
  });

  it('decodes the Q code, the effects and the validity', () => {
    const decoded = decodeNotam(runway, NOW);
    assert.equal(decoded.headline, 'Runway: closed');
    assert.deepEqual(decoded.effects, ['Runway 09L, 27R closed']);
    assert.equal(decoded.validity, 'In force now, until 20 Dec 2026 00:00 UTC (estimated)');
    assert.equal(decoded.schedule, 'DLY 2200-0430');
    assert.equal(decodeNotam(crane, NOW).validity, 'In force now, permanent');
    const upcoming = decodeNotam(ils, NOW);
    assert.equal(upcoming.state, 'upcoming');
    assert.equal(upcoming.validity, 'From 21 Nov 2026 21:30 UTC, until 22 Nov 2026 06:00 UTC');
    assert.deepEqual(upcoming.effects, ['ILS 27L out of service']);
  });

  it('puts the NOTAMs in force now first, the heaviest effects first', () => {
    const order = briefingNotams([crane, ils, taxiway, runway], NOW).map((n) => n.id);
    assert.deepEqual(order, ['A1234/26', 'A4825/26', 'A7489/26', 'A2000/26']);
  });
});

// A bundle as GET /v3/intelligence/landing answered it for EGLL (NOTAMs and aircraft trimmed).
const bundle = {
  destination: { icao: 'EGLL', name: 'London Heathrow Airport', status: 'LIMITED', status_reasons: ['Restriction QFAAH (NOTAM A7538/26).'] },
  safety_factors: [
    { factor: 'airport_limited', points: -5, detail: 'Restriction QFAAH (NOTAM A7538/26).' },
    { factor: 'weather_age', points: 0, detail: 'METAR observed 2026-11-21T20:50:00Z, 28 min old.' },
    { factor: 'night', points: -10, detail: 'Night at the ETA: sun altitude -53.5°.' },
  ],
  slot: { hour: '2026-11-21T22:00:00.000Z', capacity: 15, capacity_source: 'derived', booked: 3, remaining: 12 },
  sources: {
    airport: 'Contains information from the OurAirports database',
    metar: { source: 'simulated', freshness: 'live', observed_at: '2026-11-21T20:50:00.000Z', received_at: '2026-11-21T21:18:24.207Z' },
    taf: { source: 'simulated', freshness: 'stale', issued_at: '2026-11-21T17:20:00.000Z', received_at: '2026-11-21T21:18:24.210Z' },
    notams: [{ source: 'simulated', fetched_at: '2026-11-21T21:18:24Z', error: null }, { source: 'live', fetched_at: null, error: 'HTTP 503' }],
    ages_sec: { metar_observation: 1704, taf_check: 400, notams: 0 },
  },
} as unknown as LandingBundle;

describe('freshness', () => {
  it('gives each input its origin, currency and age', () => {
    const rows = freshnessRows(bundle, Date.parse('2026-11-21T21:18:54Z'));
    assert.deepEqual(rows.map((r) => [r.input, r.origin, r.currency, r.age]), [
      ['METAR', 'simulated', 'live', 'observed 28 min ago'],
      ['TAF', 'simulated', 'stale', 'checked 6 min ago'],
      ['NOTAMs', 'simulated', 'live', 'fetched 30 s ago'],
      ['NOTAMs', 'live', 'failing', 'never fetched'],
      ['Airport and runways', 'imported', 'reference', ''],
    ]);
    assert.match(rows[3]!.detail, /HTTP 503/);
    assert.equal(anySimulated(rows), true);
  });

  it('says when an input is missing', () => {
    const empty = { ...bundle, sources: { ...bundle.sources, metar: null, taf: null, notams: [], ages_sec: { metar_observation: null, taf_check: null, notams: null } } } as LandingBundle;
    const rows = freshnessRows(empty, NOW);
    assert.deepEqual(rows.map((r) => r.currency), ['missing', 'missing', 'missing', 'reference']);
    assert.equal(anySimulated(rows), false);
  });
});

describe('briefing headline', () => {
  it('names the status, the factors and the slot', () => {
    assert.equal(STATUS[bundle.destination.status].tone, 'warn');
    assert.deepEqual(orderedFactors(bundle.safety_factors).map((f) => f.factor), ['night', 'airport_limited', 'weather_age']);
    assert.equal(factorName('weather_basis'), 'Weather at the ETA');
    assert.equal(factorName('new_rule'), 'New rule');
    assert.deepEqual([95, 80, 79, 60, 59, 0].map(scoreTone), ['ok', 'ok', 'warn', 'warn', 'bad', 'bad']);
    assert.equal(slotWords(bundle.slot), '12 of 15 arrival slots left in the hour from 22:00 UTC (3 booked; capacity derived from the runways)');
  });
});

describe('format', () => {
  it('writes ages and reads the ETA field in UTC', () => {
    assert.deepEqual([0, 59, 60, 1704, 3600, 3 * 3600 + 300, 50 * 3600].map(age), ['0 s', '59 s', '1 min', '28 min', '1 h', '3 h 5 min', '2 d 2 h']);
    assert.equal(utcInputValue(Date.parse('2026-11-21T22:18:42Z')), '2026-11-21T22:18');
    assert.equal(utcFromInput('2026-11-21T22:18'), '2026-11-21T22:18:00Z');
    assert.equal(utcFromInput('2026-02-31T10:00'), null);
    assert.equal(utcFromInput('tomorrow'), null);
  });
});

describe('ilsWords', () => {
  const system = { ident: 'IJFK', category: 'III' as const, frequency_mhz: 109.5, course_true_deg: 30.7, source: 'nav.dat' };
  it('names the ILS by category and frequency, or says why there is none to use', () => {
    assert.deepEqual(ilsWords({ ils: 'usable', ils_system: system, ils_out_by: [] }), { tone: 'ok', words: 'ILS CAT III IJFK 109.50 MHz' });
    assert.deepEqual(ilsWords({ ils: 'out_of_service', ils_system: system, ils_out_by: ['A0421/26'] }), { tone: 'bad', words: 'ILS CAT III IJFK 109.50 MHz out of service (NOTAM A0421/26)' });
    assert.equal(ilsWords({ ils: 'none', ils_system: null, ils_out_by: [] }).words, 'No ILS in the navigation data');
  });

  it('without navigation data the ILS is unknown, never "no ILS"', () => {
    assert.deepEqual(ilsWords({ ils: 'unknown', ils_system: null, ils_out_by: [] }), { tone: 'neutral', words: 'ILS unknown (no navigation data)' });
  });

  it('the approach tile names the ILS category checked', () => {
    const approach = { ils_category: 'IIIA' } as LandingBundle['approach'];
    assert.equal(ilsCategoryWords(approach), 'ILS CAT IIIA');
    assert.equal(ilsCategoryWords({ ...approach, ils_category: null }), null);
  });
});

describe('weather basis', () => {
  const period = { kind: 'TEMPO', probability: 30, from: '2026-11-21T14:00:00Z', to: '2026-11-21T18:00:00Z', role: 'possible', raw: 'PROB30 TEMPO 2114/2118 4000 TSRA BKN012CB' } as const;

  it('tells each TAF group used in plain words, the day only when it is not the ETA\'s', () => {
    assert.equal(periodWords(period, '2026-11-21T15:00:00Z'), 'TEMPO (temporarily), 30 %, 14:00–18:00 UTC, taken at its worst');
    assert.equal(periodWords({ ...period, kind: 'FM', probability: null, role: 'prevailing', to: '2026-11-22T06:00:00Z' }, '2026-11-21T15:00:00Z'), 'FM (from), 14:00–22/11 06:00 UTC, in force');
  });

  it('says what each basis means for the briefing', () => {
    const weather = { basis: 'observation', basis_valid_until: '2026-11-21T15:20:00Z' } as LandingBundle['weather'];
    assert.equal(basisNote(weather), 'The METAR describes the weather until 15:20 UTC.');
    assert.match(basisNote({ ...weather, basis: 'forecast' }), /TAF groups in force at the ETA/);
    assert.match(basisNote({ ...weather, basis: 'none', basis_valid_until: null }), /unknown/);
    assert.deepEqual(Object.values(BASES).map((b) => b.words), ['observed', 'forecast', 'unknown']);
  });
});
