import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sharedFile } from '../../../test/support/shared.ts';
import { UNLOCODE_CSV, WPI_CSV } from './fixtures.ts';
import { loadPorts } from './ports.ts';
import { importFile, readImport, saveImport } from './store.ts';
import { parseUnlocodeCsv } from './unlocode.ts';
import { parseWpiCsv } from './wpi.ts';

const folders: string[] = [];
function dataDir(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'lamis-ports-'));
  folders.push(folder);
  return folder;
}
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function entries<T>(result: { ok: true; entries: T[] } | { ok: false; error: string }): T[] {
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.entries;
}

test('with nothing imported, the index holds the built-in sea-ports data and World Port Index', async () => {
  const ports = await loadPorts({ dataDir: dataDir() });
  assert.ok(ports.ports.length > 2800, `${ports.ports.length} ports`);
  assert.equal(ports.meta.ports, ports.ports.length);
  assert.equal(ports.meta.wpi?.built_in, true);
  assert.ok(ports.meta.wpi.entries > 3500);
  assert.equal(ports.meta.unlocode, null);
  assert.deepEqual(ports.problems, []);
  const rotterdam = ports.get('NLRTM')!;
  assert.deepEqual([rotterdam.name, rotterdam.timezone, rotterdam.harbour_size, rotterdam.channel_depth_m], ['Rotterdam', 'Europe/Amsterdam', 'large', 11]);
  assert.deepEqual([rotterdam.sources.name, rotterdam.sources.timezone, rotterdam.sources.channel_depth_m], ['sea-ports', 'sea-ports', 'wpi']);
  assert.equal(ports.get('SGSIN')?.channel_depth_m, 12.5);
  // A second code the package lists for the same port is not a second port.
  assert.equal(ports.get('CNDAL'), null);
  assert.equal(ports.get('CNDLC')?.name, 'Dalian');
});

test('imports are saved whole, read back, and merged at load', async () => {
  const folder = dataDir();
  const saved = await saveImport(folder, 'wpi', 'sample.csv', entries(parseWpiCsv(WPI_CSV)));
  await saveImport(folder, 'unlocode', 'part1.csv', entries(parseUnlocodeCsv(UNLOCODE_CSV)));
  assert.equal(saved.file, importFile(folder, 'wpi'));
  assert.deepEqual(readdirSync(path.join(folder, 'ports')).sort(), ['unlocode.json', 'wpi.json']);
  const stored = await readImport(folder, 'wpi');
  assert.equal(stored.status, 'loaded');
  assert.deepEqual(stored.status === 'loaded' ? stored.meta : null, saved.meta);

  const ports = await loadPorts({ dataDir: folder });
  assert.deepEqual(ports.meta.wpi, { ...saved.meta, built_in: false });
  // The import replaces the built-in World Port Index whole.
  assert.equal(ports.ports.filter((port) => port.wpi_number !== null).length, 3);
  assert.equal(ports.meta.unlocode?.entries, 2);
  assert.equal(ports.get('NLALP')?.channel_depth_m, 12.5);
  assert.equal(ports.get('WPI-90020.5')?.name, 'Charlie Terminal');
  assert.equal(ports.get('NLAAA')?.sources.name, 'unlocode');
  // Santos is in sea-ports too: the code list joins it.
  assert.equal(ports.get('BRSSZ')?.sources.unlocode, 'unlocode');
  assert.equal(ports.get('BRSSZ')?.sources.timezone, 'sea-ports');
});

test('an imported file that cannot be read is reported and left out', async () => {
  const folder = dataDir();
  await saveImport(folder, 'unlocode', 'part1.csv', entries(parseUnlocodeCsv(UNLOCODE_CSV)));
  writeFileSync(importFile(folder, 'wpi'), '{"format": 1, "entries": [');
  const ports = await loadPorts({ dataDir: folder });
  assert.equal(ports.problems.length, 1);
  assert.match(ports.problems[0]!, /wpi\.json: not JSON/);
  assert.equal(ports.meta.wpi?.built_in, true, 'the built-in World Port Index stands in');
  assert.ok(ports.get('NLAAA'));

  writeFileSync(importFile(folder, 'wpi'), JSON.stringify({ format: 1, origin: 'x', imported_at: 'y', entries: [{ name: 'No position' }] }));
  const damaged = await readImport(folder, 'wpi');
  assert.deepEqual(damaged, { status: 'unreadable', file: importFile(folder, 'wpi'), error: 'an entry is damaged; import the file again' });
  writeFileSync(importFile(folder, 'wpi'), JSON.stringify({ format: 99 }));
  assert.match((await readImport(folder, 'wpi') as { error: string }).error, /not a LAMIS wpi import/);
});

const shared = sharedFile('data/ports/UpdatedPub150.csv');
describe('with the published World Port Index imported', { skip: shared.skip }, () => {
  test('Rotterdam joins sea-ports and WPI; Singapore takes the WPI\'s Keppel, whose code no other source knows', async () => {
    const folder = dataDir();
    await saveImport(folder, 'wpi', 'UpdatedPub150.csv', entries(parseWpiCsv(readFileSync(shared.path!))));
    const ports = await loadPorts({ dataDir: folder });
    assert.equal(ports.meta.wpi?.built_in, false);
    const fromWpi = ports.ports.filter((port) => port.wpi_number !== null);
    assert.ok(fromWpi.length > 2800, `${fromWpi.length} ports with WPI data`);

    const rotterdam = ports.get('NLRTM')!;
    assert.deepEqual(
      [rotterdam.wpi_number, rotterdam.harbour_size, rotterdam.channel_depth_m, rotterdam.oil_terminal_depth_m, rotterdam.timezone],
      [31140, 'large', 11, 12.5, 'Europe/Amsterdam'],
    );
    assert.deepEqual([rotterdam.sources.channel_depth_m, rotterdam.sources.timezone, rotterdam.sources.lat], ['wpi', 'sea-ports', 'wpi']);
    assert.equal(ports.get('WPI-31140'), rotterdam);
    assert.deepEqual(rotterdam.approach_area, { kind: 'circle', radius_nm: 10 });

    const singapore = ports.get('SGSIN')!;
    assert.deepEqual([singapore.name, singapore.wpi_number, singapore.harbour_size], ['Singapore', 50000, 'large']);
    assert.equal(ports.get('SGKEP'), null);
    assert.equal(ports.search({ q: 'keppel', country: 'SG' }).items[0]?.port.id, 'SGSIN');
    // Shanghai: the WPI gives CNSGH, a code sea-ports lists second for CNSHA.
    assert.equal(ports.get('CNSHA')?.wpi_number, 59970);
  });
});
