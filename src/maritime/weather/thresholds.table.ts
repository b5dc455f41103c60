// The rows of `port_weather_thresholds` (0012_port_weather): one per owner and port.

export interface PortWeatherThresholdsRow {
  owner: string;
  /** The port id as the port index gives it (upper case). */
  port_id: string;
  wind_kn: number | null;
  gust_kn: number | null;
  wave_height_m: number | null;
  visibility_m: number | null;
  updated_at: string;
}

declare module '../../platform/db/database.ts' {
  interface Tables {
    port_weather_thresholds: PortWeatherThresholdsRow;
  }
}
