import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { activeInWindow, activeIntervals, isActiveAt, parseSchedule } from './schedule.ts';
import type { ScheduleInput } from './schedule.ts';
import type { SunTimesProvider } from './sun.ts';

function notam(overrides: Partial<ScheduleInput> = {}): ScheduleInput {
  return {
    type: 'NEW',
    start_time: '2024-01-01T00:00:00Z',
    end_time: '2024-01-31T00:00:00Z',
    schedule: null,
    center: { lat: 51.5, lon: 0 },
    ...overrides,
  };
}

/** Fixed 07:00–17:00 UTC days, so SR/SS tests do not depend on the solar approximation. */
const fixedSun: SunTimesProvider = (day) => {
  const midnight = Math.floor(day.getTime() / 86_400_000) * 86_400_000;
  return { sunrise: new Date(midnight + 7 * 3_600_000), sunset: new Date(midnight + 17 * 3_600_000) };
};

describe('validity B)–C)', () => {
  test('active from B) up to, not including, C)', () => {
    const n = notam();
    assert.equal(isActiveAt(n, '2023-12-31T23:59:00Z'), false);
    assert.equal(isActiveAt(n, '2024-01-01T00:00:00Z'), true);
    assert.equal(isActiveAt(n, new Date('2024-01-30T23:59:00Z')), true);
    assert.equal(isActiveAt(n, Date.parse('2024-01-31T00:00:00Z')), false);
  });

  test('PERM (no end) is open ended', () => {
    assert.equal(isActiveAt(notam({ end_time: null }), '2035-06-01T00:00:00Z'), true);
  });

  test('an estimated end is still the end', () => {
    // end_estimated does not feed into the evaluation: the C) time is used as written.
    assert.equal(isActiveAt(notam({ end_time: '2024-01-02T00:00:00Z' }), '2024-01-03T00:00:00Z'), false);
  });

  test('a cancellation is never active', () => {
    assert.equal(isActiveAt(notam({ type: 'CANCEL' }), '2024-01-10T00:00:00Z'), false);
  });

  test('invalid instants are never active', () => {
    assert.equal(isActiveAt(notam(), 'not a time'), false);
    assert.equal(activeInWindow(notam(), '2024-01-10T00:00:00Z', Number.NaN), false);
  });

  test('activeInWindow checks overlap with [from, to)', () => {
    const n = notam();
    assert.equal(activeInWindow(n, '2023-12-01T00:00:00Z', '2024-01-01T00:00:00Z'), false);
    assert.equal(activeInWindow(n, '2023-12-01T00:00:00Z', '2024-01-01T00:01:00Z'), true);
    assert.equal(activeInWindow(n, '2024-01-31T00:00:00Z', '2024-02-01T00:00:00Z'), false);
    assert.equal(activeInWindow(n, '2024-01-10T00:00:00Z', '2024-01-09T00:00:00Z'), false);
  });
});

describe('item D) schedules', () => {
  test('DAILY 0600-1800', () => {
    const n = notam({ schedule: 'DAILY 0600-1800' });
    assert.equal(isActiveAt(n, '2024-01-10T05:59:00Z'), false);
    assert.equal(isActiveAt(n, '2024-01-10T06:00:00Z'), true);
    assert.equal(isActiveAt(n, '2024-01-10T17:59:00Z'), true);
    assert.equal(isActiveAt(n, '2024-01-10T18:00:00Z'), false);
    assert.deepEqual(activeIntervals(n, '2024-01-10T00:00:00Z', '2024-01-12T00:00:00Z'), [
      { start: '2024-01-10T06:00:00Z', end: '2024-01-10T18:00:00Z' },
      { start: '2024-01-11T06:00:00Z', end: '2024-01-11T18:00:00Z' },
    ]);
  });

  test('a bare time range means every day; DLY is DAILY', () => {
    for (const schedule of ['0600-1800', 'DLY 0600-1800']) {
      assert.equal(isActiveAt(notam({ schedule }), '2024-01-20T12:00:00Z'), true, schedule);
      assert.equal(isActiveAt(notam({ schedule }), '2024-01-20T19:00:00Z'), false, schedule);
    }
  });

  test('MON-FRI 0800-1600 (2024-01-06 is a Saturday)', () => {
    const n = notam({ schedule: 'MON-FRI 0800-1600' });
    assert.equal(isActiveAt(n, '2024-01-05T12:00:00Z'), true);
    assert.equal(isActiveAt(n, '2024-01-06T12:00:00Z'), false);
    assert.equal(isActiveAt(n, '2024-01-08T07:00:00Z'), false);
    assert.equal(isActiveAt(n, '2024-01-08T08:00:00Z'), true);
  });

  test('several day groups, wrapping weekday ranges and EXC', () => {
    const n = notam({ schedule: 'MON-FRI 0800-1600, SAT 0900-1200' });
    assert.equal(isActiveAt(n, '2024-01-06T10:00:00Z'), true);
    assert.equal(isActiveAt(n, '2024-01-06T13:00:00Z'), false);
    assert.equal(isActiveAt(n, '2024-01-07T10:00:00Z'), false);
    const weekend = notam({ schedule: 'FRI-SUN 1000-1100' });
    assert.equal(isActiveAt(weekend, '2024-01-07T10:30:00Z'), true);
    assert.equal(isActiveAt(weekend, '2024-01-08T10:30:00Z'), false);
    const exceptWeekend = notam({ schedule: 'DAILY EXC SAT SUN 0800-1600' });
    assert.equal(isActiveAt(exceptWeekend, '2024-01-05T12:00:00Z'), true);
    assert.equal(isActiveAt(exceptWeekend, '2024-01-06T12:00:00Z'), false);
  });

  test('H24', () => {
    assert.equal(isActiveAt(notam({ schedule: 'H24' }), '2024-01-10T03:00:00Z'), true);
    assert.equal(isActiveAt(notam({ schedule: 'MON-FRI H24' }), '2024-01-06T03:00:00Z'), false);
  });

  test('periods past midnight end on the next day', () => {
    const n = notam({ schedule: '2230-0430' });
    assert.equal(isActiveAt(n, '2024-01-10T23:00:00Z'), true);
    assert.equal(isActiveAt(n, '2024-01-11T04:00:00Z'), true);
    assert.equal(isActiveAt(n, '2024-01-11T05:00:00Z'), false);
    // The evening of the day before B) does not reach into the validity.
    assert.deepEqual(activeIntervals(n, '2024-01-01T00:00:00Z', '2024-01-01T06:00:00Z'), [
      { start: '2024-01-01T00:00:00Z', end: '2024-01-01T04:30:00Z' },
    ]);
  });

  test('date list with a month: JAN 02 05 0800-1200', () => {
    const n = notam({ schedule: 'JAN 02 05 0800-1200' });
    assert.deepEqual(activeIntervals(n, '2024-01-01T00:00:00Z', '2024-01-31T00:00:00Z'), [
      { start: '2024-01-02T08:00:00Z', end: '2024-01-02T12:00:00Z' },
      { start: '2024-01-05T08:00:00Z', end: '2024-01-05T12:00:00Z' },
    ]);
  });

  test('date ranges across months and the year end', () => {
    const n = notam({
      start_time: '2023-12-20T00:00:00Z',
      end_time: '2024-01-10T00:00:00Z',
      schedule: 'DEC 30-JAN 02 1000-1100',
    });
    assert.deepEqual(
      activeIntervals(n, '2023-12-20T00:00:00Z', '2024-01-10T00:00:00Z').map((interval) => interval.start.slice(0, 10)),
      ['2023-12-30', '2023-12-31', '2024-01-01', '2024-01-02'],
    );
  });

  test('days without a month take the month of B), moving on when before B)', () => {
    const n = notam({
      start_time: '2023-10-02T21:30:00Z',
      end_time: '2023-10-28T04:30:00Z',
      schedule: '02-05 09-13 16-20 23-26 2130-0330, 06 27 2130-0430',
    });
    assert.equal(isActiveAt(n, '2023-10-06T23:00:00Z'), true);
    assert.equal(isActiveAt(n, '2023-10-07T04:00:00Z'), true);
    assert.equal(isActiveAt(n, '2023-10-08T01:00:00Z'), false);
    assert.equal(isActiveAt(n, '2023-10-28T00:00:00Z'), true);
    const rolling = notam({ start_time: '2024-01-29T00:00:00Z', end_time: '2024-02-05T00:00:00Z', schedule: '30 31 01 02 1000-1100' });
    assert.deepEqual(
      activeIntervals(rolling, '2024-01-29T00:00:00Z', '2024-02-05T00:00:00Z').map((interval) => interval.start.slice(0, 10)),
      ['2024-01-30', '2024-01-31', '2024-02-01', '2024-02-02'],
    );
  });

  test('a month carries on to later groups; several periods a day', () => {
    const n = notam({
      start_time: '2023-10-02T17:00:00Z',
      end_time: '2023-11-17T23:00:00Z',
      schedule: 'OCT 02-05 1700-2200, 07 1500-2000, 13 20 27 1700-2200, NOV 03 10 \n17 1800-2300',
    });
    assert.equal(isActiveAt(n, '2023-10-07T16:00:00Z'), true);
    assert.equal(isActiveAt(n, '2023-10-20T18:00:00Z'), true);
    assert.equal(isActiveAt(n, '2023-10-21T18:00:00Z'), false);
    assert.equal(isActiveAt(n, '2023-11-10T22:30:00Z'), true);
    const twice = notam({ start_time: '2023-10-15T12:00:00Z', end_time: '2023-10-16T00:00:00Z', schedule: '15 1200-1500 1730-2030' });
    assert.deepEqual(activeIntervals(twice, '2023-10-15T00:00:00Z', '2023-10-16T00:00:00Z'), [
      { start: '2023-10-15T12:00:00Z', end: '2023-10-15T15:00:00Z' },
      { start: '2023-10-15T17:30:00Z', end: '2023-10-15T20:30:00Z' },
    ]);
  });

  test('SR-SS and SS-SR with an injected sun', () => {
    const day = notam({ schedule: 'SR-SS' });
    assert.equal(isActiveAt(day, '2024-01-10T06:59:00Z', { sunTimes: fixedSun }), false);
    assert.equal(isActiveAt(day, '2024-01-10T07:00:00Z', { sunTimes: fixedSun }), true);
    assert.equal(isActiveAt(day, '2024-01-10T17:00:00Z', { sunTimes: fixedSun }), false);
    const night = notam({ schedule: 'HN' });
    assert.equal(isActiveAt(night, '2024-01-10T23:00:00Z', { sunTimes: fixedSun }), true);
    assert.equal(isActiveAt(night, '2024-01-11T06:00:00Z', { sunTimes: fixedSun }), true);
    assert.equal(isActiveAt(night, '2024-01-11T12:00:00Z', { sunTimes: fixedSun }), false);
    const widened = notam({ schedule: 'SR MINUS30-SS PLUS30' });
    assert.equal(isActiveAt(widened, '2024-01-10T06:45:00Z', { sunTimes: fixedSun }), true);
    assert.equal(isActiveAt(widened, '2024-01-10T17:29:00Z', { sunTimes: fixedSun }), true);
    assert.equal(isActiveAt(widened, '2024-01-10T17:31:00Z', { sunTimes: fixedSun }), false);
  });

  test('SR-SS with the built-in solar approximation at the Q-line centre', () => {
    // London, mid January: sunrise about 08:00 UTC, sunset about 16:20 UTC.
    const n = notam({ schedule: 'SR-SS' });
    assert.equal(isActiveAt(n, '2024-01-15T07:30:00Z'), false);
    assert.equal(isActiveAt(n, '2024-01-15T12:00:00Z'), true);
    assert.equal(isActiveAt(n, '2024-01-15T17:00:00Z'), false);
    // A position passed in wins over the centre: at 150°E it is night in London's noon.
    assert.equal(isActiveAt(n, '2024-01-15T12:00:00Z', { position: { lat: -33.9, lon: 151.2 } }), false);
  });

  test('SR-SS without any position covers the whole day', () => {
    const n = notam({ schedule: 'SR-SS', center: null });
    assert.equal(isActiveAt(n, '2024-01-15T02:00:00Z'), true);
  });

  test('unknown schedule text: active throughout B)–C)', () => {
    const n = notam({ schedule: 'WHEN NOTIFIED BY ATC' });
    assert.equal(isActiveAt(n, '2024-01-15T02:00:00Z'), true);
    assert.deepEqual(activeIntervals(n, '2023-12-01T00:00:00Z', '2024-03-01T00:00:00Z'), [
      { start: '2024-01-01T00:00:00Z', end: '2024-01-31T00:00:00Z' },
    ]);
  });
});

describe('parseSchedule', () => {
  const reference = new Date('2024-01-01T00:00:00Z');

  test('reads rules', () => {
    assert.deepEqual(parseSchedule('MON-FRI 0800-1600, SAT 0900-1200', reference), {
      ok: true,
      schedule: {
        rules: [
          { days: { kind: 'weekdays', days: [1, 2, 3, 4, 5] }, periods: [{ start: { kind: 'clock', minutes: 480 }, end: { kind: 'clock', minutes: 960 } }] },
          { days: { kind: 'weekdays', days: [6] }, periods: [{ start: { kind: 'clock', minutes: 540 }, end: { kind: 'clock', minutes: 720 } }] },
        ],
      },
    });
    const dates = parseSchedule('JAN 02 05 0800-1200', reference);
    assert.ok(dates.ok);
    assert.deepEqual(dates.schedule.rules[0]!.days, { kind: 'dates', dates: ['2024-01-02', '2024-01-05'] });
  });

  test('rejects what it does not understand', () => {
    for (const text of [
      '',
      'MON-FRI',
      '0800',
      '0800-',
      '2500-0100',
      '0860-1000',
      'FEB 30 0800-1000',
      'MON 05 0800-1000',
      'EVERY DAY 0800-1000',
      '0800-1000 (EXC HOL)',
      '123 0800-1000',
      'SR MINUS 0800-1000',
    ]) {
      assert.equal(parseSchedule(text, reference).ok, false, text);
    }
  });

  test('day lists need the start of validity', () => {
    assert.equal(parseSchedule('02 05 0800-1200', null).ok, false);
    assert.equal(parseSchedule('DAILY 0800-1200', null).ok, true);
  });
});
