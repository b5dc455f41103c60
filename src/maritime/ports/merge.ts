// One list of ports from the three sources: sea-ports (built in), the World Port Index (built in,
// or the one imported in its place) and the imported UN/LOCODE list.
//
// Matching:
// 1. sea-ports and UN/LOCODE entries are the same port when they have the same UN/LOCODE.
// 2. A WPI entry with a UN/LOCODE joins the port with that code. When several WPI entries give the
//    same code, the one nearest the port's sea-ports/UN/LOCODE position joins it; the others stay
//    ports of their own (id `WPI-<number>`, the code still in `unlocode`).
// 3. A WPI entry without a UN/LOCODE, or with one no other source knows, joins a port that has no
//    WPI entry yet when it lies within PROXIMITY_NM of it and a name matches (a shared distinctive
//    word such as "Rotterdam" in "Rotterdam Europoort", or one name containing the other once
//    spaces go). Pairs are taken nearest first, so each WPI entry and each port is matched at most
//    once. This is how the WPI's "Keppel - (East Singapore)" (SGKEP) gives Singapore (SGSIN) its
//    depths, and its Shanghai (CNSGH, a code sea-ports lists second) joins CNSHA.
// A WPI entry whose code no other source knows and that joins no port is a port of its own under
// that code (the first of several with the code; the others are `WPI-<number>`).
//
// Fields, each recording its source in `sources`:
// - unlocode: UN/LOCODE list, then sea-ports, then WPI; country: the same order.
// - name: sea-ports (the names crews and agents use: "Incheon", "Brest", where the WPI has "Inchon",
//   "Rade De Brest"), then WPI, then UN/LOCODE; the other sources' names become alternate names. A
//   WPI entry that joined a port of another code names a part of it: its name comes last.
// - position: WPI (charted for navigation), then sea-ports, then UN/LOCODE (whole minutes, and
//   the town rather than the harbour). A code match is trusted whatever the distance: where they
//   differ by much it is sea-ports that is off (it swaps latitude and longitude for Annaba and
//   Matadi, and puts Honfleur in central France).
// - timezone: sea-ports only; harbour, depths, tidal range, vessel limits, restrictions: WPI only.
import { haversineNm } from '../../platform/geo/great-circle.ts';
import { createPointGrid } from '../../platform/geo/point-grid.ts';
import { fold, words } from '../../platform/text.ts';
import {
  APPROACH_RADIUS_NM,
  type AlternateName,
  type Port,
  type PortSource,
  type SeaPortEntry,
  type UnlocodeEntry,
  type WpiEntry,
} from './model.ts';

/** How far apart a WPI entry without a UN/LOCODE and a port may lie and still be matched by name. */
export const PROXIMITY_NM = 5;

/** Words too common in port names to show two names are the same place. */
const COMMON_WORDS = new Set([
  'port', 'porto', 'puerto', 'ports', 'harbor', 'harbour', 'haven', 'bay', 'baie', 'bahia', 'terminal', 'oil', 'marine',
  'island', 'isla', 'ile', 'roads', 'anchorage', 'city', 'new', 'north', 'south', 'east', 'west', 'the', 'of', 'and',
  'de', 'del', 'la', 'le', 'el', 'al', 'da', 'do', 'di', 'du', 'des', 'los', 'las', 'san', 'santa', 'santo', 'sao', 'saint',
  'ras', 'mina', 'bandar', 'tanjung', 'pulau', 'ko', 'gang', 'wan',
]);

export type PortSources = {
  readonly seaPorts: readonly SeaPortEntry[];
  readonly unlocode: readonly UnlocodeEntry[];
  readonly wpi: readonly WpiEntry[];
};

type Draft = {
  /** The UN/LOCODE the port is known by, when it has one to itself. */
  readonly code: string | null;
  seaPorts?: SeaPortEntry;
  unlocode?: UnlocodeEntry;
  wpi?: WpiEntry;
};

/** Every port, ordered by id. */
export function mergePorts(sources: PortSources): Port[] {
  const byCode = new Map<string, Draft>();
  for (const entry of sources.seaPorts) byCode.set(entry.unlocode, { code: entry.unlocode, seaPorts: entry });
  for (const entry of sources.unlocode) {
    const draft = byCode.get(entry.unlocode);
    if (draft === undefined) byCode.set(entry.unlocode, { code: entry.unlocode, unlocode: entry });
    else draft.unlocode = entry;
  }
  const known = [...byCode.values()];
  const standalone: Draft[] = [];

  const wpi = [...sources.wpi].sort((a, b) => a.wpi_number - b.wpi_number);
  const byWpiCode = new Map<string, WpiEntry[]>();
  for (const entry of wpi) {
    if (entry.unlocode === null) continue;
    const group = byWpiCode.get(entry.unlocode);
    if (group === undefined) byWpiCode.set(entry.unlocode, [entry]);
    else group.push(entry);
  }
  /** Entries left to match by proximity and name: those without a code or with a code no other source knows. */
  const byProximity = new Set(wpi.filter((entry) => entry.unlocode === null));
  for (const [code, group] of byWpiCode) {
    const draft = byCode.get(code);
    if (draft === undefined) {
      for (const entry of group) byProximity.add(entry);
      continue;
    }
    const { lat, lon } = knownPosition(draft);
    const distance = (entry: WpiEntry) => haversineNm(entry.lat, entry.lon, lat, lon);
    let chosen = group[0]!;
    for (const entry of group) if (distance(entry) < distance(chosen)) chosen = entry;
    draft.wpi = chosen;
    for (const entry of group) if (entry !== chosen) standalone.push({ code: null, wpi: entry });
  }

  const unmatched = known.filter((draft) => draft.wpi === undefined);
  const grid = createPointGrid(unmatched, knownPosition);
  const pairs: { entry: WpiEntry; draft: Draft; distance: number }[] = [];
  const draftKeys = new Map<Draft, NameKeys>();
  for (const entry of byProximity) {
    const names = nameKeys([entry.name, ...entry.alternate_names]);
    for (const { item: draft, distance_nm: distance } of grid.nearest(entry, PROXIMITY_NM)) {
      let keys = draftKeys.get(draft);
      if (keys === undefined) draftKeys.set(draft, (keys = nameKeys(draftNames(draft))));
      if (similar(names, keys)) pairs.push({ entry, draft, distance });
    }
  }
  pairs.sort((a, b) => a.distance - b.distance || a.entry.wpi_number - b.entry.wpi_number || a.draft.code!.localeCompare(b.draft.code!));
  const matched = new Set<WpiEntry>();
  for (const { entry, draft } of pairs) {
    if (matched.has(entry) || draft.wpi !== undefined) continue;
    draft.wpi = entry;
    matched.add(entry);
  }
  for (const entry of wpi) {
    if (!byProximity.has(entry) || matched.has(entry)) continue;
    const code = entry.unlocode;
    if (code !== null && !byCode.has(code)) byCode.set(code, { code, wpi: entry });
    else standalone.push({ code: null, wpi: entry });
  }

  const ports = [...byCode.values(), ...standalone].map(toPort);
  return ports.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Where the non-WPI sources put a port (every draft made before WPI matching has one of them). */
function knownPosition(draft: Draft): { lat: number; lon: number } {
  return (draft.seaPorts ?? draft.unlocode)!;
}

function draftNames(draft: Draft): string[] {
  return [
    ...(draft.seaPorts ? [draft.seaPorts.name, ...draft.seaPorts.alternate_names] : []),
    ...(draft.unlocode ? [draft.unlocode.name, draft.unlocode.name_ascii ?? ''] : []),
  ];
}

type NameKeys = { readonly words: ReadonlySet<string>; readonly compact: readonly string[] };

function nameKeys(names: readonly string[]): NameKeys {
  const distinctive = new Set<string>();
  const compact: string[] = [];
  for (const name of names) {
    const folded = words(fold(name));
    if (folded === '') continue;
    for (const word of folded.split(' ')) if (word.length >= 3 && !COMMON_WORDS.has(word)) distinctive.add(word);
    compact.push(folded.replaceAll(' ', ''));
  }
  return { words: distinctive, compact };
}

/** A shared distinctive word, or one name inside the other with spaces removed ("Portsaid", "Port Said"). */
function similar(a: NameKeys, b: NameKeys): boolean {
  for (const word of a.words) if (b.words.has(word)) return true;
  return a.compact.some((x) => b.compact.some((y) => (x.length >= 5 && y.includes(x)) || (y.length >= 5 && x.includes(y))));
}

function toPort(draft: Draft): Port {
  const { seaPorts: sea, unlocode: un, wpi } = draft;
  const sources: Record<string, PortSource> = {};
  const pick = <T>(field: string, candidates: readonly (readonly [PortSource, T | null | undefined])[]): T | null => {
    for (const [source, value] of candidates) {
      if (value !== null && value !== undefined) {
        sources[field] = source;
        return value;
      }
    }
    return null;
  };
  const fromWpi = <K extends keyof WpiEntry>(field: K): WpiEntry[K] | null => pick(field, [['wpi', wpi?.[field]]]);

  const unlocode = pick('unlocode', [['unlocode', un?.unlocode], ['sea-ports', sea?.unlocode], ['wpi', wpi?.unlocode]]);
  const wpiNumber = fromWpi('wpi_number');
  // A WPI entry joined under another code names a part of the port ("Keppel" of Singapore): the name goes with the code.
  const wpiName = wpi !== undefined && (wpi.unlocode === null || wpi.unlocode === draft.code || draft.code === null) ? wpi.name : null;
  const name = pick('name', [['sea-ports', sea?.name], ['wpi', wpiName], ['unlocode', un?.name], ['wpi', wpi?.name]])!;
  const country = pick('country', [['unlocode', un?.country], ['sea-ports', sea?.country], ['wpi', wpi?.country]]);
  const [positionSource, position] = (wpi ? ['wpi', wpi] : sea ? ['sea-ports', sea] : ['unlocode', un!]) as [PortSource, { lat: number; lon: number }];
  sources.lat = positionSource;
  sources.lon = positionSource;
  const timezone = pick('timezone', [['sea-ports', sea?.timezone]]);
  const harbourSize = fromWpi('harbour_size');

  return {
    id: draft.code ?? `WPI-${wpiNumber}`,
    unlocode,
    wpi_number: wpiNumber,
    name,
    alternate_names: alternateNames(name, [
      ['sea-ports', sea ? [sea.name, ...sea.alternate_names] : []],
      ['wpi', wpi ? [wpi.name, ...wpi.alternate_names] : []],
      ['unlocode', un ? [un.name, un.name_ascii ?? ''] : []],
    ]),
    country,
    lat: position.lat,
    lon: position.lon,
    timezone,
    harbour_size: harbourSize,
    harbour_type: fromWpi('harbour_type'),
    shelter: fromWpi('shelter'),
    channel_depth_m: fromWpi('channel_depth_m'),
    anchorage_depth_m: fromWpi('anchorage_depth_m'),
    cargo_pier_depth_m: fromWpi('cargo_pier_depth_m'),
    oil_terminal_depth_m: fromWpi('oil_terminal_depth_m'),
    tidal_range_m: fromWpi('tidal_range_m'),
    max_vessel_length_m: fromWpi('max_vessel_length_m'),
    max_vessel_beam_m: fromWpi('max_vessel_beam_m'),
    max_vessel_draught_m: fromWpi('max_vessel_draught_m'),
    entrance_restrictions: fromWpi('entrance_restrictions'),
    approach_area: { kind: 'circle', radius_nm: APPROACH_RADIUS_NM[harbourSize ?? 'unknown'] },
    sources,
  };
}

/** Every name but the port's own, once each (compared without case, accents and punctuation). */
function alternateNames(name: string, bySource: readonly (readonly [PortSource, readonly string[]])[]): AlternateName[] {
  const seen = new Set([words(fold(name))]);
  const names: AlternateName[] = [];
  for (const [source, candidates] of bySource) {
    for (const candidate of candidates) {
      const key = words(fold(candidate));
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      names.push({ name: candidate, source });
    }
  }
  return names;
}
