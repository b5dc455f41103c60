// Edge triggering with hysteresis for threshold rules: an event opens when its value crosses the
// threshold and clears only once the value is back past the threshold by a dead band, so a value
// hovering at the threshold opens one event and does not flap. The dead bands per kind are data
// (DEAD_BANDS), listed in the README's "Events" section.
import type { EventKind } from './events.ts';

/** `above`: beyond means greater than the threshold; `below`: less than it. */
export type Direction = 'above' | 'below';

/** How far back past the threshold a value must come to clear: by an amount, or by a factor of the threshold. */
export type DeadBand = { amount: number } | { factor: number };

export interface Crossing {
  value: number;
  threshold: number;
  direction: Direction;
  deadBand: DeadBand;
  /** Whether the event is open now. */
  wasOpen: boolean;
}

/** `open` and `clear` are edges; `hold` keeps the event as it is (open or not). */
export type Edge = 'open' | 'clear' | 'hold';

/** The value past which an open event clears. */
export function clearingLine(threshold: number, direction: Direction, deadBand: DeadBand): number {
  if ('amount' in deadBand) return direction === 'above' ? threshold - deadBand.amount : threshold + deadBand.amount;
  return direction === 'above' ? threshold / deadBand.factor : threshold * deadBand.factor;
}

export function crossing({ value, threshold, direction, deadBand, wasOpen }: Crossing): Edge {
  if (!wasOpen) return (direction === 'above' ? value > threshold : value < threshold) ? 'open' : 'hold';
  const line = clearingLine(threshold, direction, deadBand);
  return (direction === 'above' ? value < line : value > line) ? 'clear' : 'hold';
}

export interface KindBand {
  direction: Direction;
  deadBand: DeadBand;
  /** The unit of the value and of an amount. */
  unit: string;
}

/** The dead band of each threshold kind. */
export const DEAD_BANDS = {
  'landing.crosswind_above': { direction: 'above', deadBand: { amount: 2 }, unit: 'kt' },
  'landing.safety_score_below': { direction: 'below', deadBand: { amount: 5 }, unit: 'score points (0–100)' },
  'landing.visibility_below': { direction: 'below', deadBand: { factor: 1.2 }, unit: 'm' },
  'vessel.eta_delayed': { direction: 'above', deadBand: { amount: 15 }, unit: 'min' },
} as const satisfies Partial<Record<EventKind, KindBand>>;

export type ThresholdKind = keyof typeof DEAD_BANDS;

/** `crossing` with the kind's direction and dead band. */
export const crossingFor = (kind: ThresholdKind, reading: { value: number; threshold: number; wasOpen: boolean }): Edge =>
  crossing({ ...reading, ...DEAD_BANDS[kind] });
