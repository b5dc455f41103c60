// The port an AIS destination names. Crews type the destination by hand, in upper case, in at most
// 20 characters: "NLRTM", "NL RTM", "ROTTERDAM", "RTM", "S'PORE", "NLRTM>DEHAM", "HAMBURG VIA KIEL",
// "FOR ORDERS". The rules, in order:
//
// 1. Padding ("@") and case go; "->", "=>", ">>" and " TO " separate the legs of a route
//    ("FROM ROTTERDAM TO HAMBURG" is "ROTTERDAM>HAMBURG") and the last leg is where the vessel is
//    bound; "VIA ..." after a port is the way there and is dropped.
// 2. Orders and non-destinations name no port: "FOR ORDERS", "TBA", "AT SEA", "FISHING", ...
// 3. The whole text as a port name or alternate name ("ANCHORAGE" is the Alaskan port, "GAETA"
//    the Italian one, though both could be read otherwise).
// 4. The whole text as a UN/LOCODE of a known port, with or without its space or other separators
//    ("NL RTM", "NL-RTM").
// 5. Common abbreviations and English names ("RTM", "HH", "S'PORE", "ANTWERP", "GENOA").
// 6. Names again, after dropping what says where in the port the vessel goes ("ANCH", "OPL",
//    "ROADS", "PILOT STATION") and a trailing country ("ROTTERDAM NL", "SANTOS BRAZIL"); then a
//    name the text starts ("ROTTERDAM EUROPOORT"), and a name cut at the 20-character limit
//    ("LAS PALMAS DE GRAN C").
// 7. A UN/LOCODE as a word among others ("NLRTM ANCH", "NL RTM PILOT").
// Names compare folded (case, accents, punctuation and spaces ignored: "HONGKONG" is "Hong Kong"),
// with "PT" read as "PORT" and "ST" as "SAINT". Where several ports share a name, a country given
// in the text decides, then a port's own name before an alternate name, the larger harbour, the
// one nearest the vessel, and the one among ports of its own country; the answer says when the
// choice was not clear-cut.
import type { LatLon } from '../../platform/geo/great-circle.ts';
import { haversineNm } from '../../platform/geo/great-circle.ts';
import { createPointGrid } from '../../platform/geo/point-grid.ts';
import { fold, words } from '../../platform/text.ts';
import type { HarbourSize, Port } from './model.ts';
import { countryCode, isCountryCode, normaliseUnlocode } from './places.ts';

export type DestinationMatch =
  | {
      readonly status: 'port';
      readonly port: Port;
      /** Which rule found it. */
      readonly matched_by: 'unlocode' | 'abbreviation' | 'name';
      /** The leg of the text the port was read from. */
      readonly leg: string;
      /** Other ports fit the text as well; this one won by harbour size or nearness to the vessel. */
      readonly ambiguous: boolean;
    }
  | {
      readonly status: 'no_port';
      /** `empty`: nothing given; `for_orders`: awaiting orders; `not_a_port`: an activity or placeholder; `unknown`: no port LAMIS holds. */
      readonly reason: 'empty' | 'for_orders' | 'not_a_port' | 'unknown';
      readonly leg: string;
    };

export type DestinationMatcher = {
  /** `near`: where the vessel is, to choose between ports of the same name. */
  match(destination: string | null, near?: LatLon): DestinationMatch;
};

/** Placeholders and activities crews type instead of a port (compared after folding). */
const NOT_A_PORT = new Set([
  'tba', 'tbn', 'tbc', 'tbd', 'na', 'n a', 'none', 'nil', 'null', 'unknown', 'unk', 'xxx', 'test', 'spare', 'various',
  'sea', 'at sea', 'high seas', 'open sea', 'fishing', 'fishing ground', 'fishing grounds', 'fishing area', 'trawling',
  'sea trial', 'sea trials', 'trials', 'drifting', 'standby', 'stand by', 'patrol', 'patrolling', 'survey', 'training',
  'cruising', 'offshore', 'waiting', 'anch', 'anchored', 'sts', 'sts operation', 'lightering', 'bunkering',
  'pleasure', 'leisure', 'sailing', 'local', 'local waters', 'harbour', 'harbor', 'in port', 'home', 'work', 'working',
  'sar', 'towing', 'dredging', 'pilotage', 'pilot duty', 'service', 'supply',
]);

/** Words that only say the vessel awaits orders ("FOR ORDERS", "AWAITING ORDERS", "F.O."). */
const ORDERS = /(^| )(order|orders|ord)( |$)|^f o$|^fo$/;

/** Words before or after a port name that say where in or off the port the vessel goes. */
const PLACE_IN_PORT = new Set([
  'anch', 'anchorage', 'anchor', 'opl', 'eopl', 'wopl', 'nopl', 'sopl', 'roads', 'rds', 'road', 'pilot', 'pilots', 'ps',
  'pbg', 'pilot station', 'boarding', 'berth', 'terminal', 'harbour', 'harbor', 'port', 'outer', 'inner', 'for', 'arr', 'eta',
]);

/** Token spellings read as another: "PT SAID", "ST PETERSBURG". */
const TOKEN_FORMS: Readonly<Record<string, string>> = {
  pt: 'port', prt: 'port', st: 'saint', ste: 'sainte', sta: 'santa', sto: 'santo', ft: 'fort', mt: 'mount', pto: 'puerto',
};

/**
 * Abbreviations and English names crews use, as folded keys (see `nameKey`), with the UN/LOCODE
 * they stand for. Only ports the index holds are answered.
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  rtm: 'NLRTM', rdam: 'NLRTM', rotterdm: 'NLRTM', ams: 'NLAMS', adam: 'NLAMS', flushing: 'NLVLI',
  anr: 'BEANR', antw: 'BEANR', antwerp: 'BEANR', zee: 'BEZEE', zeebruges: 'BEZEE',
  hh: 'DEHAM', ham: 'DEHAM', hbg: 'DEHAM', bhv: 'DEBRV', brv: 'DEBRV', bremerhafen: 'DEBRV',
  fxt: 'GBFXT', soton: 'GBSOU', imm: 'GBIMM', lgp: 'GBLGP', londongateway: 'GBLGP',
  leh: 'FRLEH', dunkirk: 'FRDKK', marseilles: 'FRMRS',
  alg: 'ESALG', vlc: 'ESVLC', bcn: 'ESBCN', lpa: 'ESLPA',
  genoa: 'ITGOA', naples: 'ITNAP', venice: 'ITVCE', leghorn: 'ITLIV', gioia: 'ITGIT',
  pir: 'GRPIR', athens: 'GRPIR', ist: 'TRIST', ambarli: 'TRAMR',
  gothenburg: 'SEGOT', gothenberg: 'SEGOT', copenhagen: 'DKCPH', cph: 'DKCPH', helsinki: 'FIHEL',
  spb: 'RULED', stp: 'RULED', saintpetersburg: 'RULED', saintpeterburg: 'RULED', lisbon: 'PTLIS',
  gib: 'GIGIB',
  psd: 'EGPSD', portsaidanch: 'EGPSD', suez: 'EGSUZ', alexandria: 'EGALY', algiers: 'DZALG',
  tangermed: 'MAPTM', tngmed: 'MAPTM', tanjiermed: 'MAPTM', tangier: 'MATNG',
  jea: 'AEJEA', jebelali: 'AEJEA', jed: 'SAJED', salalah: 'OMSLL', bandarabbas: 'IRBND',
  durban: 'ZADUR', capetown: 'ZACPT', nhavasheva: 'INNSA', jnpt: 'INNSA', mumbai: 'INBOM', bombay: 'INBOM', madras: 'INMAA',
  calcutta: 'INCCU', kolkata: 'INCCU',
  spore: 'SGSIN', sin: 'SGSIN', sgp: 'SGSIN', singapur: 'SGSIN',
  hk: 'HKHKG', hkg: 'HKHKG', sha: 'CNSHA', ngb: 'CNNGB', ningbozhoushan: 'CNNGB', ytn: 'CNYTN', yantian: 'CNYTN',
  szx: 'CNSZX', shekou: 'CNSHK', qingdao: 'CNTAO', tao: 'CNTAO', xmn: 'CNXMN', tianjin: 'CNTXG', txg: 'CNTXG',
  pusan: 'KRPUS', bsn: 'KRPUS', pus: 'KRPUS', khh: 'TWKHH', saigon: 'VNSGN', hochiminh: 'VNSGN', hcmc: 'VNSGN',
  pkg: 'MYPKG', portkelang: 'MYPKG', ptp: 'MYTPP', lcb: 'THLCH', cmb: 'LKCMB',
  ny: 'USNYC', nyc: 'USNYC', nynj: 'USNYC', newyorknj: 'USNYC', la: 'USLAX', lax: 'USLAX', lb: 'USLGB', lgb: 'USLGB',
  sav: 'USSAV', hou: 'USHOU', oak: 'USOAK', nola: 'USMSY', neworleans: 'USMSY',
  vanc: 'CAVAN', vancouverbc: 'CAVAN', montreal: 'CAMTR',
  balboa: 'PABLB', cristobal: 'PACTB', ssz: 'BRSSZ', bue: 'ARBUE', bsas: 'ARBUE',
};

type Named = { readonly port: Port; readonly key: string; readonly primary: boolean };

const SIZE_RANK: Readonly<Record<HarbourSize, number>> = { large: 0, medium: 1, small: 2, very_small: 3 };
/** A text this long was probably cut at the 20-character limit: a name it starts is a match. */
const CUT_LENGTH = 18;
/** A name the text starts must be at least this long, so "PORT" alone finds nothing. */
const MIN_LEADING_KEY = 4;
/** How far round a port to count ports of the same country (see `compatriots`). */
const COMPATRIOT_RADIUS_NM = 100;

/** Folded, expanded and without spaces: "St. Petersburg" and "ST PETERSBURG" give "saintpetersburg". */
export function nameKey(text: string): string {
  return tokens(text).join('');
}

function tokens(text: string): string[] {
  const folded = words(fold(text));
  return folded === '' ? [] : folded.split(' ').map((token) => TOKEN_FORMS[token] ?? token);
}

/**
 * Every name a port answers to: each name, and the parts of "Helsingfors (Helsinki)" and "Jakarta,
 * Java"; `primary` for the port's own name and its parts.
 */
function portNames(port: Port): { name: string; primary: boolean }[] {
  const names = new Map<string, boolean>();
  for (const name of [port.name, ...port.alternate_names.map((alternate) => alternate.name)]) {
    const primary = name === port.name;
    const parts = [name];
    const bracket = /^([^(]+)\(([^)]+)\)/.exec(name);
    if (bracket) parts.push(bracket[1]!, bracket[2]!);
    const comma = name.indexOf(',');
    if (comma > 0) parts.push(name.slice(0, comma));
    for (const part of parts) names.set(part, (names.get(part) ?? false) || primary);
  }
  return [...names].map(([name, primary]) => ({ name, primary }));
}

type MatcherPorts = { readonly ports: readonly Port[]; get(id: string): Port | null };

export function createDestinationMatcher(index: MatcherPorts): DestinationMatcher {
  const builder = destinationMatcherBuilder();
  builder.add(index.ports);
  return builder.finish(index);
}

/** The same matcher, given the index's ports a batch at a time (naming them is most of the work), then the index. */
export function destinationMatcherBuilder(): { add(ports: readonly Port[]): void; finish(index: MatcherPorts): DestinationMatcher } {
  const byName = new Map<string, Named[]>();
  const named: Named[] = [];
  const add = (ports: readonly Port[]) => {
    for (const port of ports) {
      for (const { name, primary } of portNames(port)) {
        const key = nameKey(name);
        if (key === '') continue;
        const entry = { port, key, primary };
        const list = byName.get(key);
        if (list === undefined) byName.set(key, [entry]);
        else if (!list.some((other) => other.port === port)) list.push(entry);
        named.push(entry);
      }
    }
  };
  return { add, finish: (index) => matcher(index, byName, named) };
}

function matcher(index: MatcherPorts, byName: ReadonlyMap<string, readonly Named[]>, named: Named[]): DestinationMatcher {
  const grid = createPointGrid(index.ports, (port) => port);
  // Sorted keys let "a name this text starts with" and "a name starting with this text" be found
  // by binary search instead of a scan.
  named.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  const unlocodePort = (text: string): Port | null => {
    const code = normaliseUnlocode(text);
    return code === null ? null : index.get(code);
  };

  /**
   * How many ports of its own country lie near a port: a port listed under one country with the
   * position of another (the built-in data has Southampton twice, once under Bermuda) has none.
   */
  const compatriots = (port: Port) =>
    grid.nearest(port, COMPATRIOT_RADIUS_NM, (other) => other !== port && other.country === port.country).length;

  /**
   * The best of several ports of one name: the country given, the port's own name before an
   * alternate one, the larger harbour, the nearest, the one among ports of its own country.
   */
  const choose = (candidates: readonly Named[], country: string | null, near: LatLon | undefined) => {
    const inCountry = country === null ? [] : candidates.filter((entry) => entry.port.country === country);
    const pool = inCountry.length > 0 ? inCountry : candidates;
    const rank = ({ port, primary }: Named) => (primary ? 0 : 10) + (port.harbour_size === null ? 4 : SIZE_RANK[port.harbour_size]);
    const distance = ({ port }: Named) => (near === undefined ? 0 : Math.round(haversineNm(near.lat, near.lon, port.lat, port.lon)));
    const sorted = [...pool].sort((a, b) =>
      rank(a) - rank(b) || distance(a) - distance(b) || compatriots(b.port) - compatriots(a.port) || (a.port.id < b.port.id ? -1 : 1));
    return { port: sorted[0]!.port, ambiguous: sorted.length > 1 && rank(sorted[0]!) === rank(sorted[1]!) };
  };

  /** Ports whose name key starts with `prefix`. */
  const startingWith = (prefix: string): Named[] => {
    let low = 0;
    let high = named.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (named[middle]!.key < prefix) low = middle + 1;
      else high = middle;
    }
    const found: Named[] = [];
    for (let i = low; i < named.length && named[i]!.key.startsWith(prefix); i++) {
      if (!found.some((entry) => entry.port === named[i]!.port)) found.push(named[i]!);
    }
    return found;
  };

  return {
    match(destination, near) {
      const legs = routeLegs(destination ?? '');
      const leg = legs[legs.length - 1] ?? '';
      const folded = words(fold(leg));
      if (folded === '' || /^[\d ]+$/.test(folded)) return { status: 'no_port', reason: 'empty', leg };
      if (ORDERS.test(folded)) return { status: 'no_port', reason: 'for_orders', leg };

      const found = (port: Port, matched_by: 'unlocode' | 'abbreviation' | 'name', ambiguous = false): DestinationMatch =>
        ({ status: 'port', port, matched_by, leg, ambiguous });
      const byKey = (key: string, country: string | null) => {
        const candidates = byName.get(key);
        if (candidates === undefined) return null;
        const { port, ambiguous } = choose(candidates, country, near);
        return found(port, 'name', ambiguous);
      };

      const whole = byKey(nameKey(leg), null);
      if (whole !== null) return whole;
      if (NOT_A_PORT.has(folded)) return { status: 'no_port', reason: 'not_a_port', leg };

      const code = unlocodePort(leg.replace(/[^A-Za-z0-9]/g, ''));
      if (code !== null) return found(code, 'unlocode');

      // What is left once the place in the port and a trailing country are dropped.
      let rest = tokens(leg);
      while (rest.length > 1 && PLACE_IN_PORT.has(rest[rest.length - 1]!)) rest = rest.slice(0, -1);
      while (rest.length > 1 && PLACE_IN_PORT.has(rest[0]!) && rest[0] !== 'port') rest = rest.slice(1);
      const trailing = trailingCountry(rest);
      const country = trailing?.country ?? null;
      const core = trailing === null ? rest : rest.slice(0, rest.length - trailing.words);

      for (const candidate of new Set([rest.join(''), core.join('')])) {
        const abbreviation = ABBREVIATIONS[candidate];
        const port = abbreviation === undefined ? null : index.get(abbreviation);
        if (port !== null) return found(port, 'abbreviation');
      }
      const byCoreName = byKey(core.join(''), country) ?? byKey(rest.join(''), null);
      if (byCoreName !== null) return byCoreName;

      // A name the text starts with, longest first ("ROTTERDAM EUROPOORT", "NEW YORK NY").
      for (let length = core.length - 1; length >= 1; length--) {
        const key = core.slice(0, length).join('');
        if (key.length < MIN_LEADING_KEY) break;
        const match = byKey(key, country);
        if (match !== null) return match;
      }
      // A name cut short by the 20-character field ("LAS PALMAS DE GRAN C").
      const key = core.join('');
      if (leg.trim().length >= CUT_LENGTH && key.length >= CUT_LENGTH - 4) {
        const candidates = startingWith(key);
        if (candidates.length > 0) {
          const { port, ambiguous } = choose(candidates, country, near);
          return found(port, 'name', ambiguous);
        }
      }
      // A UN/LOCODE among other words ("NLRTM ANCH", "NL RTM PILOT"), looked for last so that a
      // word of a name that happens to spell a code does not win over the name.
      const parts = folded.split(' ');
      for (let i = 0; i < parts.length; i++) {
        const single = parts[i]!.length === 5 ? unlocodePort(parts[i]!) : null;
        const paired = i + 1 < parts.length && parts[i]!.length === 2 && parts[i + 1]!.length === 3 ? unlocodePort(parts[i]! + parts[i + 1]!) : null;
        if (single ?? paired) return found((single ?? paired)!, 'unlocode');
      }
      return { status: 'no_port', reason: 'unknown', leg };
    },
  };
}

/** The legs of a route as typed, "FROM " and "VIA ..." removed: "NLRTM > DEHAM VIA KIEL" → ["NLRTM", "DEHAM"]. */
export function routeLegs(text: string): string[] {
  const cleaned = text
    .replace(/@+/g, ' ')
    .toUpperCase()
    .replace(/\s*(?:-+>|=+>|>+|→)\s*/g, '>')
    .replace(/^\s*FROM\s+/, '')
    .replace(/\s+TO\s+/g, '>');
  return cleaned
    .split('>')
    .map((leg) => leg.replace(/\s+VIA\s.*$/, '').replace(/\s+/g, ' ').trim())
    .filter((leg) => leg !== '');
}

/** A country at the end of the tokens, as a code ("NL") or a name of up to three words ("SOUTH AFRICA"). */
function trailingCountry(parts: readonly string[]): { country: string; words: number } | null {
  if (parts.length < 2) return null;
  const last = parts[parts.length - 1]!;
  if (last.length === 2 && isCountryCode(last.toUpperCase())) return { country: last.toUpperCase(), words: 1 };
  for (let count = Math.min(3, parts.length - 1); count >= 1; count--) {
    const code = countryCode(parts.slice(parts.length - count).join(' '));
    if (code !== null) return { country: code, words: count };
  }
  return null;
}
