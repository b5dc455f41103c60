// The aviation data endpoints under /v3/aviation: airports and runways, aircraft types, METAR and
// TAF, NOTAMs and arrival slots. Each group lives in its own api-*.ts file.
import type { App } from '../platform/http/app.ts';
import { registerNotamRoutes } from './api-notams.ts';
import { registerReferenceRoutes } from './api-reference.ts';
import { registerSlotRoutes } from './api-slots.ts';
import { registerWeatherRoutes } from './api-weather.ts';
import type { AviationServices } from './services.ts';

export function registerAviationRoutes(app: App, services: AviationServices): void {
  registerReferenceRoutes(app, services);
  registerWeatherRoutes(app, services);
  registerNotamRoutes(app, services);
  registerSlotRoutes(app, services);
}
