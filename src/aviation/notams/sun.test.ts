import assert from 'node:assert/strict';
import { test } from 'node:test';
import { approximateSunTimes } from './sun.ts';

function minutesApart(a: Date, iso: string): number {
  return Math.abs(a.getTime() - Date.parse(iso)) / 60_000;
}

// Reference times from published almanac tables (UTC), rounded to the minute.
const CASES = [
  { place: 'London, summer solstice', day: '2024-06-21', lat: 51.5074, lon: -0.1278, sunrise: '2024-06-21T03:43:00Z', sunset: '2024-06-21T20:21:00Z' },
  { place: 'London, winter solstice', day: '2024-12-21', lat: 51.5074, lon: -0.1278, sunrise: '2024-12-21T08:04:00Z', sunset: '2024-12-21T15:54:00Z' },
  { place: 'Sydney, January', day: '2024-01-15', lat: -33.9399, lon: 151.1753, sunrise: '2024-01-14T19:00:00Z', sunset: '2024-01-15T09:08:00Z' },
];

for (const c of CASES) {
  test(`approximate sun times within 5 minutes: ${c.place}`, () => {
    const times = approximateSunTimes(new Date(`${c.day}T12:00:00Z`), { lat: c.lat, lon: c.lon });
    assert.ok(times !== null);
    assert.ok(minutesApart(times.sunrise, c.sunrise) <= 5, `sunrise ${times.sunrise.toISOString()} vs ${c.sunrise}`);
    assert.ok(minutesApart(times.sunset, c.sunset) <= 5, `sunset ${times.sunset.toISOString()} vs ${c.sunset}`);
  });
}

test('equinox at New York: solar noon and a day just over 12 hours', () => {
  // Solar noon = 12:00 + 4 min per degree west (73.78° → 295 min) + 7.6 min equation of time
  // ≈ 17:03 UTC; refraction and the solar disc lengthen the equinox day by 8–10 minutes at 40°N.
  const times = approximateSunTimes(new Date('2024-03-20T12:00:00Z'), { lat: 40.6413, lon: -73.7781 });
  assert.ok(times !== null);
  const noon = (times.sunrise.getTime() + times.sunset.getTime()) / 2;
  assert.ok(minutesApart(new Date(noon), '2024-03-20T17:03:00Z') <= 2, new Date(noon).toISOString());
  const dayLengthMin = (times.sunset.getTime() - times.sunrise.getTime()) / 60_000;
  assert.ok(dayLengthMin >= 12 * 60 + 5 && dayLengthMin <= 12 * 60 + 12, `${dayLengthMin} minutes`);
});

test('no sunrise or sunset in polar day and polar night', () => {
  assert.equal(approximateSunTimes(new Date('2024-06-21T00:00:00Z'), { lat: 78.2, lon: 15.6 }), null);
  assert.equal(approximateSunTimes(new Date('2024-12-21T00:00:00Z'), { lat: 78.2, lon: 15.6 }), null);
});
