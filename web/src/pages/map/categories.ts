// Vessel categories as the stream names them (the AIS ship type's category), with the colour and
// label the map and its legend use. Colours follow the usual chart-plotter habit: cargo green,
// tankers red, passenger ships blue, fishing orange, service craft teal, leisure craft violet.
import type { PositionUpdate } from '@lamis/sdk';

export type VesselCategory = PositionUpdate['vessel_type'];

export interface CategoryStyle {
  category: VesselCategory;
  label: string;
  colour: string;
}

export const CATEGORIES: readonly CategoryStyle[] = [
  { category: 'CARGO', label: 'Cargo', colour: '#2e9d4f' },
  { category: 'TANKER', label: 'Tanker', colour: '#d63a3a' },
  { category: 'PASSENGER', label: 'Passenger', colour: '#2f6fdb' },
  { category: 'HSC', label: 'High-speed craft', colour: '#e3b50b' },
  { category: 'FISHING', label: 'Fishing', colour: '#ee8a2c' },
  { category: 'TUG', label: 'Tug', colour: '#14a3a0' },
  { category: 'PILOT', label: 'Pilot', colour: '#0d7f8c' },
  { category: 'SAR', label: 'Search and rescue', colour: '#f05a9a' },
  { category: 'DREDGING', label: 'Dredging', colour: '#7b8c2c' },
  { category: 'DIVING', label: 'Diving', colour: '#4aa5c8' },
  { category: 'SPECIAL', label: 'Special craft', colour: '#5b8f86' },
  { category: 'PLEASURE', label: 'Pleasure craft', colour: '#a04ad0' },
  { category: 'SAILING', label: 'Sailing', colour: '#c77fe0' },
  { category: 'MILITARY', label: 'Military', colour: '#4c5563' },
  { category: 'LAW_ENFORCEMENT', label: 'Law enforcement', colour: '#23336b' },
  { category: 'WIG', label: 'Wing in ground', colour: '#8a6d3b' },
  { category: 'OTHER', label: 'Other or unknown', colour: '#8f969e' },
];

const BY_CATEGORY = new Map(CATEGORIES.map((style) => [style.category, style]));

export function categoryStyle(category: string | null | undefined): CategoryStyle {
  return BY_CATEGORY.get(category as VesselCategory) ?? BY_CATEGORY.get('OTHER')!;
}
