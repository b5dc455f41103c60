// The aircraft type rows, typed in from public references and grouped by manufacturer and by how
// the group's landing figure is published. aircraft-types.ts converts and serves them.
//
// Sources, by field:
// - designator and description: ICAO Doc 8643 (Aircraft Type Designators);
// - wake category: ICAO Doc 8643 / PANS-ATM (L up to 7,000 kg MTOM, H from 136,000 kg, J the A380);
//   RECAT-EU: EUROCONTROL "RECAT-EU" (2015) by MTOM and wingspan (F light below 15 t; E lower and
//   D upper medium split at 32 m span; C lower and B upper heavy at 52 m; A the A380);
// - approach speed and category: manufacturers' airport planning documents, the EUROCONTROL
//   Aircraft Performance Database and the FAA Aircraft Characteristics Database; the category is
//   stated here and the tests check it against the speed with the ICAO bands;
// - landing distance: airliners' certified landing field length at maximum landing mass from the
//   manufacturers' airport planning documents; business and light aircraft: the unfactored flight
//   manual / brochure landing distance over 50 ft;
// - crosswind: the maximum demonstrated crosswind from flight manuals (AFM/FCOM/POH) where public;
//   the lower of the take-off and landing figures when both are given.
//
// Estimates (confidence E) err on the safe side:
// - crosswind: the value the certification rules required the type to demonstrate, which no
//   certified type can be below: 20 kt for transport-category aeroplanes (CS/FAR 25.237: at least
//   20 kt or 0.2 VSR0), 0.2 × VSO rounded down for normal-category aeroplanes (CS/FAR 23, with
//   VSO taken as Vref / 1.3), 17 kt for helicopters (CS/FAR 27.143 and 29.143); or a published
//   sibling figure where the variant differs only in size (CRJ family);
// - landing distance: rounded up from the nearest published sibling or variant;
// - helicopters: no runway landing distance is published; the figure is an allowance by class
//   (150 m light single, 300 m light twin, 500 m medium), far more than a helicopter needs on a
//   runway, so a runway is never judged long enough for a helicopter when it would not be.

import type { ApproachCategory, RecatEuCategory, WakeCategory } from './aircraft-categories.ts';

/**
 * How a group's distance column reads: `field_length_m` the certified (factored) landing field
 * length in metres, `distance_ft` and `distance_m` an unfactored landing distance.
 */
export type DistanceBasis = 'field_length_m' | 'distance_ft' | 'distance_m';

type Row = readonly [
  designator: string,
  model: string,
  description: string,
  approach: ApproachCategory,
  wake: WakeCategory,
  recat: RecatEuCategory | null,
  vrefKt: number | null,
  crosswindKt: number,
  distance: number,
  confidence: 'P' | 'E',
];

type Group = {
  readonly manufacturer: string;
  readonly basis: DistanceBasis;
  readonly source: string;
  readonly rows: readonly Row[];
};

const AIRLINER_SOURCES = 'EUROCONTROL Aircraft Performance Database; FAA Aircraft Characteristics Database';

// Columns: designator, model, Doc 8643 description, approach category, ICAO wake, RECAT-EU,
// Vref kt, crosswind kt, distance (per group basis), confidence.
export const GROUPS: readonly Group[] = [
  {
    manufacturer: 'Airbus',
    basis: 'field_length_m',
    source: `Airbus aircraft characteristics for airport planning; Airbus FCOM limitations; ${AIRLINER_SOURCES}`,
    rows: [
      ['A318', 'A318', 'L2J', 'C', 'M', 'D', 124, 29, 1350, 'P'],
      ['A319', 'A319', 'L2J', 'C', 'M', 'D', 131, 29, 1470, 'P'],
      ['A320', 'A320', 'L2J', 'C', 'M', 'D', 136, 29, 1500, 'P'],
      ['A321', 'A321', 'L2J', 'C', 'M', 'D', 138, 29, 1750, 'P'],
      ['A19N', 'A319neo', 'L2J', 'C', 'M', 'D', 132, 29, 1500, 'E'],
      ['A20N', 'A320neo', 'L2J', 'C', 'M', 'D', 136, 29, 1550, 'E'],
      ['A21N', 'A321neo', 'L2J', 'C', 'M', 'D', 139, 29, 1800, 'E'],
      ['BCS1', 'A220-100', 'L2J', 'C', 'M', 'D', 126, 20, 1470, 'E'],
      ['BCS3', 'A220-300', 'L2J', 'C', 'M', 'D', 131, 20, 1510, 'E'],
      ['A306', 'A300-600', 'L2J', 'C', 'H', 'C', 137, 20, 1600, 'E'],
      ['A310', 'A310', 'L2J', 'C', 'H', 'C', 135, 20, 1550, 'E'],
      // A330 take-off crosswind is a certified 32 kt (landing demonstrated 40 kt).
      ['A332', 'A330-200', 'L2J', 'C', 'H', 'B', 136, 32, 1800, 'P'],
      ['A333', 'A330-300', 'L2J', 'C', 'H', 'B', 137, 32, 1850, 'P'],
      ['A338', 'A330-800', 'L2J', 'C', 'H', 'B', 135, 32, 1850, 'E'],
      ['A339', 'A330-900', 'L2J', 'C', 'H', 'B', 137, 32, 1900, 'E'],
      ['A343', 'A340-300', 'L4J', 'C', 'H', 'B', 139, 20, 1950, 'E'],
      ['A346', 'A340-600', 'L4J', 'D', 'H', 'B', 150, 20, 2250, 'E'],
      ['A359', 'A350-900', 'L2J', 'C', 'H', 'B', 140, 20, 2000, 'E'],
      ['A35K', 'A350-1000', 'L2J', 'D', 'H', 'B', 147, 20, 2100, 'E'],
      ['A388', 'A380-800', 'L4J', 'C', 'J', 'A', 138, 20, 2150, 'E'],
    ],
  },
  {
    manufacturer: 'Boeing',
    basis: 'field_length_m',
    source: `Boeing airplane characteristics for airport planning; Boeing AFM; ${AIRLINER_SOURCES}`,
    rows: [
      ['B712', '717-200', 'L2J', 'C', 'M', 'E', 139, 20, 1500, 'E'],
      ['B722', '727-200', 'L3J', 'C', 'M', 'D', 138, 29, 1650, 'E'],
      ['B733', '737-300', 'L2J', 'C', 'M', 'E', 135, 20, 1450, 'E'],
      ['B734', '737-400', 'L2J', 'C', 'M', 'E', 139, 20, 1550, 'E'],
      ['B735', '737-500', 'L2J', 'C', 'M', 'E', 131, 20, 1400, 'E'],
      // 737NG AFM: maximum demonstrated crosswind 36 kt for take-off and landing.
      ['B736', '737-600', 'L2J', 'C', 'M', 'D', 130, 36, 1400, 'P'],
      ['B737', '737-700', 'L2J', 'C', 'M', 'D', 131, 36, 1450, 'P'],
      ['B738', '737-800', 'L2J', 'D', 'M', 'D', 145, 36, 1650, 'P'],
      ['B739', '737-900', 'L2J', 'D', 'M', 'D', 149, 36, 1800, 'E'],
      ['B37M', '737 MAX 7', 'L2J', 'C', 'M', 'D', 134, 20, 1500, 'E'],
      ['B38M', '737 MAX 8', 'L2J', 'D', 'M', 'D', 145, 20, 1700, 'E'],
      ['B39M', '737 MAX 9', 'L2J', 'D', 'M', 'D', 149, 20, 1800, 'E'],
      ['B3XM', '737 MAX 10', 'L2J', 'D', 'M', 'D', 151, 20, 1850, 'E'],
      ['B744', '747-400', 'L4J', 'D', 'H', 'B', 154, 30, 2150, 'P'],
      ['B748', '747-8', 'L4J', 'D', 'H', 'B', 158, 20, 2300, 'E'],
      // ICAO medium, but RECAT-EU puts the 757 (115 t, 38 m span) with the lower heavies.
      ['B752', '757-200', 'L2J', 'C', 'M', 'C', 137, 20, 1550, 'E'],
      ['B753', '757-300', 'L2J', 'D', 'M', 'C', 143, 20, 1750, 'E'],
      ['B762', '767-200', 'L2J', 'C', 'H', 'C', 135, 20, 1600, 'E'],
      ['B763', '767-300', 'L2J', 'D', 'H', 'C', 145, 20, 1800, 'E'],
      ['B764', '767-400ER', 'L2J', 'D', 'H', 'C', 150, 20, 1950, 'E'],
      ['B772', '777-200/200ER', 'L2J', 'C', 'H', 'B', 139, 20, 1700, 'E'],
      ['B77L', '777-200LR/777F', 'L2J', 'D', 'H', 'B', 145, 20, 1850, 'E'],
      ['B773', '777-300', 'L2J', 'D', 'H', 'B', 149, 20, 1950, 'E'],
      ['B77W', '777-300ER', 'L2J', 'D', 'H', 'B', 149, 20, 2050, 'E'],
      ['B788', '787-8', 'L2J', 'C', 'H', 'B', 138, 20, 1700, 'E'],
      ['B789', '787-9', 'L2J', 'D', 'H', 'B', 144, 20, 1850, 'E'],
      ['B78X', '787-10', 'L2J', 'D', 'H', 'B', 147, 20, 1950, 'E'],
    ],
  },
  {
    manufacturer: 'McDonnell Douglas',
    basis: 'field_length_m',
    source: `McDonnell Douglas / Boeing airplane characteristics for airport planning; ${AIRLINER_SOURCES}`,
    rows: [
      ['DC10', 'DC-10', 'L3J', 'D', 'H', 'C', 150, 20, 2000, 'E'],
      ['MD11', 'MD-11', 'L3J', 'D', 'H', 'C', 155, 20, 2150, 'E'],
      ['MD82', 'MD-82', 'L2J', 'C', 'M', 'D', 135, 20, 1550, 'E'],
      ['MD83', 'MD-83', 'L2J', 'C', 'M', 'D', 138, 20, 1650, 'E'],
      ['MD88', 'MD-88', 'L2J', 'C', 'M', 'D', 136, 20, 1600, 'E'],
      ['MD90', 'MD-90', 'L2J', 'C', 'M', 'D', 139, 20, 1650, 'E'],
    ],
  },
  {
    manufacturer: 'Embraer',
    basis: 'field_length_m',
    source: `Embraer airport planning manuals; ${AIRLINER_SOURCES}`,
    rows: [
      ['E120', 'EMB 120 Brasilia', 'L2T', 'B', 'M', 'F', 112, 20, 1400, 'E'],
      ['E135', 'ERJ 135', 'L2J', 'C', 'M', 'E', 126, 20, 1350, 'E'],
      ['E145', 'ERJ 145', 'L2J', 'C', 'M', 'E', 130, 20, 1450, 'E'],
      ['E170', 'E170', 'L2J', 'C', 'M', 'E', 124, 20, 1300, 'E'],
      ['E75S', 'E175 (short wing)', 'L2J', 'C', 'M', 'E', 126, 20, 1300, 'E'],
      ['E75L', 'E175', 'L2J', 'C', 'M', 'E', 126, 20, 1300, 'E'],
      ['E190', 'E190', 'L2J', 'C', 'M', 'E', 130, 20, 1350, 'E'],
      ['E195', 'E195', 'L2J', 'C', 'M', 'E', 133, 20, 1400, 'E'],
      ['E290', 'E190-E2', 'L2J', 'C', 'M', 'D', 125, 20, 1300, 'E'],
      ['E295', 'E195-E2', 'L2J', 'C', 'M', 'D', 133, 20, 1450, 'E'],
    ],
  },
  {
    manufacturer: 'Embraer',
    basis: 'distance_ft',
    source: 'Embraer Executive Jets specifications (landing distance at maximum landing weight)',
    rows: [
      ['E50P', 'Phenom 100', 'L2J', 'B', 'L', 'F', 100, 15, 2500, 'E'],
      ['E55P', 'Phenom 300', 'L2J', 'B', 'M', 'F', 108, 16, 2600, 'E'],
      ['E545', 'Legacy 450 / Praetor 500', 'L2J', 'B', 'M', 'E', 105, 20, 2300, 'E'],
      ['E550', 'Legacy 500 / Praetor 600', 'L2J', 'B', 'M', 'E', 108, 20, 2400, 'E'],
      ['E35L', 'Legacy 600 / 650', 'L2J', 'C', 'M', 'E', 125, 20, 3000, 'E'],
    ],
  },
  {
    manufacturer: 'Bombardier',
    basis: 'field_length_m',
    source: `Bombardier CRJ airport planning manuals; CRJ flight manual crosswind (27 kt dry); ${AIRLINER_SOURCES}`,
    rows: [
      ['CRJ1', 'CRJ100', 'L2J', 'C', 'M', 'E', 137, 27, 1450, 'E'],
      ['CRJ2', 'CRJ200', 'L2J', 'C', 'M', 'E', 140, 27, 1500, 'E'],
      ['CRJ7', 'CRJ700', 'L2J', 'C', 'M', 'E', 138, 27, 1600, 'E'],
      ['CRJ9', 'CRJ900', 'L2J', 'D', 'M', 'E', 145, 27, 1800, 'E'],
      ['CRJX', 'CRJ1000', 'L2J', 'D', 'M', 'E', 148, 27, 1850, 'E'],
    ],
  },
  {
    manufacturer: 'De Havilland Canada',
    basis: 'field_length_m',
    source: `Dash 8 airport planning manuals; Dash 8-400 AOM limitations (32 kt crosswind); ${AIRLINER_SOURCES}`,
    rows: [
      ['DH8A', 'Dash 8-100', 'L2T', 'B', 'M', 'E', 96, 20, 950, 'E'],
      ['DH8B', 'Dash 8-200', 'L2T', 'B', 'M', 'E', 96, 20, 950, 'E'],
      ['DH8C', 'Dash 8-300', 'L2T', 'B', 'M', 'E', 101, 20, 1100, 'E'],
      ['DH8D', 'Dash 8-400', 'L2T', 'B', 'M', 'E', 120, 32, 1300, 'P'],
    ],
  },
  {
    manufacturer: 'ATR',
    basis: 'field_length_m',
    source: `ATR FCOM maximum demonstrated crosswind (ATR 42: 45 kt, ATR 72: 35 kt, dry); ATR airport planning; ${AIRLINER_SOURCES}`,
    rows: [
      ['AT43', 'ATR 42-300', 'L2T', 'B', 'M', 'E', 105, 45, 1050, 'E'],
      ['AT45', 'ATR 42-500', 'L2T', 'B', 'M', 'E', 104, 45, 1150, 'E'],
      ['AT46', 'ATR 42-600', 'L2T', 'B', 'M', 'E', 104, 45, 1150, 'E'],
      ['AT72', 'ATR 72-200', 'L2T', 'B', 'M', 'E', 111, 35, 1200, 'E'],
      ['AT75', 'ATR 72-500', 'L2T', 'B', 'M', 'E', 113, 35, 1150, 'E'],
      ['AT76', 'ATR 72-600', 'L2T', 'B', 'M', 'E', 113, 35, 1150, 'E'],
    ],
  },
  {
    manufacturer: 'Saab',
    basis: 'field_length_m',
    source: AIRLINER_SOURCES,
    rows: [
      ['SF34', '340', 'L2T', 'B', 'M', 'F', 110, 20, 1300, 'E'],
      ['SB20', '2000', 'L2T', 'C', 'M', 'E', 123, 20, 1400, 'E'],
    ],
  },
  {
    manufacturer: 'Fokker',
    basis: 'field_length_m',
    source: AIRLINER_SOURCES,
    rows: [
      ['F28', 'F28 Fellowship', 'L2J', 'C', 'M', 'E', 124, 20, 1250, 'E'],
      ['F50', 'Fokker 50', 'L2T', 'B', 'M', 'E', 106, 20, 1100, 'E'],
      ['F70', 'Fokker 70', 'L2J', 'C', 'M', 'E', 124, 20, 1300, 'E'],
      ['F100', 'Fokker 100', 'L2J', 'C', 'M', 'E', 130, 20, 1400, 'E'],
    ],
  },
  {
    manufacturer: 'BAE Systems',
    basis: 'field_length_m',
    source: AIRLINER_SOURCES,
    rows: [
      ['RJ85', 'Avro RJ85', 'L4J', 'B', 'M', 'E', 118, 20, 1250, 'E'],
      ['RJ1H', 'Avro RJ100', 'L4J', 'B', 'M', 'E', 120, 20, 1400, 'E'],
      ['JS32', 'Jetstream 32', 'L2T', 'B', 'M', 'F', 107, 20, 1300, 'E'],
      ['JS41', 'Jetstream 41', 'L2T', 'B', 'M', 'F', 115, 20, 1400, 'E'],
    ],
  },
  {
    manufacturer: 'Dornier',
    basis: 'field_length_m',
    source: AIRLINER_SOURCES,
    rows: [
      ['D328', '328', 'L2T', 'B', 'M', 'F', 110, 20, 1250, 'E'],
      ['J328', '328JET', 'L2J', 'B', 'M', 'E', 118, 20, 1300, 'E'],
    ],
  },
  {
    manufacturer: 'Sukhoi',
    basis: 'field_length_m',
    source: AIRLINER_SOURCES,
    rows: [['SU95', 'Superjet 100', 'L2J', 'C', 'M', 'E', 130, 20, 1700, 'E']],
  },
  {
    manufacturer: 'COMAC',
    basis: 'field_length_m',
    source: AIRLINER_SOURCES,
    rows: [
      ['AJ27', 'ARJ21-700', 'L2J', 'C', 'M', 'E', 135, 20, 1700, 'E'],
      ['C919', 'C919', 'L2J', 'C', 'M', 'D', 135, 20, 1700, 'E'],
    ],
  },
  {
    manufacturer: 'Bombardier',
    basis: 'distance_ft',
    source: 'Bombardier Business Aircraft and Learjet specifications (landing distance at maximum landing weight)',
    rows: [
      ['CL30', 'Challenger 300', 'L2J', 'B', 'M', 'E', 118, 20, 2600, 'E'],
      ['CL35', 'Challenger 350', 'L2J', 'B', 'M', 'E', 117, 20, 2400, 'E'],
      ['CL60', 'Challenger 600/601/604/605/650', 'L2J', 'C', 'M', 'E', 130, 20, 2800, 'E'],
      ['GLEX', 'Global Express / 6000', 'L2J', 'C', 'M', 'E', 122, 20, 2600, 'E'],
      ['GL5T', 'Global 5000 / 5500', 'L2J', 'C', 'M', 'E', 122, 20, 2600, 'E'],
      ['GL7T', 'Global 7500', 'L2J', 'B', 'M', 'E', 118, 20, 2500, 'E'],
      ['LJ31', 'Learjet 31', 'L2J', 'C', 'M', 'F', 124, 20, 2800, 'E'],
      ['LJ35', 'Learjet 35', 'L2J', 'C', 'M', 'F', 130, 20, 3100, 'E'],
      ['LJ45', 'Learjet 45', 'L2J', 'C', 'M', 'F', 127, 20, 2700, 'E'],
      ['LJ60', 'Learjet 60', 'L2J', 'C', 'M', 'F', 135, 20, 3500, 'E'],
      ['LJ75', 'Learjet 75', 'L2J', 'C', 'M', 'F', 125, 20, 2700, 'E'],
    ],
  },
  {
    manufacturer: 'Cessna',
    basis: 'distance_ft',
    source: 'Cessna Citation specifications (landing distance at maximum landing weight); FAA Aircraft Characteristics Database',
    rows: [
      ['C510', 'Citation Mustang', 'L2J', 'B', 'L', 'F', 95, 14, 2400, 'E'],
      ['C525', 'CitationJet / CJ1', 'L2J', 'B', 'L', 'F', 107, 16, 2600, 'E'],
      ['C25A', 'Citation CJ2', 'L2J', 'B', 'L', 'F', 110, 16, 3000, 'E'],
      ['C25B', 'Citation CJ3', 'L2J', 'B', 'L', 'F', 112, 17, 2800, 'E'],
      ['C25C', 'Citation CJ4', 'L2J', 'B', 'M', 'F', 115, 17, 3000, 'E'],
      ['C550', 'Citation II', 'L2J', 'B', 'L', 'F', 108, 20, 3000, 'E'],
      ['C55B', 'Citation Bravo', 'L2J', 'B', 'L', 'F', 110, 20, 3200, 'E'],
      ['C560', 'Citation V / Ultra / Encore', 'L2J', 'B', 'M', 'F', 110, 20, 3200, 'E'],
      ['C56X', 'Citation Excel / XLS', 'L2J', 'B', 'M', 'F', 110, 20, 3600, 'E'],
      ['C650', 'Citation III / VI / VII', 'L2J', 'B', 'M', 'F', 118, 20, 3300, 'E'],
      ['C680', 'Citation Sovereign', 'L2J', 'B', 'M', 'F', 110, 20, 3100, 'E'],
      ['C68A', 'Citation Latitude', 'L2J', 'B', 'M', 'F', 112, 20, 2700, 'E'],
      ['C700', 'Citation Longitude', 'L2J', 'B', 'M', 'E', 115, 20, 3200, 'E'],
      ['C750', 'Citation X', 'L2J', 'C', 'M', 'E', 127, 20, 3600, 'E'],
    ],
  },
  {
    manufacturer: 'Cessna',
    basis: 'distance_ft',
    source: 'Cessna pilot operating handbooks (landing over 50 ft, maximum weight, sea level)',
    rows: [
      ['C150', '150', 'L1P', 'A', 'L', 'F', 55, 12, 1100, 'E'],
      ['C152', '152', 'L1P', 'A', 'L', 'F', 54, 12, 1200, 'P'],
      ['C172', '172 Skyhawk', 'L1P', 'A', 'L', 'F', 62, 15, 1335, 'P'],
      ['C182', '182 Skylane', 'L1P', 'A', 'L', 'F', 64, 15, 1350, 'P'],
      ['C206', '206 Stationair', 'L1P', 'A', 'L', 'F', 69, 15, 1400, 'E'],
      ['C210', '210 Centurion', 'L1P', 'A', 'L', 'F', 72, 15, 1500, 'E'],
      ['C208', '208 Caravan', 'L1T', 'A', 'L', 'F', 79, 12, 1750, 'E'],
      ['C310', '310', 'L2P', 'B', 'L', 'F', 95, 14, 1800, 'E'],
      ['C414', '414 Chancellor', 'L2P', 'B', 'L', 'F', 97, 14, 2300, 'E'],
      ['C421', '421 Golden Eagle', 'L2P', 'B', 'L', 'F', 100, 15, 2300, 'E'],
    ],
  },
  {
    manufacturer: 'Gulfstream',
    basis: 'distance_ft',
    source: 'Gulfstream specifications (landing distance at maximum landing weight); FAA Aircraft Characteristics Database',
    rows: [
      ['G150', 'G150', 'L2J', 'C', 'M', 'F', 125, 20, 3000, 'E'],
      ['GALX', 'G200 / Galaxy', 'L2J', 'C', 'M', 'E', 125, 20, 3300, 'E'],
      ['G280', 'G280', 'L2J', 'B', 'M', 'E', 118, 20, 2600, 'E'],
      ['GLF4', 'Gulfstream IV / G400 / G450', 'L2J', 'C', 'M', 'E', 130, 20, 3200, 'E'],
      ['GLF5', 'Gulfstream V / G500 / G550', 'L2J', 'C', 'M', 'E', 126, 20, 2900, 'E'],
      ['GLF6', 'G650', 'L2J', 'C', 'M', 'E', 125, 20, 3100, 'E'],
      ['GA5C', 'G500 (2018)', 'L2J', 'C', 'M', 'E', 125, 20, 3000, 'E'],
      ['GA6C', 'G600', 'L2J', 'C', 'M', 'E', 127, 20, 3200, 'E'],
    ],
  },
  {
    manufacturer: 'Dassault',
    basis: 'distance_ft',
    source: 'Dassault Falcon specifications (landing distance at maximum landing weight); FAA Aircraft Characteristics Database',
    rows: [
      ['FA50', 'Falcon 50', 'L3J', 'B', 'M', 'E', 112, 20, 2800, 'E'],
      ['F900', 'Falcon 900', 'L3J', 'B', 'M', 'E', 110, 20, 2500, 'E'],
      ['F2TH', 'Falcon 2000', 'L2J', 'B', 'M', 'E', 114, 20, 2700, 'E'],
      ['FA7X', 'Falcon 7X', 'L3J', 'B', 'M', 'E', 105, 20, 2300, 'E'],
      ['FA8X', 'Falcon 8X', 'L3J', 'B', 'M', 'E', 107, 20, 2400, 'E'],
      ['FA6X', 'Falcon 6X', 'L2J', 'B', 'M', 'E', 110, 20, 2500, 'E'],
    ],
  },
  {
    manufacturer: 'Beechcraft',
    basis: 'distance_ft',
    source: 'Beechcraft / Hawker pilot operating handbooks and specifications; FAA Aircraft Characteristics Database',
    rows: [
      ['BE40', 'Beechjet 400 / Hawker 400', 'L2J', 'B', 'M', 'F', 110, 20, 3000, 'E'],
      ['H25B', 'Hawker 800', 'L2J', 'C', 'M', 'F', 124, 20, 3000, 'E'],
      ['PRM1', 'Premier I', 'L2J', 'B', 'L', 'F', 113, 17, 3200, 'E'],
      ['BE9L', 'King Air 90', 'L2T', 'B', 'L', 'F', 98, 15, 2300, 'E'],
      ['BE20', 'King Air 200 / 250', 'L2T', 'B', 'L', 'F', 100, 15, 2600, 'E'],
      ['B350', 'King Air 350', 'L2T', 'B', 'L', 'F', 104, 16, 2700, 'E'],
      ['B190', '1900', 'L2T', 'B', 'M', 'F', 113, 17, 2900, 'E'],
      ['BE35', 'Bonanza (V-tail)', 'L1P', 'A', 'L', 'F', 70, 17, 1450, 'E'],
      ['BE36', 'Bonanza 36', 'L1P', 'A', 'L', 'F', 72, 17, 1450, 'E'],
      ['BE58', 'Baron 58', 'L2P', 'B', 'L', 'F', 96, 17, 2500, 'E'],
      ['BE76', 'Duchess', 'L2P', 'A', 'L', 'F', 78, 12, 1900, 'E'],
    ],
  },
  {
    manufacturer: 'Pilatus',
    basis: 'distance_ft',
    source: 'Pilatus specifications (landing over 50 ft at maximum landing weight)',
    rows: [
      ['PC12', 'PC-12', 'L1T', 'A', 'L', 'F', 87, 13, 2200, 'E'],
      ['PC24', 'PC-24', 'L2J', 'B', 'M', 'F', 110, 17, 2600, 'E'],
    ],
  },
  {
    manufacturer: 'Daher',
    basis: 'distance_ft',
    source: 'Daher TBM pilot information manuals (landing over 50 ft at maximum landing weight)',
    rows: [
      ['TBM7', 'TBM 700', 'L1T', 'A', 'L', 'F', 84, 12, 2400, 'E'],
      ['TBM8', 'TBM 850', 'L1T', 'A', 'L', 'F', 85, 13, 2400, 'E'],
      ['TBM9', 'TBM 900 / 910 / 930 / 940 / 960', 'L1T', 'A', 'L', 'F', 85, 13, 2450, 'E'],
    ],
  },
  {
    manufacturer: 'Piper',
    basis: 'distance_ft',
    source: 'Piper pilot operating handbooks (landing over 50 ft, maximum weight, sea level)',
    rows: [
      ['PA18', 'PA-18 Super Cub', 'L1P', 'A', 'L', 'F', 50, 7, 900, 'E'],
      ['P28A', 'PA-28 Cherokee / Warrior / Archer', 'L1P', 'A', 'L', 'F', 63, 17, 1400, 'P'],
      ['P28B', 'PA-28-201T / 236 Dakota', 'L1P', 'A', 'L', 'F', 67, 17, 1700, 'E'],
      ['P28R', 'PA-28R Arrow', 'L1P', 'A', 'L', 'F', 68, 17, 1600, 'E'],
      ['PA32', 'PA-32 Cherokee Six / Saratoga', 'L1P', 'A', 'L', 'F', 72, 17, 1800, 'E'],
      ['PA31', 'PA-31 Navajo', 'L2P', 'B', 'L', 'F', 95, 14, 2200, 'E'],
      // Some Seneca manuals carry a 12 kt crosswind limitation; the lowest figure is kept.
      ['PA34', 'PA-34 Seneca', 'L2P', 'A', 'L', 'F', 80, 12, 2200, 'E'],
      ['PA44', 'PA-44 Seminole', 'L2P', 'A', 'L', 'F', 75, 17, 1500, 'E'],
      ['PA46', 'PA-46 Malibu / Mirage / M350', 'L1P', 'A', 'L', 'F', 76, 11, 2100, 'E'],
      ['P46T', 'PA-46 Meridian / M500 / M600', 'L1T', 'A', 'L', 'F', 82, 12, 2700, 'E'],
    ],
  },
  {
    manufacturer: 'Cirrus',
    basis: 'distance_ft',
    source: 'Cirrus pilot operating handbooks (SR20: 20 kt, SR22: 21 kt demonstrated crosswind)',
    rows: [
      ['SR20', 'SR20', 'L1P', 'A', 'L', 'F', 73, 20, 1700, 'E'],
      ['SR22', 'SR22', 'L1P', 'A', 'L', 'F', 78, 21, 2400, 'E'],
      ['S22T', 'SR22T', 'L1P', 'A', 'L', 'F', 78, 21, 2400, 'E'],
      ['SF50', 'SF50 Vision Jet', 'L1J', 'A', 'L', 'F', 87, 13, 2600, 'E'],
    ],
  },
  {
    manufacturer: 'Diamond',
    basis: 'distance_ft',
    source: 'Diamond Aircraft flight manuals (landing over 50 ft, maximum weight, sea level)',
    rows: [
      ['DV20', 'DA20 Katana', 'L1P', 'A', 'L', 'F', 55, 8, 1300, 'E'],
      ['DA40', 'DA40 Diamond Star', 'L1P', 'A', 'L', 'F', 64, 20, 1300, 'E'],
      ['DA42', 'DA42 Twin Star', 'L2P', 'A', 'L', 'F', 80, 20, 2000, 'E'],
      ['DA62', 'DA62', 'L2P', 'A', 'L', 'F', 82, 20, 2300, 'E'],
    ],
  },
  {
    manufacturer: 'Mooney',
    basis: 'distance_ft',
    source: 'Mooney pilot operating handbooks (crosswind recorded at 0.2 VSO)',
    rows: [
      ['M20P', 'M20 (normally aspirated)', 'L1P', 'A', 'L', 'F', 68, 10, 1550, 'E'],
      ['M20T', 'M20 (turbocharged)', 'L1P', 'A', 'L', 'F', 72, 11, 1650, 'E'],
    ],
  },
  {
    manufacturer: 'De Havilland Canada',
    basis: 'distance_ft',
    source: 'DHC-6 flight manual (landing over 50 ft); FAA Aircraft Characteristics Database',
    rows: [['DHC6', 'DHC-6 Twin Otter', 'L2T', 'A', 'L', 'F', 75, 11, 1100, 'E']],
  },
  {
    manufacturer: 'Let',
    basis: 'distance_ft',
    source: 'L-410 flight manual (landing over 50 ft); FAA Aircraft Characteristics Database',
    rows: [['L410', 'L-410 Turbolet', 'L2T', 'A', 'L', 'F', 90, 13, 1800, 'E']],
  },
  {
    manufacturer: 'Dornier',
    basis: 'distance_ft',
    source: 'Do 228 flight manual (landing over 50 ft); FAA Aircraft Characteristics Database',
    rows: [['D228', '228', 'L2T', 'B', 'L', 'F', 95, 14, 2000, 'E']],
  },
  {
    manufacturer: 'Fairchild',
    basis: 'distance_ft',
    source: 'Metro flight manual (landing over 50 ft); FAA Aircraft Characteristics Database',
    rows: [['SW4', 'Metro', 'L2T', 'B', 'M', 'F', 110, 16, 2600, 'E']],
  },
  {
    manufacturer: 'Airbus Helicopters',
    basis: 'distance_m',
    source: 'ICAO Doc 8643; CS-27/29.143 wind envelope (17 kt); distance is a class allowance',
    rows: [
      ['EC20', 'H120 (EC120)', 'H1T', 'H', 'L', null, null, 17, 150, 'E'],
      ['EC30', 'H130 (EC130)', 'H1T', 'H', 'L', null, null, 17, 150, 'E'],
      ['AS50', 'H125 / AS350 Ecureuil', 'H1T', 'H', 'L', null, null, 17, 150, 'E'],
      ['AS55', 'AS355 Ecureuil 2', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['EC35', 'H135 (EC135)', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['EC45', 'H145 (EC145, BK117 C-2/D-2/D-3)', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['BK17', 'BK117 A/B/C-1', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['AS65', 'AS365 Dauphin', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['EC55', 'H155 (EC155)', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['H160', 'H160', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['EC75', 'H175', 'H2T', 'H', 'M', null, null, 17, 500, 'E'],
      ['AS32', 'AS332 Super Puma', 'H2T', 'H', 'M', null, null, 17, 500, 'E'],
      ['EC25', 'H225 (EC225)', 'H2T', 'H', 'M', null, null, 17, 500, 'E'],
    ],
  },
  {
    manufacturer: 'Leonardo',
    basis: 'distance_m',
    source: 'ICAO Doc 8643; CS-27/29.143 wind envelope (17 kt); distance is a class allowance',
    rows: [
      ['A109', 'AW109', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['A119', 'AW119 Koala', 'H1T', 'H', 'L', null, null, 17, 150, 'E'],
      ['A169', 'AW169', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      // Maximum take-off mass 7,000 kg at most: light by the ICAO 7,000 kg boundary.
      ['A139', 'AW139', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['A189', 'AW189', 'H2T', 'H', 'M', null, null, 17, 500, 'E'],
    ],
  },
  {
    manufacturer: 'Bell',
    basis: 'distance_m',
    source: 'ICAO Doc 8643; CS-27/29.143 wind envelope (17 kt); distance is a class allowance',
    rows: [
      ['B06', '206 JetRanger / LongRanger', 'H1T', 'H', 'L', null, null, 17, 150, 'E'],
      ['B407', '407', 'H1T', 'H', 'L', null, null, 17, 150, 'E'],
      ['B505', '505 Jet Ranger X', 'H1T', 'H', 'L', null, null, 17, 150, 'E'],
      ['B212', '212', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['B412', '412', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['B429', '429', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
    ],
  },
  {
    manufacturer: 'Sikorsky',
    basis: 'distance_m',
    source: 'ICAO Doc 8643; CS-27/29.143 wind envelope (17 kt); distance is a class allowance',
    rows: [
      ['S76', 'S-76', 'H2T', 'H', 'L', null, null, 17, 300, 'E'],
      ['S92', 'S-92', 'H2T', 'H', 'M', null, null, 17, 500, 'E'],
    ],
  },
  {
    manufacturer: 'Robinson',
    basis: 'distance_m',
    source: 'ICAO Doc 8643; CS-27/29.143 wind envelope (17 kt); distance is a class allowance',
    rows: [
      ['R22', 'R22', 'H1P', 'H', 'L', null, null, 17, 150, 'E'],
      ['R44', 'R44', 'H1P', 'H', 'L', null, null, 17, 150, 'E'],
      ['R66', 'R66', 'H1T', 'H', 'L', null, null, 17, 150, 'E'],
    ],
  },
  {
    manufacturer: 'MD Helicopters',
    basis: 'distance_m',
    source: 'ICAO Doc 8643; CS-27/29.143 wind envelope (17 kt); distance is a class allowance',
    rows: [['H500', 'MD 500', 'H1T', 'H', 'L', null, null, 17, 150, 'E']],
  },
  {
    manufacturer: 'Mil',
    basis: 'distance_m',
    source: 'ICAO Doc 8643; CS-27/29.143 wind envelope (17 kt); distance is a class allowance',
    rows: [['MI8', 'Mi-8 / Mi-17', 'H2T', 'H', 'M', null, null, 17, 500, 'E']],
  },
];
