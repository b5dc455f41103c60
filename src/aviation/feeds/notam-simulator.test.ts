import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deriveEffects, isActiveAt, parseNotam } from '../notams/index.ts';
import type { Notam } from '../notams/index.ts';
import { simulatedNotamProvider, simulateNotams, simulateNotamSet } from './notam-simulator.ts';
import type { SimulatedAirport, SimulatedNotamKind } from './notam-simulator.ts';

const AT = Date.parse('2025-03-10T12:00:00Z');
const DAY = 86_400_000;

function runways(...pairs: string[]): SimulatedAirport['runways'] {
  return pairs.map((pair) => ({ ends: pair.split('/').map((ident) => ({ ident })) }));
}

const EGLL: SimulatedAirport = { icao: 'EGLL', lat: 51.4706, lon: -0.461941, runways: runways('09L/27R', '09R/27L') };
const KJFK: SimulatedAirport = { icao: 'KJFK', lat: 40.6398, lon: -73.7789, runways: runways('04L/22R', '04R/22L', '13L/31R', '13R/31L') };

/** 400 aerodromes over several regions, one to three runways, some with idents written "9" or "H1". */
const MANY: SimulatedAirport[] = Array.from({ length: 400 }, (_, i) => {
  const prefix = ['EG', 'ED', 'LF', 'K', 'C', 'Y', 'RJ', 'SB', 'FA', 'UU'][i % 10]!;
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const suffix = `${letters[Math.floor(i / 10) % 26]}${letters[(i * 7) % 26]}${letters[(i * 3) % 26]}`.slice(0, 4 - prefix.length);
  const base = [['4', '22'], ['09', '27'], ['18L', '36R'], ['13', '31']][i % 4]!;
  const layout = [runways(base.join('/')), runways(base.join('/'), '18R/36L'), runways(base.join('/'), '07/25', '16/34')][i % 3]!;
  return { icao: prefix + suffix, lat: -40 + ((i * 37) % 100), lon: -170 + ((i * 53) % 340), runways: i % 25 === 0 ? [{ ends: [{ ident: 'H1' }] }] : layout };
});

const Q_CODES: Record<SimulatedNotamKind, RegExp> = {
  runway_closure: /^QMRLC$/,
  ils_outage: /^QICAS$/,
  localizer_outage: /^QILAS$/,
  glide_path_outage: /^QIGAS$/,
  approach_lighting_outage: /^QLAAS$/,
  runway_lighting_outage: /^QL[ECZ]AS$/,
  papi_outage: /^QLPAS$/,
  taxiway_closure: /^QMXLC$/,
  obstacle: /^QOBCE$/,
  aerodrome_hours: /^QFAAH$/,
  aerodrome_closure: /^QFALC$/,
};

function parse(text: string): Notam {
  const result = parseNotam(text);
  assert.ok(result.ok, `${text}\n${JSON.stringify(result)}`);
  return result.notam;
}

function runwayEnds(airport: SimulatedAirport): Set<string> {
  return new Set(airport.runways.flatMap((runway) => runway.ends.map((end) => end.ident.padStart(/[LRC]$/.test(end.ident) ? 3 : 2, '0'))));
}

describe('NOTAM simulator', () => {
  test('every NOTAM parses cleanly and means what the simulator intended', () => {
    let checked = 0;
    for (const [index, airport] of [EGLL, KJFK, ...MANY].entries()) {
      const at = AT + index * 5 * DAY;
      const ends = runwayEnds(airport);
      for (const simulated of simulateNotamSet(airport, at, 11)) {
        const notam = parse(simulated.text);
        assert.deepEqual(notam.warnings, [], simulated.text);
        assert.equal(notam.format, 'icao');
        assert.equal(notam.type, 'NEW');
        assert.deepEqual(notam.location, [airport.icao]);
        assert.match(notam.q_code ?? '', Q_CODES[simulated.kind], simulated.text);
        assert.deepEqual(notam.effects, simulated.effects, simulated.text);
        assert.deepEqual(deriveEffects(notam), simulated.effects, simulated.text);
        for (const effect of notam.effects) for (const end of effect.runways) assert.ok(ends.has(end), `${end} is not a runway of ${airport.icao}`);
        // Issued up to the asked day, not expired before it, starting at most a month later.
        assert.ok(notam.end_time === null || Date.parse(notam.end_time) > Math.floor(at / DAY) * DAY, simulated.text);
        assert.ok(Date.parse(notam.start_time!) < at + 32 * DAY, simulated.text);
        checked++;
      }
    }
    assert.ok(checked > 1000, `only ${checked} NOTAMs checked`);
  });

  test('Q-line and header: FIR of the region, the aerodrome position, numbers of the issue year', () => {
    const texts = simulateNotams(EGLL, AT, 3);
    assert.ok(texts.length > 0);
    for (const text of texts) {
      assert.match(text, /^[A-Z]\d{4}\/(24|25) NOTAMN\nQ\) EGTT\/Q[A-Z]{4}\/(I|IV)\/[NBOM]+\/(A|AE)\/000\/\d{3}\/51(2[6-9]|3[01])N0002[5-9]W\d{3}\n/);
    }
    const fir = (airport: SimulatedAirport) => parse(simulateNotams(airport, AT, 3)[0]!).fir;
    assert.equal(fir(KJFK), 'KZNY');
    assert.equal(fir({ icao: 'EGPH', lat: 55.95, lon: -3.3725, runways: runways('06/24') }), 'EGPX');
    assert.equal(fir({ icao: 'EDDM', lat: 48.3538, lon: 11.7861, runways: runways('08L/26R', '08R/26L') }), 'EDMM');
    assert.equal(fir({ icao: 'YSSY', lat: -33.9461, lon: 151.177, runways: runways('16R/34L', '07/25') }), 'YMMM');
    const kjfk = simulateNotams(KJFK, AT, 3).map(parse);
    assert.ok(kjfk.every((notam) => notam.center !== null && Math.abs(notam.center.lat - 40.64) < 0.05 && Math.abs(notam.center.lon + 73.78) < 0.05));
  });

  test('numbers are unique per aerodrome', () => {
    for (const airport of [EGLL, KJFK, ...MANY.slice(0, 50)]) {
      const notams = simulateNotams(airport, AT, 5).map(parse);
      const ids = notams.map((notam) => notam.id);
      assert.equal(new Set(ids).size, ids.length, `${airport.icao}: ${ids.join(' ')}`);
    }
  });

  test('deterministic for seed, aerodrome and day; the next day carries the standing NOTAMs on', () => {
    assert.deepEqual(simulateNotams(EGLL, AT, 1), simulateNotams(EGLL, AT, 1));
    assert.deepEqual(simulateNotams(EGLL, AT, 1), simulateNotams({ ...EGLL, icao: 'egll' }, AT - 11 * 3_600_000, 1));
    assert.notDeepEqual(simulateNotams(EGLL, AT, 1), simulateNotams(EGLL, AT, 2));
    assert.notDeepEqual(simulateNotams(EGLL, AT, 1), simulateNotams({ ...EGLL, icao: 'EGKK' }, AT, 1));

    const today = simulateNotams(KJFK, AT, 1);
    const tomorrow = new Set(simulateNotams(KJFK, AT + DAY, 1));
    for (const text of today) {
      const notam = parse(text);
      const expires = notam.end_time === null ? Infinity : Date.parse(notam.end_time);
      if (expires > Math.floor(AT / DAY + 1) * DAY) assert.ok(tomorrow.has(text), `missing the next day:\n${text}`);
    }
  });

  test('variety over many aerodromes: every kind, schedules, PERM and EST', () => {
    const kinds = new Set<SimulatedNotamKind>();
    const schedules = new Set<string>();
    let permanent = 0;
    let estimated = 0;
    for (const airport of MANY) {
      for (const simulated of simulateNotamSet(airport, AT, 21)) {
        kinds.add(simulated.kind);
        const notam = parse(simulated.text);
        if (notam.schedule !== null) schedules.add(notam.schedule);
        if (notam.permanent) permanent++;
        if (notam.end_estimated) estimated++;
      }
    }
    assert.deepEqual([...kinds].sort(), Object.keys(Q_CODES).sort());
    assert.ok(schedules.size >= 4, [...schedules].join(', '));
    assert.ok(permanent > 0 && estimated > 0, `${permanent} PERM, ${estimated} EST`);
  });

  test('most aerodromes have a few NOTAMs; few have an aerodrome closure', () => {
    const counts = MANY.map((airport) => simulateNotamSet(airport, AT, 8));
    const withFew = counts.filter((set) => set.length >= 2).length;
    const closed = counts.filter((set) => set.some((notam) => notam.kind === 'aerodrome_closure')).length;
    assert.ok(withFew >= 0.75 * MANY.length, `${withFew} of ${MANY.length} have two or more`);
    assert.ok(closed >= 1 && closed <= 0.08 * MANY.length, `${closed} of ${MANY.length} have an aerodrome closure`);
  });

  test('a scheduled nightly closure is in force at night only', () => {
    const nightly = MANY.flatMap((airport) => simulateNotamSet(airport, AT, 4))
      .filter((simulated) => simulated.kind === 'runway_closure')
      .map((simulated) => parse(simulated.text))
      .find((notam) => notam.schedule === 'DAILY 0000-0500');
    assert.ok(nightly, 'no DAILY 0000-0500 runway closure among the aerodromes');
    const firstNight = Date.parse(nightly.start_time!);
    assert.equal(isActiveAt(nightly, firstNight + DAY + 2 * 3_600_000), true);
    assert.equal(isActiveAt(nightly, firstNight + DAY + 12 * 3_600_000), false);
  });

  test('runway NOTAMs only where there are numbered runways; unusable records give nothing', () => {
    const heliport: SimulatedAirport = { icao: 'EGHP', lat: 51.5, lon: -0.1, runways: [{ ends: [{ ident: 'H1' }] }] };
    for (let day = 0; day < 60; day += 3) {
      for (const simulated of simulateNotamSet(heliport, AT + day * DAY, 9)) {
        assert.ok(['taxiway_closure', 'obstacle', 'aerodrome_hours', 'aerodrome_closure'].includes(simulated.kind), simulated.kind);
      }
    }
    assert.deepEqual(simulateNotams({ ...EGLL, icao: 'LL' }, AT, 1), []);
    assert.deepEqual(simulateNotams({ ...EGLL, lat: Number.NaN }, AT, 1), []);
    assert.deepEqual(simulateNotams(EGLL, Number.NaN, 1), []);
  });

  test('as a feed: parsed NOTAMs for known aerodromes, none for others', async () => {
    const provider = simulatedNotamProvider((icao) => (icao === 'EGLL' ? EGLL : undefined), 1);
    assert.equal(provider.source, 'simulated');
    const known = await provider.notamsFor('EGLL', AT);
    assert.ok(known.ok);
    assert.deepEqual(known.notams.map((notam) => notam.raw), simulateNotams(EGLL, AT, 1));
    assert.deepEqual(await provider.notamsFor('ZZZZ', AT), { ok: true, notams: [] });
  });
});
