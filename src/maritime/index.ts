// What other features may use of maritime: checking MMSI and IMO numbers.
export { classifyMmsi, isValidImo, isValidMmsi } from './vessels/reference/index.ts';
