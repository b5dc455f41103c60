// REST for tides at a port: the water level timeline with high and low waters, and tidal windows
// for a vessel's draught, from the nearest suitable neaps tide station. Every answer names the
// station, its distance, the datum and the station's licence and attribution.
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { invalidField, nullable, Shared } from '../../platform/http/schema.ts';
import { IdParams, portById } from '../ports/ports.routes.ts';
import type { Port, PortIndex } from '../ports/ports.ts';
import { WPI_DEPTH_COLUMNS } from '../ports/wpi.ts';
import { periodQuery, readPeriod, type PeriodRules } from '../weather/period.ts';
import {
  DEFAULT_MAX_DISTANCE_NM,
  DEFAULT_STEP_MINUTES,
  MAX_DISTANCE_LIMIT_NM,
  MAX_DRAUGHT_M,
  MAX_PERIOD_DAYS,
  MAX_STEP_MINUTES,
  MIN_DEFAULT_UKC_M,
  predictExtremes,
  predictTimeline,
  tidalWindows,
  TideInputError,
  UKC_FRACTION_OF_DRAUGHT,
} from './index.ts';
import type { StationMatch, TideStationIndex } from './index.ts';

const TAG = 'Tides';
const PERIOD: PeriodRules = { defaultHours: 24, maxHours: MAX_PERIOD_DAYS * 24 };
const UKC_RULE = `${UKC_FRACTION_OF_DRAUGHT * 100} % of the draught, at least ${MIN_DEFAULT_UKC_M} m`;

export const noTideStation = problemType({
  code: 'no_tide_station',
  status: 404,
  title: 'No tide station near the port',
  description:
    `No suitable tide station (water levels with harmonic constituents and a chart datum) lies within the search radius of the port: ` +
    `${DEFAULT_MAX_DISTANCE_NM} nm unless \`max_distance_nm\` widens it (at most ${MAX_DISTANCE_LIMIT_NM} nm), counting only ` +
    'stations that allow commercial use when `commercial_use_only` is set. A station further away may mislead: check local tide tables.',
});

export const chartedDepthUnknown = problemType({
  code: 'charted_depth_unknown',
  status: 422,
  title: 'The charted depth is unknown',
  description:
    'Tidal windows need a charted depth: `charted_depth` in the request, or the port\'s World Port Index depth that `depth` names ' +
    '(the channel depth unless it names another). The World Port Index gives this port no such depth; the detail lists those it does give.',
});

/** The World Port Index depths a tidal window can be worked out over, by the `depth` parameter's values. */
const PORT_DEPTHS = {
  channel: 'channel_depth_m',
  cargo_pier: 'cargo_pier_depth_m',
  oil_terminal: 'oil_terminal_depth_m',
  anchorage: 'anchorage_depth_m',
} as const;
type PortDepth = keyof typeof PORT_DEPTHS;

/** The request parameter each refused tide input is read from. */
const PARAMETER_OF: Readonly<Record<string, string>> = {
  step_minutes: 'step',
  draught_m: 'draught',
  ukc_m: 'ukc',
  charted_depth_m: 'charted_depth',
};

const PortRefSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  lat: Type.Number(),
  lon: Type.Number(),
});

const StationSchema = Shared('TideStation', Type.Object({
  id: Type.String({ description: 'neaps station id, e.g. "noaa/9414290" or "ticon/brest-822-fra-uhslc_fd"' }),
  name: Type.String(),
  lat: Type.Number(),
  lon: Type.Number(),
  distance_nm: Type.Number({ description: 'Great-circle distance from the port position, 0.1 nm' }),
  country_code: Type.String(),
  timezone: Type.String({ description: 'IANA zone of the station; every time in the answer is UTC' }),
  type: Type.Enum(['reference', 'subordinate'], { description: 'A subordinate station is predicted from its reference station through time and height offsets' }),
  reference_id: nullable(Type.String()),
  chart_datum: Type.String({ description: 'The datum heights are given above unless `datum` picks another' }),
  datums: Type.Record(Type.String(), Type.Number(), { description: 'Each datum heights can be given above, in metres above the chart datum' }),
  source: Type.Object({ name: Type.String(), url: Type.String() }),
  licence: Type.Object({
    type: Type.String({ description: 'As the tide database gives it: "public domain", "cc-by-4.0", "cc-by-nc-4.0", ...' }),
    url: Type.String(),
    notes: nullable(Type.String()),
  }),
  attribution: Type.String({ description: 'The credit to show with any data from this station' }),
  commercial_use_allowed: Type.Boolean({ description: 'false when the licence forbids commercial use (a Creative Commons NonCommercial licence, or the database says so)' }),
  disclaimers: nullable(Type.String({ description: 'The source\'s own caveats about this station' })),
}));

const StationQuery = {
  datum: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: 'Give heights above this datum of the station (LAT, MLLW, MSL, ...); default its chart datum' })),
  max_distance_nm: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_DISTANCE_LIMIT_NM, description: `Search radius for the station around the port (default ${DEFAULT_MAX_DISTANCE_NM} nm)` })),
  commercial_use_only: Type.Optional(Type.Boolean({ description: 'Skip stations whose licence forbids commercial use' })),
  step: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_STEP_MINUTES, description: `Minutes between samples (default ${DEFAULT_STEP_MINUTES})` })),
};

const period = periodQuery(PERIOD);
const PeriodParams = { from: Type.Optional(period.from), to: Type.Optional(period.to) };

const answerFields = {
  port: PortRefSchema,
  station: StationSchema,
  datum: Type.String({ description: 'Heights and depths are metres above (depths: below) this datum of the station' }),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  step_minutes: Type.Integer(),
  disclaimer: Type.String(),
};

const TidesSchema = Type.Object({
  ...answerFields,
  levels: Type.Array(Type.Object({ time: Type.String({ format: 'date-time' }), height_m: Type.Number() }), {
    description: 'Predicted height of tide on the step grid within the period',
  }),
  extremes: Type.Array(Type.Object({
    time: Type.String({ format: 'date-time' }),
    type: Type.Enum(['high', 'low']),
    height_m: Type.Number(),
  }), { description: 'High and low waters within the period' }),
});

const WindowsSchema = Type.Object({
  ...answerFields,
  draught_m: Type.Number(),
  ukc_m: Type.Number({ description: 'Under-keel clearance used' }),
  ukc_default: Type.Boolean({ description: `true when \`ukc\` was not given and the default rule (${UKC_RULE}) set it` }),
  required_depth_m: Type.Number({ description: 'draught + under-keel clearance' }),
  charted_depth_m: Type.Number({ description: 'Below the answer\'s datum; negative for a drying height' }),
  charted_depth_source: Type.Enum(['given', ...Object.keys(PORT_DEPTHS).map((depth) => `port_${depth}_depth`)], {
    description: '`given`: `charted_depth` of the request; `port_channel_depth` (and the like, after `depth`): that World Port Index depth of the port, ' +
      'read as below the station\'s chart datum (moved to `datum` when another is asked for)',
  }),
  charted_depth_note: Type.String({
    description: 'Where the charted depth comes from, in words: the World Port Index field and entry, which index (built in or imported), and the datum it was read on',
  }),
  navigable: Type.Enum(['always', 'partly', 'never'], { description: 'Whether the available depth covers the required depth throughout the period, part of it, or never' }),
  windows: Type.Array(Shared('TidalWindow', Type.Object({
    start: Type.String({ format: 'date-time' }),
    end: Type.String({ format: 'date-time' }),
    duration_minutes: Type.Integer(),
    min_margin_m: Type.Number({ description: 'Lowest margin (available − required) in the window: 0 where it opens or closes inside the period' }),
    max_margin_m: Type.Number(),
    max_margin_at: Type.String({ format: 'date-time' }),
    open_now: Type.Boolean({
      description: 'true for a window already open at the time of the request: it opened earlier and `start` is now. No window of a period under way starts in the past; a period already over is answered as history',
    }),
  }))),
  best_margin_m: Type.Number({ description: 'Highest margin in the period; negative when never navigable' }),
  best_margin_at: Type.String({ format: 'date-time' }),
});

export interface TideApiDeps {
  ports: PortIndex;
  stations: () => Promise<TideStationIndex>;
}

export function registerTideRoutes(app: App, deps: TideApiDeps): void {
  const stationFor = async (port: Port, query: { max_distance_nm?: number; commercial_use_only?: boolean }): Promise<StationMatch> => {
    const radius = query.max_distance_nm ?? DEFAULT_MAX_DISTANCE_NM;
    const match = await (await deps.stations()).nearest(port, { max_distance_nm: radius, commercial_use_only: query.commercial_use_only === true });
    if (match === null) {
      const kind = query.commercial_use_only === true ? 'tide station allowing commercial use' : 'suitable tide station';
      throw new ProblemError(noTideStation, `No ${kind} lies within ${radius} nm of ${port.name} (${port.id}).`, { extra: { max_distance_nm: radius } });
    }
    return match;
  };

  app.get('/v3/maritime/ports/:id/tides', {
    schema: {
      summary: 'Water levels and high/low waters at a port',
      description:
        'Predicted from the harmonic constituents of the nearest suitable tide station in the neaps database, with the station, its ' +
        'distance, the datum, and its licence and attribution (stations whose licence forbids commercial use are flagged). ' +
        `Period from \`from\` (default now) to \`to\` (default 24 hours later), at most ${MAX_PERIOD_DAYS} days. ` +
        '400 for a malformed or out-of-range parameter or an unknown datum, 404 `port_not_found`, 404 `no_tide_station`.',
      tags: [TAG],
      params: IdParams,
      querystring: Type.Object({ ...PeriodParams, ...StationQuery }),
      response: { 200: TidesSchema },
    },
  }, async (request) => {
    const port = portById(deps.ports, request.params.id);
    const { from, to } = readPeriod(request.query, PERIOD);
    const match = await stationFor(port, request.query);
    const query = { station: match.station, distance_nm: match.distance_nm, from: new Date(from), to: new Date(to), datum: request.query.datum };
    const timeline = refusedAsBadRequest(() => predictTimeline({ ...query, step_minutes: request.query.step }));
    const { extremes } = refusedAsBadRequest(() => predictExtremes(query));
    return {
      port: portRef(port),
      station: stationView(match),
      datum: timeline.datum,
      from: timeline.from,
      to: timeline.to,
      step_minutes: timeline.step_minutes,
      levels: timeline.levels,
      extremes,
      disclaimer: DISCLAIMER,
    };
  });

  app.get('/v3/maritime/ports/:id/tidal-windows', {
    schema: {
      summary: 'When a vessel has enough water at a port',
      description:
        'Required depth = `draught` + under-keel clearance (`ukc`, or by default ' + UKC_RULE + '). Available depth = charted depth ' +
        '(`charted_depth`, or else the port\'s World Port Index depth that `depth` names, by default the channel depth, read as below the ' +
        'station\'s chart datum; `charted_depth_note` says which) + the predicted tide on the same datum. The windows are the stretches of ' +
        'the period where available ≥ required, each with its start, end and minimum margin; boundaries are interpolated between samples ' +
        '`step` minutes apart. A period under way is answered from now: a window already open starts now with `open_now`. ' +
        '400 for a malformed or out-of-range parameter (draught above 0 and at most ' + `${MAX_DRAUGHT_M} m, period at most ${MAX_PERIOD_DAYS} days), ` +
        '404 `port_not_found`, 404 `no_tide_station`, 422 `charted_depth_unknown`.',
      tags: [TAG],
      params: IdParams,
      querystring: Type.Object({
        draught: Type.Number({ exclusiveMinimum: 0, maximum: MAX_DRAUGHT_M, description: 'The vessel\'s draught in metres' }),
        ukc: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_DRAUGHT_M, description: `Under-keel clearance in metres; default ${UKC_RULE}` })),
        charted_depth: Type.Optional(Type.Number({ minimum: -50, maximum: 100, description: 'Charted depth in metres below `datum` (negative: drying height); default the port\'s World Port Index depth named by `depth`' })),
        depth: Type.Optional(Type.Enum(Object.keys(PORT_DEPTHS) as PortDepth[], {
          description: 'Which World Port Index depth of the port to use when `charted_depth` is absent: `channel` (the default: the way in, what a ' +
            'vessel entering must clear), `cargo_pier` or `oil_terminal` (alongside), `anchorage`',
        })),
        ...PeriodParams,
        ...StationQuery,
      }),
      response: { 200: WindowsSchema },
    },
  }, async (request) => {
    const query = request.query;
    const now = Date.now();
    const port = portById(deps.ports, request.params.id);
    const { from, to } = readPeriod(query, PERIOD, now);
    const depth = query.depth ?? 'channel';
    const portDepth = port[PORT_DEPTHS[depth]];
    if (query.charted_depth === undefined && portDepth === null) {
      const known = (Object.keys(PORT_DEPTHS) as PortDepth[]).flatMap((other) => {
        const value = port[PORT_DEPTHS[other]];
        return value === null ? [] : [`${depthLabel(other)} ${value} m (depth=${other})`];
      });
      const alternatives = known.length === 0 ? 'it gives none of its depths' : `it gives the ${known.join(', ')}`;
      const detail = `The World Port Index gives no ${depthLabel(depth)} for ${port.name} (${port.id}); ${alternatives}. Pass charted_depth${known.length === 0 ? '' : ' or depth'}.`;
      throw new ProblemError(chartedDepthUnknown, detail, { errors: [{ path: '/querystring/charted_depth', message: detail }] });
    }
    const match = await stationFor(port, query);
    const datum = query.datum ?? match.station.chart_datum;
    const datumAboveChart = match.station.datums[datum];
    if (datumAboveChart === undefined) {
      throw invalidField('/querystring/datum', `must be one of the station's datums: ${Object.keys(match.station.datums).join(', ')}`);
    }
    // A depth below the chart datum lies deeper below any datum above it.
    const charted = query.charted_depth ?? portDepth! + datumAboveChart;
    const note = query.charted_depth === undefined
      ? portDepthNote(port, depth, deps.ports.meta.wpi, { chart: match.station.chart_datum, datum, datumAboveChart, charted })
      : `Given in the request: ${query.charted_depth} m below ${datum}.`;
    const result = refusedAsBadRequest(() => tidalWindows({
      station: match.station,
      distance_nm: match.distance_nm,
      from: new Date(from),
      to: new Date(to),
      datum,
      draught_m: query.draught,
      ukc_m: query.ukc,
      charted_depth_m: charted,
      step_minutes: query.step,
    }, now));
    const { station: _station, distance_nm: _distance, ...windows } = result;
    return {
      ...windows,
      port: portRef(port),
      station: stationView(match),
      charted_depth_m: roundDepth(charted),
      charted_depth_source: query.charted_depth === undefined ? `port_${depth}_depth` : 'given',
      charted_depth_note: note,
      disclaimer: DISCLAIMER,
    };
  });
}

function depthLabel(depth: PortDepth): string {
  return `${depth.replace('_', ' ')} depth`;
}

function roundDepth(metres: number): number {
  return Math.round(metres * 1000) / 1000;
}

/** Which World Port Index depth the windows are worked out over, from which index, on which datum. */
function portDepthNote(
  port: Port,
  depth: PortDepth,
  wpi: PortIndex['meta']['wpi'],
  on: { chart: string; datum: string; datumAboveChart: number; charted: number },
): string {
  const field = PORT_DEPTHS[depth];
  const index = wpi === null ? 'the World Port Index'
    : wpi.built_in ? `the World Port Index built into LAMIS (compiled ${wpi.imported_at.slice(0, 10)})`
    : `the World Port Index imported from ${wpi.origin} on ${wpi.imported_at.slice(0, 10)}`;
  const moved = on.datum === on.chart ? '' : `; ${on.datum} lies ${on.datumAboveChart} m above it, so ${roundDepth(on.charted)} m below ${on.datum}`;
  return `The ${depthLabel(depth)} of ${port.name} (WPI ${port.wpi_number}, "${WPI_DEPTH_COLUMNS[field]}") in ${index}: ${port[field]} m, ` +
    `read as below the station's chart datum ${on.chart}${moved}. Most WPI depths are the lower edge of a 5-foot band: read it as "at least".`;
}

function portRef(port: Port) {
  return { id: port.id, name: port.name, lat: port.lat, lon: port.lon };
}

function stationView(match: StationMatch) {
  return { ...match.station, distance_nm: Math.round(match.distance_nm * 10) / 10 };
}

/** Runs a tide computation, turning its refusal of an input into a 400 naming the query parameter. */
function refusedAsBadRequest<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (!(error instanceof TideInputError)) throw error;
    throw invalidField(`/querystring/${PARAMETER_OF[error.field] ?? error.field}`, error.message.slice(error.field.length + 1));
  }
}
