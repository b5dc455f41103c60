// Landing answers for watchers outside an HTTP request (the intelligence engine): the same bundle
// the landing endpoint computes, for a fleet vehicle's own figures. The service creates one before
// its features start; the aviation feature attaches its services to it when it starts.
import type { LandingProfile } from '../reference/aircraft-types.ts';
import type { AviationServices } from '../services.ts';
import { landingBundle } from './bundle.ts';
import type { LandingIntelligence } from './landing.schemas.ts';

export interface WatchedLanding {
  icao: string;
  etaMs: number;
  registration: string;
  vehicleType: 'aircraft' | 'helicopter';
  /** The fleet vehicle's landing figures. */
  profile: LandingProfile & { designator: string };
}

export class LandingWatch {
  #services: AviationServices | null = null;

  attach(services: AviationServices): void {
    this.#services = services;
  }

  /**
   * The landing bundle, or null when the airport is not in the reference data. `reference` stands
   * in for a request id (e.g. the arrival's id). Throws when the aviation feature has not started.
   */
  async landingFor(landing: WatchedLanding, reference: string, nowMs = Date.now()): Promise<LandingIntelligence | null> {
    const services = this.#services;
    if (services === null) throw new Error('landing answers need the aviation feature, which has not started');
    const airport = services.airports.get(landing.icao);
    if (!airport) return null;
    return landingBundle(services, {
      airport, etaMs: landing.etaMs, registration: landing.registration, vehicleType: landing.vehicleType, profile: landing.profile, profileSource: 'fleet',
    }, reference, nowMs);
  }
}
