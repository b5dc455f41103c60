// Public surface of the settings machinery: rows, tables, loading, and the shared parsers.
export { ConfigError, loadSettings, setting } from './setting.ts';
export type { Parse, Setting, SettingsOf, SettingsTable } from './setting.ts';
export { baseUrl, boolean, fraction, integer, optionalText, requiredBaseUrl, requiredUrl, simulatorSwitch, text, url } from './parsers.ts';
export type { SimulatorSwitch } from './parsers.ts';
