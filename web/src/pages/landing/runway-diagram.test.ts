import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { airportPlan, bearingBetween, bearingVector, componentTriangle, windLabel, type ChosenRunway, type DiagramRunway, type DiagramWind } from './runway-diagram.ts';

// Heathrow's two runways as /v3/aviation/airports/EGLL answers them.
const EGLL: DiagramRunway[] = [
  {
    designator: '09R/27L', length_ft: 12001, width_ft: 164, closed: false,
    ends: [
      { ident: '09R', true_heading_deg: 90, lat: 51.464901, lon: -0.486772 },
      { ident: '27L', true_heading_deg: 270, lat: 51.465, lon: -0.434075 },
    ],
  },
  {
    designator: '09L/27R', length_ft: 12799, width_ft: 164, closed: false,
    ends: [
      { ident: '09L', true_heading_deg: 89.6, lat: 51.4775, lon: -0.489428 },
      { ident: '27R', true_heading_deg: 269.6, lat: 51.4777, lon: -0.433264 },
    ],
  },
];

const wind = (over: Partial<DiagramWind> = {}): DiagramWind => ({
  direction_deg: 300, variable: false, speed_kt: 12, gust_kt: null, variable_from_deg: null, variable_to_deg: null, calm: false, ...over,
});

const chosen27R: ChosenRunway = {
  designator: '27R', true_heading_deg: 269.6, landing_length_m: 3901, headwind_kt: 10.4, crosswind_kt: 6.1, max_crosswind_kt: 6.1, max_tailwind_kt: 0,
};

const close = (actual: number, expected: number, tolerance = 0.05) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);

describe('bearings', () => {
  it('turns compass bearings into screen vectors and back', () => {
    for (const deg of [0, 45, 90, 135, 180, 269.6, 300, 359]) {
      const v = bearingVector(deg);
      close(bearingBetween({ x: 0, y: 0 }, v), deg, 1e-9);
    }
    assert.deepEqual(bearingVector(90), { x: 1, y: bearingVector(90).y });
    close(bearingVector(0).y, -1, 1e-12);
  });
});

describe('airportPlan', () => {
  const plan = airportPlan(EGLL, chosen27R, wind());

  it('draws every runway at its true heading and the recommended one last', () => {
    assert.equal(plan.basis, 'runways');
    assert.deepEqual(plan.runways.map((r) => [r.key, r.chosen]), [['09R/27L', false], ['09L/27R', true]]);
    for (const runway of plan.runways) close(bearingBetween(runway.from, runway.to), runway.heading_deg);
    const [southern, northern] = plan.runways;
    // 09L/27R lies north of 09R/27L, and both fit inside the ring.
    assert.ok(northern!.from.y < southern!.from.y);
    for (const r of plan.runways) {
      for (const p of [r.from, r.to]) assert.ok(Math.hypot(p.x - plan.centre.x, p.y - plan.centre.y) <= 92.01);
    }
  });

  it('marks the landing direction on the recommended end and labels each threshold', () => {
    assert.ok(plan.landing);
    assert.equal(plan.landing.ident, '27R');
    close(bearingBetween(plan.landing.from, plan.landing.to), 269.6);
    const labels = plan.runways.flatMap((r) => r.labels);
    assert.deepEqual(labels.filter((l) => l.chosen).map((l) => l.ident), ['27R']);
    const northern = plan.runways[1]!;
    // 27R's label is beyond its threshold at the east end.
    assert.ok(northern.labels[1]!.at.x > northern.to.x);
  });

  it('points the wind arrow the way the wind blows, from the side it comes from', () => {
    assert.ok(plan.wind);
    close(bearingBetween(plan.wind.head, plan.wind.tail), 300);
    close(bearingBetween(plan.wind.tail, plan.wind.head), 120);
    assert.equal(plan.wind.label, '300° 12 kt');
    assert.equal(plan.wind_note, null);
  });

  it('says calm and variable winds in words and draws a direction range as an arc', () => {
    assert.equal(airportPlan(EGLL, chosen27R, wind({ calm: true, speed_kt: 0, direction_deg: 0 })).wind_note, 'Wind calm');
    const vrb = airportPlan(EGLL, null, wind({ direction_deg: null, variable: true, speed_kt: 3 }));
    assert.equal(vrb.wind, null);
    assert.equal(vrb.wind_note, 'Wind variable 3 kt');
    assert.equal(vrb.landing, null);
    const ranged = airportPlan(EGLL, chosen27R, wind({ variable_from_deg: 260, variable_to_deg: 330 }));
    assert.ok(ranged.variable_arc);
    assert.match(ranged.variable_arc.path, /^M [\d.]+ [\d.]+ A 140 140 0 0 1 [\d.]+ [\d.]+$/);
    assert.equal(airportPlan(EGLL, chosen27R, null).wind_note, 'No wind reported');
  });

  it('draws the recommended end alone when the runway data is missing', () => {
    const alone = airportPlan([], chosen27R, wind());
    assert.equal(alone.basis, 'chosen_only');
    assert.equal(alone.runways.length, 1);
    close(bearingBetween(alone.runways[0]!.from, alone.runways[0]!.to), 269.6);
    assert.ok(alone.landing);
    const nothing = airportPlan([], null, null);
    assert.deepEqual(nothing.runways, []);
  });

  it('places a runway with one located threshold by that threshold', () => {
    const oneEnd: DiagramRunway = { designator: '18/36', length_ft: 6000, width_ft: null, closed: true, ends: [
      { ident: '18', true_heading_deg: 180, lat: 50, lon: 8 },
      { ident: '36', true_heading_deg: 360, lat: null, lon: null },
    ] };
    const drawn = airportPlan([oneEnd], null, null).runways[0]!;
    assert.equal(drawn.closed, true);
    close(bearingBetween(drawn.from, drawn.to), 180);
  });
});

describe('componentTriangle', () => {
  it('splits the wind into the API\'s headwind and crosswind, scaled alike', () => {
    const t = componentTriangle(chosen27R, wind(), 29);
    assert.ok(t.headwind && t.crosswind && t.wind);
    const length = (a: { from: { x: number; y: number }; to: { x: number; y: number } }) => Math.hypot(a.to.x - a.from.x, a.to.y - a.from.y);
    close(length(t.headwind) / t.scale, 10.4, 0.02);
    close(length(t.crosswind) / t.scale, 6.1, 0.02);
    // Headwind comes down the centreline from ahead; the crosswind from the right.
    close(bearingBetween(t.headwind.from, t.headwind.to), 180);
    close(bearingBetween(t.crosswind.from, t.crosswind.to), 270);
    assert.equal(t.headwind.label, 'headwind 10.4 kt');
    assert.equal(t.crosswind.label, 'crosswind 6.1 kt\nfrom the right');
    // The wind vector closes the triangle at 300 - 269.6 = 30.4° right of the nose.
    close(bearingBetween(t.wind.to, t.wind.from), 30.4, 0.5);
    // A 29 kt limit is far off a 12 kt drawing: said, not drawn.
    assert.equal(t.limit, null);
    assert.deepEqual(t.notes, ["The aircraft's crosswind limit, 29 kt, lies beyond the drawing."]);
  });

  it('draws the crosswind limit either side of the centreline when it fits', () => {
    const t = componentTriangle({ ...chosen27R, headwind_kt: 21.6, crosswind_kt: 12.7, max_crosswind_kt: 12.7 }, wind({ speed_kt: 25 }), 29);
    assert.ok(t.limit);
    close((t.limit.right_x - t.centre.x) / t.scale, 29, 0.02);
    close((t.centre.x - t.limit.left_x) / t.scale, 29, 0.02);
    assert.deepEqual(t.notes, []);
  });

  it('shows a tailwind from behind and a crosswind from the left', () => {
    const t = componentTriangle({ ...chosen27R, headwind_kt: -3, crosswind_kt: -4, max_crosswind_kt: 9, max_tailwind_kt: 5 }, wind({ gust_kt: 15 }), 15);
    assert.ok(t.headwind && t.crosswind);
    close(bearingBetween(t.headwind.from, t.headwind.to), 0);
    close(bearingBetween(t.crosswind.from, t.crosswind.to), 90);
    assert.equal(t.headwind.label, 'tailwind 3 kt');
    assert.equal(t.crosswind.label, 'crosswind 4 kt\nfrom the left');
    assert.ok(t.limit);
    assert.deepEqual(t.notes, ['Gusts and the direction range raise the crosswind to 9 kt.', 'Tailwind up to 5 kt with gusts.']);
  });

  it('draws no components without a mean wind', () => {
    const t = componentTriangle({ ...chosen27R, headwind_kt: null, crosswind_kt: null }, wind({ calm: true, speed_kt: 0 }), null);
    assert.equal(t.wind, null);
    assert.equal(t.headwind, null);
    assert.deepEqual(t.notes, ['Wind calm: no components.']);
    assert.equal(t.limit, null);
  });
});

describe('windLabel', () => {
  it('writes the wind as a briefing would', () => {
    assert.equal(windLabel(wind({ direction_deg: 50, gust_kt: 25 })), '050° 12 kt gusting 25');
    assert.equal(windLabel(wind({ calm: true })), 'calm');
  });
});
