// `lamis import wpi FILE` as a user runs it, then a server started on the same data folder serves
// the imported ports: the hand-written rows always, and the published World Port Index (more than
// 2,800 ports) when the shared copy is there.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { WPI_CSV } from '../../src/maritime/ports/fixtures.ts';
import { json } from '../support/http.ts';
import { sharedFile } from '../support/shared.ts';
import { AUTH, startTestServer } from '../support/server.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/lamis.js', import.meta.url).pathname;

async function importThenServe(file: string, check: (get: (pathname: string) => Promise<any>, stdout: string) => Promise<void>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-import-'));
  try {
    const { stdout } = await run(process.execPath, [bin, 'import', 'wpi', file], { env: { ...process.env, LAMIS_DATA_DIR: dataDir } });
    const server = await startTestServer({ config: { dataDir } });
    try {
      await check(async (pathname) => json(await fetch(server.url + pathname, { headers: AUTH })), stdout);
    } finally {
      await server.app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('rows imported with the command are served after a start, each field with its source', { timeout: 60_000 }, async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'lamis-import-file-'));
  const file = path.join(folder, 'UpdatedPub150.csv');
  writeFileSync(file, WPI_CSV);
  try {
    await importThenServe(file, async (get, stdout) => {
      assert.match(stdout, /^World Port Index: 3 ports from UpdatedPub150\.csv/);
      const alpha = await get('/v3/maritime/ports/NLALP');
      assert.deepEqual([alpha.name, alpha.wpi_number, alpha.harbour_size, alpha.channel_depth_m, alpha.sources.channel_depth_m], ['Port Alpha', 90010, 'large', 12.5, 'wpi']);
      assert.deepEqual((await get('/v3/maritime/ports?q=alfa')).data.map((port: { id: string }) => port.id), ['NLALP']);
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

const published = sharedFile('data/ports/UpdatedPub150.csv');
test('the published World Port Index: more than 2,800 ports served with their WPI data', { skip: published.skip, timeout: 120_000 }, async () => {
  await importThenServe(published.path!, async (get, stdout) => {
    const imported = Number(/^World Port Index: (\d+) ports/.exec(stdout)?.[1]);
    assert.ok(imported > 2800, stdout.split('\n')[0]);
    let withWpi = 0;
    let cursor: string | null = null;
    do {
      const page: { data: { wpi_number: number | null }[]; next_cursor: string | null } = await get(`/v3/maritime/ports?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      withWpi += page.data.filter((port) => port.wpi_number !== null).length;
      cursor = page.next_cursor;
    } while (cursor !== null);
    assert.equal(withWpi, imported, 'every imported port is served');
    const rotterdam = await get('/v3/maritime/ports/NLRTM');
    assert.deepEqual([rotterdam.wpi_number, rotterdam.harbour_size, rotterdam.approach_area.radius_nm], [31140, 'large', 10]);
    assert.equal((await get('/v3/maritime/ports/WPI-50000')).id, 'SGSIN', 'the WPI\'s Keppel (SGKEP) is Singapore\'s harbour');
  });
});
