// `lamis import` and `lamis data sync`: run() in a process of its own, so the test reads the real
// standard output and exit code; downloads come from a loopback HTTP server in this process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.ts';
import { startEndlessUpstream } from '../test/support/endless-upstream.ts';
import { waitFor } from './maritime/feeds/testing.ts';
import { testConfig } from '../test/support/server.ts';
import { UsageError } from './platform/command.ts';
import { dataCommand, importCommand } from './data.command.ts';
import { UNLOCODE_CSV, WPI_CSV, zipOf } from './maritime/ports/fixtures.ts';
import { loadPorts } from './maritime/ports/ports.ts';
import { importFile } from './maritime/ports/store.ts';
import { loadAirports } from './aviation/reference/airports.ts';
import { FREQUENCIES_CSV, NAVAIDS_CSV, RUNWAYS_CSV } from './aviation/reference/ourairports-fixtures.ts';
import { syncedOurAirportsFile } from './aviation/reference/ourairports.ts';
import { NAVDAT_810 } from './aviation/navdata/fixtures.ts';
import { NavData } from './aviation/navdata/navdata.ts';
import { navDataFile } from './aviation/navdata/store.ts';

type Run = { code: number; stdout: string; stderr: string };

function run(command: 'importCommand' | 'dataCommand', config: Config, positionals: string[], values: Record<string, string | boolean> = {}): Promise<Run> {
  const module = JSON.stringify(fileURLToPath(new URL('./data.command.ts', import.meta.url)));
  const script = `
    import { ${command} as command } from ${module};
    const [config, positionals, values] = JSON.parse(process.argv[1]);
    process.exitCode = await command.run({ config, positionals, values });`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([config, positionals, values])], (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

const files = mkdtempSync(path.join(tmpdir(), 'lamis-port-files-'));
const wpiFile = path.join(files, 'UpdatedPub150.csv');
const unlocodeZip = path.join(files, 'loc991csv.zip');
writeFileSync(wpiFile, WPI_CSV);
writeFileSync(unlocodeZip, zipOf([
  { name: '2099-1 UNLOCODE CodeListPart1.csv', data: Buffer.from(UNLOCODE_CSV, 'latin1') },
  { name: '2099-1 SubdivisionCodes.csv', data: Buffer.from('"NL","ZH","Zuid-Holland","Province"\n') },
]));
after(() => rmSync(files, { recursive: true, force: true }));

describe('lamis import', () => {
  const config = testConfig();
  after(() => config.cleanup());

  test('wpi FILE saves the ports and reports rejected rows and dropped values by line', async () => {
    const result = await run('importCommand', config, ['wpi', wpiFile]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.split('\n');
    assert.equal(lines[0], `World Port Index: 3 ports from UpdatedPub150.csv, saved to ${importFile(config.dataDir, 'wpi')}.`);
    assert.match(result.stdout, /Rows rejected \(4\):\n {4}UpdatedPub150\.csv line 5: WPI number 90010 again/);
    assert.match(result.stdout, /Rows kept without a value \(1\):\n {4}UpdatedPub150\.csv line 4: WPI 90020\.5: UN\/LOCODE USCHX/);
    assert.match(result.stdout, /Restart the service/);
    assert.equal((await loadPorts({ dataDir: config.dataDir })).get('NLALP')?.wpi_number, 90010);
  });

  test('unlocode FILE reads the CodeListPart files of a release ZIP; --json gives the report', async () => {
    const result = await run('importCommand', config, ['unlocode', unlocodeZip], { json: true });
    assert.equal(result.code, 0, result.stderr);
    const [report] = JSON.parse(result.stdout) as [{ source: string; ports: number; rejected: { file: string; line: number }[]; skipped: unknown }];
    assert.equal(report.source, 'unlocode');
    assert.equal(report.ports, 2);
    assert.deepEqual(report.skipped, { not_port: 1, no_coordinates: 1, withdrawn: 2 });
    assert.deepEqual(report.rejected.map((row) => [row.file, row.line]), [8, 9, 10].map((line) => ['2099-1 UNLOCODE CodeListPart1.csv', line]));
    assert.equal((await loadPorts({ dataDir: config.dataDir })).get('NLAAA')?.name, 'Aaahaven');
  });

  test('a file in the wrong format or one that cannot be read fails with exit code 1 and saves nothing', async () => {
    const fresh = testConfig();
    try {
      const wrong = await run('importCommand', fresh, ['wpi', unlocodeZip]);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /^lamis import: loc991csv\.zip: not a World Port Index CSV/);
      const missing = await run('importCommand', fresh, ['unlocode', path.join(files, 'nothing.csv')]);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /cannot read .*nothing\.csv: ENOENT/);
      const empty = path.join(files, 'empty-part.csv');
      writeFileSync(empty, ',"NL",,".NETHERLANDS",,,,,,,,\n');
      assert.match((await run('importCommand', fresh, ['unlocode', empty])).stderr, /empty-part\.csv: no ports found; nothing saved/);
      assert.equal(existsSync(path.join(fresh.dataDir, 'ports')), false);
    } finally {
      fresh.cleanup();
    }
  });

  test('usage errors name what is wrong', async () => {
    const usage = (positionals: string[]) => assert.rejects(importCommand.run({ config, positionals, values: {} }), UsageError);
    await usage([]);
    await usage(['ports', wpiFile]);
    await usage(['wpi']);
    await usage(['wpi', wpiFile, wpiFile]);
  });
});

describe('lamis import navdata', () => {
  const navdatGz = path.join(files, 'nav.dat.gz');
  writeFileSync(navdatGz, gzipSync(Buffer.from(NAVDAT_810)));

  test('FILE (gzip) saves the ILS and localizers, reports counts and rejected lines by number', async () => {
    const config = testConfig();
    try {
      const result = await run('importCommand', config, ['navdata', navdatGz]);
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.split('\n');
      assert.equal(lines[0], `Navigation data: 3 ILS and 1 other localizers at 1 airports from nav.dat.gz (format 810, data cycle 2099.01), saved to ${navDataFile(config.dataDir)}.`);
      assert.equal(lines[1], '  Also read, not kept: 2 glide slopes (joined to their ILS), 1 marker beacons, 1 DME, 1 VOR, 1 NDB, 0 other rows.');
      assert.equal(lines[2], '  Lines rejected (6):');
      assert.match(lines[3]!, /^ {4}nav\.dat\.gz line 14: latitude "91\.00000000"/);
      assert.equal(lines[8], '    nav.dat.gz line 19: unknown row code 42');
      assert.match(result.stdout, /Restart the service/);
      const { navdata } = await NavData.load(config.dataDir);
      assert.deepEqual(navdata.at('KJFK')?.map((system) => `${system.runway} ${system.kind} ${system.category ?? '-'}`), ['04R ILS III', '04L ILS I', '13L ILS II', '22L LOC -']);
    } finally {
      config.cleanup();
    }
  });

  test('--json gives every rejected line', async () => {
    const config = testConfig();
    try {
      const result = await run('importCommand', config, ['navdata', navdatGz], { json: true });
      const [report] = JSON.parse(result.stdout) as [{ source: string; version: number; counts: { ils: number }; rejected: { line: number }[] }];
      assert.deepEqual([report.source, report.version, report.counts.ils], ['navdata', 810, 3]);
      assert.deepEqual(report.rejected.map((row) => row.line), [14, 15, 16, 17, 18, 19]);
    } finally {
      config.cleanup();
    }
  });

  test('a file that is not nav.dat fails with exit code 1 and leaves the earlier import as it was', async () => {
    const config = testConfig();
    try {
      assert.equal((await run('importCommand', config, ['navdata', navdatGz])).code, 0);
      const before = statSync(navDataFile(config.dataDir)).mtimeMs;
      const wrong = await run('importCommand', config, ['navdata', wpiFile]);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /^lamis import: UpdatedPub150\.csv: not an X-Plane nav\.dat file: .*; nothing saved/);
      const empty = path.join(files, 'empty-nav.dat');
      writeFileSync(empty, 'I\n1100 Version - data cycle 2099\n2  51.5 -0.5 0 390 50 0.0 LLA ENRT EG TEST NDB\n99\n');
      assert.match((await run('importCommand', config, ['navdata', empty])).stderr, /empty-nav\.dat: no ILS or localizer found; nothing saved/);
      assert.equal(statSync(navDataFile(config.dataDir)).mtimeMs, before);
      assert.equal((await NavData.load(config.dataDir)).navdata.at('KJFK')?.length, 4);
    } finally {
      config.cleanup();
    }
  });
});

describe('lamis data sync', () => {
  let server: Server;
  let base: string;
  const served = new Map<string, Buffer>([
    ['/api/publications/download', Buffer.from(WPI_CSV)],
    ['/trade/locode/loc991csv.zip', readFileSync(unlocodeZip)],
    ['/ourairports-data/runways.csv', Buffer.from(RUNWAYS_CSV)],
    ['/ourairports-data/airport-frequencies.csv', Buffer.from(FREQUENCIES_CSV)],
    ['/ourairports-data/navaids.csv', Buffer.from(NAVAIDS_CSV)],
  ]);

  before(async () => {
    server = createServer((request, response) => {
      const body = served.get(new URL(request.url!, 'http://localhost').pathname);
      response.writeHead(body ? 200 : 404, { 'content-type': 'application/octet-stream' }).end(body ?? 'not here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const urls = () => ({
    'wpi-url': `${base}/api/publications/download?type=view&key=16920959/SFH00000/UpdatedPub150.csv`,
    'unlocode-url': `${base}/trade/locode/loc991csv.zip`,
    'ourairports-runways-url': `${base}/ourairports-data/runways.csv`,
    'ourairports-frequencies-url': `${base}/ourairports-data/airport-frequencies.csv`,
    'ourairports-navaids-url': `${base}/ourairports-data/navaids.csv`,
  });

  test('downloads every source and saves it', async () => {
    const config = testConfig();
    try {
      const result = await run('dataCommand', config, ['sync'], urls());
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^World Port Index: 3 ports from http:\/\/127\.0\.0\.1:\d+\/api\/publications\/download\?/);
      assert.match(result.stdout, /UN\/LOCODE: 2 ports from http:\/\/127\.0\.0\.1:\d+\/trade\/locode\/loc991csv\.zip/);
      assert.match(result.stdout, /UpdatedPub150\.csv line 5: WPI number 90010 again/);
      const ports = await loadPorts({ dataDir: config.dataDir });
      assert.equal(ports.meta.wpi?.entries, 3);
      assert.equal(ports.meta.unlocode?.entries, 2);
      const file = syncedOurAirportsFile(config.dataDir);
      assert.ok(result.stdout.includes(`OurAirports runways: 5 runways from ${base}/ourairports-data/runways.csv, saved to ${file}.\n  Rows rejected (1):\n    line 7: runway id "" is not a whole number`));
      assert.ok(result.stdout.includes(`OurAirports airport frequencies: 3 frequencies from ${base}/ourairports-data/airport-frequencies.csv, saved to ${file}.`));
      assert.ok(result.stdout.includes(`OurAirports navaids: 2 navaids from ${base}/ourairports-data/navaids.csv, saved to ${file}.`));
    } finally {
      config.cleanup();
    }
  });

  test('the airport index compiles again from synced OurAirports data, newer than the committed file', async () => {
    const config = testConfig();
    const cacheDir = path.join(config.dataDir, 'airport-cache');
    try {
      const committed = await loadAirports({ cacheDir, dataDir: config.dataDir });
      assert.equal(committed.get('EGLL')!.runways.find((runway) => runway.designator === '09L/27R')!.ends[1]!.displaced_threshold_ft, null);

      const result = await run('dataCommand', config, ['sync'], urls());
      assert.equal(result.code, 0, result.stderr);
      const synced = await loadAirports({ cacheDir, dataDir: config.dataDir });
      assert.deepEqual([synced.cache.status, synced.cache.reason], ['compiled', 'stale']);
      // The fixture gives 27R a displaced threshold the committed data does not have, and lists two Heathrow frequencies.
      assert.equal(synced.get('LHR')!.runways.find((runway) => runway.designator === '09L/27R')!.ends[1]!.displaced_threshold_ft, 500);
      assert.deepEqual(synced.frequencies('EGLL').map((frequency) => frequency.type), ['ATIS', 'TWR']);
      assert.equal((await loadAirports({ cacheDir, dataDir: config.dataDir })).cache.status, 'loaded');
    } finally {
      config.cleanup();
    }
  });

  test('an OurAirports download that is not its CSV file saves nothing', async () => {
    const config = testConfig();
    try {
      const result = await run('dataCommand', config, ['sync'], { ...urls(), 'ourairports-navaids-url': `${base}/ourairports-data/runways.csv` });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^lamis data sync: http:\/\/127\.0\.0\.1:\d+\/ourairports-data\/runways\.csv: not an OurAirports file: no "ident", "name", "type", "frequency_khz", "latitude_deg", "longitude_deg", "associated_airport" column; nothing saved$/m);
      assert.match(result.stdout, /OurAirports runways: 5 runways/);
    } finally {
      config.cleanup();
    }
  });

  test('offline: a clear message, exit code 1, and nothing changed', async () => {
    // A port that was just free and is closed again: connecting to it is refused, as with no network.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const unreachable = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const config = testConfig();
    try {
      const result = await run('dataCommand', config, ['sync'], {
        'wpi-url': `${unreachable}/wpi.csv`,
        'unlocode-url': `${unreachable}/loc.zip`,
        'ourairports-runways-url': `${unreachable}/runways.csv`,
        'ourairports-frequencies-url': `${unreachable}/airport-frequencies.csv`,
        'ourairports-navaids-url': `${unreachable}/navaids.csv`,
        timeout: '5',
      });
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 5);
      assert.match(lines[0]!, /^lamis data sync: cannot download the World Port Index from http:\/\/127\.0\.0\.1:\d+\/wpi\.csv: ECONNREFUSED.*Is this machine online\? Nothing was changed for it\.$/);
      assert.match(lines[1]!, /^lamis data sync: cannot download the UN\/LOCODE from .*\/loc\.zip: ECONNREFUSED/);
      assert.match(lines[2]!, /^lamis data sync: cannot download the OurAirports runways from .*\/runways\.csv: ECONNREFUSED/);
      assert.equal(existsSync(path.join(config.dataDir, 'ports')), false);
      assert.equal(existsSync(syncedOurAirportsFile(config.dataDir)), false);
    } finally {
      config.cleanup();
    }
  });

  test('a source that fails leaves the other one saved; HTTP errors are named', async () => {
    const config = testConfig();
    try {
      const result = await run('dataCommand', config, ['sync'], { ...urls(), 'unlocode-url': `${base}/trade/locode/loc000csv.zip` });
      assert.equal(result.code, 1);
      assert.match(result.stdout, /^World Port Index: 3 ports/);
      assert.match(result.stderr, /the UN\/LOCODE download at .*loc000csv\.zip answered HTTP 404 Not Found; nothing was changed for it\./);
      assert.ok(existsSync(importFile(config.dataDir, 'wpi')));
      assert.equal(existsSync(importFile(config.dataDir, 'unlocode')), false);
    } finally {
      config.cleanup();
    }
  });

  test('a download over its size limit is cut off, named, and changes nothing', async () => {
    const endless = await startEndlessUpstream({ contentType: 'text/csv' });
    const config = testConfig();
    try {
      const result = await run('dataCommand', config, ['sync'], { ...urls(), 'wpi-url': `${endless.url}/UpdatedPub150.csv`, 'max-mb': '1' });
      assert.equal(result.code, 1);
      assert.match(result.stdout, /^UN\/LOCODE: 2 ports/);
      assert.match(result.stderr, /^lamis data sync: the World Port Index download from http:\/\/127\.0\.0\.1:\d+\/UpdatedPub150\.csv is over the limit of 1 MiB \(--max-mb\); nothing was changed for it\.$/m);
      assert.equal(existsSync(importFile(config.dataDir, 'wpi')), false);
      await waitFor(() => endless.answers.length === 1, 'the upstream to see the connection close');
      assert.ok(!endless.answers[0]!.complete && endless.answers[0]!.sent < endless.ceilingBytes, JSON.stringify(endless.answers));
    } finally {
      config.cleanup();
      await endless.close();
    }
  });

  test('usage errors name what is wrong', async () => {
    const config = testConfig();
    try {
      const usage = (positionals: string[], values: Record<string, string>) =>
        assert.rejects(dataCommand.run({ config, positionals, values }), UsageError);
      await usage([], {});
      await usage(['pull'], {});
      await usage(['sync', 'now'], {});
      await usage(['sync'], { timeout: '0' });
      await usage(['sync'], { 'wpi-url': 'ftp://example.org/wpi.csv' });
      await usage(['sync'], { ...urls(), 'max-mb': '0' });
    } finally {
      config.cleanup();
    }
  });
});
