// Tide stations from the neaps database (@neaps/tide-database), loaded on first use and kept, with
// a 1° grid for "the nearest suitable station to a point".
//
// Suitable means the predictor can give water heights above a chart datum there:
// - a water-level station (`kind: 'tide'`): current stations predict stream speeds, not heights;
// - accepted by the database's quality gate (its `stations` list, not `allStations`);
// - with harmonic constituents: a subordinate station reads its reference station's, and the
//   predictor applies the subordinate's time and height offsets to them;
// - with MSL and its chart datum among its datums: the harmonic sum is about mean sea level, so
//   both are needed to move heights onto the chart datum.
// It must also lie within the search radius: DEFAULT_MAX_DISTANCE_NM unless the caller narrows or
// widens it (up to MAX_DISTANCE_LIMIT_NM). Beyond about 50 nm the time and range of the tide
// commonly differ enough from the station's to mislead; in estuaries, pass a smaller radius.
//
// Commercial use (`commercial_use_allowed`) is forbidden when the licence identifier carries the
// Creative Commons NonCommercial element (`cc-by-nc-4.0`, `cc-by-nc-sa-4.0`, `cc-by-nc-nd-4.0`),
// or when the database marks the station `commercial_use: false`; either is enough. Such stations
// are still served, flagged, unless the caller asks for commercial-use stations only.

import type { Station as NeapsStation } from '@neaps/tide-database';
import type { Station as PredictorStation } from '@neaps/tide-predictor';
import type { LatLon } from '../../platform/geo/great-circle.ts';
import { createPointGrid } from '../../platform/geo/point-grid.ts';
import { TideInputError } from './errors.ts';

export const DEFAULT_MAX_DISTANCE_NM = 50;
export const MAX_DISTANCE_LIMIT_NM = 200;

/**
 * Datum names that are water levels heights can be given above. The database also lists ranges
 * (GT, MN), inequalities (DHQ, DLQ), lunitidal intervals in hours (HWI, LWI) and a river datum
 * correction (CRD_OFFSET) among its datums; those are not levels and are never offered.
 */
const LEVEL_DATUMS: ReadonlySet<string> = new Set([
  'LAT', 'HAT', 'MLLW', 'MLW', 'MLWS', 'MLWN', 'MHW', 'MHHW', 'MHWS', 'MHWN', 'MSL', 'MTL', 'DTL',
  'LLWLT', 'NLLW', 'TLT', 'CD', 'STND', 'NAVD88', 'NN2000', 'PRVD02', 'VIVD09', 'GUVD04', 'NMVD03',
]);

export interface TideStationLicence {
  /** The licence identifier as the database gives it: `public domain`, `cc-by-4.0`, `cc-by-nc-4.0`, `MIT`. */
  type: string;
  url: string;
  notes: string | null;
}

export interface TideStation {
  id: string;
  name: string;
  lat: number;
  lon: number;
  country_code: string;
  /** IANA zone of the station, for showing local times; all times in responses are UTC. */
  timezone: string;
  /** A subordinate station predicts from its reference station's constituents through offsets. */
  type: 'reference' | 'subordinate';
  reference_id: string | null;
  /** The datum heights are given above unless the caller picks another: the station's chart datum. */
  chart_datum: string;
  /**
   * Each datum heights can be given above, with its height in metres above `chart_datum`. For a
   * subordinate station the database gives its reference station's table.
   */
  datums: Record<string, number>;
  source: { name: string; url: string };
  licence: TideStationLicence;
  /** The credit to display with any data from this station, as the database assembles it. */
  attribution: string;
  commercial_use_allowed: boolean;
  /** The source's own caveats about this station's data, where it states any. */
  disclaimers: string | null;
}

export interface StationMatch {
  station: TideStation;
  distance_nm: number;
}

export interface NearestOptions {
  /** Search radius, DEFAULT_MAX_DISTANCE_NM unless given; at most MAX_DISTANCE_LIMIT_NM. */
  max_distance_nm?: number;
  /** Skip stations whose licence forbids commercial use. */
  commercial_use_only?: boolean;
}

export interface TideStationIndex {
  /** The station with this id, or null when it is unknown or not suitable. */
  get(id: string): TideStation | null;
  /** The nearest suitable station within the radius, or null when there is none. */
  nearest(point: LatLon, options?: NearestOptions): StationMatch | null;
}

/** The predictor's view of each station handed out, so predictions need no second look-up. */
const predictorInputs = new WeakMap<TideStation, PredictorStation>();

/** What the predictor needs for a station this module handed out. */
export function predictorStation(station: TideStation): PredictorStation {
  const input = predictorInputs.get(station);
  if (input === undefined) throw new TypeError(`tide station ${station.id} did not come from loadTideStations()`);
  return input;
}

/** The licence rule described at the top of this file. */
export function commercialUseAllowed(licence: { type: string; commercial_use: boolean }): boolean {
  return licence.commercial_use && !/(^|-)nc(-|$)/i.test(licence.type);
}

let loading: Promise<TideStationIndex> | null = null;

/** The station index; the database (about 9 MB) is read on the first call only. */
export function loadTideStations(): Promise<TideStationIndex> {
  loading ??= import('@neaps/tide-database').then((database) => createIndex(database.stations));
  return loading;
}

function createIndex(all: readonly NeapsStation[]): TideStationIndex {
  const tideStations = all.filter((station) => station.kind === 'tide');
  const byId = new Map(tideStations.map((station) => [station.id, station]));
  const grid = createPointGrid(tideStations, (station) => ({ lat: station.latitude, lon: station.longitude }), (station) => station.id);

  // Constituents and datums are decoded lazily by the database, so suitability is decided (and
  // the answer kept) only for stations a request actually reaches.
  const summaries = new Map<string, TideStation | null>();
  const summaryOf = (station: NeapsStation): TideStation | null => {
    let summary = summaries.get(station.id);
    if (summary === undefined) {
      summary = summarise(station);
      summaries.set(station.id, summary);
    }
    return summary;
  };

  return {
    get(id) {
      const station = byId.get(id);
      return station === undefined ? null : summaryOf(station);
    },
    nearest(point, options = {}) {
      checkPoint(point);
      const radius = options.max_distance_nm ?? DEFAULT_MAX_DISTANCE_NM;
      if (!(Number.isFinite(radius) && radius >= 0 && radius <= MAX_DISTANCE_LIMIT_NM)) {
        throw new TideInputError('max_distance_nm', `must be a number from 0 to ${MAX_DISTANCE_LIMIT_NM}`);
      }
      for (const candidate of grid.nearest(point, radius)) {
        const summary = summaryOf(candidate.item);
        if (summary === null || (options.commercial_use_only === true && !summary.commercial_use_allowed)) continue;
        return { station: summary, distance_nm: candidate.distance_nm };
      }
      return null;
    },
  };
}

function summarise(station: NeapsStation): TideStation | null {
  const chartDatum = station.chart_datum;
  const levels = station.datums;
  if (station.harmonic_constituents.length === 0) return null;
  if (chartDatum === undefined || !LEVEL_DATUMS.has(chartDatum)) return null;
  const zero = levels[chartDatum];
  if (zero === undefined || levels.MSL === undefined) return null;

  const datums: Record<string, number> = {};
  for (const [name, value] of Object.entries(levels)) {
    if (LEVEL_DATUMS.has(name)) datums[name] = Math.round((value - zero) * 1000) / 1000;
  }
  const summary: TideStation = {
    id: station.id,
    name: station.name,
    lat: station.latitude,
    lon: station.longitude,
    country_code: station.country_code,
    timezone: station.timezone,
    type: station.type,
    reference_id: station.offsets?.reference ?? null,
    chart_datum: chartDatum,
    datums,
    source: { name: station.source.name, url: station.source.url },
    licence: { type: station.license.type, url: station.license.url, notes: station.license.notes ?? null },
    attribution: station.attribution,
    commercial_use_allowed: commercialUseAllowed(station.license),
    disclaimers: station.disclaimers ?? null,
  };
  predictorInputs.set(summary, {
    id: station.id,
    name: station.name,
    continent: station.continent,
    country: station.country,
    timezone: station.timezone,
    disclaimers: station.disclaimers ?? '',
    latitude: station.latitude,
    longitude: station.longitude,
    source: station.source,
    datums: levels,
    chart_datum: chartDatum,
    type: station.type,
    harmonic_constituents: station.harmonic_constituents,
    offsets: station.offsets,
  });
  return summary;
}

function checkPoint(point: LatLon): void {
  if (!(Number.isFinite(point.lat) && Math.abs(point.lat) <= 90)) throw new TideInputError('lat', 'must be a number from -90 to 90');
  if (!(Number.isFinite(point.lon) && Math.abs(point.lon) <= 180)) throw new TideInputError('lon', 'must be a number from -180 to 180');
}
