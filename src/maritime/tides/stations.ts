// The tide station index the service asks: the nearest suitable station to a point, or a station
// by id. The neaps database (@neaps/tide-database) lives on a thread of its own, started when asked
// and ended when nobody asks for a while (stations-worker.ts; which stations are suitable:
// station-lookup.ts); the stations it hands out are kept here, one object per station, with what
// the predictor needs.
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

/** A stations thread nobody asks anything for this long ends, giving its memory back. */
const STATIONS_THREAD_IDLE_MS = 10 * 60_000;

/** A station index that starts its stations thread when asked and keeps the stations handed out. */
export interface ThreadedStationIndex extends TideStationIndex {
  /** Starts the stations thread unless it runs; settles once the thread has the database. */
  started(): Promise<void>;
  /** Whether a stations thread runs now. */
  running(): boolean;
}

/** The station index, once the stations thread has the database. */
export async function loadTideStations(): Promise<TideStationIndex> {
  await stationIndex.started();
  return stationIndex;
}

/**
 * A station index whose thread ends after `idleMs` without a question (the next one starts
 * another, about a quarter of a second on its own core) or when it fails.
 */
export function createStationIndex(idleMs: number): ThreadedStationIndex {
  let thread: StationsThread | null = null;
  const current = () => (thread ??= new StationsThread(idleMs, (ended) => {
    if (thread === ended) thread = null;
  }));
  const ask = async (question: Question) => {
    const asked = current();
    await asked.started;
    return asked.ask(question);
  };
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
    started: () => current().started,
    running: () => thread !== null,
    async get(id) {
      const kept = known.get(id);
      if (kept !== undefined) return kept;
      const answer = await ask({ kind: 'get', id });
      return adopt(id, answer.match);
    },
    nearest(point, options = {}) {
      checkPoint(point);
      const radius = options.max_distance_nm ?? DEFAULT_MAX_DISTANCE_NM;
      if (!(Number.isFinite(radius) && radius >= 0 && radius <= MAX_DISTANCE_LIMIT_NM)) {
        throw new TideInputError('max_distance_nm', `must be a number from 0 to ${MAX_DISTANCE_LIMIT_NM}`);
      }
      const question = { kind: 'nearest', point: { lat: point.lat, lon: point.lon }, radius_nm: radius, commercial_use_only: options.commercial_use_only === true } as const;
      return ask(question).then(({ match, distance_nm }) => (match === null ? null : { station: adopt(match.station.id, match)!, distance_nm: distance_nm! }));
    },
  };
}

function checkPoint(point: LatLon): void {
  if (!(Number.isFinite(point.lat) && Math.abs(point.lat) <= 90)) throw new TideInputError('lat', 'must be a number from -90 to 90');
  if (!(Number.isFinite(point.lon) && Math.abs(point.lon) <= 180)) throw new TideInputError('lon', 'must be a number from -180 to 180');
}

/**
 * One stations thread and the questions it has yet to answer. It keeps the process alive only
 * while it starts or has questions to answer, and ends after `idleMs` without one.
 */
class StationsThread {
  /** Settles once the thread has the database, or fails with why it could not start. */
  readonly started: Promise<void>;
  readonly #worker: Worker;
  readonly #idleMs: number;
  readonly #onEnd: (thread: StationsThread) => void;
  readonly #waiting = new Map<number, { resolve: (answer: StationAnswer) => void; reject: (error: Error) => void }>();
  #asked = 0;
  #idle: NodeJS.Timeout | undefined;
  #ended: Error | null = null;
  #failStart: (error: Error) => void = () => undefined;

  constructor(idleMs: number, onEnd: (thread: StationsThread) => void) {
    this.#idleMs = idleMs;
    this.#onEnd = onEnd;
    this.#worker = new Worker(new URL('./stations-worker.ts', import.meta.url), { name: 'lamis-tide-stations' });
    this.started = new Promise((resolve, reject) => {
      this.#failStart = reject;
      this.#worker.on('message', (message: 'ready' | StationAnswer) => {
        if (message === 'ready') {
          this.#rest();
          resolve();
          return;
        }
        const waiting = this.#waiting.get(message.asked);
        this.#waiting.delete(message.asked);
        if (this.#waiting.size === 0) this.#rest();
        waiting?.resolve(message);
      });
    });
    this.#worker.on('error', (error) => this.#end(error));
    this.#worker.on('exit', (code) => this.#end(new Error(`the tide stations thread stopped (exit code ${code})`)));
  }

  ask(question: Question): Promise<StationAnswer> {
    if (this.#ended !== null) return Promise.reject(this.#ended);
    clearTimeout(this.#idle);
    const asked = ++this.#asked;
    const answer = new Promise<StationAnswer>((resolve, reject) => this.#waiting.set(asked, { resolve, reject }));
    if (this.#waiting.size === 1) this.#worker.ref();
    this.#worker.postMessage({ ...question, asked } satisfies StationQuestion);
    return answer;
  }

  /** Nothing waits for an answer: the process need not wait for the thread, which ends if left idle. */
  #rest(): void {
    this.#worker.unref();
    this.#idle = setTimeout(() => {
      this.#end(new Error('the tide stations thread ended, idle'));
      void this.#worker.terminate();
    }, this.#idleMs).unref();
  }

  /** From now on the index starts another thread; whatever still waits here fails. */
  #end(error: Error): void {
    if (this.#ended !== null) return;
    this.#ended = error;
    clearTimeout(this.#idle);
    this.#onEnd(this);
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
    this.#failStart(error);
  }
}

const stationIndex = createStationIndex(STATIONS_THREAD_IDLE_MS);
