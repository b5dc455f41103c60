// The shapes of ports as served (snake_case, straight into API responses), of the entries each
// source contributes before they are merged, and of the search over them.
//
// Depths, tidal range and vessel limits come from the NGA World Port Index only, in metres, as the
// monthly "UpdatedPub150" CSV gives them. Many of its depths are the lower edges of the older
// five-foot bands converted to metres (11.0 m is 36 ft, the band "36-40 ft"), so read a depth as
// "at least". The CSV writes 0 for unknown: that becomes null here, as does a blank.

import type { PlaceSearch, SearchHit, SearchPage } from '../../platform/geo/place-index.ts';

/** Where a field's value came from. */
export type PortSource = 'sea-ports' | 'wpi' | 'unlocode';
export const PORT_SOURCES: readonly PortSource[] = ['sea-ports', 'wpi', 'unlocode'];

export type HarbourSize = 'large' | 'medium' | 'small' | 'very_small';
export const HARBOUR_SIZES: readonly HarbourSize[] = ['large', 'medium', 'small', 'very_small'];

/** How well the harbour is sheltered from wind and sea (WPI "Shelter Afforded"). */
export type Shelter = 'excellent' | 'good' | 'fair' | 'poor' | 'none';
export const SHELTERS: readonly Shelter[] = ['excellent', 'good', 'fair', 'poor', 'none'];

export type HarbourType =
  | 'coastal_natural'
  | 'coastal_breakwater'
  | 'coastal_tide_gates'
  | 'river_natural'
  | 'river_basins'
  | 'river_tide_gates'
  | 'canal_or_lake'
  | 'open_roadstead'
  | 'typhoon_harbour';
export const HARBOUR_TYPES: readonly HarbourType[] = [
  'coastal_natural', 'coastal_breakwater', 'coastal_tide_gates', 'river_natural', 'river_basins', 'river_tide_gates',
  'canal_or_lake', 'open_roadstead', 'typhoon_harbour',
];

/**
 * Radius of the approach area by harbour size: the base of the port's area (areas.ts). Larger
 * ports spread their anchorages and pilot stations further out. LAMIS's own choice, not a source's.
 */
export const APPROACH_RADIUS_NM: Readonly<Record<HarbourSize | 'unknown', number>> = {
  large: 10,
  medium: 6,
  small: 4,
  very_small: 2,
  unknown: 3,
};

/** Whether the WPI lists the condition as restricting the entrance; null where it says "Unknown". */
export type EntranceRestrictions = {
  readonly tide: boolean | null;
  readonly swell: boolean | null;
  readonly ice: boolean | null;
  readonly other: boolean | null;
};

export type AlternateName = { readonly name: string; readonly source: PortSource };

export type Port = {
  /** The UN/LOCODE when the port has one to itself, else `WPI-<number>` ("WPI-7950", "WPI-9510.1"). */
  readonly id: string;
  /** Five characters without the space ("NLRTM"). */
  readonly unlocode: string | null;
  /** Mostly whole; a few ports inserted between two numbers have a fraction (9510.1). */
  readonly wpi_number: number | null;
  readonly name: string;
  /** Other names the sources give, each with its source. */
  readonly alternate_names: readonly AlternateName[];
  /** ISO 3166-1 alpha-2; null when a WPI country name is not one LAMIS knows. */
  readonly country: string | null;
  readonly lat: number;
  readonly lon: number;
  /** IANA time zone (sea-ports only). */
  readonly timezone: string | null;
  readonly harbour_size: HarbourSize | null;
  readonly harbour_type: HarbourType | null;
  readonly shelter: Shelter | null;
  readonly channel_depth_m: number | null;
  readonly anchorage_depth_m: number | null;
  readonly cargo_pier_depth_m: number | null;
  readonly oil_terminal_depth_m: number | null;
  readonly tidal_range_m: number | null;
  readonly max_vessel_length_m: number | null;
  readonly max_vessel_beam_m: number | null;
  readonly max_vessel_draught_m: number | null;
  readonly entrance_restrictions: EntranceRestrictions | null;
  /** Centred on the port position. */
  readonly approach_area: { readonly kind: 'circle'; readonly radius_nm: number };
  /** The source of each field that has a value (alternate names carry their own). */
  readonly sources: Readonly<Record<string, PortSource>>;
};

/** A port as the sea-ports package describes it. */
export type SeaPortEntry = {
  readonly unlocode: string;
  readonly name: string;
  readonly alternate_names: readonly string[];
  readonly country: string;
  readonly lat: number;
  readonly lon: number;
  readonly timezone: string | null;
};

/** A row of the World Port Index. */
export type WpiEntry = {
  readonly wpi_number: number;
  readonly unlocode: string | null;
  readonly name: string;
  readonly alternate_names: readonly string[];
  readonly country: string | null;
  readonly lat: number;
  readonly lon: number;
  readonly harbour_size: HarbourSize | null;
  readonly harbour_type: HarbourType | null;
  readonly shelter: Shelter | null;
  readonly channel_depth_m: number | null;
  readonly anchorage_depth_m: number | null;
  readonly cargo_pier_depth_m: number | null;
  readonly oil_terminal_depth_m: number | null;
  readonly tidal_range_m: number | null;
  readonly max_vessel_length_m: number | null;
  readonly max_vessel_beam_m: number | null;
  readonly max_vessel_draught_m: number | null;
  readonly entrance_restrictions: EntranceRestrictions;
};

/** A location of the UN/LOCODE code list with the port function and coordinates. */
export type UnlocodeEntry = {
  readonly unlocode: string;
  readonly name: string;
  /** The name without diacritics, when it differs from `name`. */
  readonly name_ascii: string | null;
  readonly country: string;
  readonly subdivision: string | null;
  /** Two-letter status code ("AI", "RL", ...). */
  readonly status: string;
  /** Minute resolution, as the list gives them. */
  readonly lat: number;
  readonly lon: number;
};

/** A line of an imported file that was not used, and why. */
export type { RejectedRow } from '../../platform/csv.ts';

/** `q` is matched against the UN/LOCODE, WPI number, name and alternate names. */
export type PortSearch = PlaceSearch & {
  /** ISO 3166-1 alpha-2. */
  readonly country?: string;
};

export type PortSearchHit = SearchHit & { readonly port: Port };

export type PortSearchResult = SearchPage<PortSearchHit>;

/** What an imported file held, as saved beside its entries. */
export type ImportMeta = {
  /** The file name or URL it was read from. */
  readonly origin: string;
  readonly imported_at: string;
  readonly entries: number;
};

export type PortDataMeta = {
  readonly sea_ports: { readonly package: string; readonly version: string; readonly entries: number };
  /** The World Port Index in use: the one imported into the data folder, else the one built in (null: none). */
  readonly wpi: (ImportMeta & { readonly built_in: boolean }) | null;
  readonly unlocode: ImportMeta | null;
  readonly ports: number;
};

export type PortIndex = {
  readonly meta: PortDataMeta;
  /** Every port, ordered by `id`. */
  readonly ports: readonly Port[];
  /** By id: a UN/LOCODE ("NLRTM", any case) or "WPI-<number>"; a WPI id also finds a port that has a UN/LOCODE id. */
  get(id: string): Port | null;
  byWpiNumber(wpiNumber: number): Port | null;
  /** Throws RangeError for an `after` it did not issue or a malformed `near`. */
  search(query: PortSearch): PortSearchResult;
};
