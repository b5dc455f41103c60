// The sea state at a port rather than out at sea. A marine forecast gives the significant wave
// height of open water; inside a harbour the waves are what the wind raises over the short water
// it has there (the fetch), plus what little of the outside sea gets past the entrance. The World
// Port Index says what kind of harbour it is and how well it is sheltered, and that sets both.
//
// Wind sea over a fetch F for a wind U (m/s), the fetch-limited growth law of the Shore Protection
// Manual (1984) and JONSWAP: g·Hs/U² = 0.0016 · (g·F/U²)^½, that is Hs = 0.0016 · U · √(F/g),
// never above the open-water value. The outside sea that reaches the berths is a fraction of the
// open-water height (wave transmission and diffraction behind breakwaters and river mouths are
// typically 0.1–0.3 of the incident height: CIRIA/CUR Rock Manual 2007, § 5.1.2.4). At the port:
//
//   Hs = min(open water, √(Hs_fetch² + (transmission · open water)²))
//
//   harbour type                                fetch      transmission
//   river with basins or tide gates, coastal    1 km       0
//     tide gates (enclosed by locks)
//   typhoon harbour                             1 km       0.1
//   coastal with breakwater                     2 km       0.2
//   river (natural)                             3 km       0.1
//   canal or lake                               5 km       0
//   coastal (natural), or the type unknown:     by shelter: excellent 2 km, 0.1; good 5 km, 0.25;
//                                               fair 15 km, 0.5; poor 40 km, 0.8; none: open water
//   open roadstead                              open water
//
// A port whose type and shelter are both unknown gets the open-water values, and says so.
import type { Port, Shelter } from '../ports/ports.ts';
import type { WeatherHour } from './model.ts';

const GRAVITY = 9.81;
const MS_PER_KN = 0.514444;

export interface PortExposure {
  /** Open water the wind blows over inside the harbour, km; null: the port lies open to the sea. */
  fetch_km: number | null;
  /** Fraction of the open-water wave height that reaches the berths (0–1). */
  transmission: number;
  /** In words, from the WPI harbour type and shelter. */
  basis: string;
}

const OPEN_WATER = { fetch_km: null, transmission: 1 } as const;

const BY_SHELTER: Readonly<Record<Shelter, { fetch_km: number | null; transmission: number }>> = {
  excellent: { fetch_km: 2, transmission: 0.1 },
  good: { fetch_km: 5, transmission: 0.25 },
  fair: { fetch_km: 15, transmission: 0.5 },
  poor: { fetch_km: 40, transmission: 0.8 },
  none: OPEN_WATER,
};

/** "good shelter", "no shelter", "shelter unknown". */
export function shelterText(shelter: Shelter | null): string {
  if (shelter === null) return 'shelter unknown';
  return shelter === 'none' ? 'no shelter' : `${shelter} shelter`;
}

export function portExposure(port: Pick<Port, 'harbour_type' | 'shelter'>): PortExposure {
  const shelter = shelterText(port.shelter);
  const typed = (fetch_km: number | null, transmission: number, kind: string): PortExposure =>
    ({ fetch_km, transmission, basis: `${kind} (${shelter}), World Port Index` });
  switch (port.harbour_type) {
    case 'river_basins':
      return typed(1, 0, 'river port with basins');
    case 'river_tide_gates':
      return typed(1, 0, 'river port behind tide gates');
    case 'coastal_tide_gates':
      return typed(1, 0, 'coastal port behind tide gates');
    case 'typhoon_harbour':
      return typed(1, 0.1, 'typhoon harbour');
    case 'coastal_breakwater':
      return typed(2, 0.2, 'coastal harbour behind a breakwater');
    case 'river_natural':
      return typed(3, 0.1, 'river port');
    case 'canal_or_lake':
      return typed(5, 0, 'canal or lake port');
    case 'open_roadstead':
      return typed(null, 1, 'open roadstead');
    case 'coastal_natural':
    case null:
      if (port.shelter === null) {
        return port.harbour_type === null
          ? { ...OPEN_WATER, basis: 'harbour type and shelter unknown: open-water values' }
          : typed(null, 1, 'natural coastal harbour');
      }
      return { ...BY_SHELTER[port.shelter], basis: `${port.harbour_type === null ? 'harbour type unknown' : 'natural coastal harbour'}, ${shelter} (World Port Index)` };
  }
}

/** Wave height raised by a wind over a fetch, metres. */
export function fetchLimitedWaveM(windKn: number, fetchKm: number): number {
  const wind = windKn * MS_PER_KN;
  return 0.0016 * wind * Math.sqrt((fetchKm * 1000) / GRAVITY);
}

/** The hour as felt at the port: its waves cut to what the harbour lets in; wind and visibility as given. */
export function atPort(hour: WeatherHour, exposure: PortExposure): WeatherHour {
  if (exposure.fetch_km === null) return hour;
  const open = hour.wave_height_m;
  const local = hour.wind_speed_kn === null ? null : fetchLimitedWaveM(hour.wind_speed_kn, exposure.fetch_km);
  let height: number | null;
  if (open === null) height = exposure.transmission === 0 ? local : null;
  else if (local === null) height = open * exposure.transmission;
  else height = Math.min(open, Math.hypot(local, exposure.transmission * open));
  return { ...hour, wave_height_m: height === null ? null : Math.round(height * 100) / 100 };
}
