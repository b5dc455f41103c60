// The METAR in words: what each decoded group of `/v3/aviation/airports/{icao}/metar` means,
// the flight category and its colour, the wind shear risk and the weather conditions. Pure, so it
// is tested without a browser.
import { capitalise, formatNumber, formatUtc } from '../../app/format.ts';
import type { Tone } from '../../app/ui/basics.tsx';
import type { DecodedMetar, FlightCategory, MetarWind, WeatherPhenomenon, WindShearRisk } from './types.ts';

export interface MetarLine {
  term: string;
  text: string;
}

/** The usual flight category colours (green, blue, red, magenta) and their limits. */
export const FLIGHT_CATEGORIES: Record<FlightCategory, { colour: string; meaning: string }> = {
  VFR: { colour: '#1a7f37', meaning: 'Visual flight rules: ceiling above 3,000 ft and visibility over 5 SM' },
  MVFR: { colour: '#1f5fbf', meaning: 'Marginal VFR: ceiling 1,000–3,000 ft or visibility 3–5 SM' },
  IFR: { colour: '#c62828', meaning: 'Instrument flight rules: ceiling 500 to under 1,000 ft or visibility 1 to under 3 SM' },
  LIFR: { colour: '#a0169b', meaning: 'Low IFR: ceiling below 500 ft or visibility below 1 SM' },
};

/** What each wind shear level stands for, by the rules in src/aviation/weather/RULES.md. */
export const WIND_SHEAR_RISKS: Record<WindShearRisk, { tone: Tone; meaning: string }> = {
  LOW: { tone: 'ok', meaning: 'No sign of wind shear in the METAR or TAF.' },
  MODERATE: { tone: 'warn', meaning: 'Signs nearby: convective cloud, gusts 15 kt over the mean, a wind shift, or wind shear possible in the TAF.' },
  HIGH: { tone: 'bad', meaning: 'Likely: wind shear reported aloft or for another runway, LLWS, a thunderstorm or squalls, or gusts 25 kt over the mean.' },
  SEVERE: { tone: 'bad', meaning: 'Wind shear reported for all runways or the runway in use, or severe convection (heavy thunderstorm, hail, funnel cloud).' },
};

const CONDITIONS: Record<string, string> = {
  THUNDERSTORM: 'Thunderstorm',
  HAIL: 'Hail',
  FREEZING: 'Freezing precipitation',
  SNOW: 'Snow',
  RAIN: 'Rain',
  FOG: 'Fog',
  LOW_VISIBILITY: 'Low visibility',
  MIST_HAZE: 'Mist or haze',
  OVERCAST: 'Overcast',
  CLOUDY: 'Cloudy',
  PARTLY_CLOUDY: 'Partly cloudy',
  CLEAR: 'Clear',
  UNKNOWN: 'Unknown (no usable METAR)',
};

/** "PARTLY_CLOUDY" → "Partly cloudy". */
export function conditionWords(condition: string): string {
  return CONDITIONS[condition] ?? condition.toLowerCase().replaceAll('_', ' ');
}

// WMO code table 4678: the METAR present-weather letters.
const PHENOMENA: Record<string, string> = {
  DZ: 'drizzle', RA: 'rain', SN: 'snow', SG: 'snow grains', IC: 'ice crystals', PL: 'ice pellets', GR: 'hail',
  GS: 'small hail or snow pellets', UP: 'unknown precipitation', BR: 'mist', FG: 'fog', FU: 'smoke', VA: 'volcanic ash',
  DU: 'widespread dust', SA: 'sand', HZ: 'haze', PY: 'spray', PO: 'dust or sand whirls', SQ: 'squalls',
  FC: 'funnel cloud', SS: 'sandstorm', DS: 'duststorm',
};
const DESCRIPTORS: Record<string, string> = {
  MI: 'shallow', PR: 'partial', BC: 'patches of', DR: 'low drifting', BL: 'blowing', FZ: 'freezing',
};

const listed = (words: string[]): string =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/** "-SHRA" → "Light rain showers"; "VCTS" → "Thunderstorm in the vicinity". */
export function weatherWords(w: WeatherPhenomenon): string {
  const things = listed(w.phenomena.map((code) => PHENOMENA[code] ?? code));
  let text: string;
  if (w.descriptor === 'TS') text = things ? `thunderstorm with ${things}` : 'thunderstorm';
  else if (w.descriptor === 'SH') text = things ? `${things} showers` : 'showers';
  else if (w.descriptor !== null) text = `${DESCRIPTORS[w.descriptor] ?? w.descriptor} ${things}`.trim();
  else text = things;
  const intensity = w.intensity === 'moderate' ? '' : `${w.intensity} `;
  return capitalise(`${intensity}${text}${w.in_vicinity ? ' in the vicinity' : ''}`);
}

const degrees = (deg: number): string => `${String(Math.round(deg)).padStart(3, '0')}°`;

/** "From 300° true at 12 kt, gusting 25 kt, varying between 260° and 330°". */
export function windWords(wind: MetarWind): string {
  if (wind.calm) return 'Calm';
  const from = wind.direction_deg === null ? `Variable in direction at ${wind.speed_kt} kt` : `From ${degrees(wind.direction_deg)} true at ${wind.speed_kt} kt`;
  const parts = [from];
  if (wind.gust_kt !== null) parts.push(`gusting ${wind.gust_kt} kt`);
  if (wind.variable_from_deg !== null && wind.variable_to_deg !== null) {
    parts.push(`varying between ${degrees(wind.variable_from_deg)} and ${degrees(wind.variable_to_deg)}`);
  }
  const reported = wind.reported.unit === 'KT' ? '' : ` (reported ${wind.reported.speed}${wind.reported.gust === null ? '' : `G${wind.reported.gust}`} ${wind.reported.unit === 'MPS' ? 'm/s' : 'km/h'})`;
  return `${parts.join(', ')}${reported}`;
}

/** "10 km or more (5.4 nm)", "800 m (0.4 nm)", "6 SM or more (5.2 nm)". */
export function visibilityWords(visibility: NonNullable<DecodedMetar['visibility']>): string {
  const bound = visibility.lower_bound ? ' or more' : visibility.upper_bound ? ' or less' : '';
  const nm = `${Math.round(visibility.nm * 10) / 10} nm`;
  if (visibility.reported === 'CAVOK') return `10 km or more (${nm}; CAVOK)`;
  if (visibility.unit === 'SM') return `${visibility.reported.replace(/^[PM]/, '').replace(/SM$/, ' SM')}${bound} (${nm})`;
  const metres = visibility.metres >= 9999 ? '10 km' : visibility.metres >= 5000 ? `${Math.round(visibility.metres / 100) / 10} km` : `${formatNumber(visibility.metres)} m`;
  return `${metres}${bound} (${nm})`;
}

const COVER: Record<string, string> = {
  FEW: 'Few (1–2 oktas)', SCT: 'Scattered (3–4 oktas)', BKN: 'Broken (5–7 oktas)', OVC: 'Overcast (8 oktas)',
};
const SKY_CLEAR: Record<string, string> = {
  CAVOK: 'Ceiling and visibility OK: no cloud below 5,000 ft, no cumulonimbus, no significant weather',
  SKC: 'Sky clear',
  CLR: 'No cloud below 12,000 ft (automatic station)',
  NSC: 'No significant cloud',
  NCD: 'No cloud detected (automatic station)',
};

export function cloudWords(layer: DecodedMetar['clouds'][number]): string {
  const cover = layer.cover === null ? 'Cloud of unreported amount' : COVER[layer.cover]!;
  const base = layer.base_ft === null ? 'base not reported' : `at ${formatNumber(layer.base_ft)} ft`;
  const type = layer.type === 'CB' ? ', cumulonimbus' : layer.type === 'TCU' ? ', towering cumulus' : '';
  return `${cover} ${base}${type}`;
}

const TREND: Record<string, string> = {
  NOSIG: 'No significant change expected in the next two hours',
  BECMG: 'Becoming',
  TEMPO: 'Temporarily',
  INTER: 'Intermittently',
};

const BRAKING: Record<string, string> = {
  poor: 'poor', medium_poor: 'medium to poor', medium: 'medium', medium_good: 'medium to good', good: 'good', unreliable: 'unreliable',
};

/** Each decoded group of the METAR as a term and its meaning, in the report's order. */
export function describeMetar(m: DecodedMetar): MetarLine[] {
  const lines: MetarLine[] = [];
  const flags = [m.auto ? 'automatic station' : '', m.corrected ? 'corrected' : ''].filter(Boolean);
  lines.push({ term: m.type === 'SPECI' ? 'Special report' : 'Report', text: `${m.station}, observed ${formatUtc(m.observed_at)}${flags.length ? ` (${flags.join(', ')})` : ''}` });
  lines.push({ term: 'Wind', text: m.wind ? windWords(m.wind) : 'Not reported' });
  if (m.visibility) {
    const minimum = m.visibility_minimum
      ? `; lowest ${formatNumber(m.visibility_minimum.metres)} m${m.visibility_minimum.direction ? ` towards ${m.visibility_minimum.direction}` : ''}`
      : '';
    lines.push({ term: 'Visibility', text: `${visibilityWords(m.visibility)}${minimum}` });
  } else {
    lines.push({ term: 'Visibility', text: 'Not reported' });
  }
  for (const rvr of m.runway_visual_ranges) {
    const value = (n: number | null) => (n === null ? 'not reported' : `${formatNumber(n)} ${rvr.unit}`);
    const range = rvr.max !== null && rvr.max !== rvr.min ? `${value(rvr.min)} to ${value(rvr.max)}` : value(rvr.min);
    const qualifier = rvr.below_min ? 'below ' : rvr.above_max ? 'above ' : '';
    const trend = rvr.trend === 'up' ? ', improving' : rvr.trend === 'down' ? ', getting worse' : rvr.trend === 'no_change' ? ', steady' : '';
    lines.push({ term: `RVR runway ${rvr.runway}`, text: `${qualifier}${range}${trend}` });
  }
  if (m.weather.length > 0) lines.push({ term: 'Weather', text: m.weather.map(weatherWords).join('; ') });
  if (m.sky_clear_code) lines.push({ term: 'Sky', text: SKY_CLEAR[m.sky_clear_code]! });
  if (m.clouds.length > 0) lines.push({ term: 'Cloud', text: m.clouds.map(cloudWords).join('; ') });
  if (m.sky_obscured) {
    lines.push({ term: 'Sky obscured', text: m.vertical_visibility_ft === null ? 'Vertical visibility not measured' : `Vertical visibility ${formatNumber(m.vertical_visibility_ft)} ft` });
  }
  lines.push({
    term: 'Ceiling',
    text: m.ceiling_ft !== null ? `${formatNumber(m.ceiling_ft)} ft${m.ceiling_uncertain ? ', possibly lower' : ''}`
      : m.ceiling_uncertain ? 'Unknown: a broken or overcast layer of unreported height'
      // No cloud group, clear-sky code or vertical visibility: nothing says there is no ceiling.
      : !m.sky_reported ? 'Unknown: the sky was not reported'
      : 'None (no broken or overcast layer)',
  });
  if (m.temperature_c !== null) {
    const dew = m.dewpoint_c === null ? '' : `, dew point ${m.dewpoint_c} °C (spread ${m.temperature_c - m.dewpoint_c} °C)`;
    lines.push({ term: 'Temperature', text: `${m.temperature_c} °C${dew}` });
  }
  if (m.altimeter) {
    const [main, other] = m.altimeter.reported_unit === 'hPa'
      ? [`${m.altimeter.hpa} hPa`, `${m.altimeter.inhg} inHg`]
      : [`${m.altimeter.inhg} inHg`, `${m.altimeter.hpa} hPa`];
    lines.push({ term: 'Pressure', text: `QNH ${main} (${other})` });
  }
  if (m.recent_weather.length > 0) lines.push({ term: 'Recent weather', text: m.recent_weather.map(weatherWords).join('; ') });
  for (const ws of m.wind_shear) {
    const where = ws.all_runways ? 'all runways' : ws.runway ? `runway ${ws.runway}` : ws.height_ft !== null ? `up to ${formatNumber(ws.height_ft)} ft` : 'reported';
    lines.push({ term: 'Wind shear', text: `Wind shear ${where}${ws.phase ? ` (${ws.phase})` : ''}` });
  }
  for (const state of m.runway_states) {
    const what = state.closed_by_snow ? 'aerodrome closed by snow'
      : state.cleared ? 'contamination cleared'
      : [state.deposit, state.coverage, state.depth_mm === null ? null : `${state.depth_mm} mm deep`].filter(Boolean).join(', ') || 'reported';
    const braking = state.braking_action ? `, braking action ${BRAKING[state.braking_action]}` : state.friction_coefficient !== null ? `, friction ${state.friction_coefficient}` : '';
    lines.push({ term: `Runway ${state.runway}`, text: `${capitalise(what)}${braking}` });
  }
  if (m.remarks.decoded.length > 0 || m.remarks.raw) {
    lines.push({ term: 'Remarks', text: m.remarks.decoded.length > 0 ? m.remarks.decoded.join('; ') : `${m.remarks.raw} (not decoded)` });
  }
  for (const trend of m.trends) {
    const words = TREND[trend.type]!;
    lines.push({ term: 'Trend', text: trend.type === 'NOSIG' ? words : `${words}: ${trend.raw.replace(/^(BECMG|TEMPO|INTER)\s*/, '')}` });
  }
  if (m.missing_groups.length > 0) lines.push({ term: 'Not measured', text: m.missing_groups.join(' ') });
  if (m.unparsed_groups.length > 0) lines.push({ term: 'Not decoded', text: m.unparsed_groups.join(' ') });
  return lines;
}
