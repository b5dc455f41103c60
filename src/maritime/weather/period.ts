// The `from`/`to` query parameters of the tide and weather routes: defaults, order, length, and
// (for forecasts) how far from now a period may reach.
import { DateTime, instant, invalidField } from '../../platform/http/schema.ts';
import { HOUR_MS } from './model.ts';

export interface PeriodRules {
  /** Length of the period when `to` is absent. */
  defaultHours: number;
  maxHours: number;
  /** How long ago the period may start; unlimited when absent. */
  maxPastHours?: number;
  /** How far ahead of now the period may end; unlimited when absent. */
  maxAheadHours?: number;
}

export interface Period {
  from: number;
  to: number;
}

/** Schema properties for the two parameters, describing the rules. */
export function periodQuery(rules: PeriodRules) {
  return {
    from: DateTime(`Start (ISO 8601); default now${rules.maxPastHours === undefined ? '' : `; at most ${rules.maxPastHours} hours ago`}`),
    to: DateTime(
      `End (ISO 8601); default ${rules.defaultHours} hours after \`from\`; at most ${rules.maxHours} hours after it` +
        (rules.maxAheadHours === undefined ? '' : ` and ${rules.maxAheadHours} hours from now`),
    ),
  };
}

/** The period asked for, or a 400 naming the parameter at fault. */
export function readPeriod(query: { from?: string; to?: string }, rules: PeriodRules, now = Date.now()): Period {
  const from = query.from === undefined ? now : instant(query.from, '/querystring/from');
  const to = query.to === undefined ? from + rules.defaultHours * HOUR_MS : instant(query.to, '/querystring/to');
  if (to <= from) throw invalidField('/querystring/to', 'must be after `from`');
  if (to - from > rules.maxHours * HOUR_MS) throw invalidField('/querystring/to', `must be at most ${rules.maxHours} hours after \`from\``);
  if (rules.maxPastHours !== undefined && from < now - rules.maxPastHours * HOUR_MS) {
    throw invalidField('/querystring/from', `must be at most ${rules.maxPastHours} hours ago`);
  }
  if (rules.maxAheadHours !== undefined && to > now + rules.maxAheadHours * HOUR_MS) {
    throw invalidField('/querystring/to', `must be at most ${rules.maxAheadHours} hours from now (the forecast horizon)`);
  }
  return { from, to };
}
