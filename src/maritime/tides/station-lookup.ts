// The tide station database's side of the station index: which stations are suitable, their
// summaries and predictor inputs, and a 1° grid for "the nearest suitable station to a point". It
// runs on the stations thread (stations-worker.ts), which owns the database.
//
// Suitable means the predictor can give water heights above a chart datum there:
// - a water-level station (`kind: 'tide'`): current stations predict stream speeds, not heights;
// - accepted by the database's quality gate (its `stations` list, not `allStations`);
// - with harmonic constituents: a subordinate station reads its reference station's, and the
//   predictor applies the subordinate's time and height offsets to them;
// - with MSL and its chart datum among its datums: the harmonic sum is about mean sea level, so
//   both are needed to move heights onto the chart datum.
//
// Commercial use (`commercial_use_allowed`) is forbidden when the licence identifier carries the
// Creative Commons NonCommercial element (`cc-by-nc-4.0`, `cc-by-nc-sa-4.0`, `cc-by-nc-nd-4.0`),
// or when the database marks the station `commercial_use: false`; either is enough. Such stations
// are still served, flagged, unless the caller asks for commercial-use stations only.

import type { Station as NeapsStation } from '@neaps/tide-database';
import type { Station as PredictorStation } from '@neaps/tide-predictor';
import type { LatLon } from '../../platform/geo/great-circle.ts';
import { createPointGrid } from '../../platform/geo/point-grid.ts';

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

/** A suitable station as it crosses to the serving thread: its summary and what the predictor needs. */
export interface StationRecord {
  station: TideStation;
  predictor: PredictorStation;
}

export interface StationLookup {
  get(id: string): StationRecord | null;
  /** The nearest suitable station within `radiusNm` (already checked), or null. */
  nearest(point: LatLon, radiusNm: number, commercialUseOnly: boolean): { record: StationRecord; distance_nm: number } | null;
}

/** The licence rule described at the top of this file. */
export function commercialUseAllowed(licence: { type: string; commercial_use: boolean }): boolean {
  return licence.commercial_use && !/(^|-)nc(-|$)/i.test(licence.type);
}

export function createStationLookup(all: readonly NeapsStation[]): StationLookup {
  const tideStations = all.filter((station) => station.kind === 'tide');
  const byId = new Map(tideStations.map((station) => [station.id, station]));
  const grid = createPointGrid(tideStations, (station) => ({ lat: station.latitude, lon: station.longitude }), (station) => station.id);

  // Constituents and datums are decoded lazily by the database, so suitability is decided (and
  // the answer kept) only for stations a request actually reaches.
  const records = new Map<string, StationRecord | null>();
  const recordOf = (station: NeapsStation): StationRecord | null => {
    let record = records.get(station.id);
    if (record === undefined) {
      record = summarise(station);
      records.set(station.id, record);
    }
    return record;
  };

  return {
    get(id) {
      const station = byId.get(id);
      return station === undefined ? null : recordOf(station);
    },
    nearest(point, radiusNm, commercialUseOnly) {
      for (const candidate of grid.nearest(point, radiusNm)) {
        const record = recordOf(candidate.item);
        if (record === null || (commercialUseOnly && !record.station.commercial_use_allowed)) continue;
        return { record, distance_nm: candidate.distance_nm };
      }
      return null;
    },
  };
}

function summarise(station: NeapsStation): StationRecord | null {
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
  return {
    station: {
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
    },
    predictor: {
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
    },
  };
}
