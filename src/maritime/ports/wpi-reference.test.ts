// The compile script run for real on the World Port Index CSV, its output read back and merged, and
// the compiled file committed with LAMIS.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import { sharedFile } from '../../../test/support/shared.ts';
import { WPI_CSV } from './fixtures.ts';
import { mergePorts } from './merge.ts';
import { seaPorts } from './sea-ports.ts';
import { decodeWpiReference, wpiReference } from './wpi-reference.ts';
import { parseWpiCsv } from './wpi.ts';

const SCRIPT = fileURLToPath(new URL('../../../scripts/compile-wpi.ts', import.meta.url));
const folder = mkdtempSync(path.join(tmpdir(), 'lamis-wpi-reference-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** Runs scripts/compile-wpi.ts on `csv`; the entries it wrote, as LAMIS reads them back. */
function compile(csv: string, name: string) {
  const output = path.join(folder, `${name}.json.gz`);
  const printed = execFileSync(process.execPath, [SCRIPT, csv, output], { encoding: 'utf8' });
  return { printed, compiled: decodeWpiReference(gunzipSync(readFileSync(output)).toString('utf8')) };
}

function parsedEntries(input: string | Uint8Array) {
  const parsed = parseWpiCsv(input);
  assert.ok(parsed.ok);
  return parsed.entries;
}

test('the compiled file holds exactly the entries the import parser reads', () => {
  const csv = path.join(folder, 'sample.csv');
  writeFileSync(csv, WPI_CSV);
  const { printed, compiled } = compile(csv, 'sample');
  assert.match(printed, /^3 ports written/);
  assert.match(printed, /4 rows rejected/);
  assert.deepEqual(compiled.entries, parsedEntries(WPI_CSV));
  assert.match(compiled.meta.origin, /National Geospatial-Intelligence Agency.*: sample\.csv$/);
  assert.equal(compiled.meta.entries, 3);
});

test('a file in another format is refused with how to rebuild it', () => {
  assert.throws(() => decodeWpiReference(JSON.stringify({ format: 2, columns: [], rows: [] })), /compile it again with scripts\/compile-wpi\.ts/);
});

test('the committed World Port Index gives Rotterdam and Singapore their depths', () => {
  const { meta, entries } = wpiReference();
  assert.ok(entries.length > 3500, `${entries.length} entries`);
  assert.equal(meta.entries, entries.length);
  assert.match(meta.origin, /^World Port Index \(Pub\. 150\), National Geospatial-Intelligence Agency, public domain/);
  const ports = mergePorts({ seaPorts: seaPorts().entries, wpi: entries, unlocode: [] });
  assert.ok(ports.length > 2800, `${ports.length} ports`);
  const byId = new Map(ports.map((port) => [port.id, port]));
  const rotterdam = byId.get('NLRTM')!;
  assert.deepEqual([rotterdam.wpi_number, rotterdam.harbour_size, rotterdam.channel_depth_m, rotterdam.sources.channel_depth_m], [31140, 'large', 11, 'wpi']);
  // The WPI's Singapore entry is "Keppel - (East Singapore)" under SGKEP, 0.2 nm from sea-ports' SGSIN.
  const singapore = byId.get('SGSIN')!;
  assert.deepEqual([singapore.name, singapore.wpi_number, singapore.channel_depth_m, singapore.cargo_pier_depth_m], ['Singapore', 50000, 12.5, 14]);
  assert.ok(singapore.alternate_names.some((alternate) => alternate.name === 'Keppel - (East Singapore)' && alternate.source === 'wpi'));
  assert.equal(byId.get('SGKEP'), undefined);
});

const shared = sharedFile('data/ports/UpdatedPub150.csv');
describe('compiled from the published World Port Index', { skip: shared.skip }, () => {
  test('every row the import keeps, and no other', () => {
    const { printed, compiled } = compile(shared.path!, 'pub150');
    const entries = parsedEntries(readFileSync(shared.path!));
    assert.ok(entries.length > 3500);
    assert.match(printed, new RegExp(`^${entries.length} ports written`));
    assert.deepEqual(compiled.entries, entries);
  });
});
