// MMSI structure per ITU-R M.585: the leading digits say what kind of station transmits, and
// where the MID sits inside the nine digits. Numbers are handled as integers with leading zeros
// implied, so 2320001 is the coast station 002320001.

import { midInfo } from './mid.ts';

export const MMSI_KINDS = [
  'ship', // MIDXXXXXX
  'group', // 0MIDXXXXX: group call to ships
  'coast_station', // 00MIDXXXX (also AIS base stations and repeaters)
  'sar_aircraft', // 111MIDXXX
  'aid_to_navigation', // 99MIDXXXX, physical or virtual
  'auxiliary_craft', // 98MIDXXXX: craft associated with a parent ship
  // 8MIDXXXXX: handheld VHF with DSC and GNSS. Older editions called this block "diver's radio";
  // the number cannot tell the two apart, so there is no separate diver kind.
  'handheld_vhf',
  'sart', // 970XXYYYY: AIS-SART, XX manufacturer, no MID
  'mob', // 972XXYYYY: man-overboard device, no MID
  'epirb', // 974XXYYYY: EPIRB-AIS, no MID
  'invalid',
] as const;

export type MmsiKind = (typeof MMSI_KINDS)[number];

export type MmsiFlag = { readonly alpha2: string; readonly country: string };

export type MmsiClass = {
  readonly kind: MmsiKind;
  /** The MID carried by the number; null for invalid numbers and the MID-less device kinds. */
  readonly mid: number | null;
  readonly flag: MmsiFlag | null;
};

const INVALID: MmsiClass = Object.freeze({ kind: 'invalid', mid: null, flag: null });
const NO_MID = {
  sart: Object.freeze({ kind: 'sart', mid: null, flag: null }),
  mob: Object.freeze({ kind: 'mob', mid: null, flag: null }),
  epirb: Object.freeze({ kind: 'epirb', mid: null, flag: null }),
} as const satisfies Record<string, MmsiClass>;

// Flags are shared objects so a classification allocates only its own small record.
const FLAGS = new Map<number, MmsiFlag>();
function flagOf(mid: number): MmsiFlag | null {
  const cached = FLAGS.get(mid);
  if (cached) return cached;
  const info = midInfo(mid);
  if (!info) return null;
  const flag: MmsiFlag = Object.freeze({ alpha2: info.alpha2, country: info.country });
  FLAGS.set(mid, flag);
  return flag;
}

function withMid(kind: MmsiKind, mid: number): MmsiClass {
  const flag = flagOf(mid);
  return flag ? { kind, mid, flag } : INVALID;
}

/** Three decimal digits of `n` starting at 0-based `offset` of its nine-digit form. */
function digitsAt(n: number, offset: number): number {
  return Math.floor(n / 10 ** (6 - offset)) % 1000;
}

/** Classifies an MMSI by its ITU-R M.585 format; never throws, anything malformed is `invalid`. */
export function classifyMmsi(mmsi: number): MmsiClass {
  if (!Number.isInteger(mmsi) || mmsi < 1 || mmsi > 999_999_999) return INVALID;
  const d1 = Math.floor(mmsi / 100_000_000);
  const d2 = Math.floor(mmsi / 10_000_000) % 10;
  switch (d1) {
    case 0:
      return d2 === 0 ? withMid('coast_station', digitsAt(mmsi, 2)) : withMid('group', digitsAt(mmsi, 1));
    case 1:
      return digitsAt(mmsi, 0) === 111 ? withMid('sar_aircraft', digitsAt(mmsi, 3)) : INVALID;
    case 8:
      return withMid('handheld_vhf', digitsAt(mmsi, 1));
    case 9: {
      if (d2 === 9) return withMid('aid_to_navigation', digitsAt(mmsi, 2));
      if (d2 === 8) return withMid('auxiliary_craft', digitsAt(mmsi, 2));
      const prefix = digitsAt(mmsi, 0);
      if (prefix === 970) return NO_MID.sart;
      if (prefix === 972) return NO_MID.mob;
      if (prefix === 974) return NO_MID.epirb;
      return INVALID;
    }
    default: // 2..7: a ship station, MID first
      return withMid('ship', d1 * 100 + d2 * 10 + (Math.floor(mmsi / 1_000_000) % 10));
  }
}

/**
 * Input validation: an integer 1..999999999, or a string of exactly nine digits (leading zeros
 * as written, e.g. "002320001") that is not all zeros. Says nothing about the MID; use
 * classifyMmsi for that.
 */
export function isValidMmsi(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 && value <= 999_999_999;
  if (typeof value === 'string') return /^\d{9}$/.test(value) && value !== '000000000';
  return false;
}

/** The nine-digit text form of an MMSI, zero-padded (coast stations and groups lead with 0). */
export function formatMmsi(mmsi: number): string {
  if (!isValidMmsi(mmsi)) throw new RangeError(`not an MMSI: ${mmsi}`);
  return String(mmsi).padStart(9, '0');
}
