// METAR and TAF per airport: the latest report from any source, decoded and with what it means
// (flight category, conditions, wind shear risk, runway wind), and reports pushed by operators of
// the instance. Every organisation is briefed on the same reports, so only operators push them.
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import { operatorsOnly } from '../../platform/http/operators.ts';
import { textBodyRoutes } from '../../platform/http/schema.ts';
import { airportFor, IcaoParams } from '../reference/airports.routes.ts';
import type { Airport } from '../reference/airports.ts';
import { TAG, type AviationServices } from '../services.ts';
import { conditions, deriveWeather, flightCategory, visibilityNm, windComponents } from './derive.ts';
import { parseMetar } from './metar.ts';
import type { ReportKind, StoredReport } from './reports.ts';
import { parseTaf, tafConditionsAt } from './taf.ts';
import type { Metar, SkyConditions, Taf } from './types.ts';
import { MetarReportSchema, TafReportSchema } from './weather.schemas.ts';

export const noReport = problemType({
  code: 'no_report',
  status: 404,
  title: 'No report for this airport',
  description: 'LAMIS holds no METAR (or TAF) for the airport: its source has none, or none is configured and no operator has pushed one.',
});

export const invalidReport = problemType({
  code: 'invalid_report',
  status: 422,
  title: 'The report was refused',
  description:
    'A pushed METAR or TAF was not stored. `reason` says why: `bad_station`, `wrong_kind` (a TAF sent as a METAR or the reverse), ' +
    '`invalid_report` (it does not decode; `report_error` gives the decoder\'s reason), `station_mismatch` (for another airport) or ' +
    '`in_future` (dated more than 10 minutes ahead).',
});

function common(report: StoredReport, now: number) {
  return {
    icao: report.icao,
    source: report.source,
    raw: report.raw,
    observed_at: report.observed_at,
    received_at: report.received_at,
    checked_at: report.checked_at,
    age_s: report.age_s,
    observation_age_s: Math.max(0, Math.floor((now - Date.parse(report.observed_at)) / 1000)),
    freshness: report.freshness,
    disclaimer: DISCLAIMER,
  };
}

/**
 * Stored reports are decoded leniently: a live report with one malformed wind or pressure group
 * still says what it can (the group is listed in `invalid_groups`). Pushed reports were checked
 * strictly when they came in.
 */
function decodeMetar(report: StoredReport): ReturnType<typeof parseMetar> {
  return parseMetar(report.raw, { now: new Date(report.received_at), lenient: true });
}

function decodeTaf(report: StoredReport): ReturnType<typeof parseTaf> {
  return parseTaf(report.raw, { now: new Date(report.received_at) });
}

function metarView(report: StoredReport, airport: Airport, taf: Taf | undefined, now: number) {
  const parsed = decodeMetar(report);
  if (!parsed.ok) return { ...common(report, now), kind: 'metar' as const, decoded: null, derived: null, decode_error: parsed.error };
  const metar = parsed.metar;
  return { ...common(report, now), kind: 'metar' as const, decoded: metar, derived: metarDerived(metar, airport, taf), decode_error: null };
}

function metarDerived(metar: Metar, airport: Airport, taf: Taf | undefined) {
  const derived = deriveWeather(metar, { taf });
  const runwayWind = airport.runways.flatMap((runway) => runway.ends).flatMap((end) => {
    const components = windComponents(metar.wind, end.true_heading_deg);
    return components === null ? [] : [{ runway: end.ident, true_heading_deg: end.true_heading_deg, ...components }];
  });
  return {
    flight_category: derived.flight_category,
    flight_category_at_best: derived.flight_category_at_best,
    visibility_nm: derived.visibility_nm,
    ceiling_ft: metar.ceiling_ft,
    conditions: derived.conditions,
    wind: metar.wind,
    wind_shear_risk: derived.wind_shear_risk,
    runway_wind: runwayWind,
  };
}

function period(sky: SkyConditions) {
  return {
    flight_category: flightCategory(sky),
    visibility_nm: visibilityNm(sky.visibility),
    ceiling_ft: sky.ceiling_ft,
    conditions: conditions(sky),
    wind: sky.wind,
  };
}

function tafView(report: StoredReport, now: number) {
  const parsed = decodeTaf(report);
  if (!parsed.ok) return { ...common(report, now), kind: 'taf' as const, decoded: null, derived: null, decode_error: parsed.error };
  const taf = parsed.taf;
  const inForce = tafConditionsAt(taf, new Date(now));
  const derived = inForce.ok
    ? {
      at: inForce.conditions.at,
      in_validity: true,
      prevailing: period(inForce.conditions.prevailing),
      changes: inForce.conditions.changes.map((change) => ({
        change: change.change as 'BECMG' | 'TEMPO' | 'INTER' | 'PROB',
        probability: change.probability,
        from: change.from,
        to: change.to,
        flight_category: flightCategory(change),
        conditions: conditions(change),
        raw: change.raw,
      })),
      wind_shear: inForce.conditions.wind_shear,
    }
    : { at: new Date(now).toISOString(), in_validity: false, prevailing: null, changes: [], wind_shear: [] };
  return { ...common(report, now), kind: 'taf' as const, decoded: taf, derived, decode_error: null };
}

/** The latest TAF as decoded, for the wind shear rules that read it; undefined when none decodes. */
async function latestTaf(services: AviationServices, icao: string): Promise<Taf | undefined> {
  const report = await services.weather.latest(icao, 'taf');
  if (report === null) return undefined;
  const parsed = decodeTaf(report);
  return parsed.ok ? parsed.taf : undefined;
}

const KIND_NAMES: Record<ReportKind, string> = { metar: 'METAR', taf: 'TAF' };

export function registerWeatherRoutes(app: App, services: AviationServices): void {
  const { weather } = services;

  app.get('/v3/aviation/airports/:icao/metar', {
    schema: {
      summary: 'The latest METAR of an airport, decoded, with what it means',
      description:
        'The newest observation from any source (live feed, simulator or operator push), its freshness, the decode, and derived values: ' +
        'flight category, visibility in nm, ceiling, conditions, wind shear risk (reading the latest TAF too) and the wind components on each runway end. ' +
        'Rules: see the weather RULES. 404 `no_report` when there is none.',
      tags: [TAG],
      params: IcaoParams,
      response: { 200: MetarReportSchema },
    },
  }, async (request) => {
    const airport = airportFor(services, request.params.icao);
    const report = await weather.latest(airport.icao, 'metar');
    if (report === null) throw new ProblemError(noReport, `No METAR is held for ${airport.icao}.`);
    return metarView(report, airport, await latestTaf(services, airport.icao), Date.now());
  });

  app.get('/v3/aviation/airports/:icao/taf', {
    schema: {
      summary: 'The latest TAF of an airport, decoded, with what is forecast now',
      description:
        'The newest TAF from any source, its freshness, the decode, and what it says is in force now: the prevailing conditions ' +
        '(flight category, visibility, ceiling, conditions, wind) and the temporary or probable changes. 404 `no_report` when there is none.',
      tags: [TAG],
      params: IcaoParams,
      response: { 200: TafReportSchema },
    },
  }, async (request) => {
    const airport = airportFor(services, request.params.icao);
    const report = await weather.latest(airport.icao, 'taf');
    if (report === null) throw new ProblemError(noReport, `No TAF is held for ${airport.icao}.`);
    return tafView(report, Date.now());
  });

  textBodyRoutes(app, { types: ['text/plain'] }, (scope) => {
    const push = (kind: ReportKind, schema: typeof MetarReportSchema | typeof TafReportSchema) => {
      const name = KIND_NAMES[kind];
      scope.post(`/v3/aviation/airports/:icao/${kind}`, {
        preValidation: operatorsOnly(`Only an operator of this instance may push a ${name}: every organisation is briefed on it.`),
        schema: {
          summary: `Push a ${name} (operators)`,
          description:
            `For operators of this instance only (403 \`forbidden\` for organisation keys): the newest ${name} is what every organisation is briefed on. ` +
            `Body: one raw ${name} as \`text/plain\`. It must decode strictly, be for this airport and not be dated more than 10 minutes ahead; ` +
            `it is stored with source \`operator\` and served when it is the newest. 201 with the report as stored; ` +
            '422 `invalid_report` with the `reason` otherwise.',
          tags: [TAG],
          consumes: ['text/plain'],
          params: IcaoParams,
          body: Type.String({ description: `A raw ${name}` }),
          response: { 201: schema },
        },
      }, async (request, reply) => {
        const airport = airportFor(services, request.params.icao);
        const result = await weather.submit(airport.icao, kind, request.body);
        if (!result.ok) {
          const { code, message, report_error } = result.error;
          throw new ProblemError(invalidReport, message, { extra: { reason: code, ...(report_error ? { report_error } : {}) } });
        }
        const now = Date.now();
        reply.code(201).header('Location', `/v3/aviation/airports/${airport.icao}/${kind}`);
        return kind === 'metar' ? metarView(result.report, airport, await latestTaf(services, airport.icao), now) : tafView(result.report, now);
      });
    };
    push('metar', MetarReportSchema);
    push('taf', TafReportSchema);
  });
}
