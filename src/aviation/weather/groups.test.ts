import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readGroup } from './groups.ts';
import type { Group, GroupRead } from './groups.ts';

function read(text: string): GroupRead {
  return readGroup(text.split(' '), 0);
}

/** The decoded group, failing the test when the text is not a valid group. */
function group(text: string): Group {
  const result = read(text);
  assert.equal(result.status, 'group', `${text}: ${JSON.stringify(result)}`);
  if (result.status !== 'group') throw new Error('unreachable');
  return result.group;
}

function errorCode(text: string): string {
  const result = read(text);
  assert.equal(result.status, 'invalid', `${text} should be invalid: ${JSON.stringify(result)}`);
  return result.status === 'invalid' ? result.error.code : '';
}

function wind(text: string) {
  const decoded = group(text);
  assert.equal(decoded.kind, 'wind');
  if (decoded.kind !== 'wind') throw new Error('unreachable');
  return decoded.wind;
}

function visibility(text: string) {
  const decoded = group(text);
  assert.equal(decoded.kind, 'visibility', text);
  if (decoded.kind !== 'visibility') throw new Error('unreachable');
  return decoded.visibility;
}

describe('wind', () => {
  test('knots with gust', () => {
    const decoded = wind('22017G28KT');
    assert.deepEqual(
      [decoded.direction_deg, decoded.speed_kt, decoded.gust_kt, decoded.variable, decoded.calm],
      [220, 17, 28, false, false],
    );
  });

  test('metres per second and km/h are converted to whole knots, the reported values kept', () => {
    const mps = wind('22004MPS');
    assert.equal(mps.speed_kt, 8);
    assert.deepEqual(mps.reported, { unit: 'MPS', speed: 4, gust: null, group: '22004MPS' });
    assert.equal(wind('27015KMH').speed_kt, 8);
    assert.equal(wind('27010G20MPS').gust_kt, 39);
  });

  test('calm: 00000KT and the four-zero form 0000KT', () => {
    for (const text of ['00000KT', '0000KT']) {
      const decoded = wind(text);
      assert.equal(decoded.calm, true, text);
      assert.equal(decoded.speed_kt, 0);
      assert.equal(decoded.direction_deg, 0);
    }
  });

  test('VRB has no direction', () => {
    const decoded = wind('VRB03KT');
    assert.equal(decoded.direction_deg, null);
    assert.equal(decoded.variable, true);
  });

  test('000 with a speed is variable, as AWC reads it', () => {
    assert.equal(wind('00004KT').variable, true);
  });

  test('three-digit speeds are read whole (the library reads 270150KT as 15 kt)', () => {
    assert.equal(wind('270120KT').speed_kt, 120);
  });

  test('missing wind is a missing group, not a wind', () => {
    assert.equal(group('/////KT').kind, 'missing');
    assert.equal(group('///V///').kind, 'missing');
  });

  test('impossible winds are errors', () => {
    assert.equal(errorCode('37010KT'), 'bad_wind');
    assert.equal(errorCode('27020G15KT'), 'bad_wind');
    assert.equal(errorCode('270250KT'), 'bad_wind');
    assert.equal(errorCode('400V020'), 'bad_wind_variation');
  });

  test('variation range', () => {
    assert.deepEqual(group('140V220'), { kind: 'wind_variation', from_deg: 140, to_deg: 220 });
  });
});

describe('visibility', () => {
  test('metres, with 9999 a lower bound', () => {
    const metric = visibility('6000');
    assert.deepEqual([metric.metres, metric.statute_mi, metric.nm, metric.lower_bound], [6000, 3.728, 3.24, false]);
    assert.equal(visibility('9999').lower_bound, true);
    assert.equal(visibility('9999NDV').no_directional_variation, true);
  });

  test('statute mile fractions, including those the library drops or rounds', () => {
    assert.equal(visibility('1/16SM').statute_mi, 0.0625);
    assert.equal(visibility('1/8SM').statute_mi, 0.125);
    assert.equal(visibility('1 1/2SM').statute_mi, 1.5);
    const mixed = read('1 1/2SM');
    assert.equal(mixed.status === 'group' && mixed.consumed, 2);
    const below = visibility('M1/4SM');
    assert.deepEqual([below.statute_mi, below.upper_bound, below.lower_bound], [0.25, true, false]);
  });

  test('P6SM and 10SM are lower bounds; 15SM (Canada) is a value', () => {
    assert.equal(visibility('P6SM').lower_bound, true);
    assert.equal(visibility('10SM').lower_bound, true);
    assert.equal(visibility('15SM').lower_bound, false);
  });

  test('CAVOK is 10 km or more', () => {
    const decoded = group('CAVOK');
    assert.equal(decoded.kind === 'visibility' && decoded.cavok, true);
    assert.equal(visibility('CAVOK').lower_bound, true);
  });

  test('directional minimum, with or without a direction', () => {
    assert.deepEqual(group('4500NW'), { kind: 'visibility_minimum', minimum: { metres: 4500, direction: 'NW' } });
    assert.deepEqual(group('0600//'), { kind: 'visibility_minimum', minimum: { metres: 600, direction: null } });
  });

  test('malformed statute miles are errors', () => {
    assert.equal(errorCode('100SM'), 'bad_visibility');
    assert.equal(errorCode('3/5SM'), 'bad_visibility');
    assert.equal(errorCode('4/4SM'), 'bad_visibility');
  });

  test('missing visibility', () => {
    assert.equal(group('////').kind, 'missing');
    assert.equal(group('////SM').kind, 'missing');
  });
});

describe('runway groups', () => {
  test('runway visual range in metres and feet', () => {
    const metric = group('R24/1000U');
    assert.equal(metric.kind, 'runway_visual_range');
    if (metric.kind === 'runway_visual_range') {
      assert.deepEqual([metric.rvr.runway, metric.rvr.min, metric.rvr.unit, metric.rvr.trend], ['24', 1000, 'm', 'up']);
    }
    const feet = group('R25L/2600VP6000FT');
    if (feet.kind === 'runway_visual_range') {
      assert.deepEqual([feet.rvr.min, feet.rvr.max, feet.rvr.unit, feet.rvr.above_max], [2600, 6000, 'ft', true]);
    } else assert.fail('not an RVR');
    assert.equal(group('R33/////').kind, 'missing');
  });

  test('ICAO runway state R24/290050', () => {
    const decoded = group('R24/290050');
    assert.equal(decoded.kind, 'runway_state');
    if (decoded.kind !== 'runway_state') return;
    assert.deepEqual(decoded.state, {
      runway: '24',
      cleared: false,
      closed_by_snow: false,
      deposit: 'wet_or_water_patches',
      coverage: '51_to_100_percent',
      depth_mm: 0,
      not_operational: false,
      friction_coefficient: 0.5,
      braking_action: null,
      raw: 'R24/290050',
    });
  });

  test('braking action codes and unreported depth', () => {
    const decoded = group('R01L/29//95');
    if (decoded.kind !== 'runway_state') return assert.fail('not a runway state');
    assert.deepEqual([decoded.state.depth_mm, decoded.state.braking_action], [null, 'good']);
  });

  test('old eight-digit form and the 88/99/50+ designators', () => {
    const all = group('88290195');
    if (all.kind !== 'runway_state') return assert.fail('not a runway state');
    assert.deepEqual([all.state.runway, all.state.depth_mm, all.state.braking_action], ['ALL', 1, 'good']);
    const right = group('74490337');
    if (right.kind !== 'runway_state') return assert.fail('not a runway state');
    assert.equal(right.state.runway, '24R');
    const repeat = group('99CLRD95');
    if (repeat.kind !== 'runway_state') return assert.fail('not a runway state');
    assert.deepEqual([repeat.state.runway, repeat.state.cleared], ['REPEAT', true]);
  });

  test('cleared and closed runways', () => {
    const cleared = group('R88/CLRD60');
    if (cleared.kind !== 'runway_state') return assert.fail('not a runway state');
    assert.deepEqual([cleared.state.runway, cleared.state.cleared, cleared.state.friction_coefficient], ['ALL', true, 0.6]);
    const closed = group('R/SNOCLO');
    assert.equal(closed.kind === 'runway_state' && closed.state.closed_by_snow, true);
  });

  test('impossible runway groups are errors', () => {
    assert.equal(errorCode('R24/230050'), 'bad_runway_state');
    assert.equal(errorCode('R24/290096'), 'bad_runway_state');
    assert.equal(errorCode('40290195'), 'bad_runway_state');
    assert.equal(errorCode('R09/70D'), 'bad_runway_visual_range');
  });
});

describe('weather', () => {
  test('intensity, descriptor and phenomena', () => {
    const decoded = group('+TSRAGR');
    assert.deepEqual(decoded, {
      kind: 'weather',
      recent: false,
      weather: { intensity: 'heavy', in_vicinity: false, descriptor: 'TS', phenomena: ['RA', 'GR'], raw: '+TSRAGR' },
    });
  });

  test('vicinity and recent weather', () => {
    const vicinity = group('VCSH');
    assert.equal(vicinity.kind === 'weather' && vicinity.weather.in_vicinity, true);
    const recent = group('RESHRA');
    assert.equal(recent.kind === 'weather' && recent.recent, true);
    assert.equal(group('RESH').kind, 'weather');
  });

  test('a descriptor alone is an error', () => {
    assert.equal(errorCode('SH'), 'bad_weather');
    assert.equal(errorCode('-FZ'), 'bad_weather');
    assert.equal(errorCode('RARA'), 'bad_weather');
  });
});

describe('sky', () => {
  test('layers with and without type', () => {
    assert.deepEqual(group('BKN012CB'), { kind: 'cloud', clouds: [{ cover: 'BKN', base_ft: 1200, type: 'CB', raw: 'BKN012CB' }] });
    assert.deepEqual(group('FEW///'), { kind: 'cloud', clouds: [{ cover: 'FEW', base_ft: null, type: null, raw: 'FEW///' }] });
    assert.deepEqual(group('//////CB'), { kind: 'cloud', clouds: [{ cover: null, base_ft: null, type: 'CB', raw: '//////CB' }] });
    assert.deepEqual(group('///TCU'), { kind: 'cloud', clouds: [{ cover: null, base_ft: null, type: 'TCU', raw: '///TCU' }] });
  });

  test('two layers sent without a space', () => {
    const decoded = group('FEW040TCUBKN070');
    assert.equal(decoded.kind === 'cloud' && decoded.clouds.length, 2);
  });

  test('clear-sky codes and vertical visibility', () => {
    for (const code of ['SKC', 'CLR', 'NSC', 'NCD'] as const) assert.deepEqual(group(code), { kind: 'sky_clear', code });
    assert.deepEqual(group('VV002'), { kind: 'vertical_visibility', ft: 200 });
    assert.deepEqual(group('VV///'), { kind: 'vertical_visibility', ft: null });
  });

  test('malformed layers are errors', () => {
    assert.equal(errorCode('BKN0100'), 'bad_cloud');
    assert.equal(errorCode('OVC'), 'bad_cloud');
    assert.equal(errorCode('VV1'), 'bad_vertical_visibility');
  });
});

describe('temperature and pressure', () => {
  test('temperature and dew point, M for minus', () => {
    assert.deepEqual(group('M04/M06'), { kind: 'temperature', temperature_c: -4, dewpoint_c: -6 });
    assert.deepEqual(group('M00/M01'), { kind: 'temperature', temperature_c: 0, dewpoint_c: -1 });
    assert.deepEqual(group('16///'), { kind: 'temperature', temperature_c: 16, dewpoint_c: null });
    assert.equal(group('/////').kind, 'missing');
  });

  test('dew point above the temperature is an error', () => {
    assert.equal(errorCode('03/10'), 'bad_temperature');
    assert.equal(group('03/04').kind, 'temperature');
  });

  test('altimeter in hPa and inHg, each converted to the other', () => {
    assert.deepEqual(group('Q1013'), { kind: 'altimeter', altimeter: { hpa: 1013, inhg: 29.91, reported_unit: 'hPa' } });
    assert.deepEqual(group('A2992'), { kind: 'altimeter', altimeter: { hpa: 1013.2, inhg: 29.92, reported_unit: 'inHg' } });
    assert.equal(group('Q////').kind, 'missing');
    assert.equal(errorCode('Q0500'), 'bad_pressure');
    assert.equal(errorCode('A4000'), 'bad_pressure');
  });
});

describe('wind shear', () => {
  test('runway forms', () => {
    for (const text of ['WS R25L', 'WS RWY25L', 'WS RWY 25L']) {
      const decoded = group(text);
      assert.equal(decoded.kind === 'wind_shear' && decoded.shear.runway, '25L', text);
    }
    const result = read('WS RWY 25L');
    assert.equal(result.status === 'group' && result.consumed, 3);
  });

  test('all runways and take-off/landing', () => {
    const all = group('WS ALL RWY');
    assert.equal(all.kind === 'wind_shear' && all.shear.all_runways, true);
    const takeoff = group('WS TKOF RWY27');
    assert.equal(takeoff.kind === 'wind_shear' && takeoff.shear.phase, 'takeoff');
  });

  test('height form WS020/27045KT', () => {
    const decoded = group('WS020/27045KT');
    if (decoded.kind !== 'wind_shear') return assert.fail('not wind shear');
    assert.deepEqual([decoded.shear.height_ft, decoded.shear.wind_at_height], [2000, { direction_deg: 270, speed_kt: 45 }]);
  });

  test('WS followed by anything else is an error', () => {
    assert.equal(errorCode('WS FOO'), 'bad_wind_shear');
    assert.equal(errorCode('WS020/27045'), 'bad_wind_shear');
  });
});

test('unknown tokens are left to the caller', () => {
  assert.equal(read('BLU').status, 'unknown');
  assert.equal(read('12/7').status, 'unknown');
});
