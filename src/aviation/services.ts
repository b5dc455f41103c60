// What the aviation routes work with: the airport index (memory, with imported navigation data
// applied), the latest METAR/TAF per airport, NOTAMs, and the slot book, each already connected to
// its live source or simulator, the landing inputs as held in memory, and each organisation's
// share of the slots.
import type { NavData } from './navdata/navdata.ts';
import type { NotamStore } from './notams/store.ts';
import type { LandingProfile, VehicleCategory } from './reference/aircraft-types.ts';
import type { AirportIndex } from './reference/airports.ts';
import type { LandingInputs } from './landing/inputs.ts';
import type { SlotBook } from './landing/slots.ts';
import type { WeatherReports } from './weather/reports.ts';

/** The OpenAPI tag of the aviation data routes. */
export const TAG = 'Aviation';

/** Where a kind of input comes from in this instance (operator pushes come on top of either). */
export type InputSource = 'live' | 'simulated' | 'operator_only';

/** What landing intelligence asks of the callers' fleets (the fleet feature answers it). */
export interface FleetProfiles {
  /** The landing figures of the owner's vehicle with this registration when it is of `category`; null when there is none. */
  landingProfileOf(owner: string, registration: string, category: VehicleCategory): Promise<(LandingProfile & { designator: string }) | null>;
}

export interface AviationServices {
  /** Runway ends carry the imported navigation data's ILS (`ils` unknown without it). */
  airports: AirportIndex;
  /** The ILS and localizers imported with `lamis import navdata`; empty when none were. */
  navdata: NavData;
  weather: WeatherReports;
  notams: NotamStore;
  slots: SlotBook;
  /** What landing answers read: the reports decoded and the slot hours' counts, held in memory. */
  inputs: LandingInputs;
  /** The callers' fleets: a registration found there brings its own landing profile. */
  fleet: FleetProfiles;
  sources: { weather: InputSource; notams: InputSource };
  /** The fraction of an airport hour's arrival slots the organisation may hold: an operator's grant, else the instance's fair share. */
  slotShareOf(orgId: string): Promise<number>;
}
