// Water levels and high/low waters at a tide station, from @neaps/tide-predictor.
//
// Heights are metres above one datum, named in every response: the station's chart datum unless
// the caller picks another of the station's `datums` (LAT, MLLW, MSL, ...). The predictor sums the
// harmonic constituents about mean sea level and adds (MSL − datum) from the station's datum
// table, so the timeline, the extremes and any depth compared with them share that one datum.
// Subordinate stations are predicted from their reference station with the subordinate's time and
// height offsets, as the predictor does it: its timeline interpolates between the offset extremes.
//
// Times are UTC. Timeline samples fall on whole multiples of the step since the epoch (10:00,
// 10:10, ...) within the period; extremes are found by the predictor to within a second.

import { useStation } from '@neaps/tide-predictor';
import type { StationPredictor } from '@neaps/tide-predictor';
import { TideInputError } from './errors.ts';
import { predictorStation } from './stations.ts';
import type { TideStation } from './stations.ts';

export const DEFAULT_STEP_MINUTES = 10;
export const MAX_STEP_MINUTES = 60;
export const MAX_PERIOD_DAYS = 14;

const MS_PER_MINUTE = 60_000;

export interface TideQuery {
  station: TideStation;
  /** How far the point of interest lies from the station, when it was found by position. */
  distance_nm?: number | null;
  from: Date;
  to: Date;
  /** Datum for heights; the station's chart datum when absent. */
  datum?: string;
}

export interface TimelineQuery extends TideQuery {
  step_minutes?: number;
}

/** What every tide response carries: the station with its licence and attribution, and the datum. */
export interface TideAnswer {
  station: TideStation;
  distance_nm: number | null;
  /** Heights are metres above this datum. */
  datum: string;
  from: string;
  to: string;
}

export interface WaterLevel {
  time: string;
  height_m: number;
}

export interface TideTimeline extends TideAnswer {
  step_minutes: number;
  levels: WaterLevel[];
}

export interface TideExtreme {
  time: string;
  type: 'high' | 'low';
  height_m: number;
}

export interface TideExtremes extends TideAnswer {
  extremes: TideExtreme[];
}

/** Unrounded heights on the step grid, covering the period: the first sample at or before `from`, the last at or after `to`. */
export interface Samples {
  times: number[];
  heights: number[];
}

export interface CheckedQuery {
  answer: TideAnswer;
  predictor: StationPredictor;
}

export function predictTimeline(query: TimelineQuery): TideTimeline {
  const checked = checkQuery(query);
  const step = checkStep(query.step_minutes);
  const samples = sampleHeights(checked, query, step);
  const from = query.from.getTime();
  const to = query.to.getTime();
  const levels: WaterLevel[] = [];
  samples.times.forEach((time, i) => {
    if (time >= from && time <= to) levels.push({ time: isoSecond(time), height_m: roundHeight(samples.heights[i]!) });
  });
  return { ...checked.answer, step_minutes: step, levels };
}

export function predictExtremes(query: TideQuery): TideExtremes {
  const checked = checkQuery(query);
  const from = query.from.getTime();
  const to = query.to.getTime();
  // A subordinate's extremes are its reference's, moved by the time offsets: search the
  // reference's over a period widened by the largest offset, then keep those in the period.
  const offsets = checked.predictor.offsets?.time;
  const padMs = Math.max(Math.abs(offsets?.high ?? 0), Math.abs(offsets?.low ?? 0)) * MS_PER_MINUTE;
  const predicted = checked.predictor.getExtremesPrediction({
    start: new Date(from - padMs),
    end: new Date(to + padMs),
    datum: checked.answer.datum,
  });
  const extremes = predicted.extremes
    .filter((extreme) => extreme.time.getTime() >= from && extreme.time.getTime() <= to)
    .sort((a, b) => a.time.getTime() - b.time.getTime())
    .map((extreme): TideExtreme => ({
      time: isoSecond(extreme.time.getTime()),
      type: extreme.high ? 'high' : 'low',
      height_m: roundHeight(extreme.level),
    }));
  return { ...checked.answer, extremes };
}

/** Validates the station, period and datum shared by every tide query. */
export function checkQuery(query: TideQuery): CheckedQuery {
  const { station, from, to } = query;
  if (!(from instanceof Date) || Number.isNaN(from.getTime())) throw new TideInputError('from', 'must be a valid time');
  if (!(to instanceof Date) || Number.isNaN(to.getTime())) throw new TideInputError('to', 'must be a valid time');
  if (to.getTime() <= from.getTime()) throw new TideInputError('to', 'must be after from');
  if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * 24 * 60 * MS_PER_MINUTE) {
    throw new TideInputError('to', `must be at most ${MAX_PERIOD_DAYS} days after from`);
  }
  const datum = query.datum ?? station.chart_datum;
  if (!Object.hasOwn(station.datums, datum)) {
    throw new TideInputError('datum', `must be one of the station's datums: ${Object.keys(station.datums).join(', ')}`);
  }
  const distance = query.distance_nm ?? null;
  if (distance !== null && !(Number.isFinite(distance) && distance >= 0)) {
    throw new TideInputError('distance_nm', 'must be a number of at least 0');
  }
  return {
    answer: { station, distance_nm: distance, datum, from: from.toISOString(), to: to.toISOString() },
    predictor: useStation(predictorStation(station)),
  };
}

export function checkStep(step: number | undefined): number {
  const minutes = step ?? DEFAULT_STEP_MINUTES;
  if (!(Number.isInteger(minutes) && minutes >= 1 && minutes <= MAX_STEP_MINUTES)) {
    throw new TideInputError('step_minutes', `must be a whole number from 1 to ${MAX_STEP_MINUTES}`);
  }
  return minutes;
}

export function sampleHeights(checked: CheckedQuery, query: TideQuery, stepMinutes: number): Samples {
  const { timeline } = checked.predictor.getTimelinePrediction({
    start: query.from,
    end: query.to,
    timeFidelity: stepMinutes * 60,
    datum: checked.answer.datum,
  });
  return { times: timeline.map((point) => point.time.getTime()), heights: timeline.map((point) => point.level) };
}

/** Millimetres: finer than any prediction is good for, coarse enough to hide float noise. */
export function roundHeight(metres: number): number {
  return Math.round(metres * 1000) / 1000;
}

/** The time to the whole second, ISO 8601 UTC. */
export function isoSecond(ms: number): string {
  return new Date(Math.round(ms / 1000) * 1000).toISOString();
}
