// Compiles OurAirports' runways.csv, airport-frequencies.csv and navaids.csv (public domain,
// https://ourairports.com/data/) into reference/ourairports/ourairports.json.gz, the compact file
// the airport index merges over its package data. Usage, from the repository root:
//
//   node_modules/.bin/node scripts/compile-ourairports.ts FOLDER
//
// where FOLDER holds the three CSV files as downloaded from
// https://davidmegginson.github.io/ourairports-data/.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  COMMITTED_OURAIRPORTS_FILE,
  OURAIRPORTS_CSV,
  OURAIRPORTS_FORMAT,
  OURAIRPORTS_PARTS,
  PART_PARSERS,
  writeOurAirports,
  type OurAirportsData,
  type OurAirportsPart,
  type PartOrigin,
} from '../src/aviation/reference/ourairports.ts';

const folder = process.argv[2];
if (folder === undefined) {
  console.error('usage: compile-ourairports.ts FOLDER (holding runways.csv, airport-frequencies.csv and navaids.csv)');
  process.exit(2);
}

const started = performance.now();
const now = new Date().toISOString();
const parts: Partial<Record<OurAirportsPart, PartOrigin>> = {};
const rows: Partial<Record<OurAirportsPart, unknown[]>> = {};
for (const part of OURAIRPORTS_PARTS) {
  const name = OURAIRPORTS_CSV[part];
  const parsed = PART_PARSERS[part](await readFile(path.join(folder, name), 'utf8'));
  if (!parsed.ok) {
    console.error(`${name}: ${parsed.error}`);
    process.exit(1);
  }
  for (const rejected of parsed.rejected) console.warn(`${name} line ${rejected.line}: ${rejected.reason}`);
  rows[part] = parsed.rows;
  parts[part] = { from: `OurAirports ${name}`, read_at: now, rows: parsed.rows.length };
  console.log(`${name}: ${parsed.rows.length} rows, ${parsed.rejected.length} rejected`);
}

const data = {
  header: { format: OURAIRPORTS_FORMAT, compiled_at: now, parts },
  runways: rows.runways,
  frequencies: rows.frequencies,
  navaids: rows.navaids,
} as OurAirportsData;
await writeOurAirports(COMMITTED_OURAIRPORTS_FILE, data);
const { size } = await stat(COMMITTED_OURAIRPORTS_FILE);
console.log(`${path.relative(process.cwd(), COMMITTED_OURAIRPORTS_FILE)}: ${size} bytes in ${Math.round(performance.now() - started)} ms`);
