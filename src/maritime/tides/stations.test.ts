import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { stations as databaseStations } from '@neaps/tide-database';
import { haversineNm } from '../sea-routes/geo.ts';
import { commercialUseAllowed } from './station-lookup.ts';
import { createStationIndex, DEFAULT_MAX_DISTANCE_NM, loadTideStations } from './stations.ts';
import { refusedField } from './testing.ts';

const index = await loadTideStations();

describe('nearest suitable tide station', () => {
  it('finds the Southampton gauge for Southampton docks, on LAT, commercial use allowed', async () => {
    const match = await index.nearest({ lat: 50.897, lon: -1.399 });
    assert.ok(match);
    assert.match(match.station.name, /Southampton/);
    assert.ok(match.distance_nm < 2, `${match.distance_nm} nm`);
    assert.equal(match.station.chart_datum, 'LAT');
    assert.equal(match.station.licence.type, 'cc-by-4.0');
    assert.equal(match.station.commercial_use_allowed, true);
    assert.match(match.station.attribution, /TICON-4.*CC BY 4\.0/);
  });

  it('finds the Golden Gate reference station for San Francisco, on MLLW', async () => {
    const match = await index.nearest({ lat: 37.8063, lon: -122.4659 });
    assert.ok(match);
    assert.equal(match.station.id, 'noaa/9414290');
    assert.equal(match.station.type, 'reference');
    assert.equal(match.station.chart_datum, 'MLLW');
    assert.equal(match.station.licence.type, 'public domain');
    assert.equal(match.station.commercial_use_allowed, true);
  });

  it('flags the non-commercial Hoek van Holland gauge, and skips it when asked to', async () => {
    const point = { lat: 51.9775, lon: 4.12 };
    const match = await index.nearest(point);
    assert.ok(match);
    assert.match(match.station.name, /Hoek van Holland/);
    assert.ok(match.distance_nm < 1);
    assert.equal(match.station.licence.type, 'cc-by-nc-4.0');
    assert.equal(match.station.commercial_use_allowed, false);
    assert.match(match.station.attribution, /CC BY-NC 4\.0/);

    const commercial = await index.nearest(point, { commercial_use_only: true });
    assert.ok(commercial);
    assert.equal(commercial.station.commercial_use_allowed, true);
    assert.ok(commercial.distance_nm >= match.distance_nm && commercial.distance_nm < 5, `${commercial.distance_nm} nm`);
  });

  it('finds a Rotterdam station on LAT within a few miles of the city harbours', async () => {
    const match = await index.nearest({ lat: 51.905, lon: 4.49 });
    assert.ok(match);
    assert.ok(match.distance_nm < 5);
    assert.equal(match.station.country_code, 'NL');
    assert.equal(match.station.chart_datum, 'LAT');
  });

  it('answers null in mid-ocean, beyond the default radius of every station', async () => {
    assert.equal(DEFAULT_MAX_DISTANCE_NM, 50);
    assert.equal(await index.nearest({ lat: 35, lon: -40 }), null);
  });

  it('agrees with a search of every station, across the antimeridian and near the pole', async () => {
    const points = [
      { lat: -18.7, lon: 179.95 },
      { lat: -18.52, lon: -179.99 },
      { lat: 78.5, lon: 14 },
      { lat: 82, lon: -70 },
      { lat: 51.5, lon: -178.9 },
    ];
    for (const point of points) {
      let best: { id: string; distance: number } | null = null;
      for (const station of databaseStations) {
        if (await index.get(station.id) === null) continue;
        const distance = haversineNm(point.lat, point.lon, station.latitude, station.longitude);
        if (distance <= 200 && (best === null || distance < best.distance)) best = { id: station.id, distance };
      }
      assert.ok(best, `a station within 200 nm of ${JSON.stringify(point)}`);
      const match = await index.nearest(point, { max_distance_nm: 200 });
      assert.equal(match?.station.id, best.id, JSON.stringify(point));
      assert.ok(Math.abs(match.distance_nm - best.distance) < 1e-9);
    }
  });

  it('never answers with a current station or a tide station without datums', async () => {
    const current = databaseStations.find((station) => station.kind === 'current');
    const noDatums = databaseStations.find((station) => station.kind === 'tide' && station.datums.MSL === undefined);
    assert.ok(current && noDatums);
    for (const station of [current, noDatums]) {
      assert.equal(await index.get(station.id), null, station.id);
      const match = await index.nearest({ lat: station.latitude, lon: station.longitude });
      assert.notEqual(match?.station.id, station.id);
    }
  });

  it('names the field of bad input', () => {
    assert.equal(refusedField(() => index.nearest({ lat: 91, lon: 0 })), 'lat');
    assert.equal(refusedField(() => index.nearest({ lat: 0, lon: Number.NaN })), 'lon');
    assert.equal(refusedField(() => index.nearest({ lat: 0, lon: 0 }, { max_distance_nm: 500 })), 'max_distance_nm');
    assert.equal(refusedField(() => index.nearest({ lat: 0, lon: 0 }, { max_distance_nm: -1 })), 'max_distance_nm');
  });
});

describe('the stations thread', () => {
  it('reads the database on a thread of its own, never on the thread that asks', async () => {
    // A fresh process, as this file reads the database itself; its hooks see what its own thread loads.
    const script = `
      import { registerHooks } from 'node:module';
      const loaded = [];
      registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
      const { loadTideStations } = await import(${JSON.stringify(import.meta.resolve('./stations.ts'))});
      const match = await (await loadTideStations()).nearest({ lat: 50.897, lon: -1.399 });
      console.log(JSON.stringify({ station: match?.station.name, loaded }));`;
    // A file rather than --eval, whose --input-type the stations thread would inherit and refuse.
    const folder = await mkdtemp(join(tmpdir(), 'lamis-tides-'));
    const answer = await writeFile(join(folder, 'ask.mjs'), script)
      .then(() => new Promise<{ station: string; loaded: string[] }>((resolve, reject) => {
        execFile(process.execPath, [join(folder, 'ask.mjs')], (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout))));
      }))
      .finally(() => rm(folder, { recursive: true }));
    assert.match(answer.station, /Southampton/);
    assert.ok(answer.loaded.some((url) => url.endsWith('/tides/stations.ts')), 'the hooks saw the index load');
    assert.deepEqual(answer.loaded.filter((url) => url.includes('tide-database')), []);
  });

  it('ends its thread when nobody asks for a while, and starts another for the next question', async () => {
    const idle = createStationIndex(100);
    const southampton = await idle.nearest({ lat: 50.897, lon: -1.399 });
    assert.ok(southampton && idle.running());
    for (let waited = 0; idle.running() && waited < 10_000; waited += 50) await sleep(50);
    assert.equal(idle.running(), false);
    assert.equal((await idle.nearest({ lat: 50.9, lon: -1.4 }))?.station, southampton.station, 'the same object as before');
    assert.equal((await idle.get('noaa/9414290'))?.name, 'San Francisco (Golden Gate)');
    assert.ok(idle.running());
  });

  it('hands out one object per station, whichever way it was found', async () => {
    const byPosition = await index.nearest({ lat: 50.897, lon: -1.399 });
    assert.ok(byPosition);
    assert.equal(await index.get(byPosition.station.id), byPosition.station);
    assert.equal((await index.nearest({ lat: 50.9, lon: -1.4 }))?.station, byPosition.station);
  });
});

describe('station licence and datums', () => {
  it('forbids commercial use for NonCommercial licences, whatever the flag says', () => {
    assert.equal(commercialUseAllowed({ type: 'cc-by-nc-4.0', commercial_use: false }), false);
    assert.equal(commercialUseAllowed({ type: 'cc-by-nc-sa-4.0', commercial_use: true }), false);
    assert.equal(commercialUseAllowed({ type: 'CC-BY-NC-ND-4.0', commercial_use: true }), false);
    assert.equal(commercialUseAllowed({ type: 'cc-by-4.0', commercial_use: true }), true);
    assert.equal(commercialUseAllowed({ type: 'public domain', commercial_use: true }), true);
    assert.equal(commercialUseAllowed({ type: 'cc-by-4.0', commercial_use: false }), false);
  });

  it('gives every suitable station a licence, an attribution, and datums above its chart datum', async () => {
    let suitable = 0;
    let nonCommercial = 0;
    for (const raw of databaseStations) {
      const station = await index.get(raw.id);
      if (station === null) continue;
      suitable++;
      if (!station.commercial_use_allowed) nonCommercial++;
      assert.equal(station.commercial_use_allowed, raw.license.commercial_use && !raw.license.type.includes('-nc'), station.id);
      assert.ok(station.licence.type !== '' && station.licence.url.startsWith('http'), station.id);
      assert.ok(station.attribution.length > 0, station.id);
      assert.equal(station.datums[station.chart_datum], 0, station.id);
      assert.ok('MSL' in station.datums, station.id);
      for (const notLevel of ['GT', 'MN', 'HWI', 'LWI', 'DHQ', 'DLQ']) assert.ok(!(notLevel in station.datums), station.id);
    }
    assert.ok(suitable > 6000, `${suitable} suitable stations`);
    assert.ok(nonCommercial > 0);
  });
});
