// The forecast at a port, as every answer about a port uses it (the weather and hold routes, the
// voyage, the intelligence engine's holds): wind and visibility at the port, the sea state of the
// nearest open water cut down to what the harbour lets in (exposure.ts), and where each came from.
//
// A marine model has values over water only, and a port's WPI position is often on land (the town,
// or a quay the model's grid does not resolve), so a live source is asked for marine values at the
// nearest open water: the closest point, searched outwards in rings of 16 bearings up to
// SEARCH_LIMIT_NM, that is water itself and has water OPEN_WATER_NM away in the four quarters.
// The simulation has no land, so the port's own position serves it.
import { isOnLand, loadLand, type LandIndex } from '../sea-routes/index.ts';
import { destinationPoint, distanceNm } from '../sea-routes/geo.ts';
import type { Port } from '../ports/ports.ts';
import { atPort, portExposure, type PortExposure } from './exposure.ts';
import type { WeatherHour, WeatherSource } from './model.ts';

const SEARCH_LIMIT_NM = 30;
const OPEN_WATER_NM = 1;
const RINGS_NM = [0, 0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, SEARCH_LIMIT_NM];
const BEARINGS = Array.from({ length: 16 }, (_, index) => index * 22.5);

export interface MarinePoint {
  lat: number;
  lon: number;
  /** From the port position. */
  distance_nm: number;
  basis: 'port_position' | 'nearest_open_water' | 'no_open_water_found';
}

export interface PortForecast {
  /** Hourly weather at the port: waves as the harbour lets them in. */
  hours: WeatherHour[];
  exposure: PortExposure;
  marine_point: MarinePoint;
}

const seaPoints = new Map<string, MarinePoint>();

/** Throws WeatherUnavailableError when the source fails. */
export async function portForecast(source: WeatherSource, port: Port, from: number, to: number): Promise<PortForecast> {
  const marine = source.kind === 'simulated' ? ownPosition(port) : nearestOpenWater(port);
  const [point] = await source.hourly([{ lat: port.lat, lon: port.lon, from, to, marine }]);
  const exposure = portExposure(port);
  return { hours: point!.hours.map((hour) => atPort(hour, exposure)), exposure, marine_point: marine };
}

function ownPosition(port: Port): MarinePoint {
  return { lat: port.lat, lon: port.lon, distance_nm: 0, basis: 'port_position' };
}

function nearestOpenWater(port: Port): MarinePoint {
  let found = seaPoints.get(port.id);
  if (found === undefined) {
    const land = loadLand();
    found = (land.ok ? searchOpenWater(land.land, port) : null) ?? { ...ownPosition(port), basis: 'no_open_water_found' };
    seaPoints.set(port.id, found);
  }
  return found;
}

function searchOpenWater(land: LandIndex, port: Port): MarinePoint | null {
  const origin: [number, number] = [port.lon, port.lat];
  const open = (point: [number, number]) =>
    !isOnLand(land, point) && [0, 90, 180, 270].every((bearing) => !isOnLand(land, destinationPoint(point, bearing, OPEN_WATER_NM)));
  for (const ring of RINGS_NM) {
    const candidates = ring === 0 ? [origin] : BEARINGS.map((bearing) => destinationPoint(origin, bearing, ring));
    const water = candidates.find(open);
    if (water !== undefined) {
      const [lon, lat] = water;
      return { lat: round(lat), lon: round(lon), distance_nm: Math.round(distanceNm(origin, water) * 10) / 10, basis: 'nearest_open_water' };
    }
  }
  return null;
}

const round = (degrees: number) => Math.round(degrees * 1e4) / 1e4;
