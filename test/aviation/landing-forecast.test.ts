// The weather at the ETA over HTTP: an operator pushes a METAR and a TAF with a thunderstorm TEMPO
// (no simulator), then the landing answer is asked at several ETAs. Half an hour ahead rests on
// the observation, inside the TEMPO on the storm, an hour ahead on the base forecast, ten days
// ahead on nothing, and each says so; the raw reports come with every answer. A helicopter at a
// heliport lands on its pad into the wind, not judged on runway length.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

const HOUR = 3_600_000;
let server: TestServer;

const two = (n: number) => String(n).padStart(2, '0');
const dayHourMinute = (ms: number) => { const d = new Date(ms); return `${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`; };
/** DDHH; an end at midnight is hour 24 of the day before, as TAFs write it. */
const dayHour = (ms: number, end = false) => {
  const d = new Date(end && new Date(ms).getUTCHours() === 0 ? ms - HOUR : ms);
  return `${two(d.getUTCDate())}${two(end && new Date(ms).getUTCHours() === 0 ? 24 : d.getUTCHours())}`;
};
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

const nowMs = Date.now();
const hourStart = Math.floor(nowMs / HOUR) * HOUR;
const observed = nowMs - 10 * 60_000;
const METAR = `METAR EGLL ${dayHourMinute(observed)}Z 27008KT 9999 FEW040 15/08 Q1018`;
const tempoFrom = hourStart + 2 * HOUR;
const tempoTo = hourStart + 5 * HOUR;
const TEMPO = `TEMPO ${dayHour(tempoFrom)}/${dayHour(tempoTo, true)} 24020G35KT 3000 TSRA BKN010CB`;
const TAF = `TAF EGLL ${dayHourMinute(observed)}Z ${dayHour(hourStart)}/${dayHour(hourStart + 24 * HOUR, true)} 27010KT 9999 SCT040 ${TEMPO}`;

async function push(kind: 'metar' | 'taf', raw: string, icao = 'EGLL') {
  const response = await fetch(`${server.url}/v3/aviation/airports/${icao}/${kind}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: raw });
  assert.equal(response.status, 201, await response.text());
}

async function landingAt(etaMs: number, request: Record<string, string> = { destination_icao: 'EGLL', vehicle_type: 'aircraft', aircraft_type: 'A320' }) {
  const response = await fetch(`${server.url}/v3/intelligence/landing`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ eta_utc: iso(etaMs), registration: 'G-EUPT', ...request }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return json(response);
}

before(async () => {
  server = await startTestServer();
  await push('metar', METAR);
  await push('taf', TAF);
});
after(() => server.close());

test('half an hour ahead: the observation', async () => {
  const bundle = await landingAt(nowMs + 30 * 60_000);
  assert.equal(bundle.weather.basis, 'observation');
  assert.equal(bundle.weather.basis_summary, `Observed ${iso(observed).slice(11, 16)}Z`);
  assert.deepEqual(bundle.weather.periods, []);
  assert.equal(bundle.weather.conditions, 'PARTLY_CLOUDY');
  assert.equal(bundle.weather.wind.direction_deg, 270);
  assert.match(bundle.recommended_approach, /^VISUAL RWY 27[LR]$/);
  assert.equal(bundle.safety_factors.find((f: { factor: string }) => f.factor === 'weather_basis').points, 0);
  assert.equal(bundle.weather.metar, METAR);
  assert.equal(bundle.weather.taf, TAF);
});

test('inside the thunderstorm TEMPO: the storm, its wind shear and a lower score', async () => {
  const calm = await landingAt(nowMs + 30 * 60_000);
  const bundle = await landingAt(tempoFrom + 90 * 60_000);
  assert.equal(bundle.weather.basis, 'forecast');
  assert.equal(bundle.weather.basis_summary, `Forecast: TAF ${TEMPO}`);
  assert.deepEqual(bundle.weather.periods.map((p: { kind: string; role: string; raw: string }) => [p.kind, p.role, p.raw]), [
    ['BASE', 'prevailing', '27010KT 9999 SCT040'],
    ['TEMPO', 'possible', TEMPO],
  ]);
  assert.equal(bundle.weather.conditions, 'THUNDERSTORM');
  assert.ok(['HIGH', 'SEVERE'].includes(bundle.weather.wind_shear_risk));
  assert.ok(bundle.weather.wind_shear_reasons.some((reason: { rule: string }) => reason.rule === 'thunderstorm'));
  assert.equal(bundle.weather.flight_category, 'IFR');
  assert.equal(bundle.weather.wind.gust_kt, 35);
  assert.match(bundle.recommended_approach, /^(ILS|RNAV) RWY/, 'the TEMPO\'s 3,000 m and 1,000 ft rule out a visual approach');
  assert.ok(bundle.safety_score < calm.safety_score - 20, `${bundle.safety_score} against ${calm.safety_score}`);
});

test('ten days ahead: no forecast, a runway by equipment and a lower score than an hour ahead', async () => {
  const soon = await landingAt(nowMs + HOUR);
  assert.equal(soon.weather.basis, 'forecast');
  assert.equal(soon.weather.basis_summary, 'Forecast: TAF 27010KT 9999 SCT040');
  const far = await landingAt(nowMs + 10 * 24 * HOUR);
  assert.equal(far.weather.basis, 'none');
  assert.equal(far.weather.basis_summary, 'No forecast reaches the ETA');
  assert.equal(far.weather.basis_valid_until, null);
  assert.deepEqual([far.weather.wind, far.weather.flight_category, far.weather.wind_shear_risk, far.weather.conditions], [null, null, null, 'UNKNOWN']);
  assert.equal(far.runway_choice.wind, 'unknown');
  assert.equal(far.runway_choice.basis, 'equipment');
  assert.equal(far.runway.max_crosswind_kt, null, 'no crosswind from today\'s METAR');
  assert.doesNotMatch(far.recommended_approach, /^VISUAL/);
  const basis = far.safety_factors.find((f: { factor: string }) => f.factor === 'weather_basis');
  assert.equal(basis.points, -25);
  assert.match(basis.detail, /ends at/);
  assert.ok(far.safety_score < soon.safety_score, `${far.safety_score} against ${soon.safety_score}`);
  assert.equal(far.weather.metar, METAR, 'the raw reports come with every answer');
  assert.equal(far.weather.taf, TAF);
});

test('a helicopter at a heliport lands on its pad into the wind, whatever the pad\'s length', async () => {
  await push('metar', `METAR EGLW ${dayHourMinute(observed)}Z 02412KT 9999 FEW030 15/08 Q1018`, 'EGLW');
  const bundle = await landingAt(nowMs + 20 * 60_000, { destination_icao: 'EGLW', vehicle_type: 'helicopter', registration: 'G-HLCP' });
  assert.equal(bundle.destination.status, 'OPERATIONAL', JSON.stringify(bundle.destination.status_reasons));
  assert.ok(bundle.runway, bundle.runway_choice.reason);
  assert.deepEqual([bundle.runway.headwind_kt, bundle.runway.max_crosswind_kt, bundle.runway.max_tailwind_kt], [12, 0, 0]);
  assert.match(bundle.recommended_approach, new RegExp(`^VISUAL RWY ${bundle.runway.designator}$`));
  const length = bundle.safety_factors.find((f: { factor: string }) => f.factor === 'runway_length');
  assert.equal(length.points, 0);
  assert.match(length.detail, /helicopter/);
  assert.ok(bundle.safety_score >= 80, String(bundle.safety_score));
  const aeroplane = await landingAt(nowMs + 20 * 60_000, { destination_icao: 'EGLW', vehicle_type: 'aircraft', aircraft_type: 'A320' });
  // An airliner is judged on runway length: a heliport has none for it.
  assert.notEqual(aeroplane.destination.status, 'OPERATIONAL');
  assert.ok(aeroplane.safety_score < bundle.safety_score - 25, `${aeroplane.safety_score} against ${bundle.safety_score}`);
});

