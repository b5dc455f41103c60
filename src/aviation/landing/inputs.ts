// The landing inputs as requests read them: from memory, so that a landing answer is assembled
// rather than read and decoded again. Storage stays the truth and each store holds its own latest
// state (the newest METAR and TAF, each aerodrome's NOTAMs and their in-force sets); this adds what
// is derived from them and the slot hours' counts:
//
// - each airport's METAR and TAF decoded once per report (and at least hourly, since a report's
//   day of month is read against the clock);
// - each airport's slot hours (the capacity override, each hour's count and standing bookings),
//   read once and kept until the airport's slots change. Bookings are still made in storage under
//   its locks (SlotBook); this serves the counts the answers show.
//
// Every change is applied here at once on the instance that made it (`changed`, before it is
// announced), so the next request sees it; a change announced on `aviation.inputs` by another
// instance is applied when the announcement arrives.
import { HeldValues } from '../../platform/held-values.ts';
import type { AviationInput } from '../inputs.ts';
import type { NotamStore } from '../notams/store.ts';
import { parseMetar, parseTaf, type Metar, type Taf } from '../weather/index.ts';
import type { StoredReport, WeatherReports } from '../weather/reports.ts';
import { availabilityIn, slotHour, type SlotAvailability, type SlotBook, type SlotHours } from './slots.ts';

/** A decoding is reused this long at most: the report's day of month resolves against the clock. */
const DECODING_KEPT_MS = 3_600_000;
/** Slot hours kept per airport before they are all read again (ETAs move on). */
const HELD_HOURS = 2_000;

interface Decoding<T> {
  raw: string;
  decodedAt: number;
  value: T;
}

/** An airport's slot hours as held: the capacity override and the hours read so far. */
interface HeldSlots {
  override: number | null;
  booked: Map<string, number>;
  bookings: Map<string, SlotHours['bookings'][number][]>;
}

export class LandingInputs {
  readonly #weather: WeatherReports;
  readonly #notams: NotamStore;
  readonly #slots: SlotBook;
  readonly #metars = new Map<string, Decoding<Metar | null>>();
  readonly #tafs = new Map<string, Decoding<Taf | undefined>>();
  /** By airport; the hours not yet read are added to the value held. */
  readonly #slotsHeld: HeldValues<string, HeldSlots>;
  #generation = 0;

  constructor(stores: { weather: WeatherReports; notams: NotamStore; slots: SlotBook }, clock: () => number = Date.now) {
    this.#weather = stores.weather;
    this.#notams = stores.notams;
    this.#slots = stores.slots;
    this.#slotsHeld = new HeldValues({ clock });
  }

  /** Counts the changes of any airport's inputs: answers built from them stand while it holds. */
  get generation(): number {
    return this.#generation;
  }

  /** An input of the airport changed: what is held of it is read again on the next request. */
  changed(input: AviationInput): void {
    this.#generation += 1;
    const icao = input.icao.trim().toUpperCase();
    switch (input.kind) {
      case 'metar':
      case 'taf':
        this.#weather.forget(icao, input.kind);
        return;
      case 'notam':
        this.#notams.forget(icao);
        return;
      case 'slots':
        this.#slotsHeld.forget(icao);
        return;
    }
  }

  /** The report decoded; null without a report or when it does not decode. */
  metar(report: StoredReport | null, nowMs: number): Metar | null {
    return report === null ? null : decoded(this.#metars, report, nowMs, (raw, now) => {
      const parsed = parseMetar(raw, { now });
      return parsed.ok ? parsed.metar : null;
    });
  }

  /** The report decoded; undefined without a report or when it does not decode. */
  taf(report: StoredReport | null, nowMs: number): Taf | undefined {
    return report === null ? undefined : decoded(this.#tafs, report, nowMs, (raw, now) => {
      const parsed = parseTaf(raw, { now });
      return parsed.ok ? parsed.taf : undefined;
    });
  }

  /** The airport's slot hours containing the instants: the capacity override, each hour's count and standing bookings. */
  async slotHours(icao: string, hourMs: readonly number[]): Promise<SlotHours> {
    const code = icao.trim().toUpperCase();
    const hours = [...new Set(hourMs.map(slotHour))];
    const held = await this.#heldSlots(code, hours);
    return {
      icao: code,
      override: held.override,
      booked: new Map(hours.map((hour) => [hour, held.booked.get(hour)!])),
      bookings: hours.flatMap((hour) => held.bookings.get(hour)!),
    };
  }

  /** The ETA hour's slots at the airport: what `SlotBook.availability` reads from storage. */
  async availability(icao: string, etaMs: number, derivedCapacity: number): Promise<SlotAvailability> {
    const code = icao.trim().toUpperCase();
    const held = await this.#heldSlots(code, [slotHour(etaMs)]);
    return availabilityIn({ icao: code, override: held.override, booked: held.booked, bookings: [] }, etaMs, derivedCapacity);
  }

  async #heldSlots(icao: string, hours: readonly string[]): Promise<HeldSlots> {
    const held = await this.#slotsHeld.get(icao, async () => ({ override: null, booked: new Map(), bookings: new Map() }));
    const missing = hours.filter((hour) => !held.booked.has(hour));
    if (missing.length === 0) return held;
    const read = await this.#slots.hours(icao, missing.map((hour) => Date.parse(hour)));
    // Forgotten meanwhile (the slots changed): what was read may predate the change; read again.
    if (this.#slotsHeld.peek(icao) !== held) return this.#heldSlots(icao, hours);
    // Hours are only ever added to a value held (requests under way read it); past hours go with it.
    if (held.booked.size + missing.length > HELD_HOURS) this.#slotsHeld.forget(icao);
    held.override = read.override;
    for (const hour of missing) {
      held.booked.set(hour, read.booked.get(hour) ?? 0);
      held.bookings.set(hour, read.bookings.filter((booking) => booking.hour === hour));
    }
    return held;
  }
}

function decoded<T>(decodings: Map<string, Decoding<T>>, report: StoredReport, nowMs: number, decode: (raw: string, now: Date) => T): T {
  const held = decodings.get(report.icao);
  if (held !== undefined && held.raw === report.raw && Math.abs(nowMs - held.decodedAt) < DECODING_KEPT_MS) return held.value;
  const value = decode(report.raw, new Date(nowMs));
  decodings.set(report.icao, { raw: report.raw, decodedAt: nowMs, value });
  return value;
}
