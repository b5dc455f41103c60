// What the service and other features may use of maritime: the feature, its `lamis` commands (with
// the port data `lamis import` and `lamis data sync` take) and
// the feed a recorded file gives (`lamis replay`), its migrations, checking MMSI and IMO numbers,
// the vessel categories (zones watch other vessels by them), and for the intelligence engine the
// topics of vessel changes (and how to take each once) and port calls and the maritime answers it watches with (a fleet
// vessel's voyage among them).
export { maritime, vesselChanges } from './feature.ts';
export { withoutRepeats, type PublishedChange } from './vessels/repeats.ts';
export { HeldChanges } from './vessels/held-changes.ts';
export { portCallEvents } from './ports/service.ts';
export type { PortCall, PortCallEvent } from './ports/calls.ts';
export type { Port } from './ports/model.ts';
export { MaritimeWatch, type PortHolds } from './watch.ts';
export type { Missing, WatchedVoyage } from './voyage.ts';
export type { Change as VesselChange, Vessel, VesselPosition } from './vessels/store.ts';
export { WeatherUnavailableError } from './weather/index.ts';
export { decodeCommand } from './ais/decode.command.ts';
export { PORT_IMPORTERS, PORT_SYNC_SOURCES } from './ports/port-data.ts';
export type { FileFeedSpec } from './feeds/index.ts';
export { maritimeMigrations } from './migrations/index.ts';
export { classifyMmsi, isValidImo, isValidMmsi, VESSEL_CATEGORIES } from './vessels/reference/index.ts';
export type { VesselCategory } from './vessels/reference/index.ts';
