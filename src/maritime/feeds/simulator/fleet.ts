// The simulated fleet: ship kinds with realistic shares, sizes and speeds, and identities that
// validate (MMSI = flag MID + 6 digits, IMO numbers with their check digit, flag call-sign series).
import type { Prng } from '../../../platform/random.ts';
import { imoFromPrefix, midsForFlag } from '../../vessels/reference/index.ts';
import type { SimPort } from './ports.ts';

/** How a kind of vessel moves (see movement.ts). */
export type TradePattern = 'ocean' | 'short_sea' | 'ferry' | 'fishing' | 'harbour' | 'leisure';

export interface VesselProfile {
  kind: string;
  /** Share of the fleet (relative). */
  share: number;
  /** AIS ship type codes with relative weights. */
  shipTypes: readonly (readonly [code: number, weight: number])[];
  /** Transit speed range, knots. */
  speed: readonly [number, number];
  length: readonly [number, number];
  /** Beam as a fraction of length. */
  beamRatio: readonly [number, number];
  draught: readonly [number, number];
  pattern: TradePattern;
  /** Hours alongside between trips. */
  mooredHours: readonly [number, number];
  /** Chance of waiting at anchor before berthing, and for how long (hours). */
  anchorChance: number;
  anchorHours: readonly [number, number];
  /** Class B when shorter than this (metres); 0: always class A. */
  classBBelow: number;
  /** Carries an IMO number when class A. */
  imo: boolean;
  names: 'merchant' | 'tanker' | 'passenger' | 'local' | 'leisure';
}

export const PROFILES: readonly VesselProfile[] = [
  { kind: 'container', share: 14, shipTypes: [[70, 8], [71, 1], [72, 1]], speed: [14, 20], length: [150, 400], beamRatio: [0.13, 0.16], draught: [9, 15.5], pattern: 'ocean', mooredHours: [12, 40], anchorChance: 0.25, anchorHours: [4, 24], classBBelow: 0, imo: true, names: 'merchant' },
  { kind: 'bulk_carrier', share: 16, shipTypes: [[70, 1]], speed: [11, 14.5], length: [150, 300], beamRatio: [0.14, 0.17], draught: [8, 18], pattern: 'ocean', mooredHours: [24, 96], anchorChance: 0.5, anchorHours: [12, 96], classBBelow: 0, imo: true, names: 'merchant' },
  { kind: 'general_cargo', share: 12, shipTypes: [[70, 6], [79, 2], [73, 1]], speed: [10, 14], length: [80, 180], beamRatio: [0.14, 0.17], draught: [5, 9], pattern: 'short_sea', mooredHours: [8, 48], anchorChance: 0.3, anchorHours: [6, 36], classBBelow: 0, imo: true, names: 'merchant' },
  { kind: 'tanker', share: 14, shipTypes: [[80, 6], [81, 2], [82, 1], [83, 1], [84, 1]], speed: [11, 15], length: [100, 330], beamRatio: [0.15, 0.19], draught: [7, 20], pattern: 'ocean', mooredHours: [18, 48], anchorChance: 0.5, anchorHours: [12, 72], classBBelow: 0, imo: true, names: 'tanker' },
  { kind: 'cruise', share: 3, shipTypes: [[60, 1]], speed: [15, 21], length: [180, 340], beamRatio: [0.11, 0.13], draught: [7, 8.8], pattern: 'ocean', mooredHours: [8, 14], anchorChance: 0.1, anchorHours: [1, 6], classBBelow: 0, imo: true, names: 'passenger' },
  { kind: 'ferry', share: 5, shipTypes: [[60, 3], [69, 1]], speed: [15, 22], length: [90, 220], beamRatio: [0.14, 0.17], draught: [4.5, 7], pattern: 'ferry', mooredHours: [0.5, 2], anchorChance: 0, anchorHours: [0, 0], classBBelow: 0, imo: true, names: 'passenger' },
  { kind: 'high_speed_craft', share: 2, shipTypes: [[40, 3], [49, 1]], speed: [28, 36], length: [30, 90], beamRatio: [0.25, 0.3], draught: [1.5, 3.2], pattern: 'ferry', mooredHours: [0.5, 1.5], anchorChance: 0, anchorHours: [0, 0], classBBelow: 0, imo: true, names: 'passenger' },
  { kind: 'fishing', share: 14, shipTypes: [[30, 1]], speed: [7, 10], length: [10, 70], beamRatio: [0.22, 0.3], draught: [1.5, 6], pattern: 'fishing', mooredHours: [6, 48], anchorChance: 0, anchorHours: [0, 0], classBBelow: 24, imo: false, names: 'local' },
  { kind: 'tug', share: 7, shipTypes: [[52, 1]], speed: [8, 12], length: [20, 40], beamRatio: [0.3, 0.38], draught: [3, 6], pattern: 'harbour', mooredHours: [1, 8], anchorChance: 0, anchorHours: [0, 0], classBBelow: 0, imo: true, names: 'local' },
  { kind: 'pleasure', share: 10, shipTypes: [[37, 1]], speed: [5, 12], length: [7, 30], beamRatio: [0.25, 0.33], draught: [0.8, 2.5], pattern: 'leisure', mooredHours: [6, 72], anchorChance: 0, anchorHours: [0, 0], classBBelow: 100, imo: false, names: 'leisure' },
  { kind: 'sailing', share: 3, shipTypes: [[36, 1]], speed: [4, 8], length: [8, 20], beamRatio: [0.28, 0.34], draught: [1.4, 2.6], pattern: 'leisure', mooredHours: [12, 96], anchorChance: 0, anchorHours: [0, 0], classBBelow: 100, imo: false, names: 'leisure' },
];

// Open registers and big maritime flags carry most of the deep-sea fleet.
const DEEP_SEA_FLAGS: readonly (readonly [alpha2: string, weight: number])[] = [
  ['PA', 16], ['LR', 14], ['MH', 12], ['HK', 8], ['SG', 7], ['MT', 6], ['BS', 4], ['CN', 4], ['GR', 3],
  ['CY', 2], ['NO', 2], ['JP', 2], ['PT', 2], ['DK', 1], ['GB', 1], ['DE', 1], ['IT', 1], ['NL', 1],
  ['AG', 1], ['KR', 1], ['IN', 1], ['US', 1],
];

// ITU call-sign series used for ship stations, per flag.
const CALL_SIGN_PREFIXES: Readonly<Record<string, readonly string[]>> = {
  PA: ['3E', '3F', 'H3', 'H9', 'HO', 'HP'], LR: ['A8', 'D5', 'EL', '5L'], MH: ['V7'], HK: ['VR'],
  SG: ['9V', 'S6'], MT: ['9H'], BS: ['C6'], CN: ['BO', 'BP', 'BQ', 'BR'], GR: ['SV', 'SX', 'SZ'],
  CY: ['5B', 'C4', 'P3'], NO: ['LA', 'LC', 'LH', 'LJ'], JP: ['JA', 'JD', '7J'], PT: ['CQ', 'CR'],
  DK: ['OU', 'OW', 'OX', 'OZ'], GB: ['2', 'M', 'G'], DE: ['DA', 'DC', 'DF'], IT: ['IB', 'IC', 'IG'],
  NL: ['PB', 'PD', 'PH'], AG: ['V2'], KR: ['DS', 'D7', 'HL'], IN: ['AT', 'AU', 'VT'], US: ['WD', 'WC', 'KA'],
  BE: ['OO', 'OR', 'OT'], FR: ['FA', 'FM', 'FN'], ES: ['EA', 'EB', 'EC'], TR: ['TC', 'YM'], PL: ['SP', 'SQ'],
  SE: ['SB', 'SD', 'SE'], FI: ['OH', 'OJ'], RU: ['UB', 'UC', 'UF'], IE: ['EI'], IS: ['TF'], HR: ['9A'],
  EE: ['ES'], EG: ['SU', '6A'], LB: ['OD'], IL: ['4X'], TN: ['3V'], DZ: ['7T'], LY: ['5A'], MA: ['CN'],
  SA: ['HZ', '7Z'], AE: ['A6'], OM: ['A4'], IR: ['EP', '9B'], KW: ['9K'], ZA: ['ZR', 'ZS'], KE: ['5Y'],
  TZ: ['5H'], TG: ['5V'], SN: ['6V'], MU: ['3B'], MO: ['XX'], TW: ['BM', 'BN'], ID: ['PK', 'PM', 'YB'],
  MY: ['9M', '9W'], TH: ['HS'], PH: ['DU', 'DY'], VN: ['3W', 'XV'], LK: ['4R'], BD: ['S2'], PK: ['AP'],
  AU: ['VJ', 'VM', 'VN'], NZ: ['ZM'], FJ: ['3D'], PG: ['P2'], NC: ['FJ'], CA: ['CF', 'CG', 'VC', 'VO'],
  MX: ['XA', 'XC'], JM: ['6Y'], TT: ['9Y'], CO: ['HK', '5K'], BR: ['PP', 'PQ', 'PS'], AR: ['LW', 'LO'],
  UY: ['CX'], CL: ['CA', 'CB'], PE: ['OA'],
};

const MERCHANT_FIRST = ['NORDIC', 'PACIFIC', 'ATLANTIC', 'OCEAN', 'GLOBAL', 'EASTERN', 'WESTERN', 'GOLDEN', 'SILVER', 'BLUE', 'GREEN', 'ARCTIC', 'CORAL', 'CELTIC', 'STAR', 'SEA', 'CAPE', 'BALTIC', 'AEGEAN', 'ORIENT', 'HANSA', 'IRON', 'GRAND', 'UNITY', 'ROYAL'];
const MERCHANT_SECOND = ['TRADER', 'PIONEER', 'EXPRESS', 'HARMONY', 'SPIRIT', 'VOYAGER', 'CARRIER', 'PRIDE', 'HORIZON', 'MERCHANT', 'NAVIGATOR', 'FORTUNE', 'GLORY', 'VENTURE', 'BRIDGE', 'LEADER', 'WAVE', 'DAWN', 'ENDEAVOUR', 'CROWN'];
const TANKER_SECOND = ['SPIRIT', 'ENERGY', 'PROGRESS', 'NAVIGATOR', 'JEWEL', 'PEARL', 'TITAN', 'SUN', 'FALCON', 'EAGLE', 'DIAMOND', 'VOYAGER'];
const PLACES = ['ROTTERDAM', 'SHANGHAI', 'BUSAN', 'HAMBURG', 'LIMA', 'OSAKA', 'GENOA', 'SANTOS', 'DUBAI', 'ATHENS', 'MANILA', 'DURBAN', 'HOUSTON', 'BERGEN', 'LISBON', 'DALIAN', 'TOKYO', 'OSLO'];
const PASSENGER = ['SERENADE', 'SPLENDOUR', 'MAJESTY', 'AURORA', 'HARMONY', 'BRILLIANCE', 'ISLANDER', 'EXPRESS', 'CONNECTOR', 'STAR', 'PRINCESS', 'QUEEN', 'JET', 'RAPIDE', 'SKYLINE'];
const LOCAL_FIRST = ['MARIA', 'ANNA', 'JOHANNA', 'ELENA', 'SOFIA', 'CAROLINA', 'HELENA', 'TERESA', 'AGNES', 'KRISTINA', 'NADIA', 'YUKI', 'MEI', 'ISABEL', 'FREYA', 'INGRID', 'ROSA', 'SVEA', 'LUCIA', 'AURORA'];
const LOCAL_SECOND = ['BRAVE', 'HOPE', 'FAITH', 'PROVIDER', 'HARVEST', 'SEEKER', 'HUNTER', 'BOUNTY', 'STORM', 'TIDE', 'WIND', 'STAR', 'ROCK', 'HERON', 'GULL', 'PUFFIN'];
const LEISURE = ['SEA BREEZE', 'BLUE MOON', 'FREEDOM', 'SERENITY', 'WANDERER', 'ODYSSEY', 'SEA DREAM', 'MISTRAL', 'HALCYON', 'ALBATROSS', 'SALTY DOG', 'LA VIDA', 'AQUARIUS', 'CALYPSO', 'NEPTUNE', 'WINDSONG', 'SOLSTICE', 'MOONSHADOW', 'KESTREL', 'OSPREY'];
const ROMAN = ['', '', '', ' II', ' III', ' IV', ' V'];
const CALL_SIGN_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Identity and build of one simulated vessel (never changes after creation). */
export interface VesselIdentity {
  mmsi: number;
  /** 0 when the vessel has no IMO number. */
  imo: number;
  name: string;
  callsign: string;
  shipType: number;
  kind: string;
  pattern: TradePattern;
  aisClass: 'A' | 'B';
  flag: string;
  length: number;
  beam: number;
  toBow: number;
  toStern: number;
  toPort: number;
  toStarboard: number;
  /** Summer (fully laden) draught in metres, scaled with length within the kind's range. */
  designDraught: number;
  speedRange: readonly [number, number];
  profile: VesselProfile;
  homePort: SimPort;
}

function vesselName(profile: VesselProfile, random: Prng): string {
  switch (profile.names) {
    case 'merchant':
      return random.chance(0.3)
        ? `${random.pick(PLACES)} ${random.pick(MERCHANT_SECOND)}`
        : `${random.pick(MERCHANT_FIRST)} ${random.pick(MERCHANT_SECOND)}${random.pick(ROMAN)}`;
    case 'tanker':
      return `${random.pick(random.chance(0.5) ? MERCHANT_FIRST : PLACES)} ${random.pick(TANKER_SECOND)}${random.pick(ROMAN)}`;
    case 'passenger':
      return `${random.pick(MERCHANT_FIRST)} ${random.pick(PASSENGER)}`;
    case 'local':
      return random.chance(0.5) ? `${random.pick(LOCAL_FIRST)} ${random.int(1, 12)}` : `${random.pick(LOCAL_SECOND)} ${random.pick(LOCAL_FIRST)}`;
    case 'leisure':
      return `${random.pick(LEISURE)}${random.pick(ROMAN)}`;
  }
}

function callSign(flag: string, random: Prng): string {
  const prefix = random.pick(CALL_SIGN_PREFIXES[flag] ?? ['X']);
  let sign = prefix;
  const letters = random.int(2, 3);
  for (let i = 0; i < letters; i++) sign += CALL_SIGN_LETTERS[random.int(0, 25)];
  return `${sign}${random.int(0, 9)}`.slice(0, 7);
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Picks one entry of a weighted list of [value, weight] pairs. */
function weightedValue<T>(random: Prng, entries: readonly (readonly [T, number])[]): T {
  return random.weighted(entries, ([, weight]) => weight)[0];
}

/** Keeps MMSI and IMO numbers unique across a fleet. */
export class IdentityRegistry {
  readonly #mmsis = new Set<number>();
  readonly #imos = new Set<number>();

  mmsi(mid: number, random: Prng, roundNumber: boolean): number {
    for (let attempt = 0; ; attempt++) {
      // Many class A stations end in 000 (a legacy of Inmarsat numbering); others use all six digits,
      // as does any station once the 999 round numbers of a MID run short.
      const round = roundNumber && attempt < 20;
      const tail = round ? random.int(1, 999) * 1000 : random.int(0, 999_999);
      const mmsi = mid * 1_000_000 + tail;
      if (!this.#mmsis.has(mmsi)) {
        this.#mmsis.add(mmsi);
        return mmsi;
      }
    }
  }

  imo(random: Prng): number {
    for (;;) {
      // Numbers of ships built from the 1980s on start with 8 or 9.
      const imo = imoFromPrefix(random.chance(0.85) ? random.int(900_000, 989_999) : random.int(800_000, 899_999));
      if (!this.#imos.has(imo)) {
        this.#imos.add(imo);
        return imo;
      }
    }
  }
}

/**
 * Creates one vessel of a random kind, based at a port drawn from `ports` (ferries from
 * `ferryPorts`, the ports with a neighbour close enough for a shuttle, when there are any).
 */
export function createIdentity(
  random: Prng,
  ports: readonly SimPort[],
  ferryPorts: readonly SimPort[],
  registry: IdentityRegistry,
): VesselIdentity {
  const profile = random.weighted(PROFILES, (p) => p.share);
  const homePorts = profile.pattern === 'ferry' && ferryPorts.length > 0 ? ferryPorts : ports;
  const homePort = random.weighted(homePorts, (p) => p.weight);
  const length = Math.round(random.range(profile.length[0], profile.length[1]));
  const sizeFraction = (length - profile.length[0]) / Math.max(1, profile.length[1] - profile.length[0]);
  const beam = Math.max(2, Math.round(length * random.range(profile.beamRatio[0], profile.beamRatio[1])));
  const aisClass = length < profile.classBBelow ? 'B' : 'A';
  // Local craft fly the flag of their home port's country; deep-sea ships an open or major register.
  const local = profile.pattern !== 'ocean' && profile.pattern !== 'short_sea';
  let flag = local ? homePort.country : weightedValue(random, DEEP_SEA_FLAGS);
  let mids = midsForFlag(flag);
  if (mids.length === 0) {
    flag = 'PA';
    mids = midsForFlag(flag);
  }
  const mmsi = registry.mmsi(random.pick(mids), random, aisClass === 'A' && random.chance(0.4));
  // GNSS antenna on the bridge: aft on most ships, so the bow distance is the larger part.
  const toBow = Math.min(511, Math.round(length * random.range(0.6, 0.88)));
  const toStern = Math.min(511, length - toBow);
  const toPort = Math.min(63, Math.round(beam / 2 + random.range(-0.5, 0.5)));
  const toStarboard = Math.min(63, Math.max(0, beam - toPort));
  return {
    mmsi,
    imo: aisClass === 'A' && (profile.imo || length >= 24) ? registry.imo(random) : 0,
    name: vesselName(profile, random).slice(0, 20),
    callsign: aisClass === 'B' && random.chance(0.4) ? '' : callSign(flag, random),
    shipType: weightedValue(random, profile.shipTypes),
    kind: profile.kind,
    pattern: profile.pattern,
    aisClass,
    flag,
    length,
    beam,
    toBow,
    toStern,
    toPort,
    toStarboard,
    designDraught: round1(profile.draught[0] + (profile.draught[1] - profile.draught[0]) * sizeFraction),
    speedRange: profile.speed,
    profile,
    homePort,
  };
}
