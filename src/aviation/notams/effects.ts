// What a NOTAM means for landing: aerodrome or runway closed, ILS parts or lighting unserviceable.
// The Q code decides when it names both subject and condition. The text is read instead when there
// is no Q code or it says XX (plain language) — but not for NOTAMs whose subject or FAA keyword is
// a procedure, airspace or obstacle: their texts mention equipment conditionally ("FOR INOP ALS,
// INCREASE VISIBILITY ...") rather than report it. Runway designators always come from the text.

import type { Notam, NotamEffect, NotamEffectKind } from './types.ts';

export type EffectInput = Pick<Notam, 'type' | 'subject' | 'condition' | 'text' | 'keyword'>;

/** Q-code subject groups whose plain-language NOTAMs can report a landing effect: aerodrome
 * facilities (F), movement area (M), ILS/MLS (I) and lighting (L). */
const LANDING_SUBJECT_GROUPS = new Set(['F', 'M', 'I', 'L']);
const NON_LANDING_KEYWORDS = new Set([
  'IAP', 'ODP', 'SID', 'STAR', 'CHART', 'DATA', 'VFP', 'ROUTE', 'SPECIAL', 'AIRSPACE', 'SECURITY', 'OBST', 'FI/T', 'FI/P',
]);

/** Conditions that leave a facility unusable: unserviceable, not available, withdrawn, on test. */
const UNUSABLE_CONDITIONS = new Set(['AS', 'AU', 'AW', 'AC', 'CT']);

const EQUIPMENT_SUBJECTS: Readonly<Record<string, NotamEffectKind>> = {
  IC: 'ils_unserviceable',
  IS: 'ils_unserviceable',
  IT: 'ils_unserviceable',
  IU: 'ils_unserviceable',
  IL: 'localizer_unserviceable',
  IN: 'localizer_unserviceable',
  IG: 'glide_path_unserviceable',
  LC: 'runway_lighting_unserviceable',
  LE: 'runway_lighting_unserviceable',
  LH: 'runway_lighting_unserviceable',
  LI: 'runway_lighting_unserviceable',
  LL: 'runway_lighting_unserviceable',
  LM: 'runway_lighting_unserviceable',
  LR: 'runway_lighting_unserviceable',
  LS: 'runway_lighting_unserviceable',
  LT: 'runway_lighting_unserviceable',
  LZ: 'runway_lighting_unserviceable',
  LA: 'approach_lighting_unserviceable',
  LF: 'approach_lighting_unserviceable',
  LJ: 'approach_lighting_unserviceable',
  LK: 'approach_lighting_unserviceable',
};

const RUNWAY_ID = String.raw`\d{1,2}[LRC]?`;
const RUNWAY_REFERENCE = new RegExp(String.raw`\b(?:RWYS?|RUNWAYS?)\s+(${RUNWAY_ID}(?:\s*/\s*${RUNWAY_ID})?)\b`, 'g');
// "CLSD TO ..." restricts some users (CLSD TO ACFT ABV 100T) rather than closing outright.
const RUNWAY_CLOSED = new RegExp(String.raw`\b(?:RWY|RUNWAY)\s+(${RUNWAY_ID}(?:\s*/\s*${RUNWAY_ID})?)\s+(?:CLSD|CLOSED)\b(?!\s+TO\b)`, 'g');
const AERODROME_CLOSED = /\b(?:AD(?:\s+AP)?|AERODROME|AIRPORT|ARPT)\s+(?:CLSD|CLOSED)\b(?!\s+TO\b)/;

const UNSERVICEABLE = /(?:\bU\/S\b|\b(?:UNSERVICEABLE|OTS|OUT OF SERVICE|NOT AVBL|NOT AVAILABLE|UNAVBL|UNAVAILABLE|INOP|INOPERATIVE)\b)/;
const GLIDE_PATH = /\b(?:GP|GS|GLIDE\s*PATH|GLIDE\s*SLOPE)\b/;
const LOCALIZER = /\b(?:LOC|LLZ|LOCALIZER|LOCALISER)\b/;
const ILS = /\bILS\b/;
const APPROACH_LIGHTS = /\b(?:ALS|ALSF-?[12]|MALSR?|MALSF|SSAL[RFS]?|SALS|ODALS|RAIL|SFL|APCH\s+(?:LGT|LIGHTS?)|APPROACH\s+LIGHT(?:S|ING)?)\b/;
const RUNWAY_LIGHT_SYSTEMS = /\b(?:HIRL|MIRL|LIRL|REIL|RCLL|RCLS|TDZL)\b/;
const LIGHTS = /\b(?:LGTS?|LIGHTS?|LIGHTING)\b/;
const RUNWAY_WORD = /\b(?:RWYS?|RUNWAYS?)\b/;
const TAXIWAY_WORD = /\b(?:TWYS?|TAXIWAYS?)\b/;

/** Landing effects of a parsed NOTAM; [{ kind: 'other' }] when none applies, [] for a cancellation. */
export function deriveEffects(notam: EffectInput): NotamEffect[] {
  // A NOTAMC only withdraws the NOTAM it names; it has no effect of its own.
  if (notam.type === 'CANCEL') return [];
  const effects = landingEffects(notam);
  return effects.length > 0 ? effects : [{ kind: 'other', runways: [] }];
}

function landingEffects({ subject, condition, keyword, text }: EffectInput): NotamEffect[] {
  const upper = text.toUpperCase();
  const knownSubject = subject !== null && subject.code !== 'XX';
  if (knownSubject && condition !== null && condition.code !== 'XX') return effectsFromQCode(subject.code, condition.code, upper);
  if (knownSubject && !LANDING_SUBJECT_GROUPS.has(subject.code[0]!)) return [];
  if (keyword !== null && NON_LANDING_KEYWORDS.has(keyword)) return [];
  return effectsFromText(upper);
}

function effectsFromQCode(subject: string, condition: string, text: string): NotamEffect[] {
  if (subject === 'FA' && condition === 'LC') return [{ kind: 'aerodrome_closed', runways: [] }];
  if (subject === 'MR' && condition === 'LC') {
    const closed = closedRunways(text);
    return [{ kind: 'runway_closed', runways: closed.length > 0 ? closed : runwaysIn(text) }];
  }
  const kind = EQUIPMENT_SUBJECTS[subject];
  if (kind !== undefined && UNUSABLE_CONDITIONS.has(condition)) return [{ kind, runways: runwaysIn(text) }];
  return [];
}

function effectsFromText(text: string): NotamEffect[] {
  const flat = text.replace(/\s+/g, ' ');
  const effects: NotamEffect[] = [];
  if (AERODROME_CLOSED.test(flat)) effects.push({ kind: 'aerodrome_closed', runways: [] });
  const closed = closedRunways(flat);
  if (closed.length > 0) effects.push({ kind: 'runway_closed', runways: closed });
  // Unserviceable equipment is judged clause by clause so that "ILS OR LOC RWY 4L ... CMK VOR U/S"
  // does not pin the VOR outage on the ILS.
  for (const clause of text.split(/\n|;|\.(?=\s|$)/)) {
    if (!UNSERVICEABLE.test(clause)) continue;
    const kind = equipmentIn(clause);
    if (kind !== null) addEffect(effects, kind, runwaysIn(clause));
  }
  return effects;
}

function equipmentIn(clause: string): NotamEffectKind | null {
  if (GLIDE_PATH.test(clause)) return 'glide_path_unserviceable';
  if (LOCALIZER.test(clause)) return 'localizer_unserviceable';
  if (ILS.test(clause)) return 'ils_unserviceable';
  if (APPROACH_LIGHTS.test(clause)) return 'approach_lighting_unserviceable';
  const onRunway = RUNWAY_WORD.test(clause) || RUNWAY_LIGHT_SYSTEMS.test(clause);
  const taxiwayOnly = TAXIWAY_WORD.test(clause) && !RUNWAY_WORD.test(clause);
  if (onRunway && !taxiwayOnly && (LIGHTS.test(clause) || RUNWAY_LIGHT_SYSTEMS.test(clause))) return 'runway_lighting_unserviceable';
  return null;
}

function addEffect(effects: NotamEffect[], kind: NotamEffectKind, runways: string[]): void {
  const existing = effects.find((effect) => effect.kind === kind);
  if (existing === undefined) effects.push({ kind, runways });
  else existing.runways = unique([...existing.runways, ...runways]);
}

/** Runway ends written directly before CLSD/CLOSED. */
function closedRunways(text: string): string[] {
  return unique([...text.replace(/\s+/g, ' ').matchAll(RUNWAY_CLOSED)].flatMap((match) => expandRunways(match[1]!)));
}

/** Every runway end the text names after RWY/RUNWAY. */
export function runwaysIn(text: string): string[] {
  return unique([...text.toUpperCase().matchAll(RUNWAY_REFERENCE)].flatMap((match) => expandRunways(match[1]!)));
}

/** "09L/27R" → ["09L", "27R"], "4R" → ["04R"]; designators outside 01–36 are dropped. */
export function expandRunways(designation: string): string[] {
  return designation
    .split('/')
    .map((part) => part.trim())
    .filter((part) => {
      const number = Number.parseInt(part, 10);
      return number >= 1 && number <= 36;
    })
    .map((part) => part.padStart(/[LRC]$/.test(part) ? 3 : 2, '0'));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
