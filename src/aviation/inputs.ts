// The aviation inputs topic: an airport's METAR, TAF or NOTAMs were stored (an operator's push, a
// simulator's or a live source's refresh), or its arrival slots changed (a booking, a cancellation,
// a capacity set), so whatever depends on that airport's landing answer may want to look again. It
// says what changed, never the report itself.
import { topic } from '../platform/bus/index.ts';

export interface AviationInput {
  icao: string;
  kind: 'metar' | 'taf' | 'notam' | 'slots';
}

export const aviationInputs = topic<AviationInput>('aviation.inputs');
