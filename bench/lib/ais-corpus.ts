// Deterministic AIS traffic for benchmarks, made with LAMIS's own encoder: a fleet of class A and
// class B vessels, base stations and aids to navigation in a dozen busy sea areas, each vessel moving
// between its reports, and a message mix close to a coastal receiver's:
//   ~60% types 1/2/3, 10% type 5 (two sentences), 15% type 18, 5% type 24 A/B, 5% type 4,
//   the rest types 21, 27 and 8.
// Vessels are picked round-robin within their class, so every vessel of the fleet shows up once the
// corpus has at least as many messages of its class as there are vessels (what an ingest or a
// memory-per-vessel benchmark needs: pass a fleet size and enough messages).
//
// This is the shared hook for AIS benchmarks: `prepareAisCorpus()` writes the lines to a temp file
// and reads them back, `generateAisCorpus()` keeps them in memory.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAisSentences, rawLongRangePosition, rawPosition } from '../../src/maritime/ais/index.ts';
import type {
  AidToNavigationRaw,
  AisRaw,
  BaseStationReportRaw,
  BroadcastBinaryRaw,
  ClassBPositionRaw,
  LongRangeRaw,
  PositionReportRaw,
  StaticDataRaw,
  StaticVoyageRaw,
} from '../../src/maritime/ais/index.ts';

/** Share of each kind of message; normalised, so they need not add up to 1. */
export interface AisMix {
  type1: number;
  type2: number;
  type3: number;
  type4: number;
  type5: number;
  type8: number;
  type18: number;
  type21: number;
  type24: number;
  type27: number;
}

export const DEFAULT_AIS_MIX: Readonly<AisMix> = {
  type1: 0.48,
  type2: 0.02,
  type3: 0.1,
  type5: 0.1,
  type18: 0.15,
  type24: 0.05,
  type4: 0.05,
  type21: 0.02,
  type27: 0.02,
  type8: 0.01,
};

export interface AisCorpusOptions {
  /** Messages to generate (multi-sentence messages count once). Default 300 000. */
  messages?: number;
  /** PRNG seed. Default 20240601. */
  seed?: number;
  /** Class A vessels (types 1/2/3, 5, 27, 8). Default 6000. */
  classAVessels?: number;
  /** Class B vessels (types 18, 24). Default 2500. */
  classBVessels?: number;
  /** Base stations (type 4). Default 150. */
  baseStations?: number;
  /** Aids to navigation (type 21). Default 400. */
  aidsToNavigation?: number;
  mix?: Partial<AisMix>;
}

export interface AisCorpus {
  /** One NMEA sentence per entry, no line terminators. */
  lines: string[];
  /** Messages encoded (a two-sentence type 5 is one message). */
  messages: number;
  /** Messages encoded, by AIS type. */
  messagesByType: Record<number, number>;
  /** Sum of the MMSIs of the messages of each type: a cheap check that a decoder read the same messages. */
  mmsiSumByType: Record<number, number>;
  /** Messages that needed more than one sentence. */
  multiSentenceMessages: number;
  /** Distinct MMSIs that sent at least one message. */
  stations: number;
  options: Required<Omit<AisCorpusOptions, 'mix'>> & { mix: AisMix };
}

export interface AisCorpusFile extends AisCorpus {
  /** The temp file the lines were written to and read back from. */
  file: string;
  bytes: number;
  /** Removes the temp file. */
  remove(): void;
}

// ---------------------------------------------------------------- PRNG

/** sfc32: small, fast, and the same sequence everywhere for a given seed. */
export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    this.#a = 0x9e3779b9;
    this.#b = 0x243f6a88;
    this.#c = 0xb7e15162;
    this.#d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

// ---------------------------------------------------------------- fleet

/** Busy sea areas: centre latitude, longitude (degrees) and half-width (degrees). */
const AREAS: readonly (readonly [number, number, number])[] = [
  [50.4, -0.5, 1.2], // English Channel
  [52.0, 3.6, 0.8], // Rotterdam approaches
  [54.2, 7.5, 0.8], // German Bight
  [57.0, 19.0, 2.0], // Baltic
  [1.2, 103.9, 0.6], // Singapore Strait
  [31.0, 122.6, 1.0], // Yangtze estuary
  [35.3, 139.8, 0.5], // Tokyo Bay
  [26.5, 53.0, 1.5], // Persian Gulf
  [37.6, 24.2, 1.2], // Aegean
  [28.6, -90.0, 1.5], // Gulf of Mexico
  [40.4, -73.8, 0.5], // New York approaches
  [8.9, -79.5, 0.4], // Panama
  [-33.9, 18.3, 0.8], // Cape Town
  [-37.9, 144.9, 0.5], // Port Phillip
];

/** Maritime identification digits the MMSIs are spread over. */
const MIDS: readonly number[] = [
  205, 209, 211, 212, 215, 219, 220, 224, 227, 229, 230, 232, 235, 236, 244, 245, 247, 248, 255, 257, 259, 265, 271, 273,
  303, 304, 305, 309, 311, 316, 319, 338, 341, 351, 352, 353, 354, 355, 356, 357, 366, 367, 368, 370, 371, 372, 373, 374,
  412, 413, 414, 416, 419, 431, 432, 440, 441, 470, 477, 503, 525, 533, 538, 548, 563, 564, 565, 566, 636, 657, 710,
];

const NAME_HEADS = [
  'MAERSK', 'MSC', 'CMA CGM', 'EVER', 'NORDIC', 'STAR', 'OCEAN', 'PACIFIC', 'BALTIC', 'ATLANTIC', 'COSCO', 'HAPAG',
  'STENA', 'SEA', 'GOLDEN', 'SILVER', 'BLUE', 'POLAR', 'CAPE', 'NAVIOS', 'GLOBAL', 'ARCTIC', 'ORIENT', 'NORTHERN',
];
const NAME_TAILS = [
  'HORIZON', 'PEARL', 'SPIRIT', 'EXPRESS', 'QUEEN', 'TRADER', 'PIONEER', 'VOYAGER', 'GLORY', 'FORTUNE', 'BREEZE',
  'CARRIER', 'LEADER', 'PROGRESS', 'HARMONY', 'DISCOVERY', 'MARINER', 'ENDEAVOUR', 'FALCON', 'LIBERTY',
];
const PLEASURE_NAMES = ['SEA BREEZE', 'BLUE MOON', 'FREEDOM', 'SERENITY', 'WINDSONG', 'AURORA', 'PELICAN', 'TERN', 'ODYSSEY', 'ALBATROSS'];
const DESTINATIONS = [
  'ROTTERDAM', 'NLRTM', 'SINGAPORE', 'SGSIN', 'HAMBURG', 'DEHAM', 'ANTWERP', 'BEANR', 'SHANGHAI', 'CNSHA', 'HOUSTON',
  'USHOU', 'FELIXSTOWE', 'PIRAEUS', 'JEBEL ALI', 'BUSAN', 'LE HAVRE', 'GDANSK', 'FOR ORDERS', 'NEW YORK', 'PANAMA',
  'CAPE TOWN', 'MELBOURNE', 'TOKYO', 'YOKOHAMA', 'GOTHENBURG', 'KLAIPEDA',
];
const ATON_NAMES = [
  'NORTH HINDER BUOY', 'SANDETTIE LIGHT VESSEL', 'EAST GOODWIN', 'MAASMOND CARDINAL N', 'ELBE 1', 'HORNS REV WIND FARM SE',
  'RAFFLES LIGHTHOUSE', 'HORSBURGH LIGHTHOUSE', 'AMBROSE CHANNEL LIGHTED BUOY 2', 'SAN ANTONIO WRECK VIRTUAL',
  'KAAP HOORN', 'TSS WEST FRISIAN ISLANDS WEST', 'SOUTH FALLS', 'DYCK LIGHTED BUOY', 'BRAMBLE BANK',
];
const VENDORS = ['SRT', 'CML', 'GRM', 'TRU', 'SMT', 'EMT', 'ACR', 'AMC'];
const CLASS_A_SHIP_TYPES = [30, 31, 52, 60, 61, 69, 70, 70, 70, 71, 74, 79, 79, 80, 80, 81, 84, 89, 90];
const CLASS_B_SHIP_TYPES = [30, 36, 36, 37, 37, 37, 50, 51, 52, 55, 60, 99];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

interface Mover {
  mmsi: number;
  lat: number;
  lon: number;
  /** Knots. */
  sog: number;
  /** Degrees. */
  cog: number;
  /** Nav status (class A). */
  status: number;
  channel: string;
}

interface ClassAVessel extends Mover {
  imo: number;
  callsign: string;
  shipname: string;
  shiptype: number;
  toBow: number;
  toStern: number;
  toPort: number;
  toStarboard: number;
  destination: string;
  etaMonth: number;
  etaDay: number;
  etaHour: number;
  etaMinute: number;
  /** 1/10 metre. */
  draught: number;
  aisVersion: number;
  /** Inland ENI-style binary data for type 8, as hex. */
  inlandData: string;
}

interface ClassBVessel extends Mover {
  shipname: string;
  shiptype: number;
  callsign: string;
  vendor: string;
  model: number;
  serial: number;
  toBow: number;
  toStern: number;
  toPort: number;
  toStarboard: number;
}

interface FixedStation {
  mmsi: number;
  lat: number;
  lon: number;
  name: string;
  aidType: number;
  virtual: boolean;
  channel: string;
}

/** Unique 9-digit MMSI `MID xxxxxx` for the n-th station of a class (`lane` keeps classes apart). */
function shipMmsi(index: number, lane: number): number {
  const mid = MIDS[index % MIDS.length]!;
  const k = Math.floor(index / MIDS.length) + lane * 250_000;
  // 7919 is prime, so k -> k*7919 mod 1e6 is one-to-one for k < 1e6.
  return mid * 1_000_000 + ((k * 7919 + 104_729) % 1_000_000);
}

function callsign(rng: Rng): string {
  let value = '';
  const length = rng.int(4, 7);
  for (let i = 0; i < length; i++) value += ALNUM[rng.int(0, i === 0 ? 25 : ALNUM.length - 1)];
  return value;
}

function place(rng: Rng): { lat: number; lon: number } {
  const [lat, lon, spread] = rng.pick(AREAS);
  return { lat: lat + rng.range(-spread, spread), lon: lon + rng.range(-spread, spread) };
}

function hexBytes(rng: Rng, bytes: number): string {
  let hex = '';
  for (let i = 0; i < bytes; i++) hex += rng.int(0, 255).toString(16).padStart(2, '0');
  return hex;
}

function moverStatus(rng: Rng): { status: number; sog: number } {
  const roll = rng.next();
  if (roll < 0.68) return { status: 0, sog: rng.range(4, 22) };
  if (roll < 0.8) return { status: 5, sog: 0 };
  if (roll < 0.9) return { status: 1, sog: rng.range(0, 0.4) };
  if (roll < 0.95) return { status: 7, sog: rng.range(1, 8) };
  if (roll < 0.98) return { status: 8, sog: rng.range(2, 9) };
  return { status: 15, sog: rng.range(0, 15) };
}

function makeClassA(rng: Rng, index: number): ClassAVessel {
  const { lat, lon } = place(rng);
  const { status, sog } = moverStatus(rng);
  const length = rng.int(30, 380);
  const beam = Math.max(6, Math.min(63, Math.round(length / rng.range(5.5, 7.5))));
  const toBow = Math.round(length * rng.range(0.7, 0.9));
  const toPort = Math.round(beam / 2);
  const name = `${rng.pick(NAME_HEADS)} ${rng.pick(NAME_TAILS)}${rng.chance(0.3) ? ` ${rng.int(1, 12)}` : ''}`;
  return {
    mmsi: shipMmsi(index, 0),
    lat,
    lon,
    sog,
    cog: rng.range(0, 360),
    status,
    channel: rng.chance(0.5) ? 'A' : 'B',
    imo: rng.chance(0.9) ? rng.int(9_000_000, 9_999_999) : 0,
    callsign: callsign(rng),
    shipname: name.slice(0, 20),
    shiptype: rng.pick(CLASS_A_SHIP_TYPES),
    toBow,
    toStern: length - toBow,
    toPort,
    toStarboard: beam - toPort,
    destination: rng.pick(DESTINATIONS),
    etaMonth: rng.int(1, 12),
    etaDay: rng.int(1, 28),
    etaHour: rng.int(0, 23),
    etaMinute: rng.pick([0, 0, 15, 30, 45, rng.int(0, 59)]),
    draught: rng.int(25, 160),
    aisVersion: rng.pick([0, 0, 1, 2, 2]),
    inlandData: hexBytes(rng, 14),
  };
}

function makeClassB(rng: Rng, index: number): ClassBVessel {
  const { lat, lon } = place(rng);
  const length = rng.int(6, 30);
  const beam = Math.max(2, Math.round(length / 3));
  return {
    mmsi: shipMmsi(index, 1),
    lat,
    lon,
    sog: rng.chance(0.4) ? 0 : rng.range(2, 25),
    cog: rng.range(0, 360),
    status: 15,
    channel: rng.chance(0.5) ? 'A' : 'B',
    shipname: `${rng.pick(PLEASURE_NAMES)}${rng.chance(0.5) ? ` ${rng.int(1, 99)}` : ''}`,
    shiptype: rng.pick(CLASS_B_SHIP_TYPES),
    callsign: callsign(rng),
    vendor: rng.pick(VENDORS),
    model: rng.int(0, 15),
    serial: rng.int(0, 1_048_575),
    toBow: Math.round(length * 0.6),
    toStern: length - Math.round(length * 0.6),
    toPort: Math.floor(beam / 2),
    toStarboard: beam - Math.floor(beam / 2),
  };
}

function makeFixed(rng: Rng, index: number, aton: boolean): FixedStation {
  const { lat, lon } = place(rng);
  const mid = MIDS[index % MIDS.length]!;
  const serial = Math.floor(index / MIDS.length) % 10_000;
  return {
    // Base stations 00MIDxxxx, aids to navigation 99MIDxxxx.
    mmsi: aton ? 990_000_000 + mid * 10_000 + serial : mid * 10_000 + serial,
    lat,
    lon,
    name: rng.pick(ATON_NAMES),
    aidType: rng.int(1, 31),
    virtual: rng.chance(0.2),
    channel: rng.chance(0.5) ? 'A' : 'B',
  };
}

/** Moves a vessel by one reporting interval (a few seconds to a few minutes) and wobbles its course. */
function advance(rng: Rng, mover: Mover): void {
  if (mover.sog < 0.5) return;
  const hours = rng.range(2, 180) / 3600;
  const distanceNm = mover.sog * hours;
  const radians = (mover.cog * Math.PI) / 180;
  mover.lat += (distanceNm * Math.cos(radians)) / 60;
  mover.lon += (distanceNm * Math.sin(radians)) / (60 * Math.max(0.2, Math.cos((mover.lat * Math.PI) / 180)));
  if (mover.lat > 80 || mover.lat < -75) mover.cog = (mover.cog + 180) % 360;
  if (mover.lon > 180) mover.lon -= 360;
  if (mover.lon < -180) mover.lon += 360;
  mover.cog = (mover.cog + rng.range(-3, 3) + 360) % 360;
  mover.sog = Math.max(0.5, Math.min(40, mover.sog + rng.range(-0.3, 0.3)));
}

/** Degrees to AIS 1/10 000 minute. */

// ---------------------------------------------------------------- messages

function positionReport(rng: Rng, vessel: ClassAVessel, type: 1 | 2 | 3): PositionReportRaw {
  advance(rng, vessel);
  const turning = vessel.sog >= 0.5 && rng.chance(0.6);
  return {
    type,
    repeat: rng.chance(0.05) ? 1 : 0,
    mmsi: vessel.mmsi,
    status: vessel.status,
    turn: turning ? rng.int(-40, 40) : rng.chance(0.5) ? -128 : 0,
    speed: Math.min(1022, Math.round(vessel.sog * 10)),
    accuracy: rng.chance(0.4),
    lon: rawPosition(vessel.lon),
    lat: rawPosition(vessel.lat),
    course: Math.round(vessel.cog * 10) % 3600,
    heading: rng.chance(0.08) ? 511 : Math.round(vessel.cog + rng.range(-4, 4) + 360) % 360,
    second: rng.int(0, 59),
    maneuver: 0,
    raim: rng.chance(0.3),
    radio: rng.int(0, 524_287),
  };
}

function staticVoyage(rng: Rng, vessel: ClassAVessel): StaticVoyageRaw {
  return {
    type: 5,
    repeat: 0,
    mmsi: vessel.mmsi,
    ais_version: vessel.aisVersion,
    imo: vessel.imo,
    callsign: vessel.callsign,
    shipname: vessel.shipname,
    shiptype: vessel.shiptype,
    to_bow: vessel.toBow,
    to_stern: vessel.toStern,
    to_port: vessel.toPort,
    to_starboard: vessel.toStarboard,
    epfd: rng.chance(0.9) ? 1 : 0,
    month: vessel.etaMonth,
    day: vessel.etaDay,
    hour: vessel.etaHour,
    minute: vessel.etaMinute,
    draught: vessel.draught,
    destination: vessel.destination,
    dte: 0,
  };
}

function longRange(rng: Rng, vessel: ClassAVessel): LongRangeRaw {
  advance(rng, vessel);
  return {
    type: 27,
    repeat: 0,
    mmsi: vessel.mmsi,
    accuracy: false,
    raim: false,
    status: vessel.status,
    lon: rawLongRangePosition(vessel.lon),
    lat: rawLongRangePosition(vessel.lat),
    speed: Math.min(62, Math.round(vessel.sog)),
    course: Math.round(vessel.cog) % 360,
    gnss: false,
  };
}

function inlandBinary(vessel: ClassAVessel): BroadcastBinaryRaw {
  // DAC 200 / FID 10: inland ship static and voyage data (112 data bits).
  return { type: 8, repeat: 0, mmsi: vessel.mmsi, dac: 200, fid: 10, data: vessel.inlandData, data_bits: 112 };
}

function metHydroBinary(rng: Rng, station: FixedStation): BroadcastBinaryRaw {
  // DAC 1 / FID 31: meteorological and hydrographic data (304 data bits), from a shore station.
  return { type: 8, repeat: 0, mmsi: station.mmsi, dac: 1, fid: 31, data: hexBytes(rng, 38), data_bits: 304 };
}

function classBPosition(rng: Rng, vessel: ClassBVessel): ClassBPositionRaw {
  advance(rng, vessel);
  return {
    type: 18,
    repeat: 0,
    mmsi: vessel.mmsi,
    reserved: 0,
    speed: Math.min(1022, Math.round(vessel.sog * 10)),
    accuracy: rng.chance(0.2),
    lon: rawPosition(vessel.lon),
    lat: rawPosition(vessel.lat),
    course: Math.round(vessel.cog * 10) % 3600,
    heading: rng.chance(0.7) ? 511 : Math.round(vessel.cog) % 360,
    second: rng.int(0, 59),
    regional: 0,
    cs: true,
    display: false,
    dsc: rng.chance(0.6),
    band: true,
    msg22: true,
    assigned: false,
    raim: false,
    radio: rng.chance(0.8) ? 393_222 : rng.int(0, 1_048_575),
  };
}

function staticData(rng: Rng, vessel: ClassBVessel): StaticDataRaw {
  if (rng.chance(0.5)) return { type: 24, repeat: 0, mmsi: vessel.mmsi, partno: 0, shipname: vessel.shipname };
  return {
    type: 24,
    repeat: 0,
    mmsi: vessel.mmsi,
    partno: 1,
    shiptype: vessel.shiptype,
    vendorid: vessel.vendor,
    model: vessel.model,
    serial: vessel.serial,
    callsign: vessel.callsign,
    to_bow: vessel.toBow,
    to_stern: vessel.toStern,
    to_port: vessel.toPort,
    to_starboard: vessel.toStarboard,
    mothership_mmsi: null,
  };
}

function baseStation(rng: Rng, station: FixedStation, time: Date): BaseStationReportRaw {
  return {
    type: 4,
    repeat: 0,
    mmsi: station.mmsi,
    year: time.getUTCFullYear(),
    month: time.getUTCMonth() + 1,
    day: time.getUTCDate(),
    hour: time.getUTCHours(),
    minute: time.getUTCMinutes(),
    second: time.getUTCSeconds(),
    accuracy: true,
    lon: rawPosition(station.lon),
    lat: rawPosition(station.lat),
    epfd: rng.chance(0.7) ? 7 : 1,
    raim: false,
    radio: rng.int(0, 524_287),
  };
}

function aidToNavigation(rng: Rng, station: FixedStation): AidToNavigationRaw {
  return {
    type: 21,
    repeat: 0,
    mmsi: station.mmsi,
    aid_type: station.aidType,
    name: station.name,
    accuracy: true,
    lon: rawPosition(station.lon),
    lat: rawPosition(station.lat),
    to_bow: 0,
    to_stern: 0,
    to_port: 0,
    to_starboard: 0,
    epfd: 7,
    second: rng.int(0, 59),
    off_position: false,
    regional: 0,
    raim: false,
    virtual_aid: station.virtual,
    assigned: false,
  };
}

// ---------------------------------------------------------------- corpus

type Kind = keyof AisMix;

function resolveOptions(options: AisCorpusOptions): AisCorpus['options'] {
  return {
    messages: options.messages ?? 300_000,
    seed: options.seed ?? 20240601,
    classAVessels: Math.max(1, options.classAVessels ?? 6_000),
    classBVessels: Math.max(1, options.classBVessels ?? 2_500),
    baseStations: Math.max(1, options.baseStations ?? 150),
    aidsToNavigation: Math.max(1, options.aidsToNavigation ?? 400),
    mix: { ...DEFAULT_AIS_MIX, ...options.mix },
  };
}

/** Generates the corpus in memory (deterministic for given options). */
export function generateAisCorpus(options: AisCorpusOptions = {}): AisCorpus {
  const resolved = resolveOptions(options);
  const rng = new Rng(resolved.seed);
  const classA = Array.from({ length: resolved.classAVessels }, (_, i) => makeClassA(rng, i));
  const classB = Array.from({ length: resolved.classBVessels }, (_, i) => makeClassB(rng, i));
  const bases = Array.from({ length: resolved.baseStations }, (_, i) => makeFixed(rng, i, false));
  const atons = Array.from({ length: resolved.aidsToNavigation }, (_, i) => makeFixed(rng, i, true));

  const kinds = Object.keys(resolved.mix) as Kind[];
  const total = kinds.reduce((sum, kind) => sum + Math.max(0, resolved.mix[kind]), 0);
  const thresholds: number[] = [];
  let cumulative = 0;
  for (const kind of kinds) {
    cumulative += Math.max(0, resolved.mix[kind]) / total;
    thresholds.push(cumulative);
  }

  const next = { a: 0, b: 0, base: 0, aton: 0 };
  const nextClassA = (): ClassAVessel => classA[next.a++ % classA.length]!;
  const nextClassB = (): ClassBVessel => classB[next.b++ % classB.length]!;
  const nextBase = (): FixedStation => bases[next.base++ % bases.length]!;
  const nextAton = (): FixedStation => atons[next.aton++ % atons.length]!;

  const lines: string[] = [];
  const messagesByType: Record<number, number> = {};
  const mmsiSumByType: Record<number, number> = {};
  const stations = new Set<number>();
  let multiSentenceMessages = 0;
  let sequenceId = 0;
  let clock = Date.UTC(2025, 5, 1, 8, 0, 0);

  for (let i = 0; i < resolved.messages; i++) {
    const roll = rng.next();
    let index = thresholds.findIndex((threshold) => roll < threshold);
    if (index < 0) index = kinds.length - 1;
    const kind = kinds[index]!;
    let message: AisRaw;
    let channel: string;
    switch (kind) {
      case 'type1':
      case 'type2':
      case 'type3': {
        const vessel = nextClassA();
        message = positionReport(rng, vessel, kind === 'type1' ? 1 : kind === 'type2' ? 2 : 3);
        channel = vessel.channel;
        break;
      }
      case 'type5': {
        const vessel = nextClassA();
        message = staticVoyage(rng, vessel);
        channel = vessel.channel;
        break;
      }
      case 'type27': {
        const vessel = nextClassA();
        message = longRange(rng, vessel);
        channel = vessel.channel;
        break;
      }
      case 'type8': {
        if (rng.chance(0.5)) {
          const vessel = nextClassA();
          message = inlandBinary(vessel);
          channel = vessel.channel;
        } else {
          const station = nextBase();
          message = metHydroBinary(rng, station);
          channel = station.channel;
        }
        break;
      }
      case 'type18': {
        const vessel = nextClassB();
        message = classBPosition(rng, vessel);
        channel = vessel.channel;
        break;
      }
      case 'type24': {
        const vessel = nextClassB();
        message = staticData(rng, vessel);
        channel = vessel.channel;
        break;
      }
      case 'type4': {
        const station = nextBase();
        message = baseStation(rng, station, new Date(clock));
        channel = station.channel;
        break;
      }
      case 'type21': {
        const station = nextAton();
        message = aidToNavigation(rng, station);
        channel = station.channel;
        break;
      }
    }
    clock += 3;
    const sentences = encodeAisSentences(message, { channel, sequenceId });
    if (sentences.length > 1) {
      multiSentenceMessages++;
      sequenceId = (sequenceId + 1) % 10;
    }
    for (const sentence of sentences) lines.push(sentence);
    messagesByType[message.type] = (messagesByType[message.type] ?? 0) + 1;
    mmsiSumByType[message.type] = (mmsiSumByType[message.type] ?? 0) + message.mmsi;
    stations.add(message.mmsi);
  }

  return { lines, messages: resolved.messages, messagesByType, mmsiSumByType, multiSentenceMessages, stations: stations.size, options: resolved };
}

/**
 * Options for a corpus in which each of `vessels` vessels (3/4 class A, 1/4 class B) sends about
 * `messagesPerVessel` messages; from 1.5 on, every vessel of the fleet sends at least one message
 * (vessels are taken round-robin within their class). For ingest and memory-per-vessel benchmarks.
 */
export function fleetCorpusOptions(vessels: number, messagesPerVessel = 2, seed?: number): AisCorpusOptions {
  const classAVessels = Math.max(1, Math.round(vessels * 0.75));
  return {
    messages: Math.ceil(vessels * messagesPerVessel),
    classAVessels,
    classBVessels: Math.max(1, vessels - classAVessels),
    baseStations: Math.max(1, Math.min(2_000, Math.round(vessels / 50))),
    aidsToNavigation: Math.max(1, Math.min(5_000, Math.round(vessels / 20))),
    ...(seed === undefined ? {} : { seed }),
  };
}

/** Reads an NMEA file back as lines (CR/LF tolerant, blank lines dropped). */
export function readNmeaLines(file: string): string[] {
  const text = readFileSync(file, 'latin1');
  const lines = text.split('\n');
  const out: string[] = [];
  for (let line of lines) {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.length > 0) out.push(line);
  }
  return out;
}

/**
 * Generates the corpus, writes it to a temp file (never inside the work tree) and reads it back, so
 * benchmarks decode lines as they come out of a file. Call `remove()` when done.
 */
export function prepareAisCorpus(options: AisCorpusOptions = {}): AisCorpusFile {
  const corpus = generateAisCorpus(options);
  const dir = join(tmpdir(), 'lamis-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `ais-corpus-${process.pid}-${corpus.options.seed}-${corpus.messages}.nmea`);
  const text = `${corpus.lines.join('\n')}\n`;
  writeFileSync(file, text, 'latin1');
  const lines = readNmeaLines(file);
  if (lines.length !== corpus.lines.length) throw new Error(`read back ${lines.length} lines from ${file}, wrote ${corpus.lines.length}`);
  return {
    ...corpus,
    lines,
    file,
    bytes: Buffer.byteLength(text, 'latin1'),
    remove: () => rmSync(file, { force: true }),
  };
}
