// The API shapes the landing pages read, by the names the SDK gives them (generated from the
// server's OpenAPI document), never second definitions.
import type { LandingIntelligence } from '@lamis/sdk';

export type {
  Airport,
  AirportSummary,
  LandingIntelligence as LandingBundle,
  LandingRequest,
  Metar as DecodedMetar,
  MetarReport,
  NotamSummary as LandingNotam,
  RecommendedRunway,
  Runway,
  RunwayEnd,
  SafetyFactor,
  WeatherPhenomenon,
  Wind as MetarWind,
} from '@lamis/sdk';

export type FlightCategory = NonNullable<LandingIntelligence['weather']['flight_category']>;
export type WindShearRisk = NonNullable<LandingIntelligence['weather']['wind_shear_risk']>;
