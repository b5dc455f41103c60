// The intelligence engine's rows of the configuration table: how often the timed rules look again,
// and when a source an organisation depends on counts as stale (`feed.stale`). A leaf: the settings
// are read by every command that takes them, without loading the feature.
import { integer, setting, type SettingsOf } from '../platform/config/index.ts';

export const INTELLIGENCE_SETTINGS = [
  setting({ key: 'watchIntervalSec', env: 'LAMIS_WATCH_INTERVAL_SEC', flag: 'watch-interval-sec', shown: '900', defaultValue: 900,
    parse: integer(1, 86_400), description: 'Seconds between evaluations of every watched airport and port (NOTAMs coming into force, the port forecast moving on); an airport is also evaluated whenever its METAR, TAF or NOTAMs are stored' }),
  setting({ key: 'predictionIntervalSec', env: 'LAMIS_PREDICTION_INTERVAL_SEC', flag: 'prediction-interval-sec', shown: '300', defaultValue: 300,
    parse: integer(1, 86_400), description: 'Seconds between evaluations of each fleet vessel\'s arrival prediction (ETA delay, weather hold and tide at its destination), spread over the period; a vessel is also evaluated when its AIS voyage data changes' }),
  setting({ key: 'feedCheckIntervalSec', env: 'LAMIS_FEED_CHECK_INTERVAL_SEC', flag: 'feed-check-interval-sec', shown: '60', defaultValue: 60,
    parse: integer(1, 3_600), description: 'Seconds between checks of the sources organisations depend on (`feed.stale`)' }),
  setting({ key: 'feedStaleAisSec', env: 'LAMIS_FEED_STALE_AIS_SEC', flag: 'feed-stale-ais-sec', shown: '300', defaultValue: 300,
    parse: integer(1, 86_400), description: 'An AIS feed (the simulator included) that has received nothing for this many seconds, or is failing or reconnecting as long, is stale' }),
  setting({ key: 'feedStaleMetarMinutes', env: 'LAMIS_FEED_STALE_METAR_MINUTES', flag: 'feed-stale-metar-minutes', shown: '90', defaultValue: 90,
    parse: integer(1, 10_080), description: 'The METAR source is stale for an organisation when no airport it watches has a METAR observed within this many minutes (routine METARs are hourly)' }),
  setting({ key: 'feedStaleNotamMinutes', env: 'LAMIS_FEED_STALE_NOTAM_MINUTES', flag: 'feed-stale-notam-minutes', shown: '60', defaultValue: 60,
    parse: integer(1, 10_080), description: 'The NOTAM source is stale for an organisation when no airport it watches had its NOTAMs fetched within this many minutes' }),
] as const;

export type IntelligenceSettings = SettingsOf<typeof INTELLIGENCE_SETTINGS>;
