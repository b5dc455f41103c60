// The geometry of the briefing's two wind drawings, in SVG user units (x to the right, y down):
// the airport plan (every runway at its true heading, north up, the wind arrow on the side it
// blows from) and the component triangle (the recommended runway pointing up, the wind split into
// the headwind and crosswind the API computed). Pure functions, so the numbers can be tested
// without a browser; the components only draw what they are given.
import type { MetarWind, RecommendedRunway, Runway, RunwayEnd } from './types.ts';

// What the drawings read of the API's runways, wind and recommended runway end.
export type DiagramRunwayEnd = Pick<RunwayEnd, 'ident' | 'true_heading_deg' | 'lat' | 'lon'>;
export type DiagramRunway = Pick<Runway, 'designator' | 'length_ft' | 'width_ft' | 'closed'> & { ends: DiagramRunwayEnd[] };
export type DiagramWind = Omit<MetarWind, 'reported'>;
export type ChosenRunway = Omit<RecommendedRunway, 'ils_usable' | 'ils' | 'ils_system' | 'ils_out_by' | 'lighting_usable'>;

export interface Point {
  x: number;
  y: number;
}

export interface PlanRunway {
  key: string;
  /** The threshold of the first end and the threshold of the second. */
  from: Point;
  to: Point;
  /** The first end's true heading: the direction from `from` to `to`. */
  heading_deg: number;
  width: number;
  closed: boolean;
  chosen: boolean;
  labels: { ident: string; at: Point; chosen: boolean }[];
}

export interface WindArrow {
  /** Degrees true the wind blows from. */
  from_deg: number;
  tail: Point;
  head: Point;
  label: string;
  label_at: Point;
}

export interface AirportPlan {
  size: number;
  centre: Point;
  ring_radius: number;
  runways: PlanRunway[];
  /** The landing direction drawn on the recommended runway, from its threshold. */
  landing: { ident: string; heading_deg: number; from: Point; to: Point } | null;
  wind: WindArrow | null;
  /** The dddVddd range as an arc on the ring. */
  variable_arc: { from_deg: number; to_deg: number; path: string } | null;
  /** Said in the middle when there is no arrow to draw. */
  wind_note: string | null;
  /** Where the plan's runways came from: the airport's runway data, or only the chosen end. */
  basis: 'runways' | 'chosen_only';
}

const PLAN_SIZE = 320;
const RING_RADIUS = 140;
/** The runways fit inside this radius, leaving room for end labels and the wind arrow. */
const RUNWAY_RADIUS = 82;
const LABEL_GAP = 13;
const FEET = 0.3048;
/** Metres per degree of latitude (60 nautical miles). */
const METRES_PER_DEGREE = 111_120;

/** Unit vector of a compass bearing in SVG coordinates (north up, east right). */
export function bearingVector(deg: number): Point {
  const rad = (deg * Math.PI) / 180;
  return { x: Math.sin(rad), y: -Math.cos(rad) };
}

/** The compass bearing from one SVG point to another (north up, clockwise), in [0, 360). */
export function bearingBetween(from: Point, to: Point): number {
  const deg = (Math.atan2(to.x - from.x, -(to.y - from.y)) * 180) / Math.PI;
  return (deg + 360) % 360;
}

const add = (p: Point, v: Point, k: number): Point => ({ x: p.x + v.x * k, y: p.y + v.y * k });
const round = (n: number): number => Math.round(n * 100) / 100;
const roundPoint = (p: Point): Point => ({ x: round(p.x), y: round(p.y) });
const normalise = (deg: number): number => ((deg % 360) + 360) % 360;
const sameIdent = (a: string, b: string): boolean => a.trim().toUpperCase() === b.trim().toUpperCase();

/** "300° 12 kt", "300° 12 kt gusting 25", "variable 4 kt", "calm". */
export function windLabel(wind: DiagramWind): string {
  if (wind.calm) return 'calm';
  const gust = wind.gust_kt === null ? '' : ` gusting ${wind.gust_kt}`;
  const from = wind.direction_deg === null ? 'variable' : `${String(Math.round(wind.direction_deg)).padStart(3, '0')}°`;
  return `${from} ${wind.speed_kt} kt${gust}`;
}

interface RunwayInMetres {
  key: string;
  centre: Point;
  heading_deg: number;
  length_m: number;
  width_m: number;
  closed: boolean;
  ends: DiagramRunwayEnd[];
}

/** East/north metres of a position from a reference point (flat earth: an airport is small). */
function toMetres(lat: number, lon: number, ref: { lat: number; lon: number }): Point {
  return {
    x: (lon - ref.lon) * Math.cos((ref.lat * Math.PI) / 180) * METRES_PER_DEGREE,
    y: -(lat - ref.lat) * METRES_PER_DEGREE,
  };
}

function located(end: DiagramRunwayEnd | undefined): end is DiagramRunwayEnd & { lat: number; lon: number } {
  return end !== undefined && end.lat !== null && end.lon !== null;
}

/** Each runway as a centre, a heading and a length in metres; runways without an end are left out. */
function runwaysInMetres(runways: readonly DiagramRunway[]): RunwayInMetres[] {
  const anchor = runways.flatMap((r) => r.ends).find(located);
  const ref = anchor ? { lat: anchor.lat, lon: anchor.lon } : null;
  const out: RunwayInMetres[] = [];
  runways.forEach((runway, index) => {
    const [first, second] = runway.ends;
    if (!first) return;
    const heading = first.true_heading_deg;
    const along = bearingVector(heading);
    const thresholds = ref && located(first) && located(second)
      ? [toMetres(first.lat, first.lon, ref), toMetres(second.lat, second.lon, ref)]
      : null;
    const measured = thresholds ? Math.hypot(thresholds[1]!.x - thresholds[0]!.x, thresholds[1]!.y - thresholds[0]!.y) : null;
    const length = runway.length_ft !== null && runway.length_ft > 0 ? runway.length_ft * FEET : measured ?? 1000;
    let centre: Point = { x: 0, y: 0 };
    if (thresholds) centre = { x: (thresholds[0]!.x + thresholds[1]!.x) / 2, y: (thresholds[0]!.y + thresholds[1]!.y) / 2 };
    else if (ref && located(first)) centre = add(toMetres(first.lat, first.lon, ref), along, length / 2);
    else if (ref && located(second)) centre = add(toMetres(second.lat, second.lon, ref), along, -length / 2);
    out.push({
      key: runway.designator ?? (runway.ends.map((e) => e.ident).join('/') || String(index)),
      centre,
      heading_deg: heading,
      length_m: length,
      width_m: runway.width_ft !== null && runway.width_ft > 0 ? runway.width_ft * FEET : 30,
      closed: runway.closed,
      ends: runway.ends,
    });
  });
  return out;
}

/** An SVG arc along the ring, clockwise from one bearing to another. */
function ringArc(centre: Point, radius: number, fromDeg: number, toDeg: number): string {
  const start = add(centre, bearingVector(fromDeg), radius);
  const end = add(centre, bearingVector(toDeg), radius);
  const sweep = normalise(toDeg - fromDeg);
  const large = sweep > 180 ? 1 : 0;
  return `M ${round(start.x)} ${round(start.y)} A ${radius} ${radius} 0 ${large} 1 ${round(end.x)} ${round(end.y)}`;
}

/**
 * The airport plan: the runways at their true headings and places (from the threshold positions),
 * the recommended one marked with its landing direction, and the wind arrow pointing the way the
 * wind blows, from the side it comes from. Without runway data, the recommended end alone is drawn.
 */
export function airportPlan(runways: readonly DiagramRunway[], chosen: ChosenRunway | null, wind: DiagramWind | null): AirportPlan {
  const centre = { x: PLAN_SIZE / 2, y: PLAN_SIZE / 2 };
  let source = runwaysInMetres(runways);
  let basis: AirportPlan['basis'] = 'runways';
  const chosenIn = (r: RunwayInMetres) => chosen !== null && r.ends.some((e) => sameIdent(e.ident, chosen.designator));
  if (!source.some(chosenIn) && chosen !== null && chosen.true_heading_deg !== null) {
    // No runway data (or none matching): the recommended end on its own, centred.
    source = [{
      key: chosen.designator,
      centre: { x: 0, y: 0 },
      heading_deg: chosen.true_heading_deg,
      length_m: chosen.landing_length_m ?? 2000,
      width_m: 45,
      closed: false,
      ends: [{ ident: chosen.designator, true_heading_deg: chosen.true_heading_deg, lat: null, lon: null }],
    }];
    basis = 'chosen_only';
  }

  // Fit the runways' end points into the circle of RUNWAY_RADIUS around the plan's centre.
  const tips = source.flatMap((r) => [add(r.centre, bearingVector(r.heading_deg), -r.length_m / 2), add(r.centre, bearingVector(r.heading_deg), r.length_m / 2)]);
  const middle = tips.length === 0 ? { x: 0, y: 0 } : {
    x: (Math.min(...tips.map((p) => p.x)) + Math.max(...tips.map((p) => p.x))) / 2,
    y: (Math.min(...tips.map((p) => p.y)) + Math.max(...tips.map((p) => p.y))) / 2,
  };
  const reach = Math.max(1, ...tips.map((p) => Math.hypot(p.x - middle.x, p.y - middle.y)));
  const scale = RUNWAY_RADIUS / reach;
  const place = (p: Point): Point => ({ x: centre.x + (p.x - middle.x) * scale, y: centre.y + (p.y - middle.y) * scale });

  let landing: AirportPlan['landing'] = null;
  const drawn: PlanRunway[] = source.map((r) => {
    const along = bearingVector(r.heading_deg);
    const from = place(add(r.centre, along, -r.length_m / 2));
    const to = place(add(r.centre, along, r.length_m / 2));
    const isChosen = chosenIn(r);
    // Each end's label sits just before its threshold, where an aircraft landing on it comes from.
    const labels = r.ends.slice(0, 2).map((end, i) => {
      const threshold = i === 0 ? from : to;
      const outward = i === 0 ? -1 : 1;
      return { ident: end.ident, at: roundPoint(add(threshold, along, outward * LABEL_GAP)), chosen: isChosen && chosen !== null && sameIdent(end.ident, chosen.designator) };
    });
    if (isChosen && chosen) {
      const index = r.ends.findIndex((e) => sameIdent(e.ident, chosen.designator));
      const heading = chosen.true_heading_deg ?? r.ends[index]!.true_heading_deg;
      const threshold = index === 0 ? from : to;
      const lengthPx = Math.hypot(to.x - from.x, to.y - from.y);
      landing = {
        ident: r.ends[index]!.ident,
        heading_deg: heading,
        from: roundPoint(add(threshold, bearingVector(heading), lengthPx * 0.12)),
        to: roundPoint(add(threshold, bearingVector(heading), lengthPx * 0.55)),
      };
    }
    return {
      key: r.key,
      from: roundPoint(from),
      to: roundPoint(to),
      heading_deg: r.heading_deg,
      width: round(Math.min(14, Math.max(7, r.width_m * scale))),
      closed: r.closed,
      chosen: isChosen,
      labels,
    };
  });
  // The recommended runway is drawn last, over the others.
  drawn.sort((a, b) => Number(a.chosen) - Number(b.chosen));

  let arrow: WindArrow | null = null;
  let note: string | null = null;
  let arc: AirportPlan['variable_arc'] = null;
  if (wind === null) note = 'No wind reported';
  else if (wind.calm) note = 'Wind calm';
  else if (wind.direction_deg === null) note = `Wind ${windLabel(wind)}`;
  else {
    const v = bearingVector(wind.direction_deg);
    const tail = add(centre, v, RING_RADIUS - 4);
    const head = add(centre, v, RUNWAY_RADIUS + 6);
    // The label sits beside the arrow, on its clockwise side, turned towards the plan's inside edge.
    const side = bearingVector(wind.direction_deg + 90);
    arrow = {
      from_deg: wind.direction_deg,
      tail: roundPoint(tail),
      head: roundPoint(head),
      label: windLabel(wind),
      label_at: roundPoint(add(add(centre, v, (RING_RADIUS + RUNWAY_RADIUS) / 2), side, 18)),
    };
  }
  if (wind && wind.variable_from_deg !== null && wind.variable_to_deg !== null) {
    arc = { from_deg: wind.variable_from_deg, to_deg: wind.variable_to_deg, path: ringArc(centre, RING_RADIUS, wind.variable_from_deg, wind.variable_to_deg) };
  }
  return { size: PLAN_SIZE, centre, ring_radius: RING_RADIUS, runways: drawn, landing, wind: arrow, variable_arc: arc, wind_note: note, basis };
}

export interface ComponentArrow {
  kt: number;
  from: Point;
  to: Point;
  /** One line per `\n`. */
  label: string;
  label_at: Point;
}

export interface ComponentTriangle {
  width: number;
  height: number;
  /** The runway, landing upwards: its threshold at the bottom. */
  runway: { ident: string; from: Point; to: Point; width: number };
  /** Knots to user units. */
  scale: number;
  centre: Point;
  /** The wind vector (mean speed), ending at the centre. */
  wind: ComponentArrow | null;
  /** Along the runway: from ahead (headwind) or from behind (tailwind). */
  headwind: ComponentArrow | null;
  /** Across the runway, from the side it comes from. */
  crosswind: ComponentArrow | null;
  /** The aircraft's crosswind limit either side of the centreline, when it fits. */
  limit: { kt: number; left_x: number; right_x: number } | null;
  notes: string[];
}

const TRIANGLE_WIDTH = 260;
const TRIANGLE_HEIGHT = 320;
/** The wind (or its gust) is drawn this long. */
const ARROW_REACH = 95;
/** The crosswind limit lines are drawn when they fall this close to the centreline. */
const LIMIT_REACH = 118;
/** Half the drawn runway's width, where labels beside the centreline start. */
const STRIP_HALF = 11;

const kt = (n: number): string => `${Math.abs(Math.round(n * 10) / 10)} kt`;

/**
 * The component triangle for the recommended runway, as a pilot lined up on it sees it: the runway
 * points up, the crosswind arrow runs from the side it blows from to the centreline, the headwind
 * arrow along the centreline from ahead (or from behind for a tailwind), and the wind vector closes
 * the triangle. The lengths are the API's headwind and crosswind (mean wind), scaled alike.
 */
export function componentTriangle(chosen: ChosenRunway, wind: DiagramWind | null, crosswindLimitKt: number | null): ComponentTriangle {
  const centre = { x: TRIANGLE_WIDTH / 2, y: TRIANGLE_HEIGHT / 2 + 20 };
  const runway = {
    ident: chosen.designator,
    from: { x: centre.x, y: TRIANGLE_HEIGHT - 22 },
    to: { x: centre.x, y: 30 },
    width: STRIP_HALF * 2,
  };
  const notes: string[] = [];
  const head = chosen.headwind_kt;
  const cross = chosen.crosswind_kt;
  const strongest = Math.max(10, wind?.speed_kt ?? 0, wind?.gust_kt ?? 0, Math.abs(head ?? 0), Math.abs(cross ?? 0));
  const scale = ARROW_REACH / strongest;
  const limitFits = crosswindLimitKt !== null && crosswindLimitKt > 0 && crosswindLimitKt * scale <= LIMIT_REACH;
  const limit = limitFits ? { kt: crosswindLimitKt!, left_x: round(centre.x - crosswindLimitKt! * scale), right_x: round(centre.x + crosswindLimitKt! * scale) } : null;
  if (crosswindLimitKt !== null && !limitFits) notes.push(`The aircraft's crosswind limit, ${kt(crosswindLimitKt)}, lies beyond the drawing.`);

  if (head === null || cross === null) {
    notes.unshift(wind?.calm ? 'Wind calm: no components.' : 'No mean wind direction: components cannot be split.');
    return { width: TRIANGLE_WIDTH, height: TRIANGLE_HEIGHT, runway, scale: round(scale), centre, wind: null, headwind: null, crosswind: null, limit, notes };
  }
  // Crosswind positive: from the right. Headwind positive: from ahead (the top).
  const corner = { x: centre.x + cross * scale, y: centre.y - head * scale };
  const bend = { x: centre.x, y: corner.y };
  const fromRight = cross >= 0;
  const headwind: ComponentArrow | null = head === 0 ? null : {
    kt: head,
    from: roundPoint(bend),
    to: roundPoint(centre),
    label: head > 0 ? `headwind ${kt(head)}` : `tailwind ${kt(head)}`,
    // Beside the runway, on the side away from the crosswind.
    label_at: roundPoint({ x: centre.x + (fromRight ? -1 : 1) * (STRIP_HALF + 5), y: (bend.y + centre.y) / 2 }),
  };
  const crosswind: ComponentArrow | null = cross === 0 ? null : {
    kt: cross,
    from: roundPoint(corner),
    to: roundPoint(bend),
    label: `crosswind ${kt(cross)}\nfrom the ${fromRight ? 'right' : 'left'}`,
    // Its two lines above the arrow for a headwind, below it for a tailwind: away from the triangle.
    label_at: roundPoint({ x: centre.x + (fromRight ? 1 : -1) * (STRIP_HALF + 5), y: corner.y + (head >= 0 ? -27 : 14) }),
  };
  const speed = Math.hypot(head, cross);
  const windArrow: ComponentArrow | null = speed === 0 ? null : {
    kt: speed,
    from: roundPoint(corner),
    to: roundPoint(centre),
    label: wind ? windLabel(wind) : kt(speed),
    // Past the middle of the wind arrow, outside the triangle.
    label_at: roundPoint({ x: (corner.x + centre.x) / 2 + (fromRight ? 10 : -10), y: (corner.y + centre.y) / 2 + (head >= 0 ? 12 : -12) }),
  };
  if (chosen.max_crosswind_kt !== null && chosen.max_crosswind_kt > Math.abs(cross)) {
    notes.push(`Gusts and the direction range raise the crosswind to ${kt(chosen.max_crosswind_kt)}.`);
  }
  if (chosen.max_tailwind_kt !== null && chosen.max_tailwind_kt > 0) notes.push(`Tailwind up to ${kt(chosen.max_tailwind_kt)} with gusts.`);
  return { width: TRIANGLE_WIDTH, height: TRIANGLE_HEIGHT, runway, scale: round(scale), centre, wind: windArrow, headwind, crosswind, limit, notes };
}
