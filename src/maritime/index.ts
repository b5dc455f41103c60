// What the service and other features may use of maritime: the feature, its `lamis` commands and
// the feed a recorded file gives (`lamis replay`), its migrations, checking MMSI and IMO numbers,
// and the vessel categories (zones narrow what they watch by them).
export { maritime } from './feature.ts';
export { decodeCommand } from './ais/decode.command.ts';
export { dataCommand, importCommand } from './ports/port-data.command.ts';
export type { FileFeedSpec } from './feeds/index.ts';
export { maritimeMigrations } from './migrations/index.ts';
export { classifyMmsi, isValidImo, isValidMmsi, VESSEL_CATEGORIES } from './vessels/reference/index.ts';
export type { VesselCategory } from './vessels/reference/index.ts';
