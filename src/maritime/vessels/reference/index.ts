// Public surface of the vessel reference data: flags (MID), MMSI and IMO identities, ship types.
export { MID_TABLE, midInfo, midsForFlag } from './mid.ts';
export type { MidInfo } from './mid.ts';
export { MMSI_KINDS, classifyMmsi, formatMmsi, isValidMmsi } from './mmsi.ts';
export type { MmsiClass, MmsiFlag, MmsiKind } from './mmsi.ts';
export { imoCheckDigit, imoFromPrefix, isValidImo } from './imo.ts';
export { VESSEL_CATEGORIES, categoryForShipType, hazardCategoryForShipType, isVesselCategory } from './ship-types.ts';
export type { HazardCategory, VesselCategory } from './ship-types.ts';
