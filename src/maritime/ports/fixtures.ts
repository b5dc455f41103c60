// Small hand-written inputs for the port tests: World Port Index rows in the UpdatedPub150 column
// layout (only the columns LAMIS reads, plus one it ignores), UN/LOCODE code list rows in UNECE's
// CSV layout, entries in the parsed shapes, a small port index round Rotterdam, and a ZIP writer
// for archive tests.
import { crc32, deflateRawSync } from 'node:zlib';
import { mergePorts } from './merge.ts';
import type { PortIndex, SeaPortEntry, UnlocodeEntry, WpiEntry } from './model.ts';
import { createPortIndex } from './port-index.ts';

const WPI_HEADER = [
  'OID_', 'World Port Index Number', 'Main Port Name', 'Alternate Port Name', 'UN/LOCODE', 'Country Code',
  'Tidal Range (m)', 'Channel Depth (m)', 'Anchorage Depth (m)', 'Cargo Pier Depth (m)', 'Oil Terminal Depth (m)',
  'Maximum Vessel Length (m)', 'Maximum Vessel Beam (m)', 'Maximum Vessel Draft (m)', 'Harbor Size', 'Harbor Type', 'Shelter Afforded',
  'Entrance Restriction - Tide', 'Entrance Restriction - Heavy Swell', 'Entrance Restriction - Ice', 'Entrance Restriction - Other',
  'Latitude', 'Longitude',
];

/**
 * Line 2: every value; 3: unknowns as 0 and blank, a space in the UN/LOCODE; 4: a fractional WPI
 * number and a UN/LOCODE of another country; 5-8: rejected.
 */
export const WPI_CSV = [
  `\uFEFF${WPI_HEADER.join(',')}`,
  '0.0,90010.0,Port Alpha,"Alfa; Alpha Roads",NLALP,Netherlands,1.5,12.5,14.0,11.0,15.5,300.0,45.0,13.7,Large,River (Basins),Fair,No,Yes,Unknown,Yes,51.9,4.5',
  '1.0,90020.0,Bravo Harbor, ,NL BRV,Netherlands,0.0,0.0, ,6.4,0.0,0.0,0.0,0.0, , , ,Unknown,Unknown,Unknown,Unknown,52.1,4.2',
  '2.0,90020.5,Charlie Terminal, ,US CHX,The Bahamas,0.0,23.2,0.0,0.0,20.1,0.0,0.0,0.0,Very Small,Open Roadstead,None,No,No,No,No,25.05,-77.35',
  '3.0,90010.0,Port Alpha Again, , ,Netherlands,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,Small,Coastal (Natural),Good,No,No,No,No,51.9,4.5',
  '4.0,abc,No Number, , ,Netherlands,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,Small,Coastal (Natural),Good,No,No,No,No,51.9,4.5',
  '5.0,90030.0,Nowhere, , ,Netherlands,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,Small,Coastal (Natural),Good,No,No,No,No,95.0,4.5',
  '6.0,90040.0,Short Row',
].join('\r\n');

/** Rows of one part of the code list, in the official column order, written for these tests. */
export const UNLOCODE_CSV = [
  ',"NL",,".NETHERLANDS",,,,,,,,',
  ',"NL","AAA","Aaahaven","Aaahaven","ZH","1-------","AI","2301",,"5155N 00430E",""',
  ',"NL","BBB","Bébé","Bebe","ZH","--3-----","RL","2301",,"5200N 00420E",""',
  ',"NL","CCC","Ceehaven","Ceehaven","NH","1-3-----","RL","2301",,,""',
  '"X","NL","DDD","Deehaven","Deehaven",,"1-------","RL","2301",,"5210N 00410E",""',
  ',"NL","EEE","Eeehaven","Eeehaven",,"1-------","XX","2301",,"5210N 00410E",""',
  '"=","NL",,"Aaa = Aaahaven",,,,,,,,',
  ',"NL","FFF","Efhaven","Efhaven",,"1-------","RL","2301",,"5260N 00410E",""',
  ',"NL","GG","Geehaven","Geehaven",,"1-------","RL","2301",,"5210N 00410E",""',
  ',"NL","AAA","Aaahaven Again","Aaahaven Again",,"1-------","RL","2301",,"5155N 00430E",""',
  ',"BR","SSZ","Santos","Santos","SP","1234----","AI","0601","SSZ","2357S 04619W",""',
].join('\r\n');

export function seaPortEntry(unlocode: string, overrides: Partial<SeaPortEntry> = {}): SeaPortEntry {
  return { unlocode, name: unlocode, alternate_names: [], country: unlocode.slice(0, 2), lat: 0, lon: 0, timezone: null, ...overrides };
}

export function unlocodeEntry(unlocode: string, overrides: Partial<UnlocodeEntry> = {}): UnlocodeEntry {
  return { unlocode, name: unlocode, name_ascii: null, country: unlocode.slice(0, 2), subdivision: null, status: 'RL', lat: 0, lon: 0, ...overrides };
}

export function wpiEntry(wpiNumber: number, overrides: Partial<WpiEntry> = {}): WpiEntry {
  return {
    wpi_number: wpiNumber,
    unlocode: null,
    name: `WPI ${wpiNumber}`,
    alternate_names: [],
    country: null,
    lat: 0,
    lon: 0,
    harbour_size: null,
    harbour_type: null,
    shelter: null,
    channel_depth_m: null,
    anchorage_depth_m: null,
    cargo_pier_depth_m: null,
    oil_terminal_depth_m: null,
    tidal_range_m: null,
    max_vessel_length_m: null,
    max_vessel_beam_m: null,
    max_vessel_draught_m: null,
    entrance_restrictions: { tide: null, swell: null, ice: null, other: null },
    ...overrides,
  };
}

/**
 * Rotterdam (large: a 10 nm approach area, WPI limits) and Botlek 7 nm west of it (medium: 6 nm),
 * Hamburg, and Santos far away: the ports the call, arrival and availability tests sail between.
 */
export function rotterdamPorts(): PortIndex {
  const ports = mergePorts({
    seaPorts: [
      seaPortEntry('NLRTM', { name: 'Rotterdam', lat: 51.92, lon: 4.48, timezone: 'Europe/Amsterdam' }),
      seaPortEntry('DEHAM', { name: 'Hamburg', lat: 53.55, lon: 9.97 }),
      seaPortEntry('BRSSZ', { name: 'Santos', lat: -23.95, lon: -46.33 }),
    ],
    unlocode: [],
    wpi: [
      wpiEntry(31140, {
        unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', lat: 51.9, lon: 4.4833, harbour_size: 'large', channel_depth_m: 11,
        max_vessel_length_m: 400, max_vessel_beam_m: 60, max_vessel_draught_m: 22.5,
      }),
      wpiEntry(31150, { name: 'Rotterdam Botlek', country: 'NL', lat: 51.88, lon: 4.29, harbour_size: 'medium' }),
    ],
  });
  return createPortIndex(ports, { sea_ports: { package: 'sea-ports', version: 'test', entries: 3 }, wpi: null, unlocode: null, ports: ports.length });
}

/** A ZIP archive of the files, deflated or stored. */
export function zipOf(files: readonly { name: string; data: Uint8Array }[], method: 'deflate' | 'store' = 'deflate'): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const body = method === 'deflate' ? deflateRawSync(file.data) : Buffer.from(file.data);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(method === 'deflate' ? 8 : 0, 8);
    header.writeUInt32LE(crc32(file.data), 14);
    header.writeUInt32LE(body.length, 18);
    header.writeUInt32LE(file.data.length, 22);
    header.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(method === 'deflate' ? 8 : 0, 10);
    entry.writeUInt32LE(crc32(file.data), 16);
    entry.writeUInt32LE(body.length, 20);
    entry.writeUInt32LE(file.data.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(header, name, body);
    directory.push(entry, name);
    offset += header.length + name.length + body.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...directory, end]);
}
