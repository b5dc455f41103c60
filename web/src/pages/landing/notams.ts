// NOTAMs for the briefing: the ones in force now first, then those that start before the ETA;
// each decoded (its Q code's subject and condition, its landing effects, its validity, and its
// text with the ICAO abbreviations written out). Pure, so it is tested without a browser.
import { formatUtc } from '../../app/format.ts';
import type { LandingNotam } from './types.ts';

export type NotamState = 'active' | 'upcoming';

export interface DecodedNotam {
  id: string;
  state: NotamState;
  /** "Taxiway: closed", from the Q code; the id's own words when it has none. */
  headline: string;
  /** The landing effects in words: "Runway 09L/27R closed". */
  effects: string[];
  /** "In force now, until 20 Dec 12:50 UTC", "From 22 Nov 06:00 UTC, permanent". */
  validity: string;
  schedule: string | null;
  /** Item E as written. */
  text: string;
  /** Item E with the abbreviations written out. */
  plain: string;
  source: string;
  /** Where it ranks: aerodrome closures, then runway closures, then navaids and lighting. */
  weight: number;
}

const EFFECTS: Record<string, { words: (runways: string) => string; weight: number }> = {
  aerodrome_closed: { words: () => 'Aerodrome closed', weight: 6 },
  runway_closed: { words: (r) => `Runway ${r} closed`, weight: 5 },
  ils_unserviceable: { words: (r) => `ILS ${r} out of service`, weight: 4 },
  localizer_unserviceable: { words: (r) => `Localizer ${r} out of service`, weight: 4 },
  glide_path_unserviceable: { words: (r) => `Glide path ${r} out of service`, weight: 3 },
  runway_lighting_unserviceable: { words: (r) => `Runway lighting ${r} out of service`, weight: 3 },
  approach_lighting_unserviceable: { words: (r) => `Approach lighting ${r} out of service`, weight: 2 },
};

// ICAO Doc 8400 abbreviations met in aerodrome NOTAMs, longest first where they overlap.
const PHRASES: [RegExp, string][] = [
  [/\bHR OF SER\b/g, 'hours of service'],
  [/\bOPS HR\b/g, 'operating hours'],
  [/\bU\/S\b/g, 'unserviceable'],
  [/\bNOT AVBL\b/g, 'not available'],
];

const WORDS: Record<string, string> = {
  ACFT: 'aircraft', AD: 'aerodrome', AGL: 'above ground level', ALS: 'approach lighting system', AMSL: 'above mean sea level',
  APCH: 'approach', APN: 'apron', ARP: 'aerodrome reference point', ATC: 'air traffic control', AVBL: 'available',
  BTN: 'between', CL: 'centre line', CLSD: 'closed', COORD: 'coordinates', DLY: 'daily', DTHR: 'displaced threshold',
  EMERG: 'emergency', EST: 'estimated', EXC: 'except', FLT: 'flight', FM: 'from', FREQ: 'frequency', FT: 'ft',
  GP: 'glide path', HEL: 'helicopter', HGT: 'height', HOSP: 'hospital', HR: 'hours', LDA: 'landing distance available',
  LGT: 'lighting', LGTD: 'lighted', LLZ: 'localizer', LOC: 'localizer', MAINT: 'maintenance', MKD: 'marked',
  NM: 'nautical miles', OBST: 'obstacle', OPR: 'operating', OPS: 'operations', PAPI: 'precision approach path indicator',
  PPR: 'prior permission required', PSN: 'position', RWY: 'runway', SAR: 'search and rescue', SER: 'service',
  SFC: 'surface', TDZ: 'touchdown zone', THR: 'threshold', TIL: 'until', TWY: 'taxiway', TWR: 'tower',
  UNL: 'unlimited', WEF: 'with effect from', WI: 'within', WIP: 'work in progress',
};

// Plain English words as NOTAMs write them, in capitals: set in lower case with the rest.
const PLAIN = new Set([
  'AND', 'OR', 'OF', 'THE', 'TO', 'FOR', 'WITH', 'IN', 'ON', 'AT', 'BY', 'DUE', 'NOT', 'ALL', 'IS', 'ARE', 'BE', 'WILL',
  'THESE', 'THIS', 'OUTSIDE', 'CRANE', 'MOBILE', 'TOWER', 'ERECTED', 'DAY', 'NIGHT', 'MARKED', 'DAILY', 'CHECK',
  'GRASS', 'CUTTING', 'PAINTING', 'RUBBER', 'REMOVAL', 'AIR', 'DISPLAY', 'EXERCISE', 'EDGE', 'SEQUENCED', 'FLASHING',
  'LIGHTS', 'CLOSED', 'WORK', 'WORKS', 'ONLY', 'AREA', 'STAND', 'STANDS', 'APRON', 'BIRD', 'BIRDS', 'ACTIVITY',
]);

/** Item E with its abbreviations written out; identifiers (S1, 09L/27R, EGLL) stay as written. */
export function plainNotamText(text: string): string {
  let out = text.replace(/\s*\n\s*/g, ' ').trim();
  for (const [pattern, words] of PHRASES) out = out.replace(pattern, words);
  out = out.replace(/\b[A-Z]{2,}\b/g, (word) => WORDS[word] ?? (PLAIN.has(word) ? word.toLowerCase() : word));
  // Heights and distances run into their units: "230FT" → "230 ft", "1.0NM" → "1.0 NM".
  out = out.replace(/\b(\d+(?:\.\d+)?)(FT|NM|M)\b/g, (_, n: string, unit: string) => `${n} ${unit === 'FT' ? 'ft' : unit === 'NM' ? 'NM' : 'm'}`);
  // Each sentence starts with a capital, as the lower-cased words would otherwise leave it.
  return out.replace(/(^|[.!?]\s+)([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
}

function headline(notam: LandingNotam): string {
  const { subject, condition } = notam;
  if (subject?.meaning && condition?.meaning) return `${subject.meaning}: ${condition.meaning.toLowerCase()}`;
  if (subject?.meaning) return subject.meaning;
  return notam.q_code ?? 'NOTAM';
}

function validity(notam: LandingNotam, state: NotamState): string {
  const until = notam.permanent
    ? 'permanent'
    : notam.end_time === null ? 'until further notice' : `until ${formatUtc(notam.end_time)}${notam.end_estimated ? ' (estimated)' : ''}`;
  const start = state === 'active' ? 'In force now' : `From ${formatUtc(notam.start_time)}`;
  return `${start}, ${until}`;
}

/** Active: its validity has begun (a schedule may still keep it quiet at some hours). Upcoming: it starts later, before the ETA. */
export function notamState(notam: LandingNotam, nowMs: number): NotamState {
  return notam.start_time !== null && Date.parse(notam.start_time) > nowMs ? 'upcoming' : 'active';
}

export function decodeNotam(notam: LandingNotam, nowMs: number): DecodedNotam {
  const state = notamState(notam, nowMs);
  const effects = notam.effects
    .filter((effect) => EFFECTS[effect.kind] !== undefined)
    .map((effect) => ({ words: EFFECTS[effect.kind]!.words(effect.runways.join(', ') || '(runway not named)'), weight: EFFECTS[effect.kind]!.weight }));
  return {
    id: notam.id ?? '(no number)',
    state,
    headline: headline(notam),
    effects: effects.map((e) => e.words),
    validity: validity(notam, state),
    schedule: notam.schedule,
    text: notam.text,
    plain: plainNotamText(notam.text),
    source: notam.source,
    weight: Math.max(0, ...effects.map((e) => e.weight)),
  };
}

/** Active NOTAMs first, then upcoming; within each, the heaviest landing effect first, then by start. */
export function briefingNotams(notams: readonly LandingNotam[], nowMs: number): DecodedNotam[] {
  const start = (n: LandingNotam) => (n.start_time === null ? -Infinity : Date.parse(n.start_time));
  return notams
    .map((notam) => ({ notam, decoded: decodeNotam(notam, nowMs) }))
    .sort((a, b) =>
      Number(a.decoded.state === 'upcoming') - Number(b.decoded.state === 'upcoming') ||
      b.decoded.weight - a.decoded.weight ||
      start(a.notam) - start(b.notam))
    .map(({ decoded }) => decoded);
}
