// The imported navigation data in memory: each airport's localizers by runway end, and the airport
// index seen through it, so every runway end at an airport in the data says whether it has an ILS.
//
// An airport the file does not mention keeps `ils: null` (unknown): nav.dat lists airports by
// their ILS and localizers, so absence says nothing about an airport the file never covered. At an
// airport it does mention, an end without an ILS row has `ils: false`. Localizers are joined to
// runway ends by the runway designator, or to the neighbouring number when the runway was
// renumbered since the data was made (see `renumbered`).
import type { Airport, AirportIndex, Runway, RunwayEnd } from '../reference/airports-model.ts';
import { runwayKey, type LocalizerRecord, type LocalizerSystem } from './navdat.ts';
import { readNavData, type NavDataImportMeta } from './store.ts';

export type NavDataLoad =
  | { status: 'missing' }
  | { status: 'loaded'; meta: NavDataImportMeta }
  | { status: 'unreadable'; file: string; error: string };

export class NavData {
  readonly meta: NavDataImportMeta | null;
  readonly #byAirport = new Map<string, LocalizerSystem[]>();

  constructor(meta: NavDataImportMeta | null, localizers: readonly LocalizerRecord[]) {
    this.meta = meta;
    if (meta === null) return;
    const source = `${meta.origin} (X-Plane ${meta.version}${meta.cycle === null ? '' : `, data cycle ${meta.cycle}`}), imported ${meta.imported_at.slice(0, 10)}`;
    for (const { airport, lat: _lat, lon: _lon, line: _line, ...system } of localizers) {
      const list = this.#byAirport.get(airport) ?? [];
      list.push({ ...system, source });
      this.#byAirport.set(airport, list);
    }
  }

  /** The data imported with `lamis import navdata`, if any; never throws. */
  static async load(dataDir: string): Promise<{ navdata: NavData; load: NavDataLoad }> {
    const stored = await readNavData(dataDir);
    if (stored.status !== 'loaded') return { navdata: new NavData(null, []), load: stored };
    return { navdata: new NavData(stored.meta, stored.localizers), load: { status: 'loaded', meta: stored.meta } };
  }

  get airports(): number {
    return this.#byAirport.size;
  }

  /** The ICAO codes of the airports the data covers. */
  covered(): IterableIterator<string> {
    return this.#byAirport.keys();
  }

  /** The airport's localizers; null when the data does not cover the airport (its ILS are unknown). */
  at(icao: string): readonly LocalizerSystem[] | null {
    return this.#byAirport.get(icao.toUpperCase()) ?? null;
  }

  /** The airport with each runway end's `ils` and `localizers` from this data; the airport itself when the data does not cover it. */
  apply(airport: Airport): Airport {
    const systems = this.at(airport.icao);
    if (systems === null) return airport;
    const ends = airport.runways.flatMap((runway) => runway.ends);
    const idents = new Set(ends.map((end) => runwayKey(end.ident)));
    const serves = (system: LocalizerSystem, end: RunwayEnd): boolean =>
      system.runway === runwayKey(end.ident) || (!idents.has(system.runway) && renumbered(system, end));
    const endWith = (end: RunwayEnd): RunwayEnd => {
      const localizers = systems.filter((system) => serves(system, end));
      return { ...end, ils: localizers.some((system) => system.kind === 'ILS'), localizers };
    };
    const runways: Runway[] = airport.runways.map((runway) => ({ ...runway, ends: runway.ends.map(endWith) }));
    return { ...airport, runways };
  }
}

/** Largest angle between a localizer's course and its runway's heading taken as the same direction. */
const SAME_DIRECTION_DEG = 5;

/**
 * A runway renumbered since the data was made (magnetic variation drifts: Keflavik's 02/20 became
 * 01/19): the number one off, the same L/C/R, and the localizer's course along the end's heading.
 */
function renumbered(system: LocalizerSystem, end: RunwayEnd): boolean {
  const [, number, side] = /^(\d{2})([LCRT]?)$/.exec(system.runway) ?? [];
  const [, endNumber, endSide] = /^(\d{2})([LCRT]?)$/.exec(runwayKey(end.ident)) ?? [];
  if (number === undefined || endNumber === undefined || side !== endSide) return false;
  const apart = Math.abs(Number(number) - Number(endNumber));
  if (apart !== 1 && apart !== 35) return false;
  const angle = Math.abs(((system.course_true_deg - end.true_heading_deg + 540) % 360) - 180);
  return angle <= SAME_DIRECTION_DEG;
}

/** The index answering with airports as the navigation data describes them; the same index without data. */
export function withNavData(index: AirportIndex, navdata: NavData): AirportIndex {
  if (navdata.airports === 0) return index;
  // Only the covered airports change; the others are answered as they are.
  // By code: the index decodes an airport on each call, a new object each time.
  const applied = new Map<string, Airport>();
  for (const icao of navdata.covered()) {
    const airport = index.get(icao);
    if (airport !== null && !applied.has(airport.icao)) applied.set(airport.icao, navdata.apply(airport));
  }
  const view = (airport: Airport): Airport => applied.get(airport.icao) ?? airport;
  const maybe = (airport: Airport | null) => airport && view(airport);
  return {
    meta: index.meta,
    airports: (where) => index.airports(where).map(view),
    get: (code) => maybe(index.get(code)),
    byIata: (iata) => maybe(index.byIata(iata)),
    byIcao: (icao) => maybe(index.byIcao(icao)),
    runways: (code) => maybe(index.get(code))?.runways ?? null,
    frequencies: (code) => index.frequencies(code),
    navaids: (code) => index.navaids(code),
    search(query) {
      const result = index.search(query);
      return { ...result, items: result.items.map((hit) => ({ ...hit, airport: view(hit.airport) })) };
    },
  };
}

/** The airport's ILS as the airport endpoint serves them: listed with their source, or unknown and why. */
export function airportIls(navdata: NavData, icao: string): { status: 'listed' | 'unknown'; detail: string; localizers: LocalizerSystem[] } {
  const localizers = navdata.at(icao);
  if (navdata.meta === null) return { status: 'unknown', detail: 'ILS unknown (no navigation data): none has been imported.', localizers: [] };
  if (localizers === null) {
    return { status: 'unknown', detail: `ILS unknown (no navigation data): the imported ${navdata.meta.origin} does not cover ${icao}.`, localizers: [] };
  }
  return { status: 'listed', detail: `From ${localizers[0]!.source}.`, localizers: [...localizers] };
}
