// The API shapes the landing pages read: views of the types generated from the server's OpenAPI
// document, never second definitions.
import type { Operations } from '@lamis/sdk';

export type LandingBundle = Operations['POST /v3/intelligence/landing']['response'];
export type LandingRequest = Operations['POST /v3/intelligence/landing']['body'];
export type LandingNotam = LandingBundle['notams'][number];
export type SafetyFactor = LandingBundle['safety_factors'][number];

export type MetarReport = Operations['GET /v3/aviation/airports/{icao}/metar']['response'];
export type DecodedMetar = NonNullable<MetarReport['decoded']>;
export type MetarWind = NonNullable<DecodedMetar['wind']>;
export type WeatherPhenomenon = DecodedMetar['weather'][number];

export type Airport = Operations['GET /v3/aviation/airports/{icao}']['response'];
export type AirportSummary = Operations['GET /v3/aviation/airports']['response']['data'][number];

export type FlightCategory = NonNullable<LandingBundle['weather']['flight_category']>;
export type WindShearRisk = NonNullable<LandingBundle['weather']['wind_shear_risk']>;
