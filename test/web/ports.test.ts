// The ports pages in a real browser against a real server: a search as you type, a port page with
// its area, occupancy, congestion chart, arrivals, calls, weather holds and tide chart, the tidal
// windows for a draught shaded on the chart (over the port's channel depth, then over a depth given),
// a port that needs its charted depth given, a station under a NonCommercial licence, and an unknown port.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { skipBrowser, startDashboard, type Dashboard } from './support.ts';

describe('ports', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;

  before(async () => {
    dashboard = await startDashboard({ config: { aisSimulator: 'on', aisSimulatorVessels: 300 } });
  });
  after(() => dashboard?.close());

  test('search, then a port page with its tide chart and the tidal windows for a draught', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    await dashboard.signIn({ vehicle: 'vessel', identity: true });
    await page.goto(dashboard.url('/ports'));
    await page.getByRole('heading', { name: 'Ports', exact: true }).waitFor();
    await page.getByText('Find a port').waitFor();
    await page.getByLabel('Port', { exact: true }).fill('rotterd');
    const result = page.getByRole('link', { name: 'Rotterdam' }).first();
    await result.waitFor();
    assert.match(page.url(), /q=rotterd/);
    await dashboard.screenshot('ports-search', { phone: true });
    await page.getByRole('row').filter({ hasText: 'NLRTM' }).getByRole('link', { name: 'Rotterdam' }).click();

    await page.getByRole('heading', { name: 'Rotterdam', level: 1 }).waitFor();
    assert.match(page.url(), /\/ports\/NLRTM$/);
    // Occupancy, arrivals, calls and weather holds each load on their own.
    await page.locator('[data-capacity]').waitFor();
    await page.getByRole('meter').waitFor();
    await page.getByRole('heading', { name: 'Expected arrivals' }).waitFor();

    // The port area and how it was made; congestion with its hourly chart over the last week.
    const area = page.locator('[data-area-method]');
    assert.match(await area.getAttribute('data-area-method') ?? '', /^(base|seeded|evidence)$/);
    assert.match(await area.innerText(), /^Port area: A circle of \d+(\.\d)? nm round the port position/);
    assert.match(await page.locator('.port-facts').innerText(), /Port area[\s\S]*Anchorages · berth clusters seen\s*\d+ · \d+/);
    const congestion = page.locator('[data-waiting]');
    await congestion.waitFor();
    const congestionText = await congestion.innerText();
    assert.match(congestionText, /\d+ waiting for a berth[\s\S]*median wait, last 7 days[\s\S]*\d+% of berths taken \(\d+ of \d+\)/);
    const congestionChart = page.getByRole('img', { name: /Vessels waiting and at berth, hourly over the last 7 days/ });
    await congestionChart.waitFor();
    assert.equal(await congestionChart.getAttribute('data-hours'), String(7 * 24));
    assert.equal(await congestionChart.locator('.port-congestion-waiting').count(), 1);
    assert.match(await page.locator('.port-congestion-legend').innerText(), /Waiting for a berth[\s\S]*At berth/);
    const waiting = Number(await congestion.getAttribute('data-waiting'));
    if (waiting > 0) assert.equal(await page.getByRole('table', { name: 'Vessels waiting for a berth, longest first' }).locator('tbody tr').count(), Math.min(waiting, 200));
    await page.locator('[data-holds]').waitFor();
    // Rotterdam is a large harbour in the World Port Index: the large harbours' default limits.
    assert.match(await page.locator('#holds-title').locator('xpath=../..').innerText(), /Simulated weather[\s\S]*Mean wind above 35 kn/);

    // The tide: a curve with its high and low waters, the station, datum and licence.
    const chart = page.locator('svg[data-tide-chart]');
    await chart.waitFor();
    assert.ok(Number(await chart.getAttribute('data-extremes')) >= 3, 'a day holds at least three high or low waters');
    assert.equal(await chart.getAttribute('data-windows'), '0');
    const tides = page.locator('#tides-title').locator('xpath=../..');
    // The station nearest the World Port Index position of the port, in the city.
    assert.match(await tides.innerText(), /Station Parksluis[\s\S]*above LAT \(chart datum\)[\s\S]*TICON-4[\s\S]*cc-by-4\.0/);
    assert.match(await page.getByRole('table', { name: 'High and low waters' }).innerText(), /High water[\s\S]*Low water/);

    // With the draught alone, the windows are worked out over Rotterdam's World Port Index channel depth (11 m).
    await page.getByLabel('Draught (m)').fill('8');
    await page.getByRole('button', { name: 'Show tidal windows' }).click();
    await page.getByRole('table', { name: 'Tidal windows (shaded on the chart)' }).waitFor();
    assert.match(page.url(), /draught=8$/);

    // 8 m of draught over 8 m charted: in only while the tide gives the 0.8 m of clearance.
    await page.getByLabel(/Charted depth/).fill('8');
    // The windows over the channel depth stay on the page until these replace them.
    const answered = page.waitForResponse((response) => response.url().includes('/tidal-windows') && response.url().includes('charted_depth=8'));
    await page.getByRole('button', { name: 'Show tidal windows' }).click();
    await answered;
    await page.waitForURL(/charted_depth=8/);
    const windows = page.getByRole('table', { name: 'Tidal windows (shaded on the chart)' });
    await windows.waitFor();
    const shaded = Number(await chart.getAttribute('data-windows'));
    assert.ok(shaded >= 1, 'the windows are shaded on the chart');
    assert.equal(await windows.locator('tbody tr').count(), Number(await page.locator('[data-window-count]').getAttribute('data-window-count')));
    assert.equal(await chart.locator('.port-tide-window').count(), shaded);
    assert.equal(await chart.locator('.port-tide-needed').count(), 1, 'the height of tide needed is drawn');
    assert.match(await page.locator('[data-navigable]').innerText(), /needs 8\.80 m of water[\s\S]*at least 0\.80 m above LAT/);
    assert.match(page.url(), /draught=8&charted_depth=8/);
    await dashboard.screenshot('port', { phone: true });

    // A reload keeps the draught, and draws the same windows.
    await page.reload();
    await page.getByRole('table', { name: 'Tidal windows (shaded on the chart)' }).waitFor();
    assert.equal(await page.getByLabel('Draught (m)').inputValue(), '8');
    dashboard.assertClean();
  });

  test('a port without a channel depth on file needs the charted depth given', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    // The World Port Index gives Cardiff its cargo pier and anchorage depths, not its channel's.
    await page.goto(dashboard.url('/ports/GBCDF'));
    await page.getByLabel('Draught (m)').fill('8');
    await page.getByRole('button', { name: 'Show tidal windows' }).click();
    await page.getByText('The charted depth is needed').waitFor();
    await page.getByText(/gives no channel depth for Cardiff/).waitFor();
    dashboard.assertClean();
  });

  test('a tide station under a NonCommercial licence is flagged', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url('/ports/DEHAM'));
    const tides = page.locator('#tides-title').locator('xpath=../..');
    await page.getByText('Non-commercial use only').waitFor();
    assert.match(await tides.innerText(), /Station St Pauli[\s\S]*cc-by-nc-4\.0/);
    dashboard.assertClean();
  });

  test('an unknown port says so and leads back to the search', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url('/ports/ZZZZZ'));
    await page.getByText('LAMIS knows no port ZZZZZ').waitFor();
    await page.getByRole('link', { name: 'Search the ports' }).click();
    await page.getByRole('heading', { name: 'Ports', exact: true }).waitFor();
    dashboard.assertClean();
  });
});
