// The zone pages in a real browser (MapLibre in software WebGL) against a real server: a polygon
// drawn with the mouse on the map and named is saved, and a fleet vessel whose AIS reports
// (uploaded as NMEA) sail into it raises `vessel.zone_entered`, which the alerts inbox shows; a
// circle drawn, then typed with a radius the API refuses under its label; the list's map and
// table; a change to what a zone watches; a zone deleted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { track } from '../support/ais-track.ts';
import { json } from '../support/http.ts';
import { AUTH } from '../support/server.ts';
import { mapSettled, skipBrowser, startDashboard, type Dashboard } from './support.ts';

const WIDE = { width: 1440, height: 900 };
const MMSI = 244_660_555;
const CENTRE = { lat: 52.05, lon: 3.8 };

describe('dashboard zones', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;

  before(async () => {
    dashboard = await startDashboard();
    await dashboard.page.setViewportSize(WIDE);
  });
  after(() => dashboard?.close());

  /** Calls a data route with the key the dashboard made for itself. */
  async function asDashboard(method: string, pathname: string): Promise<any> {
    const secret = await dashboard.page.evaluate(() => JSON.parse(sessionStorage.getItem('lamis.dashboard-key') ?? '{}').secret as string);
    const response = await fetch(dashboard.server.url + pathname, { method, headers: { authorization: `Bearer ${secret}` } });
    assert.ok(response.ok, `${method} ${pathname}: ${response.status}`);
    return json(response);
  }

  /** The map's box once MapLibre has drawn it. */
  async function mapBox(page: Page) {
    await page.locator('.zone-map[data-map-ready]').waitFor();
    const box = await page.locator('.zone-map').boundingBox();
    assert.ok(box);
    return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
  }

  test('a polygon drawn on the map raises vessel.zone_entered for a fleet vessel sailing in', { timeout: 150_000 }, async () => {
    const { page } = dashboard;
    const user = await dashboard.signIn({ vehicle: 'vessel', plan: 'pro' });
    const vessel = await user.api.call('POST', `/v3/organisations/${user.orgId}/fleet/vehicles`, { vehicle_type: 'vessel', mmsi: MMSI });
    assert.equal(vessel.status, 201, await vessel.text());

    await page.goto(dashboard.url('/zones'));
    await page.getByText('No zones yet').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Zones' }).getAttribute('aria-current'), 'page');
    await page.getByRole('link', { name: 'Draw a zone' }).first().click();
    await page.getByRole('heading', { name: 'Draw a zone' }).waitFor();
    // Opened at the approaches to Rotterdam, as a link to a place would open it.
    await page.goto(dashboard.url(`/zones/new?lat=${CENTRE.lat}&lon=${CENTRE.lon}&zoom=9`));
    await mapBox(page);
    assert.equal(await page.getByRole('button', { name: 'Draw a polygon' }).getAttribute('aria-pressed'), 'true');

    // Saving with nothing drawn is refused beside the area.
    await page.getByRole('textbox', { name: /^Name/ }).fill('Maas approaches');
    await page.getByRole('button', { name: 'Save zone' }).click();
    await page.getByText('Area: Draw the area on the map, or type a circle below.').waitFor();
    // Where the map is now: pressing the button scrolled the page.
    const { x, y } = await mapBox(page);

    // Four corners about 0.16° either side of the centre, then the first again to close it.
    const corners = [[-120, -90], [120, -90], [120, 90], [-120, 90], [-120, -90]] as const;
    for (const [dx, dy] of corners) {
      await page.mouse.move(x + dx, y + dy, { steps: 4 });
      await page.mouse.click(x + dx, y + dy);
      await page.waitForTimeout(150);
    }
    await page.getByTestId('zone-area').getByText('Polygon, 4 corners').waitFor();
    await page.getByRole('textbox', { name: /^Description/ }).fill('Pilot boarding ground');
    await mapSettled(page, '.zone-map');
    await dashboard.screenshot('zone-drawn', { phone: true });
    await page.getByRole('button', { name: 'Save zone' }).click();
    await page.getByText('Maas approaches is saved: LAMIS watches it from now on.').waitFor();
    await page.getByRole('heading', { name: 'Maas approaches' }).waitFor();

    const [zone] = (await asDashboard('GET', '/v3/zones')).data;
    assert.equal(zone.name, 'Maas approaches');
    assert.equal(zone.description, 'Pilot boarding ground');
    assert.deepEqual(zone.applies_to, { fleet: true });
    assert.equal(zone.geometry.type, 'Polygon');
    const ring: [number, number][] = zone.geometry.coordinates[0];
    assert.equal(ring.length, 5);
    assert.deepEqual(ring[0], ring[4]);
    const lons = ring.map(([lon]) => lon);
    const lats = ring.map(([, lat]) => lat);
    // 240 px across at zoom 9 is 0.33° of longitude; 180 px down is about 0.15° of latitude here.
    assert.ok(Math.abs(Math.max(...lons) - Math.min(...lons) - 0.3296) < 0.01, `longitudes ${lons}`);
    assert.ok(Math.min(...lons) < CENTRE.lon && Math.max(...lons) > CENTRE.lon && Math.min(...lats) < CENTRE.lat && Math.max(...lats) > CENTRE.lat, JSON.stringify(ring));
    assert.ok(Math.abs((Math.min(...lons) + Math.max(...lons)) / 2 - CENTRE.lon) < 0.005, 'the polygon is centred where it was drawn');
    assert.equal(page.url(), dashboard.url(`/zones/${zone.id}`));

    // The fleet vessel sails in from the west, as AIS sentences uploaded as NMEA.
    const now = Date.now();
    const nmea = track(Math.floor(now / 1000) * 1000, MMSI, [
      { voyage: { shiptype: 70, destination: 'NLRTM' }, ago: 240 },
      { lat: CENTRE.lat, lon: CENTRE.lon - 0.5, sog: 12, ago: 230 },
      { lat: CENTRE.lat, lon: CENTRE.lon, sog: 12, ago: 200 },
    ]);
    const upload = await fetch(`${dashboard.server.url}/v3/maritime/ais/nmea`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: nmea });
    assert.equal(upload.status, 200, await upload.text());
    let entered: any;
    for (const deadline = Date.now() + 15_000; !entered && Date.now() < deadline;) {
      entered = (await asDashboard('GET', '/v3/events?kind=vessel.zone_entered')).data[0];
      if (!entered) await page.waitForTimeout(250);
    }
    assert.ok(entered, 'no vessel.zone_entered within 15 s');
    assert.equal(entered.subject.zone_id, zone.id);
    assert.equal(entered.subject.mmsi, MMSI);
    assert.equal(entered.data.zone_name, 'Maas approaches');

    // And the inbox says so.
    await page.goto(dashboard.url('/alerts'));
    const alert = page.locator(`article.event-card[data-event="${entered.id}"]`);
    await alert.waitFor();
    assert.match(await alert.innerText(), /Vessel entered a zone[\s\S]*Maas approaches/);
    assert.equal(await alert.getByRole('link', { name: 'The zone', exact: true }).getAttribute('href'), `/zones/${zone.id}`);
    await dashboard.screenshot('zone-alert');
    dashboard.assertClean();
  });

  test('a circle drawn and typed, the list\'s map, a changed watch, a zone deleted', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url(`/zones/new?lat=${CENTRE.lat + 0.3}&lon=${CENTRE.lon}&zoom=9`));
    const { x, y } = await mapBox(page);
    await page.getByRole('button', { name: 'Draw a circle' }).click();
    assert.equal(await page.locator('.zone-map').getAttribute('data-tool'), 'circle');
    await page.mouse.move(x, y, { steps: 2 });
    await page.mouse.click(x, y);
    await page.mouse.move(x + 60, y, { steps: 6 });
    await page.mouse.move(x + 100, y, { steps: 6 });
    await page.mouse.click(x + 100, y);
    const area = page.getByTestId('zone-area');
    await area.getByText(/^Circle, [\d.]+ nm radius$/).waitFor();
    // 100 px at zoom 9 is 0.137° of longitude: at 52.35° N about 5.03 nm.
    const radius = Number(/Circle, ([\d.]+) nm/.exec(await area.innerText())![1]);
    assert.ok(Math.abs(radius - 5.03) < 0.15, `radius ${radius} nm`);
    const lat = Number(await page.getByRole('textbox', { name: /^Centre latitude/ }).inputValue());
    const lon = Number(await page.getByRole('textbox', { name: /^Centre longitude/ }).inputValue());
    assert.ok(Math.abs(lat - (CENTRE.lat + 0.3)) < 0.003 && Math.abs(lon - CENTRE.lon) < 0.003, `centre ${lat}, ${lon}`);

    // Typed: a radius beyond the API's limit comes back under the field, named by its label.
    await page.getByRole('textbox', { name: /^Radius \(nm\)/ }).fill('600');
    await page.getByRole('button', { name: 'Use this circle' }).click();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Outer anchorage');
    await page.getByRole('button', { name: 'Save zone' }).click();
    const radiusError = page.locator('.field:has(input) .field-error').filter({ hasText: /^Radius \(nm\): / });
    await radiusError.waitFor();
    assert.equal(await page.getByRole('textbox', { name: /^Radius \(nm\)/ }).getAttribute('aria-invalid'), 'true');
    await mapSettled(page, '.zone-map');
    await dashboard.screenshot('zone-circle-error');
    await page.getByRole('textbox', { name: /^Radius \(nm\)/ }).fill('3');
    await page.getByRole('button', { name: 'Use this circle' }).click();
    await area.getByText('Circle, 3 nm radius').waitFor();
    await page.getByRole('button', { name: 'Save zone' }).click();
    await page.getByText('Outer anchorage is saved').waitFor();

    // Both on the list's map and in its table.
    await page.goto(dashboard.url('/zones'));
    await page.locator('.zone-map[data-map-ready]').waitFor();
    const rows = page.locator('tbody tr');
    await rows.nth(1).waitFor();
    assert.match(await rows.nth(0).innerText(), /Maas approaches[\s\S]*Polygon, 4 corners[\s\S]*Your fleet/);
    assert.match(await rows.nth(1).innerText(), /Outer anchorage[\s\S]*Circle, 3 nm radius/);
    await mapSettled(page, '.zone-map');
    await dashboard.screenshot('zones', { phone: true });

    // What the first watches: tankers under the Dutch flag too.
    await page.getByRole('link', { name: 'Maas approaches' }).click();
    await page.getByRole('button', { name: 'Save changes' }).waitFor();
    await page.getByLabel('Tanker', { exact: true }).check();
    await page.getByRole('textbox', { name: /^Other vessels under these flags/ }).fill('nl');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Maas approaches is saved.').waitFor();
    const changed = (await asDashboard('GET', '/v3/zones')).data.find((zone: any) => zone.name === 'Maas approaches');
    assert.deepEqual(changed.applies_to, { fleet: true, categories: ['TANKER'], flags: ['NL'] });
    assert.equal(changed.geometry.type, 'Polygon', 'the area is unchanged');
    await mapSettled(page, '.zone-map');
    await dashboard.screenshot('zone-edit', { phone: true });

    // The circle, deleted after a second press.
    await page.goto(dashboard.url('/zones'));
    await page.getByRole('link', { name: 'Outer anchorage' }).click();
    await page.getByRole('button', { name: 'Delete zone' }).click();
    await page.getByRole('button', { name: 'Delete zone' }).last().click();
    await page.getByRole('heading', { name: 'Zones' }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    assert.equal(await page.locator('tbody tr').count(), 1);
    assert.deepEqual((await asDashboard('GET', '/v3/zones')).data.map((zone: any) => zone.name), ['Maas approaches']);
    dashboard.assertClean();
  });
});
