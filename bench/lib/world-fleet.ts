// A worldwide fleet as the AIS simulator builds it (real ports and sea lanes, flag-consistent
// identities, realistic names and destinations), captured at one instant: for every vessel one
// position report and its static data (type 5 for class A, type 24 parts A and B for class B), as
// NMEA sentences made by LAMIS's encoder.
//
// The simulator itself goes through time report by report (class A ships report every few seconds),
// so getting every vessel's static data out of it takes six simulated minutes and millions of
// position reports; this builds the same vessels with the simulator's own parts and asks each one
// once. Unlike the simulator it has no fleet cap, so it gives the 100 000 vessels a memory-per-vessel
// measurement needs.
import { encodeAisSentences } from '../../src/maritime/ais/index.ts';
import type { AisRaw } from '../../src/maritime/ais/index.ts';
import { createIdentity, IdentityRegistry } from '../../src/maritime/feeds/simulator/fleet.ts';
import { VesselRuntime, World } from '../../src/maritime/feeds/simulator/movement.ts';
import { portsNear, simulatorPorts } from '../../src/maritime/feeds/simulator/ports.ts';
import { Prng } from '../../src/platform/random.ts';
import {
  classAPosition,
  classBPosition,
  destinationText,
  positionIntervalMs,
  staticPartA,
  staticPartB,
  staticVoyage,
} from '../../src/maritime/feeds/simulator/reports.ts';
import type { DestinationStyle } from '../../src/maritime/feeds/simulator/reports.ts';

/** Ferries shuttle only from ports with a neighbour this close (as in the simulator). */
const FERRY_REACH_NM = 300;
const CLASS_B_VENDORS = ['SRT', 'TRM', 'GRM', 'ACR', 'MCM'];
const DESTINATION_STYLES: readonly (readonly [DestinationStyle, number])[] = [['locode', 7], ['spaced', 1], ['name', 2]];

export interface WorldFleet {
  /** Every vessel's position report, then its static data, vessel after vessel. */
  lines: string[];
  vessels: number;
  classA: number;
  classB: number;
  /** Messages encoded (a two-sentence type 5 is one message). */
  messages: number;
  multiSentenceMessages: number;
  /** The instant the fleet is captured at (ms): what the messages should be received at. */
  at: number;
}

/** Builds `vessels` distinct vessels (deterministic for a seed) as they are at `at`. */
export function worldFleet(vessels: number, seed = 1, at = Date.UTC(2025, 5, 1, 12, 0, 0)): WorldFleet {
  const ports = simulatorPorts();
  if (ports.length < 2) throw new Error('the simulator has no port or sea-lane data');
  const world = new World(ports);
  const ferryPorts = ports.filter((port) => portsNear(ports, port, FERRY_REACH_NM).length > 0);
  const random = new Prng(seed);
  const registry = new IdentityRegistry();
  const lines: string[] = [];
  let classA = 0;
  let messages = 0;
  let multiSentenceMessages = 0;
  let sequenceId = 0;

  const emit = (raw: AisRaw, channel: string): void => {
    const sentences = encodeAisSentences(raw, { channel, sequenceId });
    if (sentences.length > 1) {
      multiSentenceMessages++;
      sequenceId = (sequenceId + 1) % 10;
    }
    for (const sentence of sentences) lines.push(sentence);
    messages++;
  };

  for (let index = 0; index < vessels; index++) {
    const identity = createIdentity(random, ports, ferryPorts, registry);
    const runtime = new VesselRuntime(identity, Math.floor(random.next() * 2 ** 32), at);
    // Plays the trips since the vessel's start, which spreads the fleet over its routes.
    runtime.advanceTo(at, world);
    const k = runtime.kinematicsAt(at);
    const channel = index % 2 === 0 ? 'A' : 'B';
    if (identity.aisClass === 'A') {
      classA++;
      const interval = positionIntervalMs('A', k.navStatus, k.sog, k.turning);
      emit(classAPosition(identity, k, at, false, interval, random.int(0, 7), random.chance(0.7)), channel);
      const style = random.weighted(DESTINATION_STYLES, ([, weight]) => weight)[0];
      const aisVersion = random.chance(0.8) ? 2 : 0;
      emit(staticVoyage(identity, destinationText(runtime.destination, style), runtime.eta, runtime.draught, aisVersion), channel);
    } else {
      emit(classBPosition(identity, k, at, random.chance(0.4)), channel);
      emit(staticPartA(identity), channel);
      emit(staticPartB(identity, random.pick(CLASS_B_VENDORS), random.int(1, 15), random.int(1, 1_048_575)), channel);
    }
  }
  return { lines, vessels, classA, classB: vessels - classA, messages, multiSentenceMessages, at };
}
