// The rows of `weather_reports` (0002_weather_reports): one per report and source.

export type ReportKind = 'metar' | 'taf';
export type ReportSource = 'live' | 'simulated' | 'operator';

export interface WeatherReportsTable {
  icao: string;
  kind: ReportKind;
  source: ReportSource;
  /** ISO 8601 UTC with milliseconds, so text order is time order: observation (METAR) or issue (TAF) time. */
  observed_at: string;
  /** When this report last came in from its source (the same report again moves it on). */
  received_at: string;
  raw: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    weather_reports: WeatherReportsTable;
  }
}
