// How port data reads on the ports pages.
import { capitalise } from '../../app/format.ts';

const HARBOUR_SIZES: Record<string, string> = { large: 'Large', medium: 'Medium', small: 'Small', very_small: 'Very small' };

export function harbourSizeText(size: string | null | undefined): string {
  return size ? HARBOUR_SIZES[size] ?? size : 'Unknown';
}

/** `coastal_natural` → `Coastal natural`. */
export function words(value: string | null | undefined): string {
  return value ? capitalise(value.replace(/_/g, ' ')) : '–';
}

/** `6 h 10 min`, `45 min`, `2 d 3 h`. */
export function formatDuration(minutes: number): string {
  const total = Math.round(minutes);
  if (total < 60) return `${total} min`;
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const rest = total % 60;
  if (days > 0) return hours ? `${days} d ${hours} h` : `${days} d`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

export const FACTOR_LABELS: Record<string, string> = {
  wind: 'Mean wind',
  gust: 'Gusts',
  waves: 'Significant wave height',
  visibility: 'Visibility',
};

/** A weather value with its unit: visibility is a minimum (below the limit holds), the others maxima. */
export function formatFactor(factor: string, value: number, unit: string): string {
  const shown = unit === 'm' && factor === 'visibility' ? Math.round(value).toLocaleString('en') : Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${shown} ${unit}`;
}

/** The height of tide a draught needs over the datum: required depth less charted depth. */
export function neededTideHeight(requiredDepth: number, chartedDepth: number): number {
  return Math.round((requiredDepth - chartedDepth) * 1000) / 1000;
}
