// Tidal windows: when a vessel has enough water at a berth or in a channel.
//
//   required depth  = draught + under-keel clearance (UKC)
//   available depth = charted depth + predicted height of tide, both above the same datum
//   margin          = available − required; a window is a stretch of the period with margin ≥ 0.
//
// The charted depth is measured down from the datum of the tide heights: the station's chart datum
// unless the caller names another. A drying height is a negative charted depth.
//
// Default UKC: 10 % of the draught, at least 0.5 m. Ten per cent matches PIANC's concept-design
// depth/draught ratio of 1.10 for sheltered water (PIANC Report 121, Harbour Approach Channels
// Design Guidelines, 2014); exposed approaches need more, so a port's own UKC rule should be passed
// as `ukc_m`. The floor keeps a margin for sounding and prediction error when 10 % of a small
// draught would be a few centimetres.
//
// A period under way (it begins now or began before, and ends later) is answered from now: no window starts
// in the past, and one already open starts now with `open_now`. A period already over is answered
// as history, as asked.
//
// Precision: heights are sampled every `step_minutes` and a boundary is where the straight line
// between two samples crosses zero margin, so it is within one step of the true crossing (a dip
// below and back inside a single step would go unseen). With the default 10 min step the line is
// within a few millimetres of the tide curve and boundaries are usually within a minute; they are
// less certain where the tide turns close to the required level and the water barely changes.

import { TideInputError } from './errors.ts';
import { checkQuery, checkStep, isoSecond, roundHeight, sampleHeights } from './predict.ts';
import type { Samples, TideAnswer, TideQuery } from './predict.ts';

export const UKC_FRACTION_OF_DRAUGHT = 0.1;
export const MIN_DEFAULT_UKC_M = 0.5;
/** Deeper than any ship's draught (the deepest laden tankers draw about 25 m). */
export const MAX_DRAUGHT_M = 30;

export interface TidalWindowsQuery extends TideQuery {
  draught_m: number;
  /** Under-keel clearance; the default rule above when absent. */
  ukc_m?: number;
  /** Charted depth (a port's channel or berth depth) on the query's datum; negative for a drying height. */
  charted_depth_m: number;
  step_minutes?: number;
}

export interface TidalWindow {
  /** Never before the time of the request, unless the whole period is past. */
  start: string;
  end: string;
  duration_minutes: number;
  /** Lowest margin in the window: 0 where it opens or closes within the period. */
  min_margin_m: number;
  /** Highest sampled margin; the peak between samples may be a few millimetres higher. */
  max_margin_m: number;
  max_margin_at: string;
  /** Open at the time of the request: the window opened earlier and starts now. */
  open_now: boolean;
}

export interface TidalWindows extends TideAnswer {
  step_minutes: number;
  draught_m: number;
  ukc_m: number;
  /** True when `ukc_m` came from the default rule. */
  ukc_default: boolean;
  required_depth_m: number;
  charted_depth_m: number;
  navigable: 'always' | 'partly' | 'never';
  windows: TidalWindow[];
  /** The highest margin in the period, negative when it is never navigable. */
  best_margin_m: number;
  best_margin_at: string;
}

/** The default rule for under-keel clearance. */
export function defaultUkcM(draughtM: number): number {
  return Math.max(MIN_DEFAULT_UKC_M, roundHeight(UKC_FRACTION_OF_DRAUGHT * draughtM));
}

interface Point {
  time: number;
  margin: number;
}

interface OpenWindow {
  start: number;
  min: number;
  max: number;
  maxAt: number;
}

/** `now`: the time of the request, from which a period under way is answered. */
export function tidalWindows(asked: TidalWindowsQuery, now = Date.now()): TidalWindows {
  const underWay = asked.from.getTime() <= now && now < asked.to.getTime();
  const query = underWay ? { ...asked, from: new Date(now) } : asked;
  const { draught_m: draught, charted_depth_m: charted } = query;
  if (!(Number.isFinite(draught) && draught > 0 && draught <= MAX_DRAUGHT_M)) {
    throw new TideInputError('draught_m', `must be a number above 0 and at most ${MAX_DRAUGHT_M}`);
  }
  if (query.ukc_m !== undefined && !(Number.isFinite(query.ukc_m) && query.ukc_m >= 0 && query.ukc_m <= MAX_DRAUGHT_M)) {
    throw new TideInputError('ukc_m', `must be a number from 0 to ${MAX_DRAUGHT_M}`);
  }
  if (!Number.isFinite(charted)) throw new TideInputError('charted_depth_m', 'must be a number');
  const checked = checkQuery(query);
  const step = checkStep(query.step_minutes);

  const ukc = query.ukc_m ?? defaultUkcM(draught);
  const required = draught + ukc;
  const points = marginPoints(sampleHeights(checked, query, step), query.from.getTime(), query.to.getTime(), charted - required);

  let best = points[0]!;
  for (const point of points) if (point.margin > best.margin) best = point;

  const windows: TidalWindow[] = [];
  const close = (open: OpenWindow, end: number) => {
    if (end > open.start) windows.push(toWindow(open, end, underWay && open.start === now));
  };
  let open: OpenWindow | null = points[0]!.margin >= 0 ? startAt(points[0]!.time, points[0]!.margin) : null;
  for (let i = 1; i < points.length; i++) {
    const before = points[i - 1]!;
    const point = points[i]!;
    if (open === null) {
      if (point.margin >= 0) {
        open = startAt(crossing(before, point), 0);
        include(open, point);
      }
    } else if (point.margin < 0) {
      const end = crossing(before, point);
      open.min = Math.min(open.min, 0);
      close(open, end);
      open = null;
    } else {
      include(open, point);
    }
  }
  if (open !== null) close(open, points[points.length - 1]!.time);

  return {
    ...checked.answer,
    step_minutes: step,
    draught_m: draught,
    ukc_m: ukc,
    ukc_default: query.ukc_m === undefined,
    required_depth_m: roundHeight(required),
    charted_depth_m: charted,
    navigable: windows.length === 0 ? 'never' : points.every((point) => point.margin >= 0) ? 'always' : 'partly',
    windows,
    best_margin_m: roundHeight(best.margin),
    best_margin_at: isoSecond(best.time),
  };
}

/** Margins at `from`, at every sample strictly inside the period, and at `to`. */
function marginPoints(samples: Samples, from: number, to: number, offset: number): Point[] {
  const points: Point[] = [{ time: from, margin: heightAt(samples, from) + offset }];
  samples.times.forEach((time, i) => {
    if (time > from && time < to) points.push({ time, margin: samples.heights[i]! + offset });
  });
  points.push({ time: to, margin: heightAt(samples, to) + offset });
  return points;
}

/** Linear interpolation between the samples either side of `time`. */
function heightAt(samples: Samples, time: number): number {
  const { times, heights } = samples;
  let i = 0;
  while (i < times.length - 2 && times[i + 1]! < time) i++;
  const t0 = times[i]!;
  const t1 = times[i + 1] ?? t0;
  if (t1 === t0) return heights[i]!;
  return heights[i]! + ((heights[i + 1]! - heights[i]!) * (time - t0)) / (t1 - t0);
}

/** Where the straight line between two points of opposite sign reaches zero margin. */
function crossing(a: Point, b: Point): number {
  return a.time + ((b.time - a.time) * a.margin) / (a.margin - b.margin);
}

function startAt(time: number, margin: number): OpenWindow {
  return { start: time, min: margin, max: margin, maxAt: time };
}

function include(open: OpenWindow, point: Point): void {
  open.min = Math.min(open.min, point.margin);
  if (point.margin > open.max) {
    open.max = point.margin;
    open.maxAt = point.time;
  }
}

function toWindow(open: OpenWindow, end: number, openNow: boolean): TidalWindow {
  const start = isoSecond(open.start);
  const finish = isoSecond(end);
  return {
    start,
    end: finish,
    duration_minutes: Math.round((Date.parse(finish) - Date.parse(start)) / 60_000),
    min_margin_m: roundHeight(open.min),
    max_margin_m: roundHeight(open.max),
    max_margin_at: isoSecond(open.maxAt),
    open_now: openNow,
  };
}
