// The embedded AIS source used when no live feed is configured: a seeded fleet sailing real sea
// lanes between real ports, reporting as NMEA !AIVDM sentences built by the project's encoder.
//
// Purely time-driven: no timers. The caller moves the clock with advance(toTimeMs) and gets every
// sentence due up to then, in time order. Every vessel comes on air at the start: its first
// position report within one reporting interval, its name and type within the first minute. Due times sit in one binary heap (two entries per vessel:
// next position report and next static report), so a tick costs O(reports due x log fleet).
import { hashUnit, Prng } from '../../../platform/random.ts';
import { encodeAisSentences } from '../../ais/index.ts';
import type { AisRaw, SentenceOptions } from '../../ais/index.ts';
import { MinHeap } from '../../sea-routes/index.ts';
import type { Position } from '../../sea-routes/index.ts';
import { createIdentity, IdentityRegistry } from './fleet.ts';
import { VesselRuntime, World } from './movement.ts';
import type { Kinematics } from './movement.ts';
import { portsNear, simulatorPorts } from './ports.ts';
import {
  classAPosition,
  classBPosition,
  destinationText,
  FIRST_STATIC_SPREAD_MS,
  positionIntervalMs,
  STATIC_INTERVAL_MS,
  staticPartA,
  staticPartB,
  staticVoyage,
} from './reports.ts';
import type { DestinationStyle } from './reports.ts';

export interface AisSimulatorOptions {
  /** Fleet size, 0..50 000 (default 1000). */
  vessels?: number;
  /** Seed of the fleet and its movements (default 1): equal seeds give equal output. */
  seed?: number;
  /** Simulation start, ms since the epoch (default now). */
  startTime?: number;
  /**
   * When advance() jumps further than this (ms, default 10 minutes), reports older than the window
   * are skipped rather than replayed (vessels still move on): a stalled timer does not cause a burst.
   */
  maxCatchUpMs?: number;
  /** When set, every sentence carries an NMEA 4.10 tag block with this `s:` source and `c:` time. */
  source?: string;
}

/** One transmitted message. */
export interface SimulatedReport {
  time: number;
  mmsi: number;
  messageType: 1 | 3 | 5 | 18 | 24;
  sentences: string[];
}

/** The current leg of a vessel under way. */
export interface SimulatedLeg {
  id: number;
  path: readonly Position[];
  cumulative_nm: readonly number[];
  length_nm: number;
  speed_kn: number;
  departed_at: number;
  /** Distance along the leg at `updatedAt`. */
  distance_nm: number;
}

/**
 * Read-only view of a simulated vessel: position, motion and leg as of its last position report
 * (`updatedAt`); destination, ETA and draught as of its last position or static report.
 */
export interface SimulatedVessel {
  readonly mmsi: number;
  readonly imo: number;
  readonly name: string;
  readonly callsign: string;
  readonly shipType: number;
  readonly kind: string;
  readonly aisClass: 'A' | 'B';
  /** ISO 3166-1 alpha-2 of the flag. */
  readonly flag: string;
  readonly length: number;
  readonly beam: number;
  readonly homePort: string;
  readonly updatedAt: number;
  readonly state: 'underway' | 'moored' | 'anchored' | 'not_started';
  readonly navStatus: number;
  readonly lat: number;
  readonly lon: number;
  readonly sog: number;
  readonly cog: number;
  readonly heading: number;
  /** UN/LOCODE of the port the vessel is moored or anchored at. */
  readonly port: string | null;
  /** UN/LOCODE of the port it is bound for (or lies in). */
  readonly destination: string;
  readonly eta: number | null;
  readonly draught: number;
  readonly leg: SimulatedLeg | null;
  readonly positionIntervalMs: number;
}

export interface AisSimulator {
  readonly vessels: readonly SimulatedVessel[];
  /** The time the simulation has been advanced to. */
  readonly now: number;
  /** All sentences due up to toTimeMs (inclusive), in time order; [] when time does not move forward. */
  advance(toTimeMs: number): string[];
  /** The same, grouped per message with its time. */
  advanceReports(toTimeMs: number): SimulatedReport[];
}

export type AisSimulatorErrorCode = 'invalid_options' | 'no_ports';
export type AisSimulatorResult =
  | { ok: true; simulator: AisSimulator }
  | { ok: false; error: AisSimulatorErrorCode; message: string };

const MAX_VESSELS = 50_000;
const DEFAULT_CATCH_UP_MS = 600_000;
/** Ferries shuttle only from ports with a neighbour this close. */
const FERRY_REACH_NM = 300;
const CLASS_B_VENDORS = ['SRT', 'TRM', 'GRM', 'ACR', 'MCM'];

type ViewState = { -readonly [K in keyof SimulatedVessel]: SimulatedVessel[K] };

interface Station {
  runtime: VesselRuntime;
  view: ViewState;
  lastIntervalMs: number;
  slotTimeout: number;
  reports: number;
  accuracy: boolean;
  headingAvailable: boolean;
  destinationStyle: DestinationStyle;
  aisVersion: number;
  vendor: string;
  model: number;
  serial: number;
}

function invalid(message: string): AisSimulatorResult {
  return { ok: false, error: 'invalid_options', message };
}

/** Creates a simulator; never throws. */
export function createAisSimulator(options: AisSimulatorOptions = {}): AisSimulatorResult {
  const count = options.vessels ?? 1000;
  const seed = options.seed ?? 1;
  const startTime = options.startTime ?? Date.now();
  const maxCatchUpMs = options.maxCatchUpMs ?? DEFAULT_CATCH_UP_MS;
  if (!Number.isInteger(count) || count < 0 || count > MAX_VESSELS) return invalid(`vessels must be an integer 0..${MAX_VESSELS}`);
  if (!Number.isFinite(seed)) return invalid('seed must be a finite number');
  if (!Number.isFinite(startTime)) return invalid('startTime must be a finite number of ms');
  if (!(maxCatchUpMs > 0)) return invalid('maxCatchUpMs must be positive');
  const source = options.source;
  if (source !== undefined && (!/^[\x20-\x7e]{1,32}$/.test(source) || /[,*\\]/.test(source))) {
    return invalid('source must be 1..32 printable characters without , * or \\');
  }
  const ports = simulatorPorts();
  if (ports.length < 2) return { ok: false, error: 'no_ports', message: 'port or sea-lane data unavailable' };
  return { ok: true, simulator: new Simulator(count, seed, startTime, maxCatchUpMs, source, ports) };
}

class Simulator implements AisSimulator {
  readonly #stations: Station[] = [];
  readonly #views: ViewState[] = [];
  readonly #world: World;
  readonly #heap: MinHeap;
  readonly #maxCatchUpMs: number;
  readonly #source: string | undefined;
  #now: number;
  #sequence = 0;

  constructor(
    count: number,
    seed: number,
    startTime: number,
    maxCatchUpMs: number,
    source: string | undefined,
    ports: ReturnType<typeof simulatorPorts>,
  ) {
    this.#world = new World(ports);
    this.#now = startTime;
    this.#maxCatchUpMs = maxCatchUpMs;
    this.#source = source;
    this.#heap = new MinHeap(count * 2);
    const ferryPorts = ports.filter((port) => portsNear(ports, port, FERRY_REACH_NM).length > 0);
    const fleetRandom = new Prng(seed);
    const registry = new IdentityRegistry();
    for (let index = 0; index < count; index++) {
      const identity = createIdentity(fleetRandom, ports, ferryPorts, registry);
      const runtime = new VesselRuntime(identity, Math.floor(fleetRandom.next() * 2 ** 32), startTime);
      const view: ViewState = {
        mmsi: identity.mmsi,
        imo: identity.imo,
        name: identity.name,
        callsign: identity.callsign,
        shipType: identity.shipType,
        kind: identity.kind,
        aisClass: identity.aisClass,
        flag: identity.flag,
        length: identity.length,
        beam: identity.beam,
        homePort: identity.homePort.locode,
        updatedAt: startTime,
        state: 'not_started',
        navStatus: 15,
        lat: identity.homePort.lat,
        lon: identity.homePort.lon,
        sog: 0,
        cog: 0,
        heading: 0,
        port: identity.homePort.locode,
        destination: identity.homePort.locode,
        eta: null,
        draught: identity.designDraught,
        leg: null,
        positionIntervalMs: 0,
      };
      const classA = identity.aisClass === 'A';
      this.#stations.push({
        runtime,
        view,
        lastIntervalMs: 0,
        slotTimeout: fleetRandom.int(0, 7),
        reports: 0,
        accuracy: classA && fleetRandom.chance(0.7),
        headingAvailable: classA || fleetRandom.chance(0.4),
        destinationStyle: fleetRandom.weighted<DestinationStyle>(['locode', 'spaced', 'name'], (s) => (s === 'locode' ? 7 : s === 'spaced' ? 1 : 2)),
        aisVersion: fleetRandom.chance(0.8) ? 2 : 0,
        vendor: fleetRandom.pick(CLASS_B_VENDORS),
        model: fleetRandom.int(1, 15),
        serial: fleetRandom.int(1, 1_048_575),
      });
      this.#views.push(view);
      // Stagger the first reports over a class A / class B reporting interval; the static data follow
      // the first position report within FIRST_STATIC_SPREAD_MS, then every STATIC_INTERVAL_MS.
      const firstPosition = startTime + Math.floor(hashUnit(identity.mmsi, 1) * (classA ? 10_000 : 30_000));
      this.#heap.push(firstPosition, index * 2);
      this.#heap.push(firstPosition + 1 + Math.floor(hashUnit(identity.mmsi, 2) * FIRST_STATIC_SPREAD_MS), index * 2 + 1);
    }
  }

  get vessels(): readonly SimulatedVessel[] {
    return this.#views;
  }

  get now(): number {
    return this.#now;
  }

  advance(toTimeMs: number): string[] {
    const sentences: string[] = [];
    for (const report of this.advanceReports(toTimeMs)) for (const sentence of report.sentences) sentences.push(sentence);
    return sentences;
  }

  advanceReports(toTimeMs: number): SimulatedReport[] {
    if (!Number.isFinite(toTimeMs) || toTimeMs <= this.#now) return [];
    const heap = this.#heap;
    const cutoff = toTimeMs - this.#maxCatchUpMs;
    // Reports older than the catch-up window are moved into it, staggered again as at the start.
    while (heap.size > 0 && heap.peekPriority() < cutoff) {
      const id = heap.peekId();
      const spread = (id & 1) === 0 ? 10_000 : STATIC_INTERVAL_MS;
      heap.replaceTop(cutoff + Math.floor(hashUnit(id, 3) * spread), id);
    }
    const reports: SimulatedReport[] = [];
    while (heap.size > 0 && heap.peekPriority() <= toTimeMs) {
      const time = heap.peekPriority();
      const id = heap.peekId();
      const station = this.#stations[id >> 1]!;
      const next = (id & 1) === 0 ? this.#positionReport(station, time, reports) : this.#staticReport(station, time, reports);
      heap.replaceTop(next, id);
    }
    this.#now = toTimeMs;
    return reports;
  }

  /** Emits a position report at `time`; returns when the next one is due. */
  #positionReport(station: Station, time: number, out: SimulatedReport[]): number {
    const runtime = station.runtime;
    const identity = runtime.identity;
    runtime.advanceTo(time, this.#world);
    const k = runtime.kinematicsAt(time);
    const interval = positionIntervalMs(identity.aisClass, k.navStatus, k.sog, k.turning);
    let raw: AisRaw;
    let messageType: SimulatedReport['messageType'];
    if (identity.aisClass === 'A') {
      // ITDMA (type 3) for the first report at a new rate, which is when new slots are allocated.
      const itdma = interval !== station.lastIntervalMs;
      raw = classAPosition(identity, k, time, itdma, interval, station.slotTimeout, station.accuracy);
      messageType = itdma ? 3 : 1;
      station.slotTimeout = (station.slotTimeout + 7) % 8;
    } else {
      raw = classBPosition(identity, k, time, station.headingAvailable);
      messageType = 18;
    }
    station.lastIntervalMs = interval;
    out.push({ time, mmsi: identity.mmsi, messageType, sentences: this.#encode(raw, station, time) });
    this.#updateView(station, k, time, interval);
    return time + interval;
  }

  /** Emits the static (and voyage) data at `time`; returns when it is due again. */
  #staticReport(station: Station, time: number, out: SimulatedReport[]): number {
    const runtime = station.runtime;
    const identity = runtime.identity;
    runtime.advanceTo(time, this.#world);
    // The voyage data in the view follow what was just announced.
    const view = station.view;
    view.destination = runtime.destination.locode;
    view.eta = runtime.eta;
    view.draught = runtime.draught;
    if (identity.aisClass === 'A') {
      const destination = destinationText(runtime.destination, station.destinationStyle);
      const raw = staticVoyage(identity, destination, runtime.eta, runtime.draught, station.aisVersion);
      out.push({ time, mmsi: identity.mmsi, messageType: 5, sentences: this.#encode(raw, station, time) });
    } else {
      out.push({ time, mmsi: identity.mmsi, messageType: 24, sentences: this.#encode(staticPartA(identity), station, time) });
      const partB = staticPartB(identity, station.vendor, station.model, station.serial);
      out.push({ time, mmsi: identity.mmsi, messageType: 24, sentences: this.#encode(partB, station, time) });
    }
    return time + STATIC_INTERVAL_MS;
  }

  #encode(raw: AisRaw, station: Station, time: number): string[] {
    station.reports++;
    const options: SentenceOptions = { channel: station.reports % 2 === 0 ? 'A' : 'B', sequenceId: this.#sequence };
    this.#sequence = (this.#sequence + 1) % 10;
    if (this.#source !== undefined) options.tagBlock = { source: this.#source, time, groupId: 1 + (station.reports % 9999) };
    return encodeAisSentences(raw, options);
  }

  #updateView(station: Station, k: Kinematics, time: number, interval: number): void {
    const view = station.view;
    const runtime = station.runtime;
    const phase = runtime.phase;
    view.updatedAt = time;
    view.state = phase.kind;
    view.navStatus = k.navStatus;
    view.lat = k.lat;
    view.lon = k.lon;
    view.sog = k.sog;
    view.cog = k.cog;
    view.heading = k.heading;
    view.port = phase.kind === 'underway' ? null : phase.port.locode;
    view.destination = runtime.destination.locode;
    view.eta = runtime.eta;
    view.draught = runtime.draught;
    view.positionIntervalMs = interval;
    view.leg =
      phase.kind === 'underway'
        ? {
            id: phase.legId,
            path: phase.track.path,
            cumulative_nm: phase.track.cumulative,
            length_nm: phase.track.length,
            speed_kn: phase.speedKn,
            departed_at: phase.start,
            distance_nm: runtime.distanceAt(time),
          }
        : null;
  }
}
