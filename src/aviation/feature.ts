// The aviation feature: airports and runways in memory, METAR/TAF and NOTAMs from their live
// sources or simulators (plus what operators push), slots, and the landing bundle over REST.
import path from 'node:path';
import { OrganisationGrants } from '../accounts/index.ts';
import type { SimulatorSwitch } from '../platform/config/index.ts';
import type { Feature } from '../platform/feature.ts';
import type { PlatformSettings } from '../platform/settings.ts';
import { AwcClient } from './feeds/awc.ts';
import { FaaNotamClient } from './feeds/faa-notams.ts';
import { simulatedNotamProvider } from './feeds/notam-simulator.ts';
// The routes in the order their named schemas appear in the OpenAPI document.
import { registerAirportRoutes } from './reference/airports.routes.ts';
import { registerAircraftTypeRoutes } from './reference/aircraft-types.routes.ts';
import { registerNotamRoutes } from './notams/notams.routes.ts';
import { registerSlotRoutes } from './landing/slots.routes.ts';
import { registerWeatherRoutes } from './weather/weather.routes.ts';
import { registerLandingRoutes } from './landing/landing.routes.ts';
import { LandingInputs } from './landing/inputs.ts';
import { SlotBook } from './landing/slots.ts';
import type { LandingWatch } from './landing/watch.ts';
import { aviationInputs, type AviationInput } from './inputs.ts';
import { NavData, withNavData } from './navdata/navdata.ts';
import { NotamStore } from './notams/store.ts';
import { airportsOnceLoaded, loadAirports } from './reference/airports.ts';
import type { AviationServices, FleetProfiles, InputSource } from './services.ts';
import { awcProvider, simulatorProvider, WeatherReports } from './weather/reports.ts';
import type { AviationSettings } from './settings.ts';

/** Live when configured (unless simulators are forced on), else simulated unless switched off. */
function sourceFor(live: boolean, simulators: SimulatorSwitch): InputSource {
  if (simulators === 'on') return 'simulated';
  if (live) return 'live';
  return simulators === 'auto' ? 'simulated' : 'operator_only';
}

/**
 * `fleet`: the callers' fleets, whose vehicles bring their own landing figures; `watch`: where
 * watchers outside a request get their landing answers, attached to this feature's services.
 * Every stored METAR, TAF and NOTAM, and every change of an airport's slots, is applied at once to
 * the inputs this instance holds in memory and announced on `aviation.inputs`, whence the other
 * instances apply it to theirs.
 */
export const aviation = (fleet: FleetProfiles, watch: LandingWatch): Feature<PlatformSettings & AviationSettings> => async ({ app, config, database, bus, readiness, reference, logger }) => {
  const log = logger.child({ feature: 'aviation' });
  const { navdata, load: navdataLoad } = await NavData.load(config.dataDir);
  if (navdataLoad.status === 'unreadable') log.warn({ file: navdataLoad.file, error: navdataLoad.error }, 'navigation data unreadable: ILS unknown everywhere');
  else log.info({ navdata: navdataLoad.status, airports: navdata.airports, cycle: navdata.meta?.cycle }, 'navigation data');
  // The airport index loads after the start (reference-data.ts): the aviation routes and the
  // landing endpoint wait for it; anything else that reads it meanwhile gets a 503.
  const closing = new AbortController();
  const airportData = reference.load('airports', ['/v3/aviation/', '/v3/intelligence/landing'], async () => {
    const loaded = await loadAirports({ cacheDir: config.referenceCacheDir ?? path.join(config.dataDir, 'reference'), dataDir: config.dataDir }, closing.signal);
    log.info({ airports: loaded.meta.airports, runways: loaded.meta.runways, cache: loaded.cache.status, ourairports: loaded.cache.ourairports }, 'airport data loaded');
    return withNavData(loaded, navdata);
  });
  airportData.loaded.catch((error: Error) => {
    if (!closing.signal.aborted) log.error({ err: error }, 'airport data could not be loaded: airport and landing requests answer 503');
  });
  const airports = airportsOnceLoaded(airportData);
  const airportOf = (icao: string) => airports.get(icao) ?? undefined;

  // Assigned below, before anything can be stored.
  let inputs: LandingInputs;
  const announce = (input: AviationInput) => {
    inputs.changed(input);
    return bus.publish(aviationInputs, input);
  };
  const weatherSource = sourceFor(config.awcBaseUrl !== undefined, config.aviationSimulators);
  const weather = new WeatherReports(database, {
    onStored: (icao, kind) => announce({ icao, kind }),
    provider: weatherSource === 'live' ? awcProvider(new AwcClient({ baseUrl: config.awcBaseUrl, logger: log }))
      : weatherSource === 'simulated' ? simulatorProvider(airportOf) : null,
  });

  const faaConfigured = config.faaNotamClientId !== undefined && config.faaNotamClientSecret !== undefined;
  const notamSource = sourceFor(faaConfigured, config.aviationSimulators);
  const notams = new NotamStore(database, {
    onStored: (icao) => announce({ icao, kind: 'notam' }),
    providers: notamSource === 'live'
      ? [new FaaNotamClient({ clientId: config.faaNotamClientId!, clientSecret: config.faaNotamClientSecret!, baseUrl: config.faaNotamBaseUrl, logger: log })]
      : notamSource === 'simulated'
        ? [simulatedNotamProvider((icao) => {
          const airport = airportOf(icao);
          return airport && { ...airport, runways: airport.runways.map((r) => ({ ends: r.ends.map((e) => ({ ident: e.ident })) })) };
        }, 1)]
        : [],
  });

  const slots = new SlotBook(database, Date.now, (icao) => announce({ icao, kind: 'slots' }));
  inputs = new LandingInputs({ weather, notams, slots });
  const unsubscribe = await bus.subscribe(aviationInputs, (input) => inputs.changed(input));

  const grants = new OrganisationGrants(database);
  const services: AviationServices = {
    airports,
    navdata,
    weather,
    notams,
    slots,
    inputs,
    fleet,
    sources: { weather: weatherSource, notams: notamSource },
    slotShareOf: async (orgId) => (await grants.of(orgId)).slot_share ?? config.slotFairShare,
  };
  watch.attach(services, airportData.loaded);
  registerAirportRoutes(app, services);
  registerAircraftTypeRoutes(app);
  registerWeatherRoutes(app, services);
  registerNotamRoutes(app, services);
  registerSlotRoutes(app, services);
  registerLandingRoutes(app, services);

  readiness.register('aviation', async () => {
    // Counted once loaded; the load itself is reported under reference_data.
    const meta = airportData.current?.meta;
    return {
      state: 'up',
      detail: { airports: meta?.airports ?? null, runways: meta?.runways ?? null, ils_airports: navdata.airports, weather: weatherSource, notams: notamSource },
    };
  });
  app.addHook('onClose', async () => {
    closing.abort();
    await unsubscribe();
    await Promise.all([weather.idle(), notams.idle()]);
  });
};
