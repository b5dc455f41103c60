// A port page's map in a real browser (MapLibre in software WebGL) against a real server: two
// vessels anchor off Rotterdam and one goes alongside, as AIS tracks uploaded as NMEA; the page
// draws the port's area with the anchorage and the berth cluster LAMIS learned from those stops,
// each counted in the legend, and links to the zone editor at the port.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { wpiEntry } from '../../src/maritime/ports/fixtures.ts';
import { saveImport } from '../../src/maritime/ports/store.ts';
import { rotterdamAnchorageTracks } from '../support/ais-track.ts';
import { AUTH } from '../support/server.ts';
import { mapSettled, SCREENSHOTS, skipBrowser, startDashboard, type Dashboard } from './support.ts';

const ROTTERDAM = { lat: 51.9, lon: 4.4833 };

describe('a port page\'s area map', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;

  before(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-web-port-area-'));
    await saveImport(dataDir, 'wpi', 'test rows', [
      wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', ...ROTTERDAM, harbour_size: 'large', harbour_type: 'river_basins' }),
    ]);
    dashboard = await startDashboard({ config: { dataDir } });
    await dashboard.page.setViewportSize({ width: 1440, height: 900 });
  });
  after(() => dashboard?.close());

  test('the area, the anchorage and the berth cluster learned from AIS stops', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    const base = Math.floor(Date.now() / 1000) * 1000;
    const upload = async (text: string) => {
      const response = await fetch(`${dashboard.server.url}/v3/maritime/ais/nmea`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: text });
      assert.equal(response.status, 200, await response.text());
    };
    for (const text of rotterdamAnchorageTracks(base)) await upload(text);

    await dashboard.signIn({ vehicle: 'vessel', plan: 'pro' });
    await page.goto(dashboard.url('/ports/NLRTM'));
    await page.getByRole('heading', { name: 'Rotterdam', level: 1 }).waitFor();
    const map = page.locator('.port-area-map[data-map-ready]');
    await map.waitFor();
    assert.equal(await map.getAttribute('data-anchorages'), '1');
    assert.equal(await map.getAttribute('data-berth-clusters'), '1');
    const legend = page.locator('.port-area-legend');
    assert.match(await legend.innerText(), /Anchorages seen: 1[\s\S]*Berth clusters seen: 1/);
    assert.equal(await page.locator('[data-area-method]').getAttribute('data-area-method'), 'evidence');
    const link = page.getByRole('link', { name: 'Draw a zone of your own here' });
    assert.equal(await link.getAttribute('href'), `/zones/new?lat=${ROTTERDAM.lat}&lon=${ROTTERDAM.lon}&zoom=10`);
    await map.scrollIntoViewIfNeeded();
    await mapSettled(page, '.port-area-map');
    await page.locator('#facts-title').locator('xpath=ancestor::section').screenshot({ path: path.join(SCREENSHOTS, 'port-area.png') });
    await dashboard.screenshot('port-area-page', { phone: true });

    await link.click();
    await page.getByRole('heading', { name: 'Draw a zone' }).waitFor();
    await page.locator('.zone-map[data-map-ready]').waitFor();
    dashboard.assertClean();
  });
});
