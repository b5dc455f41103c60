// The live map in a real browser against a real server with the AIS simulator on: vessels arrive
// over the WebSocket stream and move, filtering by type draws fewer, clicking a vessel opens its
// details and track, and a Starter organisation is told which plans include the stream.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { AUTH } from '../support/server.ts';
import { json } from '../support/http.ts';
import { skipBrowser, startDashboard, type Dashboard } from './support.ts';

/** Vessels the map's canvas shows (its test hook). */
async function drawnVessels(page: Page): Promise<number> {
  return Number(await page.locator('.map-stage').getAttribute('data-drawn-vessels') ?? 0);
}

async function waitForDrawn(page: Page, test: (count: number) => boolean, message: string, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const count = await drawnVessels(page);
    if (test(count)) return count;
    if (Date.now() > deadline) throw new Error(`${message} (the map draws ${count} vessels)`);
    await page.waitForTimeout(250);
  }
}

/** The vessel layer's pixels, without the basemap under it. */
function vesselLayer(page: Page): Promise<string> {
  return page.locator('canvas.map-vessels').evaluate((canvas) => (canvas as unknown as { toDataURL(): string }).toDataURL());
}

describe('live map', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;

  before(async () => {
    dashboard = await startDashboard({ config: { aisSimulator: 'on', aisSimulatorVessels: 300 } });
  });
  after(() => dashboard?.close());

  test('a Starter organisation is told that the stream needs Pro or Enterprise', { timeout: 90_000 }, async () => {
    const { page } = dashboard;
    await dashboard.signIn({ vehicle: 'vessel' });
    await page.goto(dashboard.url('/map'));
    await page.getByRole('heading', { name: 'Live map' }).waitFor();
    const refusal = page.getByRole('alert').filter({ hasText: 'No live stream' });
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /Starter plan does not include[\s\S]*Pro and Enterprise/);
    assert.equal(await refusal.getByRole('link', { name: 'See the plans' }).getAttribute('href'), '/settings/plan');
    await page.locator('[data-stream-phase="refused"]').waitFor();
    await dashboard.screenshot('map-starter');
    dashboard.assertClean();
  });

  test('vessels appear and move, a type filter draws fewer, a click shows the details', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    // What the page sends on the stream: the auth message, then its subscriptions.
    const sent: any[] = [];
    page.on('websocket', (socket) => socket.on('framesent', ({ payload }) => sent.push(JSON.parse(String(payload)))));
    const subscription = async (test: (message: any) => boolean, what: string) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = sent.findLast((message) => message.type === 'subscribe');
        if (found && test(found)) return found;
        if (Date.now() > deadline) throw new Error(`no subscription ${what}; the last: ${JSON.stringify(found)}`);
        await page.waitForTimeout(100);
      }
    };
    await dashboard.signIn({ vehicle: 'vessel', identity: true, plan: 'pro' });
    await page.goto(dashboard.url('/map'));
    await page.locator('[data-stream-phase="live"]').waitFor();
    assert.match(await page.locator('.map-stream-status').innerText(), /Connected[\s\S]*Pro plan/);
    const all = await waitForDrawn(page, (count) => count >= 150, 'the simulated vessels did not appear');
    assert.equal(sent[0].type, 'auth', 'a browser sends its key in the first message');
    // The whole world is on the map, so the first subscription is to every vessel.
    await subscription((message) => Object.keys(message).length === 1, 'to everything');
    const first = await vesselLayer(page);
    await dashboard.screenshot('map');
    // Vessels under way report every 2 to 10 s: a few seconds later the layer is drawn anew.
    await page.waitForFunction((before) => {
      const canvas = (globalThis as any).document.querySelector('canvas.map-vessels');
      return canvas.toDataURL() !== before;
    }, first, { timeout: 20_000, polling: 500 });
    await dashboard.screenshot('map-later');
    assert.match(await page.locator('.map-stream-status').innerText(), /[1-9][\d.]* updates\/s/);

    // Paused, the map holds still while updates wait; resumed, they are drawn.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.locator('.map-stream-status').getByText('Paused').waitFor();
    const frozen = await vesselLayer(page);
    await page.getByRole('button', { name: /^Resume \(\d+ waiting\)$/ }).waitFor();
    assert.equal(await vesselLayer(page), frozen, 'the map changed while paused');
    await page.getByRole('button', { name: /^Resume/ }).click();
    await page.locator('.map-stream-status').getByText('Connected').waitFor();

    // Only tankers and cargo ships: fewer vessels, none of the others.
    await page.getByRole('button', { name: 'None', exact: true }).click();
    await waitForDrawn(page, (count) => count === 0, 'with no type chosen the map still draws vessels');
    assert.ok(await page.getByText('No type is chosen').isVisible());
    await page.getByLabel('Cargo').check();
    await page.getByLabel('Tanker').check();
    await subscription((message) => message.vesselTypes?.sort().join() === 'CARGO,TANKER', 'to cargo ships and tankers');
    const some = await waitForDrawn(page, (count) => count > 0 && count < all, 'cargo ships and tankers did not show alone');
    // Those arriving later pass the same filter on the server.
    await page.waitForTimeout(3000);
    assert.ok(await drawnVessels(page) < all, `${await drawnVessels(page)} drawn of ${all} (${some} just after filtering)`);
    await dashboard.screenshot('map-filtered');
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await waitForDrawn(page, (count) => count > some, 'choosing every type again did not bring the others back');

    // Over the antimeridian, the visible area is one box from east of 180° to west of it.
    await page.goto(dashboard.url('/map?lat=-17&lon=180&zoom=5'));
    const fiji = await subscription((message) => message.bbox?.minLon > message.bbox?.maxLon, 'across the antimeridian');
    assert.ok(fiji.bbox.minLon > 140 && fiji.bbox.maxLon < -140 && fiji.bbox.minLat < -17 && fiji.bbox.maxLat > -17, JSON.stringify(fiji.bbox));

    // A moored vessel, from the API, in the middle of the map at harbour zoom: click it.
    let moored: any;
    let cursor: string | null = null;
    do {
      const found = await json(await fetch(`${dashboard.server.url}/v3/maritime/vessels?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: AUTH }));
      moored = found.data.find((vessel: any) => vessel.position && (vessel.position.sog ?? 0) < 0.1 && vessel.position.nav_status === 5);
      cursor = found.next_cursor;
    } while (!moored && cursor);
    assert.ok(moored, 'the simulator has no moored vessel');
    await page.goto(dashboard.url(`/map?lat=${moored.position.lat}&lon=${moored.position.lon}&zoom=12`));
    await page.locator('[data-stream-phase="live"]').waitFor();
    await waitForDrawn(page, (count) => count >= 1, 'the moored vessel is not drawn');
    const stage = await page.locator('.map-stage').boundingBox();
    assert.ok(stage);
    await page.mouse.click(stage.x + stage.width / 2, stage.y + stage.height / 2);
    const panel = page.locator(`[data-vessel-panel="${moored.mmsi}"]`);
    await panel.waitFor();
    await panel.getByText(String(moored.mmsi), { exact: true }).waitFor();
    await panel.getByText(/track points? since/).waitFor();
    assert.match(await panel.innerText(), /Moored/);
    assert.match(await panel.innerText(), /Simulated/);
    // The address keeps the view, so this map can be shared or reloaded.
    assert.match(page.url(), /zoom=12/);
    await dashboard.screenshot('map-vessel', { phone: true });
    await page.getByRole('button', { name: 'Close the vessel details' }).click();
    await panel.waitFor({ state: 'detached' });

    // Keyboard: the map takes focus, the arrows move it and - zooms out.
    await page.locator('.map-stage').focus();
    const before = page.url();
    await page.keyboard.press('-');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((address) => (globalThis as any).location.href !== address, before);
    assert.match(page.url(), /zoom=11\.00/);
    // Without a pointer: the vessels nearest the centre are buttons that open the same details.
    await page.getByText('Vessels near the centre').click();
    const nearest = page.locator('.map-nearby-list button').first();
    await nearest.waitFor();
    await nearest.focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-vessel-panel]').waitFor();
    dashboard.assertClean();
  });
});
