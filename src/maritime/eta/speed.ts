// The speed a vessel is making, from its recent AIS reports: a robust average of its speed over
// ground in the last hour, leaving out the reports in which it was stopped.
import type { TrackPointView } from '../vessels/vessels.routes.ts';
import type { VesselPosition } from '../vessels/store.ts';

export const SPEED_WINDOW_MS = 60 * 60_000;
/** Below this a vessel is manoeuvring, drifting or stopped, not on passage. */
export const UNDER_WAY_MIN_KN = 3;
/** Fewer reports under way than this and the latest speed over ground is used instead. */
export const MIN_TRACK_SAMPLES = 3;
/** The share of the highest and of the lowest speeds the average leaves out. */
const TRIM_SHARE = 0.2;
/** ITU-R M.1371 navigational status: at anchor, moored, aground. */
const STOPPED_STATUSES: ReadonlySet<number> = new Set([1, 5, 6]);

export type SpeedSample = Pick<TrackPointView, 'time' | 'sog' | 'nav_status'>;

export interface ObservedSpeed {
  speed_kn: number;
  source: 'ais_track' | 'ais_sog';
  /** Reports the speed is made of. */
  samples: number;
  window: { from: string; to: string };
}

function underWay(sog: number | null, status: number | null): sog is number {
  return sog !== null && sog >= UNDER_WAY_MIN_KN && (status === null || !STOPPED_STATUSES.has(status));
}

/**
 * The 20 % trimmed mean of the speeds over ground reported under way in the hour up to the
 * position's time; the position's own speed when fewer than three such reports were recorded; null
 * when the vessel is not under way.
 */
export function observedSpeed(track: readonly SpeedSample[], position: VesselPosition): ObservedSpeed | null {
  const to = Date.parse(position.timestamp);
  const from = to - SPEED_WINDOW_MS;
  const window = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  const speeds = track
    .filter((point) => {
      const time = Date.parse(point.time);
      return time >= from && time <= to && underWay(point.sog, point.nav_status);
    })
    .map((point) => point.sog!)
    .sort((a, b) => a - b);
  if (speeds.length >= MIN_TRACK_SAMPLES) {
    const cut = Math.floor(speeds.length * TRIM_SHARE);
    const kept = speeds.slice(cut, speeds.length - cut);
    const mean = kept.reduce((sum, speed) => sum + speed, 0) / kept.length;
    return { speed_kn: Math.round(mean * 10) / 10, source: 'ais_track', samples: speeds.length, window };
  }
  if (underWay(position.sog, position.nav_status)) return { speed_kn: position.sog, source: 'ais_sog', samples: 1, window };
  return null;
}
