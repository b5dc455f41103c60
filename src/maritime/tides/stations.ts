// The tide station index the service asks: the nearest suitable station to a point, or a station
// by id. The neaps database (@neaps/tide-database) lives on a thread of its own, started on the
// first use and kept (stations-worker.ts; which stations are suitable: station-lookup.ts); the
// stations it hands out are kept here, one object per station, with what the predictor needs.
//
// A station must lie within the search radius: DEFAULT_MAX_DISTANCE_NM unless the caller narrows or
// widens it (up to MAX_DISTANCE_LIMIT_NM). Beyond about 50 nm the time and range of the tide
// commonly differ enough from the station's to mislead; in estuaries, pass a smaller radius.

import { Worker } from 'node:worker_threads';
import type { Station as PredictorStation } from '@neaps/tide-predictor';
import type { LatLon } from '../../platform/geo/great-circle.ts';
import { TideInputError } from './errors.ts';
import type { StationRecord, TideStation } from './station-lookup.ts';

export type { TideStation, TideStationLicence } from './station-lookup.ts';

export const DEFAULT_MAX_DISTANCE_NM = 50;
export const MAX_DISTANCE_LIMIT_NM = 200;

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
  get(id: string): Promise<TideStation | null>;
  /**
   * The nearest suitable station within the radius, or null when there is none. Bad input throws
   * a TideInputError at once, before the stations thread is asked.
   */
  nearest(point: LatLon, options?: NearestOptions): Promise<StationMatch | null>;
}

/** What the stations thread is asked. */
export type StationQuestion = Question & {
  /** Numbers the question, for its answer. */
  asked: number;
};

type Question = { kind: 'get'; id: string } | { kind: 'nearest'; point: LatLon; radius_nm: number; commercial_use_only: boolean };

/** The stations thread's answer; `distance_nm` is the match's when the question was by position. */
export interface StationAnswer {
  asked: number;
  match: StationRecord | null;
  distance_nm: number | null;
}

/** The predictor's view of each station handed out, so predictions need no second look-up. */
const predictorInputs = new WeakMap<TideStation, PredictorStation>();

/** What the predictor needs for a station this module handed out. */
export function predictorStation(station: TideStation): PredictorStation {
  const input = predictorInputs.get(station);
  if (input === undefined) throw new TypeError(`tide station ${station.id} did not come from loadTideStations()`);
  return input;
}

/** The station index, once the stations thread has the database (read on the first call only). */
export async function loadTideStations(): Promise<TideStationIndex> {
  await stationsThread.started();
  return stationIndex;
}

function createIndex(thread: StationsThread): TideStationIndex {
  // One object per station, so predictorInputs knows every station handed out.
  const known = new Map<string, TideStation | null>();
  const adopt = (id: string, record: StationRecord | null): TideStation | null => {
    const kept = known.get(id);
    if (kept !== undefined) return kept;
    if (record !== null) predictorInputs.set(record.station, record.predictor);
    known.set(id, record?.station ?? null);
    return record?.station ?? null;
  };
  return {
    async get(id) {
      const kept = known.get(id);
      if (kept !== undefined) return kept;
      const answer = await thread.ask({ kind: 'get', id });
      return adopt(id, answer.match);
    },
    nearest(point, options = {}) {
      checkPoint(point);
      const radius = options.max_distance_nm ?? DEFAULT_MAX_DISTANCE_NM;
      if (!(Number.isFinite(radius) && radius >= 0 && radius <= MAX_DISTANCE_LIMIT_NM)) {
        throw new TideInputError('max_distance_nm', `must be a number from 0 to ${MAX_DISTANCE_LIMIT_NM}`);
      }
      const question = { kind: 'nearest', point: { lat: point.lat, lon: point.lon }, radius_nm: radius, commercial_use_only: options.commercial_use_only === true } as const;
      return thread.ask(question).then(({ match, distance_nm }) => (match === null ? null : { station: adopt(match.station.id, match)!, distance_nm: distance_nm! }));
    },
  };
}

function checkPoint(point: LatLon): void {
  if (!(Number.isFinite(point.lat) && Math.abs(point.lat) <= 90)) throw new TideInputError('lat', 'must be a number from -90 to 90');
  if (!(Number.isFinite(point.lon) && Math.abs(point.lon) <= 180)) throw new TideInputError('lon', 'must be a number from -180 to 180');
}

/**
 * The stations thread, started when first needed and again after a failure. It keeps the process
 * alive only while it starts or has questions to answer.
 */
class StationsThread {
  #thread: Promise<Worker> | null = null;
  readonly #waiting = new Map<number, { resolve: (answer: StationAnswer) => void; reject: (error: Error) => void }>();
  #asked = 0;

  /** Settles once the thread has the database: the thread, or why it could not start. */
  started(): Promise<Worker> {
    this.#thread ??= this.#start();
    return this.#thread;
  }

  async ask(question: Question): Promise<StationAnswer> {
    const thread = await this.started();
    const asked = ++this.#asked;
    const answer = new Promise<StationAnswer>((resolve, reject) => this.#waiting.set(asked, { resolve, reject }));
    if (this.#waiting.size === 1) thread.ref();
    thread.postMessage({ ...question, asked } satisfies StationQuestion);
    return answer;
  }

  #start(): Promise<Worker> {
    const thread = new Worker(new URL('./stations-worker.ts', import.meta.url), { name: 'lamis-tide-stations' });
    return new Promise((resolve, reject) => {
      let failed = false;
      const fail = (error: Error) => {
        if (failed) return;
        failed = true;
        this.#thread = null;
        for (const waiting of this.#waiting.values()) waiting.reject(error);
        this.#waiting.clear();
        reject(error);
      };
      thread.on('message', (message: 'ready' | StationAnswer) => {
        if (message === 'ready') {
          thread.unref();
          resolve(thread);
          return;
        }
        const waiting = this.#waiting.get(message.asked);
        this.#waiting.delete(message.asked);
        if (this.#waiting.size === 0) thread.unref();
        waiting?.resolve(message);
      });
      thread.on('error', fail);
      thread.on('exit', (code) => fail(new Error(`the tide stations thread stopped (exit code ${code})`)));
    });
  }
}

const stationsThread = new StationsThread();
const stationIndex = createIndex(stationsThread);
