// Public surface of the AIS simulator (the embedded default data source).
export { createAisSimulator } from './simulator.ts';
export type {
  AisSimulator,
  AisSimulatorErrorCode,
  AisSimulatorOptions,
  AisSimulatorResult,
  SimulatedLeg,
  SimulatedReport,
  SimulatedVessel,
} from './simulator.ts';
export { positionIntervalMs, rotCode, STATIC_INTERVAL_MS } from './reports.ts';
export { simulatorPorts } from './ports.ts';
export type { SimPort } from './ports.ts';
