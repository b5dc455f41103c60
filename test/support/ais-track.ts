// NMEA uploads of vessel tracks for port tests: position and static reports with receiver times.
import { formatTagBlock, type PositionReportRaw, type StaticVoyageRaw } from '../../src/maritime/ais/index.ts';
import { positionReport, sentences, staticVoyage } from '../../src/maritime/vessels/fixtures.ts';

/** A track point: where, how fast, what status, and how many seconds before the upload. */
export type TrackPoint = { lat: number; lon: number; sog: number; status?: number; ago: number };

/** Receiver times (tag-block `c:`) within the 5 minutes LAMIS trusts, so the calls carry the track's own times. */
export function track(base: number, mmsi: number, points: readonly (TrackPoint | { voyage: Partial<StaticVoyageRaw>; ago: number })[]): string {
  const lines: string[] = [];
  points.forEach((point, i) => {
    const at = base - point.ago * 1000;
    const raw = 'voyage' in point
      ? staticVoyage(mmsi, point.voyage)
      : positionReport(mmsi, point.lat, point.lon, { speed: Math.round(point.sog * 10), status: point.status ?? 0, second: (at / 1000) % 60 } satisfies Partial<PositionReportRaw>);
    for (const sentence of sentences(raw, i % 10)) lines.push(formatTagBlock(['s:pier', `c:${at / 1000}`]) + sentence);
  });
  return lines.join('\r\n');
}

/** Rotterdam's approaches as the port tests see them: out at sea, an anchorage, a berth. */
export const ROTTERDAM_SEA = { lat: 52.05, lon: 3.6 };
/** On the Oude Maas, 4 nm south-west of the WPI position and clear of Vlaardingen. */
export const ROTTERDAM_ANCHORAGE = { lat: 51.85, lon: 4.4 };
export const ROTTERDAM_BERTH = { lat: 51.9, lon: 4.47 };

/**
 * Two vessels bound for Rotterdam in the last five minutes: 244670001 anchors, then berths; 244670002
 * anchors and is still waiting. One upload each.
 */
export function rotterdamAnchorageTracks(base: number): [string, string] {
  return [
    track(base, 244_670_001, [
      { voyage: { destination: 'NLRTM', draught: 120, shiptype: 70 }, ago: 299 },
      { ...ROTTERDAM_SEA, sog: 13, ago: 295 },
      { ...ROTTERDAM_ANCHORAGE, sog: 0.2, status: 1, ago: 280 },
      { ...ROTTERDAM_ANCHORAGE, sog: 0.3, status: 1, ago: 240 },
      { ...ROTTERDAM_ANCHORAGE, sog: 6, ago: 180 },
      { ...ROTTERDAM_BERTH, sog: 0, status: 5, ago: 150 },
      { ...ROTTERDAM_BERTH, sog: 0, status: 5, ago: 120 },
    ]),
    track(base, 244_670_002, [
      { voyage: { destination: 'ROTTERDAM', draught: 140, shiptype: 80 }, ago: 299 },
      { ...ROTTERDAM_SEA, sog: 12, ago: 290 },
      { lat: ROTTERDAM_ANCHORAGE.lat + 0.003, lon: ROTTERDAM_ANCHORAGE.lon + 0.004, sog: 0.1, status: 1, ago: 250 },
      { lat: ROTTERDAM_ANCHORAGE.lat + 0.004, lon: ROTTERDAM_ANCHORAGE.lon + 0.003, sog: 0.2, status: 1, ago: 100 },
    ]),
  ];
}
