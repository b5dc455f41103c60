// What the service and other features may use of maritime: the feature, its `lamis` commands and
// the feed a recorded file gives (`lamis replay`), its migrations, and checking MMSI and IMO numbers.
export { maritime } from './feature.ts';
export { decodeCommand } from './ais/decode.command.ts';
export { dataCommand, importCommand } from './ports/port-data.command.ts';
export type { FileFeedSpec } from './feeds/index.ts';
export { maritimeMigrations } from './migrations/index.ts';
export { classifyMmsi, isValidImo, isValidMmsi } from './vessels/reference/index.ts';
