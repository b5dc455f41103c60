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
