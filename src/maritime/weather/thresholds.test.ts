// Port weather limits in storage, on SQLite and (when configured) PostgreSQL: layers, replacing,
// removing, and organisations kept apart.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { STORAGE_BACKENDS, type StorageHandle } from '../../../test/support/backends.ts';
import { loadPorts } from '../ports/ports.ts';
import { DEFAULT_THRESHOLDS } from './holds.ts';
import { portWeatherMigration } from '../migrations/0012_port_weather.ts';
import { INSTANCE_OWNER, PortWeatherThresholdStore } from './thresholds.ts';

const ports = await loadPorts({ dataDir: mkdtempSync(path.join(tmpdir(), 'lamis-thresholds-')) });
const rotterdam = ports.get('NLRTM')!;
const hamburg = ports.get('DEHAM')!;
const unset = { wind_kn: null, gust_kn: null, wave_height_m: null, visibility_m: null };

for (const backend of STORAGE_BACKENDS) {
  describe(`port weather limits on ${backend.name}`, { skip: backend.skip }, () => {
    let storage: StorageHandle;
    let store: PortWeatherThresholdStore;
    before(async () => {
      storage = await backend.open([portWeatherMigration]);
      store = new PortWeatherThresholdStore(storage.database);
    });
    after(() => storage?.cleanup());

    it('starts from the defaults for the harbour size and shelter', async () => {
      // The built-in World Port Index: Rotterdam is a large harbour with fair shelter (no adjustment).
      const layers = await store.layers(rotterdam, 'org_a');
      assert.equal(layers.defaults_basis, 'large, fair shelter');
      assert.deepEqual(layers.effective.values, DEFAULT_THRESHOLDS.large);
      assert.equal(layers.instance, null);
      assert.equal(layers.organisation, null);
    });

    it('lets the instance-wide values replace defaults, and an organisation\'s replace both, limit by limit', async () => {
      await store.write(INSTANCE_OWNER, rotterdam.id, { ...unset, wind_kn: 30, wave_height_m: 2.75 });
      await store.write('org_a', rotterdam.id, { ...unset, wind_kn: 28.5, visibility_m: 800 });
      const a = await store.layers(rotterdam, 'org_a');
      assert.deepEqual(a.effective.values, { wind_kn: 28.5, gust_kn: a.defaults.gust_kn, wave_height_m: 2.75, visibility_m: 800 });
      assert.deepEqual(a.effective.sources, { wind_kn: 'organisation', gust_kn: 'default', wave_height_m: 'instance', visibility_m: 'organisation' });
      assert.deepEqual(a.organisation!.values, { ...unset, wind_kn: 28.5, visibility_m: 800 });
      assert.match(a.organisation!.updated_at, /^\d{4}-\d\d-\d\dT/);

      const b = await store.layers(rotterdam, 'org_b');
      assert.equal(b.organisation, null, 'another organisation does not see org_a\'s values');
      assert.deepEqual(b.effective.values, { ...b.defaults, wind_kn: 30, wave_height_m: 2.75 });
      const operator = await store.layers(rotterdam, null);
      assert.equal(operator.organisation, null);
      assert.equal(operator.effective.values.wind_kn, 30);
      assert.equal((await store.layers(hamburg, 'org_a')).instance, null, 'values belong to their port');
    });

    it('replaces a layer as a whole, and removes it when every limit is null', async () => {
      await store.write('org_c', rotterdam.id, { ...unset, gust_kn: 41 });
      await store.write('org_c', rotterdam.id, { ...unset, wind_kn: 33 });
      assert.deepEqual((await store.layers(rotterdam, 'org_c')).organisation!.values, { ...unset, wind_kn: 33 });
      await store.write('org_c', rotterdam.id, unset);
      assert.equal((await store.layers(rotterdam, 'org_c')).organisation, null);
      const rows = await storage.database.db.selectFrom('port_weather_thresholds').selectAll().where('owner', '=', 'org_c').execute();
      assert.deepEqual(rows, []);
    });
  });
}
