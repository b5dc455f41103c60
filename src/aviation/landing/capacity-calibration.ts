// Test support (not used by the service): published arrival rates of large airports that the
// derived capacity is held to, with their sources. Used on the reference data as held and on the
// OurAirports runway file.
import type { FlightCategory } from '../weather/index.ts';

/**
 * Published arrival rates, arrivals an hour, against which the derived figure must fall within
 * ±25 %. Where a source gives movements (arrivals and departures), arrivals are half of them.
 */
export const CALIBRATION: Array<{ icao: string; category: FlightCategory; arrivals: number; source: string }> = [
  { icao: 'EGLL', category: 'VFR', arrivals: 44, source: 'Heathrow Airport Limited declared capacity, segregated mode: up to 43-46 arrivals and 44 departures an hour (reported by The Independent, 23 June 2012)' },
  { icao: 'EGKK', category: 'VFR', arrivals: 27, source: 'Gatwick Airport Limited scheduling declaration: 54-55 movements an hour on one runway in mixed mode' },
  { icao: 'EGLC', category: 'VFR', arrivals: 22, source: 'London City Airport planning consent: 45 movements an hour' },
  { icao: 'EDDM', category: 'VFR', arrivals: 45, source: 'Munich coordination parameter (Flughafenkoordination Deutschland): 90 movements an hour on two runways' },
  { icao: 'LFPG', category: 'VFR', arrivals: 60, source: 'COHOR declared capacity for Paris-Charles de Gaulle: about 120 movements an hour on two pairs of close parallels' },
  { icao: 'EHAM', category: 'VFR', arrivals: 68, source: 'LVNL (Air Traffic Control the Netherlands): about 68 landings an hour with two landing runways in an inbound peak' },
  { icao: 'LSZH', category: 'VFR', arrivals: 33, source: 'Flughafen Zürich AG: about 66 movements an hour on its crossing and converging runways' },
  { icao: 'OMDB', category: 'VFR', arrivals: 36, source: 'Dubai Airports: about 70 movements an hour on two close parallels in segregated mode' },
  { icao: 'KATL', category: 'VFR', arrivals: 92, source: 'FAA Airport Capacity Benchmark Report 2004: 180-188 movements an hour in visual conditions' },
  { icao: 'KATL', category: 'IFR', arrivals: 80, source: 'FAA Airport Capacity Benchmark Report 2004: 158-162 movements an hour in instrument conditions' },
  { icao: 'KLAX', category: 'VFR', arrivals: 74, source: 'FAA ATCSCC airport arrival rate, visual approaches to 24L/24R/25L' },
  { icao: 'KLAX', category: 'IFR', arrivals: 58, source: 'FAA ATCSCC airport arrival rate, instrument approaches to 24R and 25L' },
  { icao: 'KSFO', category: 'IFR', arrivals: 30, source: 'FAA called rate for San Francisco when low cloud stops paired approaches to its close parallels' },
  { icao: 'KJFK', category: 'VFR', arrivals: 58, source: 'FAA ATCSCC airport arrival rate, visual conditions, arrival priority' },
  { icao: 'KJFK', category: 'IFR', arrivals: 44, source: 'FAA ATCSCC airport arrival rate, instrument conditions' },
];

/** How far the derived figure may be from the published one, as a fraction of it. */
export const TOLERANCE = 0.25;
