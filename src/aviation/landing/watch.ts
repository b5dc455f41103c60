// Landing answers for watchers outside an HTTP request (the intelligence engine): the same bundle
// the landing endpoint computes, for fleet vehicles' own figures, many at once for one airport; an
// airport's status now, for any aircraft; and how fresh the METAR and NOTAM sources are at the
// airports watched. Everything is read as held in memory (inputs.ts). For many landings the
// airport's inputs are read once: its METAR and TAF, its NOTAMs (sorted into those in force at each
// ETA) and its slot hours; and landings sharing an ETA and aircraft figures share one application
// of the rules and one alternates search. The service creates one before its features start; the
// aviation feature attaches its services to it when it starts.
import type { LandingProfile } from '../reference/aircraft-types.ts';
import type { AviationServices, InputSource } from '../services.ts';
import { deriveWeather, weatherAtEta, type FlightCategory } from '../weather/index.ts';
import { ALTERNATE_DELAY_MS, findAlternates, type AlternateReads } from './alternates.ts';
import { airportWeather, composeLandingBundle } from './bundle.ts';
import { capacityWeather, deriveCapacity } from './capacity.ts';
import type { LandingIntelligence } from './landing.schemas.ts';
import type { RunwayChoice } from './runway.ts';
import { availabilityIn, type SlotHours } from './slots.ts';
import { airportStatus, type AirportStatus } from './status.ts';

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

/** An airport's status now, whatever the aircraft, with the flight category of the METAR held. */
export interface AirportNow {
  icao: string;
  name: string;
  status: AirportStatus;
  reasons: string[];
  /** null without a readable METAR. */
  flight_category: FlightCategory | null;
  metar: string | null;
}

/** How fresh one kind of input is at the airports asked about. */
export interface SourceFreshness {
  /** Where the input comes from; `operator_only`: no source runs, operators push it. */
  source: InputSource;
  /** Per airport: the newest METAR observation, or the last successful NOTAM fetch; null when none. */
  airports: { icao: string; at: string | null; error: string | null }[];
}

export class LandingWatch {
  #services: AviationServices | null = null;
  #loaded: Promise<unknown> = Promise.resolve();

  /** `loaded`: settles once the reference data the services read has loaded (they start before it). */
  attach(services: AviationServices, loaded: Promise<unknown> = Promise.resolve()): void {
    this.#services = services;
    this.#loaded = loaded;
  }

  #attached(): AviationServices {
    if (this.#services === null) throw new Error('landing answers need the aviation feature, which has not started');
    return this.#services;
  }

  /**
   * The services once their reference data has loaded: a watcher right after the start waits for
   * it. After a failed load the services themselves answer (a 503 problem), not the bare error.
   */
  async #ready(): Promise<AviationServices> {
    const services = this.#attached();
    await this.#loaded.catch(() => {});
    return services;
  }

  /** The airport's ICAO code as the reference data names it; null for one it does not hold. Right after the start it waits for the airports to load. */
  async airportIcao(icao: string): Promise<string | null> {
    return (await this.#ready()).airports.get(icao)?.icao ?? null;
  }

  /** The airport's status now by the NOTAMs in force and the reference data (no runway choice: no aircraft); null when it is not in the reference data. */
  async airportNow(icao: string, nowMs = Date.now()): Promise<AirportNow | null> {
    const services = await this.#ready();
    const airport = services.airports.get(icao);
    if (!airport) return null;
    const [notams, report] = await Promise.all([services.notams.forAirport(airport.icao, { at: nowMs }), services.weather.latest(airport.icao, 'metar')]);
    const status = airportStatus({ airport, notams: notams.notams });
    const metar = services.inputs.metar(report, nowMs);
    return {
      icao: airport.icao, name: airport.name, status: status.status, reasons: status.reasons,
      flight_category: metar === null ? null : deriveWeather(metar).flight_category, metar: report?.raw ?? null,
    };
  }

  /** How fresh the METARs and NOTAMs held for these airports are (asking may start a refresh from their sources). */
  async freshness(icaos: readonly string[], nowMs = Date.now()): Promise<{ metar: SourceFreshness; notams: SourceFreshness }> {
    const services = await this.#ready();
    const metar: SourceFreshness = { source: services.sources.weather, airports: [] };
    const notams: SourceFreshness = { source: services.sources.notams, airports: [] };
    for (const icao of icaos) {
      const report = await services.weather.latest(icao, 'metar');
      metar.airports.push({ icao, at: report?.observed_at ?? null, error: null });
      const set = await services.notams.forAirport(icao, { at: nowMs });
      const feeds = set.feeds;
      const fetched = feeds.map((feed) => feed.fetched_at).filter((at): at is string => at !== null).sort().at(-1) ?? null;
      notams.airports.push({ icao, at: fetched, error: feeds.find((feed) => feed.error !== null)?.error ?? null });
    }
    return { metar, notams };
  }

  /**
   * The answers for landings at `icao`, or null when the airport is not in the reference data.
   * Throws when the aviation feature has not started.
   */
  async landingsAt(icao: string, landings: readonly WatchedLanding[], nowMs = Date.now()): Promise<AirportAnswers | null> {
    const services = await this.#ready();
    const airport = services.airports.get(icao);
    if (!airport) return null;
    const etas = [...new Set(landings.map((landing) => landing.etaMs))];
    const [weather, notamSets, slots] = await Promise.all([
      airportWeather(services, airport.icao, nowMs),
      services.notams.forAirportAt(airport.icao, etas),
      services.inputs.slotHours(airport.icao, etas),
    ]);
    const notamsAt = new Map(etas.map((eta, index) => [eta, notamSets[index]!]));
    const keyOf = (landing: WatchedLanding) => `${landing.etaMs}|${landing.vehicleType}|${JSON.stringify(landing.profile)}`;
    const requestOf = (landing: WatchedLanding) => ({ airport, etaMs: landing.etaMs, registration: landing.registration, vehicleType: landing.vehicleType, profile: landing.profile, profileSource: 'fleet' as const });
    const distinct = [...new Map(landings.map((landing) => [keyOf(landing), landing])).entries()];
    // Every alternate airport's weather read once, and its NOTAMs once for every ETA + 30 min.
    const instants = [...new Set(landings.map((landing) => landing.etaMs + ALTERNATE_DELAY_MS))];
    const weatherOf = once((other: string) => airportWeather(services, other, nowMs));
    const notamsOf = once((other: string) => services.notams.forAirportAt(other, instants));
    const reads: AlternateReads = { weather: weatherOf, notams: async (other, at) => (await notamsOf(other))[instants.indexOf(at)]!.notams };
    const alternates = new Map(await Promise.all(distinct.map(async ([key, landing]) => [key, await findAlternates(services.airports, requestOf(landing), reads)] as const)));
    const shared = new Map<string, WatchedAnswer>();
    const answers = landings.map((landing) => {
      const key = keyOf(landing);
      let answer = shared.get(key);
      if (answer === undefined) {
        const notamSet = notamsAt.get(landing.etaMs)!;
        const slot = availabilityIn(slots, landing.etaMs, deriveCapacity(airport, notamSet.notams, capacityWeather(weatherAtEta({ metar: weather.metar, taf: weather.taf, etaMs: landing.etaMs }))).arrivals_per_hour);
        answer = composeLandingBundle({ request: requestOf(landing), weather, notamSet, slot, alternates: alternates.get(key)! }, landing.reference, nowMs);
        shared.set(key, answer);
      }
      const { bundle } = answer;
      return { choice: answer.choice, bundle: { ...bundle, request_id: landing.reference, aircraft: { ...bundle.aircraft, registration: landing.registration } } };
    });
    return { answers, slots };
  }
}

/** The function's answers by argument, each asked for once (the promise is kept). */
function once<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const answers = new Map<string, Promise<T>>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) answers.set(key, (answer = read(key)));
    return answer;
  };
}
