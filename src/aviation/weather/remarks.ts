// Remarks that matter for landing. PK WND and WSHFT come from metar-taf-parser's remark
// decoder; LLWS is not one of its remarks, so it is found here.
import { RemarkType } from 'metar-taf-parser';
import type { Remark } from 'metar-taf-parser';
import type { PeakWind, RemarksOfInterest, WindShift } from './types.ts';

const LLWS_PATTERN = /\bLLWS\b(?:\s+(?:RWY|ALL|TKOF|LDG|APCH|DEP|ARR|R?\d{2}[LCR]?))*/;

export function remarksOfInterest(raw: string | null, decoded: readonly Remark[], observationHour: number): RemarksOfInterest {
  let peakWind: PeakWind | null = null;
  let windShift: WindShift | null = null;
  const descriptions: string[] = [];
  for (const remark of decoded) {
    if (remark.type === RemarkType.WindPeak && peakWind === null) {
      peakWind = {
        direction_deg: remark.degrees,
        speed_kt: remark.speed,
        time: clock(remark.startHour ?? observationHour, remark.startMinute),
        raw: remark.raw,
      };
    }
    if ((remark.type === RemarkType.WindShift || remark.type === RemarkType.WindShiftFropa) && windShift === null) {
      windShift = {
        time: clock(remark.startHour ?? observationHour, remark.startMinute),
        frontal_passage: remark.type === RemarkType.WindShiftFropa,
        raw: remark.raw,
      };
    }
    if (remark.type !== RemarkType.Unknown && remark.description !== undefined) descriptions.push(remark.description);
  }
  return {
    raw,
    peak_wind: peakWind,
    wind_shift: windShift,
    low_level_wind_shear: findLowLevelWindShear(raw),
    decoded: descriptions,
  };
}

export function findLowLevelWindShear(text: string | null): string | null {
  if (text === null) return null;
  return LLWS_PATTERN.exec(text)?.[0] ?? null;
}

function clock(hour: number, minute: number): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}
