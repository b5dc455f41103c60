// Simulated NOTAMs in ICAO format for any aerodrome, used when no live NOTAM feed is configured.
// The text goes through the same parser as live NOTAMs; responses label it `simulated`.
//
// Each aerodrome has a NOTAM history: for every day of the last 160 days a seeded draw decides
// which NOTAMs its office issued that day (runway and taxiway works, ILS and lighting outages,
// cranes, changed hours, rarely a closure of the whole aerodrome), each with its lead time,
// duration and perhaps an item D) schedule. simulateNotams returns those issued up to the asked
// day and not expired before it, so the picture for one seed, aerodrome and day is always the
// same, and the next day's differs only as a real one would: new NOTAMs, expired ones gone.
import { Prng } from '../../platform/random.ts';
import { expandRunways, parseNotam } from '../notams/index.ts';
import type { Notam, NotamEffect } from '../notams/index.ts';
import type { NotamProvider } from '../notams/provider.ts';

/** What the simulator needs of an aerodrome; runway idents as in the reference data ("09L", "H1"). */
export interface SimulatedAirport {
  icao: string;
  lat: number;
  lon: number;
  runways: { ends: { ident: string }[] }[];
}

export type SimulatedNotamKind =
  | 'runway_closure'
  | 'ils_outage'
  | 'localizer_outage'
  | 'glide_path_outage'
  | 'approach_lighting_outage'
  | 'runway_lighting_outage'
  | 'papi_outage'
  | 'taxiway_closure'
  | 'obstacle'
  | 'aerodrome_hours'
  | 'aerodrome_closure';

export interface SimulatedNotam {
  kind: SimulatedNotamKind;
  /** The landing effects the text is written to have. */
  effects: NotamEffect[];
  text: string;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const HISTORY_DAYS = 160;

/** The raw texts of the aerodrome's NOTAMs current on the UTC day of `atMs`, in order of item B). */
export function simulateNotams(airport: SimulatedAirport, atMs: number, seed: number): string[] {
  return simulateNotamSet(airport, atMs, seed).map((notam) => notam.text);
}

/** simulateNotams with what each NOTAM was written to mean. Empty for an unusable aerodrome record. */
export function simulateNotamSet(airport: SimulatedAirport, atMs: number, seed: number): SimulatedNotam[] {
  const icao = airport.icao.trim().toUpperCase();
  if (!/^[A-Z][A-Z0-9]{3}$/.test(icao) || !Number.isFinite(atMs) || !validPosition(airport.lat, airport.lon)) return [];
  const runways = runwaysOf(airport);
  const context: Context = { icao, lat: airport.lat, lon: airport.lon, fir: firFor(icao, airport.lat, airport.lon), runways };
  const airportHash = hashString(icao);
  const activity = activityOf(mix(seed, airportHash), runways.length);
  const office = officeOf(icao);
  const today = Math.floor(atMs / DAY);

  const drafted: { start: number; number: number; notam: SimulatedNotam }[] = [];
  for (let day = today - HISTORY_DAYS; day <= today; day++) {
    const random = new Prng(mix(mix(seed, airportHash), day));
    let issuedToday = 0;
    for (const spec of KINDS) {
      // The same three draws for every kind, issued or not, so one kind's outcome never shifts
      // another's: the details come from a generator of their own.
      const issues = random.chance(Math.min(0.9, spec.perDay * activity));
      const issuedAt = day * DAY + random.int(5 * 60, 22 * 60) * MINUTE;
      const details = random.fork();
      if (!issues) continue;
      const draft = spec.build(context, details, issuedAt);
      if (draft === null) continue;
      // Numbered before the expiry check: a NOTAM keeps its number whichever day is asked.
      const number = office.numberOn(issuedAt, issuedToday++);
      if (draft.end !== null && draft.end <= today * DAY) continue;
      drafted.push({ start: draft.start, number, notam: { kind: spec.kind, effects: draft.effects, text: render(context, office.series, number, issuedAt, draft) } });
    }
  }
  return drafted.sort((a, b) => a.start - b.start || a.number - b.number).map((entry) => entry.notam);
}

/** A NOTAM feed that answers with the simulator's NOTAMs for the aerodromes `airportFor` knows. */
export function simulatedNotamProvider(airportFor: (icao: string) => SimulatedAirport | undefined, seed: number): NotamProvider {
  return {
    source: 'simulated',
    async notamsFor(location, nowMs) {
      const airport = airportFor(location);
      if (airport === undefined) return { ok: true, notams: [] };
      const notams: Notam[] = [];
      for (const text of simulateNotams(airport, nowMs, seed)) {
        const result = parseNotam(text);
        if (!result.ok) return { ok: false, error: `simulated NOTAM rejected by the parser: ${result.error.message}` };
        notams.push(result.notam);
      }
      return { ok: true, notams };
    },
  };
}

interface Runway {
  /** "09L/27R", or "09" when only one end has a numbered ident. */
  label: string;
  ends: string[];
}

interface Context {
  icao: string;
  lat: number;
  lon: number;
  fir: string;
  runways: Runway[];
}

interface Draft {
  qCode: string;
  traffic: 'I' | 'V' | 'IV';
  purpose: string;
  scope: string;
  lowerFl: number;
  upperFl: number;
  /** Where the Q-line points when not at the aerodrome (an obstacle). */
  position?: { lat: number; lon: number };
  radiusNm: number;
  start: number;
  /** null: PERM. */
  end: number | null;
  estimated: boolean;
  schedule: string | null;
  text: string;
  effects: NotamEffect[];
}

interface KindSpec {
  kind: SimulatedNotamKind;
  /** NOTAMs of this kind an aerodrome of average activity issues per day. */
  perDay: number;
  /** null when the aerodrome has nothing it could apply to (no numbered runway). */
  build(context: Context, random: Prng, issuedAt: number): Draft | null;
}

/** Item D) schedules with the minutes of day their first period starts and last one ends. */
const NIGHT_SCHEDULES = [
  { text: 'DAILY 0000-0500', start: 0, end: 300 },
  { text: 'DAILY 0100-0400', start: 60, end: 240 },
  { text: 'DLY 2200-0430', start: 1320, end: 270 },
  { text: 'DAILY 2300-0500', start: 1380, end: 300 },
  { text: 'MON-FRI 2300-0500', start: 1380, end: 300 },
] as const;
const DAY_SCHEDULES = [
  { text: 'DAILY 0700-1700', start: 420, end: 1020 },
  { text: 'MON-FRI 0600-1800', start: 360, end: 1080 },
] as const;
/** ICAO taxiway letters (I, O, Q, V and X are not used). */
const TAXIWAY_LETTERS = 'ABCDEFGHJKLMNPRSTUWYZ';

const AERODROME = { traffic: 'IV', purpose: 'NBO', scope: 'A', lowerFl: 0, upperFl: 999, radiusNm: 5 } as const;
const NAVAID = { ...AERODROME, traffic: 'I' } as const;

const KINDS: readonly KindSpec[] = [
  {
    kind: 'runway_closure',
    perDay: 0.05,
    build(context, random, issuedAt) {
      if (context.runways.length === 0) return null;
      const runway = random.pick(context.runways);
      const reason = random.pick(['DUE TO MAINT', 'DUE TO WIP', 'DUE TO RUBBER REMOVAL', 'DUE TO PAINTING', 'DUE TO GRASS CUTTING']);
      const lead = random.int(1, 10) * DAY;
      const timing = random.chance(0.6)
        ? scheduledTiming(issuedAt + lead, random.pick(NIGHT_SCHEDULES), random.int(3, 21))
        : plainTiming(issuedAt + lead + random.int(0, 12) * HOUR, random.int(2, 72) * HOUR);
      return {
        qCode: 'QMRLC', ...AERODROME, ...timing, estimated: false,
        text: `RWY ${runway.label} CLSD ${reason}`,
        effects: [{ kind: 'runway_closed', runways: runway.ends }],
      };
    },
  },
  {
    kind: 'ils_outage',
    perDay: 0.015,
    build(context, random, issuedAt) {
      const end = randomEnd(context, random);
      if (end === null) return null;
      const suffix = random.pick(['', ' DUE TO MAINT', ' DUE TO FLIGHT CHECK']);
      return { qCode: 'QICAS', ...NAVAID, ...outageTiming(random, issuedAt), text: `ILS RWY ${end} U/S${suffix}`, effects: [{ kind: 'ils_unserviceable', runways: [end] }] };
    },
  },
  {
    kind: 'localizer_outage',
    perDay: 0.006,
    build(context, random, issuedAt) {
      const end = randomEnd(context, random);
      if (end === null) return null;
      const text = random.pick([`LLZ RWY ${end} U/S`, `ILS RWY ${end} LLZ U/S. GP NOT AVBL`]);
      return { qCode: 'QILAS', ...NAVAID, ...outageTiming(random, issuedAt), text, effects: [{ kind: 'localizer_unserviceable', runways: [end] }] };
    },
  },
  {
    kind: 'glide_path_outage',
    perDay: 0.009,
    build(context, random, issuedAt) {
      const end = randomEnd(context, random);
      if (end === null) return null;
      const text = random.pick([`ILS RWY ${end} GP U/S. LLZ AVBL`, `GP RWY ${end} U/S`]);
      return { qCode: 'QIGAS', ...NAVAID, ...outageTiming(random, issuedAt), text, effects: [{ kind: 'glide_path_unserviceable', runways: [end] }] };
    },
  },
  {
    kind: 'approach_lighting_outage',
    perDay: 0.015,
    build(context, random, issuedAt) {
      const end = randomEnd(context, random);
      if (end === null) return null;
      const text = random.pick([`RWY ${end} APCH LGT U/S`, `RWY ${end} ALS U/S`, `RWY ${end} SEQUENCED FLASHING LGT U/S`]);
      return { qCode: 'QLAAS', ...AERODROME, ...outageTiming(random, issuedAt), text, effects: [{ kind: 'approach_lighting_unserviceable', runways: [end] }] };
    },
  },
  {
    kind: 'runway_lighting_outage',
    perDay: 0.015,
    build(context, random, issuedAt) {
      if (context.runways.length === 0) return null;
      const runway = random.pick(context.runways);
      const [qCode, lights] = random.pick([['QLEAS', 'EDGE LGT'], ['QLCAS', 'CL LGT'], ['QLZAS', 'TDZ LGT']] as const);
      return {
        qCode, ...AERODROME, ...outageTiming(random, issuedAt),
        text: `RWY ${runway.label} ${lights} U/S`,
        effects: [{ kind: 'runway_lighting_unserviceable', runways: runway.ends }],
      };
    },
  },
  {
    kind: 'papi_outage',
    perDay: 0.015,
    build(context, random, issuedAt) {
      const end = randomEnd(context, random);
      if (end === null) return null;
      return { qCode: 'QLPAS', ...AERODROME, purpose: 'BO', ...outageTiming(random, issuedAt), text: `PAPI RWY ${end} U/S`, effects: OTHER };
    },
  },
  {
    kind: 'taxiway_closure',
    perDay: 0.07,
    build(_context, random, issuedAt) {
      const letter = random.pick([...TAXIWAY_LETTERS]);
      const from = random.int(1, 6);
      const text = random.pick([
        `TWY ${letter} CLSD DUE TO WIP`,
        `TWY ${letter} BTN TWY ${letter}${from} AND TWY ${letter}${from + random.int(1, 3)} CLSD`,
        `TWY ${letter}${from} CLSD`,
      ]);
      const start = issuedAt + random.int(0, 7) * DAY;
      const timing = random.chance(0.25)
        ? scheduledTiming(start, random.pick([...NIGHT_SCHEDULES, ...DAY_SCHEDULES]), random.int(3, 30))
        : plainTiming(start, random.int(1, 45) * DAY);
      return { qCode: 'QMXLC', ...AERODROME, purpose: 'M', ...timing, estimated: timing.schedule === null && random.chance(0.2), text, effects: OTHER };
    },
  },
  {
    kind: 'obstacle',
    perDay: 0.015,
    build(context, random, issuedAt) {
      const bearing = random.int(0, 359);
      const distanceNm = Math.round(random.range(0.3, 2.5) * 10) / 10;
      const position = offset(context.lat, context.lon, bearing, distanceNm);
      const heightFt = random.int(8, 40) * 10;
      const { start } = plainTiming(issuedAt + random.int(0, 5) * DAY, 0);
      const permanent = random.chance(0.15);
      const crane = random.pick(['CRANE', 'MOBILE CRANE', 'TOWER CRANE']);
      const lighting = random.pick(['LGTD', 'LGTD AND MARKED', 'DAY MARKED']);
      return {
        qCode: 'QOBCE', traffic: 'IV', purpose: 'M', scope: 'AE', lowerFl: 0, upperFl: Math.ceil(heightFt / 100),
        position, radiusNm: 1, start, end: permanent ? null : start + random.int(14, 150) * DAY, estimated: false, schedule: null,
        text: `${crane} ERECTED PSN ${dms(position.lat, position.lon)}, ${distanceNm.toFixed(1)}NM ${compassPoint(bearing)} OF ARP.\nHGT ${heightFt}FT AGL. ${lighting}`,
        effects: OTHER,
      };
    },
  },
  {
    kind: 'aerodrome_hours',
    perDay: 0.008,
    build(_context, random, issuedAt) {
      const opens = random.pick(['0500', '0600', '0700']);
      const weekendOpens = random.pick(['0700', '0800']);
      const closes = random.pick(['2000', '2100', '2200']);
      const text = random.pick([
        `AD HR OF SER MON-FRI ${opens}-${closes}, SAT SUN ${weekendOpens}-${closes}`,
        `AD OPS HR DAILY ${opens}-${closes}. OUTSIDE THESE HR PPR 24 HR`,
      ]);
      return { qCode: 'QFAAH', ...AERODROME, ...plainTiming(issuedAt + random.int(3, 14) * DAY, random.int(7, 60) * DAY), estimated: false, text, effects: OTHER };
    },
  },
  {
    kind: 'aerodrome_closure',
    perDay: 0.0012,
    build(_context, random, issuedAt) {
      const start = issuedAt + random.int(3, 21) * DAY;
      if (random.chance(0.3)) {
        return {
          qCode: 'QFALC', ...AERODROME, ...scheduledTiming(start, random.pick(NIGHT_SCHEDULES), random.int(2, 7)), estimated: false,
          text: 'AD CLSD DUE TO MAINT', effects: [{ kind: 'aerodrome_closed', runways: [] }],
        };
      }
      const reason = random.pick(['DUE TO AIR DISPLAY', 'DUE TO VIP FLT', 'DUE TO EMERG EXERCISE', 'EXC EMERG, HOSP AND SAR FLT']);
      return {
        qCode: 'QFALC', ...AERODROME, ...plainTiming(start + random.int(6, 20) * HOUR, random.int(2, 8) * HOUR), estimated: false,
        text: `AD CLSD ${reason}`, effects: [{ kind: 'aerodrome_closed', runways: [] }],
      };
    },
  },
];

const OTHER: NotamEffect[] = [{ kind: 'other', runways: [] }];

function plainTiming(start: number, durationMs: number): { start: number; end: number; schedule: null } {
  const rounded = Math.floor(start / (5 * MINUTE)) * 5 * MINUTE;
  return { start: rounded, end: rounded + durationMs, schedule: null };
}

/** B) at the first period's start, C) at the last period's end, `days` days of the schedule. */
function scheduledTiming(
  from: number,
  schedule: { text: string; start: number; end: number },
  days: number,
): { start: number; end: number; schedule: string } {
  const firstDay = Math.floor(from / DAY) * DAY;
  const overnight = schedule.end <= schedule.start ? 1 : 0;
  return {
    start: firstDay + schedule.start * MINUTE,
    end: firstDay + (days - 1 + overnight) * DAY + schedule.end * MINUTE,
    schedule: schedule.text,
  };
}

/** Equipment failures mostly start when reported and often end by estimate; some are planned. */
function outageTiming(random: Prng, issuedAt: number): { start: number; end: number; estimated: boolean; schedule: null } {
  const start = random.chance(0.6) ? issuedAt : issuedAt + random.int(1, 7) * DAY;
  const timing = plainTiming(start, random.int(6, 14 * 24) * HOUR);
  return { ...timing, estimated: random.chance(0.4) };
}

function randomEnd(context: Context, random: Prng): string | null {
  const ends = context.runways.flatMap((runway) => runway.ends);
  return ends.length === 0 ? null : random.pick(ends);
}

function runwaysOf(airport: SimulatedAirport): Runway[] {
  const runways: Runway[] = [];
  for (const runway of airport.runways) {
    // Numbered ends only: helipads (H1) and water lanes (N, NE) have no runway NOTAMs here.
    const ends = runway.ends.map((end) => end.ident.trim().toUpperCase()).filter((ident) => /^\d{1,2}[LRC]?$/.test(ident)).flatMap(expandRunways);
    const distinct = [...new Set(ends)];
    if (distinct.length > 0) runways.push({ label: distinct.join('/'), ends: distinct });
  }
  return runways;
}

function render(context: Context, series: string, number: number, issuedAt: number, draft: Draft): string {
  const year = String(new Date(issuedAt).getUTCFullYear() % 100).padStart(2, '0');
  const position = draft.position ?? context;
  const end = draft.end === null ? 'PERM' : `${dateTimeGroup(draft.end)}${draft.estimated ? ' EST' : ''}`;
  const lines = [
    `${series}${String(number).padStart(4, '0')}/${year} NOTAMN`,
    `Q) ${context.fir}/${draft.qCode}/${draft.traffic}/${draft.purpose}/${draft.scope}/${pad(draft.lowerFl, 3)}/${pad(draft.upperFl, 3)}/${qLinePosition(position.lat, position.lon)}${pad(draft.radiusNm, 3)}`,
    `A) ${context.icao} B) ${dateTimeGroup(draft.start)} C) ${end}`,
  ];
  if (draft.schedule !== null) lines.push(`D) ${draft.schedule}`);
  lines.push(`E) ${draft.text}`);
  return lines.join('\n');
}

/** epoch ms → YYMMDDHHMM (UTC). */
function dateTimeGroup(ms: number): string {
  const date = new Date(ms);
  return [date.getUTCFullYear() % 100, date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()].map((part) => pad(part, 2)).join('');
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** |value| in whole degrees and the rest in 1/units of a degree, rounded: (51.4836, 60) → [51, 29]. */
function sexagesimal(value: number, units: number): [number, number] {
  const total = Math.round(Math.abs(value) * units);
  return [Math.floor(total / units), total % units];
}

/** "5129N00028W", the Q-line form (degrees and minutes). */
function qLinePosition(lat: number, lon: number): string {
  const [latDeg, latMin] = sexagesimal(lat, 60);
  const [lonDeg, lonMin] = sexagesimal(lon, 60);
  return `${pad(latDeg, 2)}${pad(latMin, 2)}${lat < 0 ? 'S' : 'N'}${pad(lonDeg, 3)}${pad(lonMin, 2)}${lon < 0 ? 'W' : 'E'}`;
}

/** "513018N 0002640W", the item E) form (degrees, minutes and seconds). */
function dms(lat: number, lon: number): string {
  const part = (value: number, width: number, positive: string, negative: string) => {
    const [degrees, seconds] = sexagesimal(value, 3600);
    return `${pad(degrees, width)}${pad(Math.floor(seconds / 60), 2)}${pad(seconds % 60, 2)}${value < 0 ? negative : positive}`;
  };
  return `${part(lat, 2, 'N', 'S')} ${part(lon, 3, 'E', 'W')}`;
}

function offset(lat: number, lon: number, bearingDeg: number, distanceNm: number): { lat: number; lon: number } {
  const radians = (bearingDeg * Math.PI) / 180;
  const dLat = (distanceNm / 60) * Math.cos(radians);
  const dLon = ((distanceNm / 60) * Math.sin(radians)) / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  const newLon = lon + dLon;
  return { lat: Math.max(-89.99, Math.min(89.99, lat + dLat)), lon: newLon > 180 ? newLon - 360 : newLon < -180 ? newLon + 360 : newLon };
}

function compassPoint(bearingDeg: number): string {
  return ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'][Math.round(bearingDeg / 45) % 8]!;
}

function validPosition(lat: number, lon: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/** 0.4–1.8 times the average, more with more runways, less without a numbered runway. */
function activityOf(hash: number, runwayCount: number): number {
  const base = 0.4 + 1.4 * unit(hash);
  return runwayCount === 0 ? base * 0.5 : base * (1 + 0.4 * Math.min(runwayCount - 1, 3));
}

/**
 * The NOTAM office of the aerodrome's country (its two-letter prefix): a series letter and a
 * steady daily rate, so numbers rise through the year as they do at a real office and restart
 * at 1 on 1 January. Up to 11 NOTAMs a day at one aerodrome fit under the smallest rate.
 */
function officeOf(icao: string): { series: string; numberOn(issuedAt: number, index: number): number } {
  const hash = hashString(icao.slice(0, 2));
  const series = 'AAAABC'[hash % 6]!;
  const perDay = 12 + Math.floor(unit(mix(hash, 1)) * 15);
  return {
    series,
    numberOn(issuedAt, index) {
      const date = new Date(issuedAt);
      const dayOfYear = Math.floor((issuedAt - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY);
      return dayOfYear * perDay + 1 + index;
    },
  };
}

/** FIRs and a point inside each (near the area control centre), for the Q-line's first field. */
const FIRS: readonly [fir: string, lat: number, lon: number][] = [
  ['EGTT', 51.5, -0.9], ['EGPX', 55.9, -3.9], ['EISN', 53.0, -8.0], ['EHAA', 52.3, 4.8], ['EBBU', 50.6, 4.5],
  ['EDGG', 50.1, 8.6], ['EDWW', 52.8, 10.5], ['EDMM', 48.4, 11.8], ['LFFF', 48.7, 2.4], ['LFRR', 47.5, -1.5],
  ['LFBB', 44.8, -0.6], ['LFMM', 43.5, 5.0], ['LFEE', 48.5, 6.5], ['LSAS', 46.8, 8.2], ['LOVV', 47.6, 14.1],
  ['LIMM', 45.6, 9.0], ['LIRR', 41.8, 12.6], ['LIBB', 40.8, 16.5], ['LECM', 40.5, -3.6], ['LECB', 41.3, 2.1],
  ['LPPC', 39.0, -8.5], ['EKDK', 55.6, 12.6], ['ENOR', 63.0, 10.0], ['ESAA', 59.6, 17.0], ['EFIN', 61.0, 25.0],
  ['EETT', 59.4, 24.8], ['EVRR', 56.9, 24.1], ['EYVL', 54.6, 25.3], ['EPWW', 52.2, 21.0], ['LKAA', 50.0, 15.0],
  ['LZBB', 48.7, 19.5], ['LHCC', 47.2, 19.3], ['LJLA', 46.1, 14.5], ['LDZO', 45.0, 16.0], ['LRBB', 45.5, 25.0],
  ['LBSR', 42.7, 25.0], ['LGGG', 38.5, 23.5], ['LTAA', 39.9, 32.8], ['LTBB', 41.0, 29.0], ['LCCC', 35.0, 33.0],
  ['LMMM', 35.9, 14.5], ['UUWV', 55.6, 37.3], ['ULLL', 59.8, 30.3], ['UNNT', 55.0, 82.9],
  ['KZBW', 42.7, -71.5], ['KZNY', 40.8, -73.1], ['KZDC', 39.1, -77.5], ['KZJX', 30.7, -81.9], ['KZMA', 25.8, -80.3],
  ['KZTL', 33.4, -84.3], ['KZHU', 29.96, -95.3], ['KZFW', 32.8, -97.1], ['KZKC', 38.9, -94.8], ['KZME', 35.1, -89.9],
  ['KZID', 39.7, -86.3], ['KZOB', 41.3, -82.2], ['KZAU', 41.8, -88.3], ['KZMP', 44.6, -93.2], ['KZDV', 40.2, -105.1],
  ['KZAB', 35.2, -106.6], ['KZLA', 34.6, -118.1], ['KZOA', 37.5, -122.0], ['KZSE', 47.3, -122.2], ['KZLC', 40.8, -111.95],
  ['PAZA', 61.2, -149.8], ['PHZH', 21.3, -157.9], ['CZVR', 49.2, -123.2], ['CZEG', 53.3, -113.6], ['CZWG', 49.9, -97.2],
  ['CZYZ', 43.7, -79.6], ['CZUL', 45.5, -73.7], ['CZQM', 46.1, -64.7], ['CZQX', 47.6, -52.7], ['MMFR', 19.4, -99.1],
  ['SBBS', -15.8, -47.9], ['SBRE', -8.1, -34.9], ['SBCW', -25.5, -49.2], ['SBAZ', -3.0, -60.0], ['SAEF', -34.6, -58.4],
  ['SCEZ', -33.4, -70.8], ['SKED', 4.7, -74.1], ['SPIM', -12.0, -77.1],
  ['YMMM', -37.7, 144.8], ['YBBB', -27.4, 153.1], ['NZZC', -41.3, 174.8], ['RJJJ', 33.6, 130.4], ['RKRR', 37.5, 126.8],
  ['ZBPE', 40.1, 116.6], ['ZSHA', 31.2, 121.3], ['ZGZU', 23.4, 113.3], ['VHHK', 22.3, 113.9], ['RCAA', 25.1, 121.2],
  ['RPHI', 14.5, 121.0], ['WSJC', 1.36, 103.99], ['WMFC', 3.1, 101.5], ['WIIF', -6.1, 106.7], ['VTBB', 13.7, 100.7],
  ['VVTS', 10.8, 106.7], ['VABF', 19.1, 72.9], ['VIDF', 28.6, 77.1], ['VECF', 22.6, 88.4], ['VOMF', 13.0, 80.2],
  ['OPKR', 24.9, 67.2], ['OMAE', 24.4, 54.6], ['OEJD', 21.7, 39.2], ['OBBB', 26.3, 50.6], ['OIIX', 35.7, 51.3],
  ['LLLL', 32.0, 34.9], ['HECC', 30.1, 31.4], ['FAJA', -26.1, 28.2], ['FACA', -33.9, 18.6], ['HKNA', -1.3, 36.9],
  ['DNKK', 6.5, 3.3], ['GMMM', 33.4, -7.6], ['DAAA', 36.7, 3.2], ['HAAA', 9.0, 38.8], ['FMMM', -18.8, 47.5],
];

/** The nearest listed FIR of the same two-letter region, else of the same one-letter region (K,
 * C, Y ... are whole regions), else the aerodrome itself. */
function firFor(icao: string, lat: number, lon: number): string {
  for (const length of [2, 1]) {
    const candidates = FIRS.filter(([fir]) => fir.slice(0, length) === icao.slice(0, length));
    if (candidates.length === 0) continue;
    const distance = ([, firLat, firLon]: readonly [string, number, number]) => {
      const dLon = (((firLon - lon + 540) % 360) - 180) * Math.cos((lat * Math.PI) / 180);
      return (firLat - lat) ** 2 + dLon ** 2;
    };
    return candidates.reduce((best, candidate) => (distance(candidate) < distance(best) ? candidate : best))[0];
  }
  return icao;
}

/** FNV-1a over the characters. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Combines two integers into a well-spread 32-bit value (murmur3 finaliser). */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function unit(hash: number): number {
  return mix(hash, 0x5bd1e995) / 4294967296;
}
