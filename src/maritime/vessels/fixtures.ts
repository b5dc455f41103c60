// AIS messages for tests, made with the project's own encoder so they pass the real decoder.
import { decodeAisPayload, encodeAisPayload, encodeAisSentences, rawPosition, type AisMessage } from '../ais/index.ts';
import type { PositionReportRaw, StaticVoyageRaw } from '../ais/index.ts';

export function positionReport(mmsi: number, lat: number, lon: number, extra: Partial<PositionReportRaw> = {}): PositionReportRaw {
  return {
    type: 1, repeat: 0, mmsi, status: 0, turn: 0, speed: 123, accuracy: true,
    lon: rawPosition(lon), lat: rawPosition(lat),
    course: 2715, heading: 270, second: 30, maneuver: 0, raim: false, radio: 0, ...extra,
  };
}

export function staticVoyage(mmsi: number, extra: Partial<StaticVoyageRaw> = {}): StaticVoyageRaw {
  return {
    type: 5, repeat: 0, mmsi, ais_version: 0, imo: 9074729, callsign: 'MABC7', shipname: 'NORDIC SPIRIT',
    shiptype: 80, to_bow: 150, to_stern: 30, to_port: 15, to_starboard: 17, epfd: 1,
    month: 12, day: 3, hour: 14, minute: 30, draught: 118, destination: 'NLRTM', dte: 0, ...extra,
  };
}

export function decoded(raw: Parameters<typeof encodeAisPayload>[0]): AisMessage {
  const { payload, fillBits } = encodeAisPayload(raw);
  const result = decodeAisPayload(payload, fillBits);
  if (!result.ok) throw new Error(`fixture does not decode: ${result.reason}`);
  return result.message;
}

export function sentences(raw: Parameters<typeof encodeAisPayload>[0], sequenceId = 1): string[] {
  return encodeAisSentences(raw, { sequenceId, channel: 'A' });
}
