// Lanes added to the marnet network where it has none: canals it leaves out, a gap in the English
// Channel, and port approaches that marnet ends short of, so that those ports joined it only by a
// connector across land. Each lane starts and ends at a marnet vertex (coordinates copied from the
// data), on a marnet edge (which is split there), or at the end of another lane; the vertices
// between were read off charts and are kept to water, as sea-routes tests check against the Natural
// Earth land (inland waterways excepted: canals, rivers and lagoon channels the polygons fill in).
import type { Position } from './geo.ts';

export interface AddedLane {
  name: string;
  /** `inland`: a canal, river or lagoon channel the land polygons fill in; `sea` lanes stay off land. */
  waterway: 'sea' | 'inland';
  /** The named passage (passages.ts) the lane is part of, if any. */
  passage?: string;
  /** [lon, lat] from one end to the other. */
  coordinates: Position[];
}

// marnet vertices the lanes join.
const ELBE_OFF_BRUNSBUTTEL: Position = [9.041942, 53.874321];
const WESTERN_BALTIC_OFF_GEDSER: Position = [12.2, 54.5];
const DELAWARE_BAY_SHIP_JOHN: Position = [-75.3936, 39.3111];
const CHESAPEAKE_BAY_COVE_POINT: Position = [-76.4345, 38.5713];
const DELAWARE_BAY_ENTRANCE: Position = [-75.0095, 38.79];
const OFF_SANDY_HOOK: Position = [-73.8129, 40.4456];
const OFF_DUNGENESS: Position = [0.993616, 50.903945];
const DOVER_STRAIT_SOUTH_WEST: Position = [1.3, 50.8];
const GULF_OF_TUNIS: Position = [10.4378, 36.8678];
const OFF_NOJIMA_ZAKI: Position = [139.9, 34.8];
const OFF_HALIFAX: Position = [-63.5, 44.4];
const SOUTHERN_BALTIC_OFF_RIXHOFT: Position = [19, 55];
const WESTERN_SCHELDT_OFF_BATH: Position = [4.1894, 51.3917];
const GULF_OF_FARALLONES: Position = [-122.9, 37.7];
const SOUTH_CHINA_SEA_OFF_HONG_KONG: Position = [114.1, 21.7];
const OFF_DURBAN: Position = [32, -30];
const IJMUIDEN_APPROACH: Position = [4.531959, 52.470023];
/** On marnet's Strait of Gibraltar edge (35.95 N 5.75 W to 36 N 4.7 W), off Europa Point. */
const STRAIT_OF_GIBRALTAR_OFF_EUROPA_POINT: Position = [-5.4, 35.966667];
/** On marnet's Kii Channel edge (along 135.1 E), off Tomogashima. */
const KII_CHANNEL_OFF_TOMOGASHIMA: Position = [135.1, 34.5];
/** On marnet's Strait of Malacca edge (3.2 N 100.6 E to 2 N 102 E), off Port Klang. */
const STRAIT_OF_MALACCA_OFF_KLANG: Position = [101, 2.857143];

// Ends shared by two lanes.
const KIEL_HOLTENAU_LOCKS: Position = [10.1455, 54.3685];
const REEDY_POINT: Position = [-75.548, 39.557];
const ELK_RIVER_TURKEY_POINT: Position = [-76.005, 39.44];
const UPPER_BAY_OFF_NORTH_POINT: Position = [-76.36, 39.17];
const TOKYO_BAY_OFF_YOKOSUKA: Position = [139.74, 35.33];

export const ADDED_LANES: readonly AddedLane[] = [
  {
    // 98.6 km (53.3 nm) from lock to lock (Wasserstraßen- und Schifffahrtsverwaltung des Bundes).
    name: 'Kiel Canal, Brunsbüttel to Kiel-Holtenau',
    waterway: 'inland',
    passage: 'kiel',
    coordinates: [
      ELBE_OFF_BRUNSBUTTEL, [9.1415, 53.8895], [9.175, 53.907], [9.205, 53.933], [9.243, 53.975], [9.27, 54.02],
      [9.3, 54.07], [9.345, 54.125], [9.42, 54.165], [9.49, 54.2], [9.545, 54.225], [9.6, 54.27], [9.665, 54.298],
      [9.72, 54.31], [9.78, 54.335], [9.83, 54.365], [9.9, 54.375], [9.96, 54.372], [10.03, 54.368], [10.09, 54.362],
      KIEL_HOLTENAU_LOCKS,
    ],
  },
  {
    name: 'Kiel Fjord and the Fehmarn Belt',
    waterway: 'sea',
    coordinates: [KIEL_HOLTENAU_LOCKS, [10.16, 54.372], [10.19, 54.385], [10.207, 54.4], [10.21, 54.42], [10.235, 54.45], [10.27, 54.48], [10.5, 54.56], [10.9, 54.59], [11.25, 54.585], [11.6, 54.56], WESTERN_BALTIC_OFF_GEDSER],
  },
  { name: 'Kiel inner harbour', waterway: 'sea', coordinates: [KIEL_HOLTENAU_LOCKS, [10.165, 54.36], [10.16, 54.34], [10.155, 54.331]] },
  {
    name: 'Delaware River, Ship John Shoal to Reedy Point',
    waterway: 'sea',
    coordinates: [DELAWARE_BAY_SHIP_JOHN, [-75.47, 39.38], [-75.54, 39.47], [-75.545, 39.51], REEDY_POINT],
  },
  {
    // 14 statute miles (12 nm) from Reedy Point to Back Creek, then the Elk River channel (US Army Corps of Engineers).
    name: 'Chesapeake and Delaware Canal, Reedy Point to the Elk River',
    waterway: 'inland',
    passage: 'chesapeake_delaware',
    coordinates: [REEDY_POINT, [-75.6, 39.561], [-75.65, 39.556], [-75.71, 39.545], [-75.77, 39.533], [-75.81, 39.527], [-75.86, 39.51], [-75.9, 39.48], [-75.95, 39.455], ELK_RIVER_TURKEY_POINT],
  },
  {
    name: 'Upper Chesapeake Bay channel, Turkey Point to North Point',
    waterway: 'sea',
    coordinates: [ELK_RIVER_TURKEY_POINT, [-76.07, 39.39], [-76.12, 39.375], [-76.17, 39.35], [-76.22, 39.3], [-76.25, 39.28], UPPER_BAY_OFF_NORTH_POINT],
  },
  {
    name: 'Chesapeake Bay, Cove Point to Baltimore',
    waterway: 'sea',
    coordinates: [CHESAPEAKE_BAY_COVE_POINT, [-76.4, 38.8], [-76.375, 38.99], [-76.37, 39.1], UPPER_BAY_OFF_NORTH_POINT, [-76.45, 39.19], [-76.52, 39.215], [-76.565, 39.245], [-76.58, 39.262]],
  },
  {
    // marnet leaves Delaware Bay by the offshore traffic lanes only, 20 nm and more off the coast.
    name: 'New Jersey coast, Cape May to Sandy Hook',
    waterway: 'sea',
    coordinates: [DELAWARE_BAY_ENTRANCE, [-74.85, 38.9], [-74.5, 39.22], [-74.22, 39.5], [-74.02, 39.8], [-73.95, 40.1], [-73.93, 40.3], OFF_SANDY_HOOK],
  },
  { name: 'Dungeness to the Dover Strait', waterway: 'sea', coordinates: [OFF_DUNGENESS, DOVER_STRAIT_SOUTH_WEST] },
  {
    name: 'Gulf of Tunis, La Goulette and the Tunis ship channel',
    waterway: 'inland',
    coordinates: [GULF_OF_TUNIS, [10.34, 36.82], [10.31, 36.812], [10.25, 36.806], [10.2, 36.8]],
  },
  {
    name: 'Uraga Channel and Tokyo Bay to Yokohama',
    waterway: 'sea',
    coordinates: [OFF_NOJIMA_ZAKI, [139.74, 34.96], [139.76, 35.05], [139.77, 35.2], [139.78, 35.26], TOKYO_BAY_OFF_YOKOSUKA, [139.69, 35.4], [139.695, 35.43], [139.675, 35.45]],
  },
  { name: 'Halifax Harbour', waterway: 'sea', coordinates: [OFF_HALIFAX, [-63.505, 44.47], [-63.52, 44.55], [-63.53, 44.6], [-63.545, 44.63], [-63.562, 44.645]] },
  { name: 'Tokyo Bay to Tokyo', waterway: 'sea', coordinates: [TOKYO_BAY_OFF_YOKOSUKA, [139.78, 35.4], [139.82, 35.5], [139.82, 35.585], [139.79, 35.598], [139.776, 35.607], [139.77, 35.62], [139.768, 35.638]] },
  {
    name: 'Delaware River, Reedy Point to Philadelphia',
    waterway: 'inland',
    coordinates: [REEDY_POINT, [-75.56, 39.66], [-75.52, 39.72], [-75.41, 39.8], [-75.35, 39.84], [-75.25, 39.87], [-75.19, 39.885], [-75.14, 39.93]],
  },
  {
    name: 'Western Scheldt to Antwerp',
    waterway: 'inland',
    coordinates: [WESTERN_SCHELDT_OFF_BATH, [4.235, 51.37], [4.26, 51.345], [4.275, 51.32], [4.292, 51.306], [4.305, 51.293], [4.31, 51.28], [4.305, 51.272]],
  },
  {
    name: 'Golden Gate to San Francisco and Oakland',
    waterway: 'sea',
    coordinates: [GULF_OF_FARALLONES, [-122.62, 37.76], [-122.52, 37.805], [-122.478, 37.812], [-122.43, 37.818], [-122.38, 37.812], [-122.34, 37.8]],
  },
  {
    name: 'West Lamma Channel to Hong Kong',
    waterway: 'sea',
    coordinates: [SOUTH_CHINA_SEA_OFF_HONG_KONG, [114.08, 22.15], [114.08, 22.24], [114.1, 22.29], [114.12, 22.325], [114.11, 22.34]],
  },
  { name: 'Durban', waterway: 'sea', coordinates: [OFF_DURBAN, [31.1, -29.88], [31.075, -29.877]] },
  { name: 'Port Klang', waterway: 'sea', coordinates: [STRAIT_OF_MALACCA_OFF_KLANG, [101.2, 2.95], [101.28, 2.96], [101.335, 2.99]] },
  {
    name: 'IJmuiden and the North Sea Canal to Amsterdam',
    waterway: 'inland',
    coordinates: [IJMUIDEN_APPROACH, [4.6, 52.465], [4.7, 52.43], [4.8, 52.41], [4.89, 52.385]],
  },
  { name: 'Bay of Algeciras', waterway: 'sea', coordinates: [STRAIT_OF_GIBRALTAR_OFF_EUROPA_POINT, [-5.41, 36.06], [-5.425, 36.12]] },
  { name: 'Osaka Bay', waterway: 'sea', coordinates: [KII_CHANNEL_OFF_TOMOGASHIMA, [135.25, 34.58], [135.4, 34.63]] },
  { name: 'Gulf of Gdańsk', waterway: 'sea', coordinates: [SOUTHERN_BALTIC_OFF_RIXHOFT, [18.95, 54.66], [18.75, 54.45], [18.68, 54.41]] },
];
