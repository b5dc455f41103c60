// AIS messages of a simulated vessel in the codec's raw (gpsd-style, unscaled) view, and the
// reporting intervals of ITU-R M.1371 that decide when the next one is due.
import type { ClassBPositionRaw, PositionReportRaw, StaticDataPartARaw, StaticDataPartBRaw, StaticVoyageRaw } from '../../ais/index.ts';
import { rawPosition } from '../../ais/index.ts';
import type { VesselIdentity } from './fleet.ts';
import type { Kinematics } from './movement.ts';
import { NAV_AT_ANCHOR, NAV_MOORED } from './movement.ts';
import type { SimPort } from './ports.ts';

/** Static and voyage data (type 5, type 24 A+B) go out every 6 minutes. */
export const STATIC_INTERVAL_MS = 360_000;

/**
 * A transponder coming on air sends its static data soon after its first position report, rather
 * than waiting for its place in the 6-minute cycle, so that a vessel has its name and type within
 * its first minute on the air. The delay after the first position report is spread over this.
 */
export const FIRST_STATIC_SPREAD_MS = 20_000;

/**
 * Position reporting interval, ITU-R M.1371-5 Annex 1 tables 1 and 2.
 * Class A: at anchor or moored and not faster than 3 kn: 3 min; 0-14 kn: 10 s (3 1/3 s when
 * changing course); 14-23 kn: 6 s (2 s changing course); over 23 kn: 2 s.
 * Class B "CS" units (what small craft carry): 30 s above 2 kn, 3 min at 2 kn or less.
 */
export function positionIntervalMs(aisClass: 'A' | 'B', navStatus: number, sogKn: number, turning: boolean): number {
  if (aisClass === 'B') return sogKn > 2 ? 30_000 : 180_000;
  if ((navStatus === NAV_AT_ANCHOR || navStatus === NAV_MOORED) && sogKn <= 3) return 180_000;
  if (sogKn > 23) return 2_000;
  if (sogKn > 14) return turning ? 2_000 : 6_000;
  return turning ? 3_333 : 10_000;
}

/** Rate of turn in degrees per minute to the AIS ROT code: 4.733 * sqrt(ROT), sign kept, within ±126. */
export function rotCode(degreesPerMinute: number): number {
  if (!Number.isFinite(degreesPerMinute) || Math.abs(degreesPerMinute) < 0.05) return 0;
  const code = Math.round(4.733 * Math.sqrt(Math.abs(degreesPerMinute)));
  return Math.sign(degreesPerMinute) * Math.min(126, code);
}

/** Degrees to the raw 1/10 000 minute. */
/** SOTDMA slots per minute on each channel. */
const SLOTS_PER_MINUTE = 2250;

/**
 * SOTDMA communication state (type 1 and 18): sync state, slot time-out counting down 7..0 over
 * successive frames, and the sub-message the time-out selects (ITU-R M.1371 3.3.7.2.3).
 */
function sotdmaState(time: number, timeout: number, intervalMs: number, stations: number): number {
  let sub: number;
  if (timeout === 1) {
    const date = new Date(time);
    sub = (date.getUTCHours() << 9) | (date.getUTCMinutes() << 2);
  } else if (timeout === 0) {
    sub = Math.min(16_383, Math.round((intervalMs * SLOTS_PER_MINUTE) / 60_000));
  } else if (timeout % 2 === 1) {
    sub = stations;
  } else {
    sub = Math.floor(((time % 60_000) * SLOTS_PER_MINUTE) / 60_000);
  }
  return (timeout << 14) | sub;
}

/** ITDMA communication state (type 3): slot increment to the next report, one slot, keep flag clear. */
function itdmaState(intervalMs: number): number {
  const increment = Math.min(8191, Math.round((intervalMs * SLOTS_PER_MINUTE) / 60_000));
  return increment << 4;
}

/** Class B CS units send the fixed communication state "1100000000000000110". */
const CLASS_B_CS_RADIO = 0b1100000000000000110;

export function classAPosition(
  identity: VesselIdentity,
  k: Kinematics,
  time: number,
  itdma: boolean,
  intervalMs: number,
  timeout: number,
  accuracy: boolean,
): PositionReportRaw {
  return {
    type: itdma ? 3 : 1,
    repeat: 0,
    mmsi: identity.mmsi,
    status: k.navStatus,
    turn: rotCode(k.rot),
    speed: Math.min(1022, Math.round(k.sog * 10)),
    accuracy,
    lon: rawPosition(k.lon),
    lat: rawPosition(k.lat),
    course: Math.round(k.cog * 10) % 3600,
    heading: Math.round(k.heading) % 360,
    second: Math.floor(time / 1000) % 60,
    maneuver: 0,
    raim: false,
    radio: itdma ? itdmaState(intervalMs) : sotdmaState(time, timeout, intervalMs, 10 + (identity.mmsi % 50)),
  };
}

export function classBPosition(identity: VesselIdentity, k: Kinematics, time: number, headingAvailable: boolean): ClassBPositionRaw {
  return {
    type: 18,
    repeat: 0,
    mmsi: identity.mmsi,
    reserved: 0,
    speed: Math.min(1022, Math.round(k.sog * 10)),
    accuracy: false,
    lon: rawPosition(k.lon),
    lat: rawPosition(k.lat),
    course: Math.round(k.cog * 10) % 3600,
    heading: headingAvailable ? Math.round(k.heading) % 360 : 511,
    second: Math.floor(time / 1000) % 60,
    regional: 0,
    cs: true,
    display: false,
    dsc: true,
    band: true,
    msg22: true,
    assigned: false,
    raim: false,
    radio: CLASS_B_CS_RADIO,
  };
}

/** Upper-cases and keeps to the characters AIS six-bit text can carry. */
export function aisText(text: string, maxLength: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 ,.\-/]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, maxLength)
    .trim();
}

/** How a vessel writes its destination: the UN/LOCODE, the LOCODE spaced, or the port name. */
export type DestinationStyle = 'locode' | 'spaced' | 'name';

export function destinationText(port: SimPort, style: DestinationStyle): string {
  if (style === 'locode') return port.locode;
  if (style === 'spaced') return `${port.locode.slice(0, 2)} ${port.locode.slice(2)}`;
  // "Helsingfors (Helsinki)" and the like: the part before the bracket.
  return aisText(port.name.split('(')[0]!, 20);
}

export function staticVoyage(
  identity: VesselIdentity,
  destination: string,
  eta: number | null,
  draught: number,
  aisVersion: number,
): StaticVoyageRaw {
  const date = eta === null ? null : new Date(eta);
  return {
    type: 5,
    repeat: 0,
    mmsi: identity.mmsi,
    ais_version: aisVersion,
    imo: identity.imo,
    callsign: identity.callsign,
    shipname: identity.name,
    shiptype: identity.shipType,
    to_bow: identity.toBow,
    to_stern: identity.toStern,
    to_port: identity.toPort,
    to_starboard: identity.toStarboard,
    epfd: 1,
    month: date ? date.getUTCMonth() + 1 : 0,
    day: date ? date.getUTCDate() : 0,
    hour: date ? date.getUTCHours() : 24,
    minute: date ? date.getUTCMinutes() : 60,
    draught: Math.min(255, Math.round(draught * 10)),
    destination,
    dte: 0,
  };
}

export function staticPartA(identity: VesselIdentity): StaticDataPartARaw {
  return { type: 24, repeat: 0, mmsi: identity.mmsi, partno: 0, shipname: identity.name };
}

export function staticPartB(identity: VesselIdentity, vendor: string, model: number, serial: number): StaticDataPartBRaw {
  return {
    type: 24,
    repeat: 0,
    mmsi: identity.mmsi,
    partno: 1,
    shiptype: identity.shipType,
    vendorid: vendor,
    model,
    serial,
    callsign: identity.callsign,
    to_bow: identity.toBow,
    to_stern: identity.toStern,
    to_port: identity.toPort,
    to_starboard: identity.toStarboard,
    mothership_mmsi: null,
  };
}
