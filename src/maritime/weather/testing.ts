// Test support: a loopback HTTP server answering as Open-Meteo's forecast and marine APIs do, in
// their JSON shape (`hourly_units`, parallel `hourly` arrays, Unix times with timeformat=unixtime, a
// list of locations for several coordinates, `{"error": true, "reason": …}` with 400), with values
// that are a known function of the location and hour so tests can check what came through.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const HOUR_S = 3600;

/** The values the replay gives for a location and Unix hour. */
export function replayValues(lat: number, lon: number, unixHour: number) {
  const step = (unixHour / HOUR_S) % 24;
  const wind = Math.round((10 + step + Math.abs(lat) / 10) * 10) / 10;
  return {
    wind_speed_10m: wind,
    wind_direction_10m: Math.round((200 + lon * 3 + step * 5 + 360) % 360),
    // Open-Meteo's gust is the hour's highest and may read below the mean wind in calm hours.
    wind_gusts_10m: step === 3 ? wind - 1 : Math.round(wind * 1.4 * 10) / 10,
    visibility: step === 5 ? 400 : 24_140,
    // Points west of 0° are "on land" for the wave model here: it answers null there.
    wave_height: lon < 0 ? null : Math.round((0.5 + step * 0.1) * 100) / 100,
    wave_direction: lon < 0 ? null : 250,
  };
}

export type ReplayBehaviour =
  | { kind: 'normal'; windUnit?: 'kn' | 'km/h' }
  | { kind: 'error'; status: number; reason: string; retryAfter?: string }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'garbage' };

export interface OpenMeteoReplay {
  url: string;
  /** Every request received, in order, with the time it arrived. */
  requests: { url: URL; at: number }[];
  behave(behaviour: ReplayBehaviour): void;
  close(): Promise<void>;
}

export async function startOpenMeteoReplay(): Promise<OpenMeteoReplay> {
  let behaviour: ReplayBehaviour = { kind: 'normal' };
  const requests: { url: URL; at: number }[] = [];

  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://replay');
    requests.push({ url, at: Date.now() });
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      response.end(body);
    };
    if (behaviour.kind === 'error') {
      send(behaviour.status, JSON.stringify({ error: true, reason: behaviour.reason }), behaviour.retryAfter ? { 'retry-after': behaviour.retryAfter } : {});
      return;
    }
    if (behaviour.kind === 'garbage') {
      send(200, '<html>Bad gateway</html>');
      return;
    }
    const marine = url.pathname === '/v1/marine';
    if (!marine && url.pathname !== '/v1/forecast') {
      send(404, JSON.stringify({ error: true, reason: 'Not Found' }));
      return;
    }
    const lats = (url.searchParams.get('latitude') ?? '').split(',').map(Number);
    const lons = (url.searchParams.get('longitude') ?? '').split(',').map(Number);
    if (lats.length !== lons.length || lats.some((lat) => !Number.isFinite(lat) || Math.abs(lat) > 90)) {
      send(400, JSON.stringify({ error: true, reason: 'Latitude must be in range of -90 to 90°. Given: 95.0.' }));
      return;
    }
    const start = Date.parse(`${url.searchParams.get('start_date')}T00:00:00Z`) / 1000;
    const end = Date.parse(`${url.searchParams.get('end_date')}T23:00:00Z`) / 1000;
    const times: number[] = [];
    for (let time = start; time <= end; time += HOUR_S) times.push(time);
    const windUnit = behaviour.kind === 'normal' ? behaviour.windUnit ?? 'kn' : 'kn';
    const speedFactor = windUnit === 'km/h' ? 1.852 : 1;
    const variables = marine ? ['wave_height', 'wave_direction'] : ['wind_speed_10m', 'wind_direction_10m', 'wind_gusts_10m', 'visibility'];
    const units: Record<string, string> = marine
      ? { time: 'unixtime', wave_height: 'm', wave_direction: '°' }
      : { time: 'unixtime', wind_speed_10m: windUnit, wind_direction_10m: '°', wind_gusts_10m: windUnit, visibility: 'm' };
    const locations = lats.map((lat, i) => {
      const lon = lons[i]!;
      const hourly: Record<string, unknown[]> = { time: times };
      for (const variable of variables) {
        hourly[variable] = times.map((time) => {
          const value = replayValues(lat, lon, time)[variable as keyof ReturnType<typeof replayValues>];
          return typeof value === 'number' && variable.startsWith('wind_') && variable !== 'wind_direction_10m'
            ? Math.round(value * speedFactor * 10) / 10
            : value;
        });
      }
      return {
        // The grid point nearest the location, as Open-Meteo answers.
        latitude: Math.round(lat * 4) / 4,
        longitude: Math.round(lon * 4) / 4,
        generationtime_ms: 0.2,
        utc_offset_seconds: 0,
        timezone: 'GMT',
        timezone_abbreviation: 'GMT',
        elevation: marine ? 0 : 2,
        ...(lats.length > 1 ? { location_id: i } : {}),
        hourly_units: units,
        hourly,
      };
    });
    const body = JSON.stringify(locations.length === 1 ? locations[0] : locations);
    if (behaviour.kind === 'slow') setTimeout(() => send(200, body), behaviour.delayMs).unref();
    else send(200, body);
  };

  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    behave(next) {
      behaviour = next;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
