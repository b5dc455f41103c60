// The aviation feature's rows of the configuration table: the reference data cache, the METAR/TAF
// and NOTAM sources and their simulators, and the slots' fair share. A leaf: the settings are read
// by every command that takes them, without loading the feature.
import { fraction, optionalText, requiredUrl, setting, simulatorSwitch, url, type SettingsOf } from '../platform/config/index.ts';

export const FAA_NOTAM_DEFAULT_BASE_URL = 'https://external-api.faa.gov/notamapi/v1';

export const AVIATION_SETTINGS = [
  setting({ key: 'referenceCacheDir', env: 'LAMIS_REFERENCE_CACHE_DIR', flag: 'reference-cache-dir', shown: '(data folder)/reference',
    defaultValue: undefined, parse: optionalText,
    description: 'Folder for reference data compiled at first start (airports and runways, from the airport package and the OurAirports file); safe to share between instances' }),
  setting({ key: 'aviationSimulators', env: 'AVIATION_SIMULATORS', flag: 'aviation-simulators', shown: 'auto', defaultValue: 'auto',
    parse: simulatorSwitch,
    description: 'METAR/TAF and NOTAM simulators (labelled `simulated`): auto runs each when its live source is not configured; on or off force them' }),
  setting({ key: 'awcBaseUrl', env: 'AWC_BASE_URL', flag: 'awc-base-url', shown: '(unset: no live METAR/TAF)', defaultValue: undefined,
    parse: url(['https:', 'http:']),
    description: 'aviationweather.gov Data API base URL (e.g. https://aviationweather.gov); when set, METAR and TAF come from it' }),
  setting({ key: 'faaNotamBaseUrl', env: 'FAA_NOTAM_BASE_URL', flag: 'faa-notam-base-url', shown: FAA_NOTAM_DEFAULT_BASE_URL,
    defaultValue: FAA_NOTAM_DEFAULT_BASE_URL, parse: requiredUrl(['https:', 'http:']),
    description: 'FAA NOTAM API base URL, used when its client id and secret are set' }),
  setting({ key: 'faaNotamClientId', env: 'FAA_NOTAM_CLIENT_ID', flag: 'faa-notam-client-id', shown: '(unset: no live NOTAMs)',
    defaultValue: undefined, parse: optionalText, description: 'FAA NOTAM API `client_id`' }),
  setting({ key: 'faaNotamClientSecret', env: 'FAA_NOTAM_CLIENT_SECRET', flag: 'faa-notam-client-secret', shown: '(unset)',
    defaultValue: undefined, parse: optionalText, description: 'FAA NOTAM API `client_secret`' }),
  setting({ key: 'slotFairShare', env: 'LAMIS_SLOT_FAIR_SHARE', flag: 'slot-fair-share', shown: '0.5', defaultValue: 0.5, parse: fraction,
    description: 'The most of an airport hour\'s arrival slots one organisation may hold, as a fraction of its capacity (rounded down, at least one); `lamis org set-slot-share` grants an organisation another' }),
] as const;

export type AviationSettings = SettingsOf<typeof AVIATION_SETTINGS>;
