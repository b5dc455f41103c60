// Compiles NGA's World Port Index CSV (UpdatedPub150.csv, a public-domain US government work) into
// reference/wpi/wpi.json.gz, the World Port Index LAMIS serves when none has been imported.
//
//   node scripts/compile-wpi.ts path/to/UpdatedPub150.csv [output file]
//
// Rows are read by the parser of `lamis import wpi`, so the built-in data and an import agree.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeWpiReference, WPI_REFERENCE_FILE } from '../src/maritime/ports/wpi-reference.ts';
import { parseWpiCsv } from '../src/maritime/ports/wpi.ts';

const SOURCE = 'World Port Index (Pub. 150), National Geospatial-Intelligence Agency, public domain US government work';

const [input, output = WPI_REFERENCE_FILE] = process.argv.slice(2);
if (input === undefined) {
  console.error('usage: node scripts/compile-wpi.ts path/to/UpdatedPub150.csv [output file]');
  process.exit(2);
}
const parsed = parseWpiCsv(readFileSync(input));
if (!parsed.ok) {
  console.error(`${input}: ${parsed.error}`);
  process.exit(1);
}
const bytes = encodeWpiReference(parsed.entries, `${SOURCE}: ${path.basename(input)}`, new Date());
writeFileSync(output, bytes);
console.log(`${parsed.entries.length} ports written to ${path.relative(process.cwd(), output)} (${(bytes.length / 1024).toFixed(0)} KiB).`);
for (const [title, rows] of [['rejected', parsed.rejected], ['kept without a value', parsed.warnings]] as const) {
  if (rows.length === 0) continue;
  console.log(`${rows.length} rows ${title}:`);
  for (const row of rows) console.log(`  line ${row.line}: ${row.reason}`);
}
