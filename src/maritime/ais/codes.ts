// Text for AIS code fields (ITU-R M.1371-5 tables), worded as gpsd reports them in its `*_text`
// fields so the two can be compared directly.

const NAV_STATUS = [
  'Under way using engine',
  'At anchor',
  'Not under command',
  'Restricted maneuverability',
  'Constrained by her draught',
  'Moored',
  'Aground',
  'Engaged in fishing',
  'Under way sailing',
  'Reserved for HSC',
  'Reserved for WIG',
  'Power-driven vessel towing astern',
  'Power-driven vessel pushing ahead or towing alongside',
  'Reserved',
  'AIS-SART is active',
  'Not defined',
];

const EPFD = [
  'Undefined',
  'GPS',
  'GLONASS',
  'Combined GPS/GLONASS',
  'Loran-C',
  'Chayka',
  'Integrated navigation system',
  'Surveyed',
  'Galileo',
  'Reserved',
  'Reserved',
  'Reserved',
  'Reserved',
  'Reserved',
  'Reserved',
  'Internal GNSS',
];

const AID_TYPE = [
  'Unspecified',
  'Reference point',
  'RACON',
  'Fixed offshore structure',
  'Spare, Reserved for future use.',
  'Light, without sectors',
  'Light, with sectors',
  'Leading Light Front',
  'Leading Light Rear',
  'Beacon, Cardinal N',
  'Beacon, Cardinal E',
  'Beacon, Cardinal S',
  'Beacon, Cardinal W',
  'Beacon, Port hand',
  'Beacon, Starboard hand',
  'Beacon, Preferred Channel port hand',
  'Beacon, Preferred Channel starboard hand',
  'Beacon, Isolated danger',
  'Beacon, Safe water',
  'Beacon, Special mark',
  'Cardinal Mark N',
  'Cardinal Mark E',
  'Cardinal Mark S',
  'Cardinal Mark W',
  'Port hand Mark',
  'Starboard hand Mark',
  'Preferred Channel Port hand',
  'Preferred Channel Starboard hand',
  'Isolated danger',
  'Safe Water',
  'Special Mark',
  'Light Vessel / LANBY / Rigs',
];

/** Ship and cargo type (0..99): decades with a category and a second digit for the hazard class. */
const SHIP_TYPE: string[] = (() => {
  const table: string[] = ['Not available'];
  for (let code = 1; code < 20; code++) table.push('Reserved for future use');
  const categorised = (category: string, last: string): void => {
    table.push(`${category} - all ships of this type`);
    for (const hazard of ['A', 'B', 'C', 'D']) table.push(`${category} - Hazardous category ${hazard}`);
    for (let code = 5; code < 9; code++) table.push(`${category} - Reserved for future use`);
    table.push(`${category} - ${last}`);
  };
  categorised('Wing in ground (WIG)', 'Reserved for future use');
  table.push(
    'Fishing',
    'Towing',
    'Towing: length exceeds 200m or breadth exceeds 25m',
    'Dredging or underwater ops',
    'Diving ops',
    'Military ops',
    'Sailing',
    'Pleasure Craft',
    'Reserved',
    'Reserved',
  );
  categorised('High speed craft (HSC)', 'No additional information');
  table.push(
    'Pilot Vessel',
    'Search and Rescue vessel',
    'Tug',
    'Port Tender',
    'Anti-pollution equipment',
    'Law Enforcement',
    'Spare - Local Vessel',
    'Spare - Local Vessel',
    'Medical Transport',
    'Ship according to RR Resolution No. 18',
  );
  categorised('Passenger', 'No additional information');
  categorised('Cargo', 'No additional information');
  categorised('Tanker', 'No additional information');
  categorised('Other Type', 'no additional information');
  return table;
})();

/** Navigational status text (types 1-3, 27). */
export function navStatusText(status: number): string {
  return NAV_STATUS[status] ?? 'Invalid navigational status';
}

/** Position-fixing device text. */
export function epfdText(epfd: number): string {
  return EPFD[epfd] ?? 'Invalid EPFD';
}

/** Ship and cargo type text (types 5, 19, 24). */
export function shipTypeText(shipType: number): string {
  if (shipType < SHIP_TYPE.length) return SHIP_TYPE[shipType] ?? 'Invalid ship type';
  return shipType < 200 ? 'Reserved for regional use' : 'Reserved for future use';
}

/** Aid-to-navigation type text (type 21). */
export function aidTypeText(aidType: number): string {
  return AID_TYPE[aidType] ?? 'Invalid aid type';
}
