// The UN/LOCODE code list as UNECE publishes it in CSV ("<release> UNLOCODE CodeListPart1.csv" to
// Part3): no header; twelve columns: change indicator, country, location, name, name without
// diacritics, subdivision, function (eight positions, "1" in the first = port), status, date,
// IATA code, coordinates ("5155N 00430E", degrees and minutes) and remarks. Country rows (no
// location, name ".NETHERLANDS") and "=" reference rows are not locations and pass silently.
//
// Kept: locations with the port function and coordinates. Left out and counted: other functions,
// ports without coordinates, and entries being withdrawn (change "X", status "XX", or a request
// rejected, "RR"). Rejected with a reason: rows that break the format.
import { decodeText, readCsvRows } from '../../platform/csv.ts';
import type { RejectedRow, UnlocodeEntry } from './model.ts';
import { isCountryCode } from './places.ts';

const FIELDS = 12;
const COORDINATES = /^(\d{2})(\d{2})([NS])\s+(\d{3})(\d{2})([EW])$/;
const WITHDRAWN_STATUS = new Set(['XX', 'RR']);

export type UnlocodeCounts = {
  /** Locations without the port function. */
  readonly not_port: number;
  /** Ports the list gives no coordinates for. */
  readonly no_coordinates: number;
  readonly withdrawn: number;
};

export type UnlocodeParseResult =
  | {
      readonly ok: true;
      readonly entries: UnlocodeEntry[];
      readonly rejected: RejectedRow[];
      readonly skipped: UnlocodeCounts;
    }
  | { readonly ok: false; readonly error: string };

/** Reads one part of the code list; never throws. `ok: false` when the text is not in that format. */
export function parseUnlocodeCsv(input: string | Uint8Array): UnlocodeParseResult {
  const text = typeof input === 'string' ? input : decodeText(input);
  const { rows, rejected } = readCsvRows(text);
  if (rows.length === 0) return { ok: false, error: 'the file holds no CSV rows' };
  if (rows[0]!.fields.length !== FIELDS) {
    return { ok: false, error: `not a UN/LOCODE code list CSV: its rows have ${rows[0]!.fields.length} fields, not ${FIELDS}` };
  }

  const entries: UnlocodeEntry[] = [];
  const counts = { not_port: 0, no_coordinates: 0, withdrawn: 0 };
  const firstLine = new Map<string, number>();
  for (const { line, fields } of rows) {
    const [change, country, location, name, nameAscii, subdivision, functions, status, , , coordinates] = fields.map((field) => field.trim()) as [
      string, string, string, string, string, string, string, string, string, string, string,
    ];
    if (location === '') continue;
    const reject = (reason: string) => rejected.push({ line, reason });
    const code = `${country}${location}`.toUpperCase();
    if (!/^[A-Z]{2}$/.test(country.toUpperCase()) || !isCountryCode(country.toUpperCase()) || !/^[A-Z2-9]{3}$/.test(location.toUpperCase())) {
      reject(`"${country}" "${location}" is not a UN/LOCODE`);
      continue;
    }
    if (functions[0] !== '1') {
      counts.not_port++;
      continue;
    }
    if (change === 'X' || WITHDRAWN_STATUS.has(status)) {
      counts.withdrawn++;
      continue;
    }
    if (coordinates === '') {
      counts.no_coordinates++;
      continue;
    }
    const position = parseCoordinates(coordinates);
    if (position === null) {
      reject(`${code}: coordinates "${coordinates}" are not DDMMN DDDMMW`);
      continue;
    }
    if (name === '') {
      reject(`${code} has no name`);
      continue;
    }
    const seenOn = firstLine.get(code);
    if (seenOn !== undefined) {
      reject(`${code} again (first on line ${seenOn})`);
      continue;
    }
    firstLine.set(code, line);
    entries.push({
      unlocode: code,
      name,
      name_ascii: nameAscii !== '' && nameAscii !== name ? nameAscii : null,
      country: code.slice(0, 2),
      subdivision: subdivision === '' ? null : subdivision,
      status,
      ...position,
    });
  }
  rejected.sort((a, b) => a.line - b.line);
  return { ok: true, entries, rejected, skipped: counts };
}

/** "5155N 00430E" → 51.9167, 4.5; null when malformed or out of range. */
export function parseCoordinates(text: string): { lat: number; lon: number } | null {
  const match = COORDINATES.exec(text);
  if (match === null) return null;
  const [, latDeg, latMin, ns, lonDeg, lonMin, ew] = match as unknown as [string, string, string, string, string, string, string];
  if (Number(latMin) >= 60 || Number(lonMin) >= 60) return null;
  const lat = (Number(latDeg) + Number(latMin) / 60) * (ns === 'S' ? -1 : 1);
  const lon = (Number(lonDeg) + Number(lonMin) / 60) * (ew === 'W' ? -1 : 1);
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { lat: round(lat), lon: round(lon) };
}

/** Four decimals (11 m) are plenty for minute-resolution positions. */
function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
