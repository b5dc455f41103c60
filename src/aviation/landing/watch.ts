// Landing answers for watchers outside an HTTP request (the intelligence engine): the same bundle
// the landing endpoint computes, for fleet vehicles' own figures, many at once for one airport.
// The airport's inputs are read once for them all: its METAR and TAF, its NOTAMs (one read, then
// sorted into those in force at each ETA) and its slot hours; and arrivals sharing an ETA and
// aircraft figures share one application of the rules. The service creates one before its
// features start; the aviation feature attaches its services to it when it starts.
import type { LandingProfile } from '../reference/aircraft-types.ts';
import type { AviationServices } from '../services.ts';
import { airportWeather, composeLandingBundle } from './bundle.ts';
import { deriveCapacity } from './capacity.ts';
import type { LandingIntelligence } from './landing.schemas.ts';
import type { RunwayChoice } from './runway.ts';
import { availabilityIn, type SlotHours } from './slots.ts';

export interface WatchedLanding {
  etaMs: number;
  registration: string;
  vehicleType: 'aircraft' | 'helicopter';
  /** The fleet vehicle's landing figures. */
  profile: LandingProfile & { designator: string };
  /** Stands in for a request id in the bundle (e.g. the arrival's id). */
  reference: string;
}

/** One landing's answer: the bundle, and the runway choice with every end's figures. */
export interface WatchedAnswer {
  bundle: LandingIntelligence;
  choice: RunwayChoice;
}

export interface AirportAnswers {
  /** In the order of the landings asked. */
  answers: WatchedAnswer[];
  /** The slot hours of the ETAs, with the standing bookings: who holds a slot. */
  slots: SlotHours;
}

export class LandingWatch {
  #services: AviationServices | null = null;

  attach(services: AviationServices): void {
    this.#services = services;
  }

  /**
   * The answers for landings at `icao`, or null when the airport is not in the reference data.
   * Throws when the aviation feature has not started.
   */
  async landingsAt(icao: string, landings: readonly WatchedLanding[], nowMs = Date.now()): Promise<AirportAnswers | null> {
    const services = this.#services;
    if (services === null) throw new Error('landing answers need the aviation feature, which has not started');
    const airport = services.airports.get(icao);
    if (!airport) return null;
    const etas = [...new Set(landings.map((landing) => landing.etaMs))];
    const [weather, notamSets, slots] = await Promise.all([
      airportWeather(services, airport.icao, nowMs),
      services.notams.forAirportAt(airport.icao, etas),
      services.slots.hours(airport.icao, etas),
    ]);
    const notamsAt = new Map(etas.map((eta, index) => [eta, notamSets[index]!]));
    const shared = new Map<string, WatchedAnswer>();
    const answers = landings.map((landing) => {
      const key = `${landing.etaMs}|${landing.vehicleType}|${JSON.stringify(landing.profile)}`;
      let answer = shared.get(key);
      if (answer === undefined) {
        const notamSet = notamsAt.get(landing.etaMs)!;
        const slot = availabilityIn(slots, landing.etaMs, deriveCapacity(airport, notamSet.notams).arrivals_per_hour);
        const request = { airport, etaMs: landing.etaMs, registration: landing.registration, vehicleType: landing.vehicleType, profile: landing.profile, profileSource: 'fleet' as const };
        answer = composeLandingBundle({ request, weather, notamSet, slot }, landing.reference, nowMs);
        shared.set(key, answer);
      }
      const { bundle } = answer;
      return { choice: answer.choice, bundle: { ...bundle, request_id: landing.reference, aircraft: { ...bundle.aircraft, registration: landing.registration } } };
    });
    return { answers, slots };
  }
}
