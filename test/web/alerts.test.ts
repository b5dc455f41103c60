// Alerts in a real browser against a real server running the intelligence engine: an aircraft of
// the fleet with a 15 kt crosswind threshold, an arrival at EGLL planned on its page; an operator
// pushes a METAR with a strong north wind. The alert appears in the inbox and the header's count
// without a reload, is acknowledged, and has its own page. Then Home's fleet feed (a card per
// vehicle) and the e-mail choices with what each threshold raises.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { callOk, json } from '../support/http.ts';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { egllMetar } from '../support/metar.ts';
import { AUTH } from '../support/server.ts';
import type { WebSocketRoute } from 'playwright-core';
import { skipBrowser, startDashboard, type Dashboard, type TestUser } from './support.ts';

const KIND = 'landing.crosswind_above';
const WIDE = { width: 1440, height: 900 };

describe('dashboard alerts', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;
  let owner: TestUser;
  let vehicleId: string;
  let eventId: string;

  before(async () => {
    dashboard = await startDashboard();
  });
  after(() => dashboard?.close());

  const pushMetar = (metar: string) => callOk(dashboard.server.url, 'POST', '/v3/aviation/airports/EGLL/metar', metar, AUTH);
  const badge = () => dashboard.page.getByTestId('alerts-badge');
  const waitForCount = (count: number) => dashboard.page.waitForFunction(
    (want) => (globalThis as unknown as BrowserGlobals).document.querySelector('[data-testid="alerts-badge"]')?.getAttribute('data-count') === String(want), count);

  test('an arrival planned on the aircraft\'s page; a crosswind METAR raises an alert seen live, then acknowledged', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    await page.setViewportSize(WIDE);
    owner = await dashboard.signIn({ vehicle: 'aircraft', plan: 'pro' });
    vehicleId = (await answer(owner.api.call('POST', `/v3/organisations/${owner.orgId}/fleet/vehicles`, { vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320' }), 201)).id;
    await answer(owner.api.call('PUT', `/v3/organisations/${owner.orgId}/fleet/vehicles/${vehicleId}/notification-settings`, { thresholds: { crosswind_kt_above: 15 } }), 200);
    await pushMetar(egllMetar('27005KT', 10));

    // Planned on the vehicle's page: the destination and the ETA in UTC.
    await page.goto(dashboard.url(`/fleet/${vehicleId}`));
    await page.getByRole('heading', { name: 'Planned arrivals' }).waitFor();
    await page.getByText('No planned arrivals').waitFor();
    const form = page.getByRole('form', { name: 'Plan an arrival' });
    await form.getByRole('textbox', { name: /^Destination/ }).fill('egll');
    // Within the hour the METARs pushed below describe, so they decide the arrival's weather.
    await form.getByLabel('ETA (UTC)').fill(new Date(Date.now() + 30 * 60_000).toISOString().slice(0, 16));
    await form.getByRole('button', { name: 'Plan arrival' }).click();
    await page.getByText(/Arrival at EGLL at \d\d? [A-Z][a-z]{2} \d{4} \d\d:\d\d UTC planned/).waitFor();
    const planned = await answer(owner.api.call('GET', `/v3/organisations/${owner.orgId}/fleet/vehicles/${vehicleId}/arrivals`), 200);
    assert.deepEqual(planned.data.map((arrival: any) => arrival.destination_icao), ['EGLL']);
    await page.getByRole('list', { name: 'Planned arrivals' }).getByText('EGLL', { exact: true }).waitFor();
    await dashboard.screenshot('fleet-arrivals', { phone: true });

    // The inbox, calm: nothing needs attention, and the badge says 0.
    await page.goto(dashboard.url('/alerts'));
    await page.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
    await page.getByText('Nothing needs attention').waitFor();
    await waitForCount(0);
    await page.locator('.alerts-live').getByText('live').waitFor();

    // A north wind of 25 kt across EGLL's east-west runways: no reload from here on.
    await pushMetar(egllMetar('36025KT', 1));
    const key = { authorization: `Bearer ${await dataKeyOf(page)}` };
    const openEvents = async () => (await callOk(dashboard.server.url, 'GET', '/v3/events?state=open', undefined, key)).data as any[];
    await waitFor(async () => (await openEvents()).some((event) => event.kind === KIND), 'the crosswind event', 10_000);
    const event = (await openEvents()).find((candidate) => candidate.kind === KIND);
    eventId = event.id;
    const card = page.locator(`article.event-card[data-event="${eventId}"]`);
    await card.waitFor();
    // The runway change the same wind causes is an alert too: the badge counts every open one.
    const unacknowledged = (await openEvents()).filter((open) => open.acknowledged_at === null).length;
    await waitForCount(unacknowledged);
    assert.equal(await badge().getAttribute('aria-label'), `Alerts: ${unacknowledged} open, not acknowledged`);
    assert.equal(await page.locator('article.event-card').count(), unacknowledged);
    // Screen readers hear of a new alert.
    assert.match(await page.locator('.alerts-page p[aria-live="polite"]').innerText(), /^New (info|warning) alert: /);
    // The event's own sentence, what crossed which threshold, and where it leads.
    assert.equal(await card.getByRole('heading').innerText(), event.summary);
    assert.match(event.summary, /Crosswind 25 kt on runway \d\d[LR]? is above the 15 kt limit of G-EUPT/);
    assert.match(await card.innerText(), /Crosswind 25 kt, above the limit of 15 kt\./);
    assert.match(await card.innerText(), /Opened\s+\d\d? [A-Z][a-z]{2} \d{4} \d\d:\d\d UTC/);
    assert.equal(await card.getByRole('link', { name: 'Landing briefing for EGLL' }).getAttribute('href'), `/landing?icao=EGLL&vehicle=${vehicleId}`);
    assert.equal(await card.getByRole('link', { name: 'The vehicle' }).getAttribute('href'), `/fleet/${vehicleId}`);
    await dashboard.screenshot('alerts-inbox', { phone: true });

    // Filters go into the address and the API's query.
    await page.getByRole('combobox', { name: 'Severity' }).selectOption('critical');
    await page.waitForURL((url) => url.searchParams.get('severity') === 'critical');
    await page.getByText('No alerts match').waitFor();
    assert.ok(dashboard.requests.some((url) => url.includes('/v3/events?') && url.includes('severity=critical')));
    await page.getByRole('combobox', { name: 'Severity' }).selectOption('');
    await card.waitFor();

    // Acknowledged from the keyboard: the count goes down, the API agrees, the card says so.
    await card.getByRole('button', { name: /^Acknowledge/ }).focus();
    await page.keyboard.press('Enter');
    await waitForCount(unacknowledged - 1);
    await card.getByText('acknowledged', { exact: true }).waitFor();
    const acknowledged = await callOk(dashboard.server.url, 'GET', `/v3/events/${eventId}`, undefined, key);
    assert.ok(acknowledged.acknowledged_at, 'the API has the acknowledgement');
    assert.equal(await card.getByRole('button', { name: /^Acknowledge/ }).count(), 0);
    dashboard.assertClean();
  });

  test('the address the e-mails link to shows the one event', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url(`/events/${eventId}`));
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    assert.match(await heading.innerText(), /Crosswind 25 kt on runway/);
    await page.getByText('All the figures').click();
    assert.match(await page.locator('.event-figures').innerText(), /threshold\s+15/);
    await dashboard.screenshot('alerts-event', { phone: true });
    await page.goto(dashboard.url('/events/evt_0000000000000000'));
    await page.getByRole('heading', { name: 'Alert not found' }).waitFor();
    dashboard.assertClean();
  });

  test('Home is the fleet\'s live feed: a card per vehicle', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    const vesselId = (await answer(owner.api.call('POST', `/v3/organisations/${owner.orgId}/fleet/vehicles`, { vehicle_type: 'vessel', mmsi: 235012345 }), 201)).id;
    await page.goto(dashboard.url('/'));
    await page.getByRole('heading', { name: 'Your fleet now' }).waitFor();
    const cards = page.getByTestId('fleet-feed').locator('article.feed-card');
    await cards.nth(1).waitFor();
    assert.deepEqual(await cards.evaluateAll((articles) => articles.map((article) => article.getAttribute('data-vehicle'))), [vehicleId, vesselId]);
    const aircraft = cards.nth(0);
    assert.match(await aircraft.innerText(), /Next arrival\s+EGLL \(.+\), ETA \d\d? [A-Z][a-z]{2} \d{4} \d\d:\d\d UTC/);
    assert.match(await aircraft.innerText(), /Wind, runway \d\d[LR]?\s+25 kt: crosswind 25 kt of \d+ kt limit/);
    assert.match(await aircraft.getByRole('link', { name: /^Open the briefing/ }).getAttribute('href') ?? '', new RegExp(`^/landing\\?icao=EGLL&vehicle=${vehicleId}&eta=`));
    assert.match(await aircraft.innerText(), /\d open alerts?/);
    assert.equal(await aircraft.getByRole('link', { name: /^Crosswind 25 kt/ }).getAttribute('href'), `/events/${eventId}`);
    // The vessel has not been heard: the feed says so in its own words.
    const ship = cards.nth(1);
    assert.equal(await ship.getByRole('link', { name: /^On the map/ }).getAttribute('href'), '/map?vessel=235012345');
    assert.ok((await ship.locator('.feed-notes li').count()) >= 1);

    // A calm METAR: the card changes by itself (a `feed` frame), the alert clears.
    await pushMetar(egllMetar('00000KT', 0));
    await page.waitForFunction(() => !(globalThis as unknown as BrowserGlobals).document.querySelector('article.feed-card')?.textContent?.includes('Crosswind 25 kt'), undefined, { timeout: 20_000 });
    await dashboard.screenshot('home-fleet-feed', { phone: true });
    dashboard.assertClean();
  });

  test('after a dropped stream the page reconnects and resumes after the last alert\'s cursor', { timeout: 90_000 }, async () => {
    const { page } = dashboard;
    // Every event stream of the page goes through here; while `refusing`, a new one is closed at once.
    const connected: string[] = [];
    let current: WebSocketRoute | null = null;
    let refusing = false;
    await page.routeWebSocket(/\/v3\/stream\/events/, (socket) => {
      if (refusing) return socket.close({ code: 1001, reason: 'going away' });
      connected.push(socket.url());
      socket.connectToServer();
      current = socket;
    });
    await page.goto(dashboard.url('/alerts'));
    await page.locator('.alerts-live').getByText('live').waitFor();
    const key = { authorization: `Bearer ${await dataKeyOf(page)}` };
    const openEvents = async () => (await callOk(dashboard.server.url, 'GET', '/v3/events?state=open', undefined, key)).data as any[];
    // Alerts reach the page first (the wind rises, another member acknowledges, the wind drops), so
    // it holds a cursor.
    await pushMetar(egllMetar('36025KT', 0));
    await waitFor(async () => (await openEvents()).some((event) => event.kind === KIND && event.id !== eventId), 'a second crosswind event', 10_000);
    const other = (await openEvents()).find((event) => event.kind === KIND && event.id !== eventId);
    const before = (await openEvents()).filter((open) => open.acknowledged_at === null).length;
    await waitForCount(before);
    await callOk(dashboard.server.url, 'POST', `/v3/events/${other.id}/acknowledge`, undefined, key);
    await waitForCount(before - 1);
    await pushMetar(egllMetar('00000KT', 0));
    await waitFor(async () => !(await openEvents()).some((event) => event.id === other.id), 'the second crosswind event cleared', 10_000);

    // The connection drops and stays away while the wind rises again: a new crosswind event.
    refusing = true;
    await (current as WebSocketRoute | null)?.close({ code: 1001, reason: 'going away' });
    await page.locator('.alerts-live').getByText('reconnecting').waitFor();
    await pushMetar(egllMetar('36025KT', 0));
    const isFresh = (event: { kind: string; id: string }) => event.kind === KIND && event.id !== eventId && event.id !== other.id;
    await waitFor(async () => (await openEvents()).some(isFresh), 'a new crosswind event', 10_000);
    const fresh = (await openEvents()).find(isFresh);

    // Back: the SDK resumes after the last alert's cursor and the missed alert arrives by replay.
    refusing = false;
    const card = page.locator(`article.event-card[data-event="${fresh.id}"]`);
    await card.waitFor({ timeout: 30_000 });
    await waitForCount((await openEvents()).filter((open) => open.acknowledged_at === null).length);
    assert.match(connected.at(-1)!, /[?&]after=[^&]+/, 'the reconnection names the cursor to resume after');
    assert.equal(connected.length, 2);
    dashboard.assertClean();
  });

  test('e-mail per severity, and what each threshold raises', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url('/settings/notifications'));
    const email = page.getByRole('form', { name: 'Your e-mail' });
    await email.getByRole('combobox', { name: 'Warnings' }).waitFor();
    assert.equal(await email.getByRole('combobox', { name: 'Warnings' }).inputValue(), 'hourly');
    await email.getByRole('combobox', { name: 'Warnings' }).selectOption('immediately');
    await email.getByRole('combobox', { name: 'Information' }).selectOption('hourly');
    await email.getByRole('button', { name: 'Save e-mail choices' }).click();
    await email.getByText('Saved.').waitFor();
    const saved = await answer(owner.api.call('GET', `/v3/organisations/${owner.orgId}/notifications`), 200);
    assert.deepEqual([saved.critical, saved.warning, saved.info], ['immediately', 'immediately', 'hourly']);
    const crosswind = page.locator('fieldset.threshold', { hasText: 'Crosswind' });
    assert.match(await crosswind.locator('.threshold-raises').innerText(), /Raises: A crosswind alert .* \(“Crosswind above the limit”\)/);
    await dashboard.screenshot('settings-notifications', { phone: true });
    dashboard.assertClean();
  });
});

/** What functions run in the page use (the tests are typed without the DOM library). */
interface BrowserGlobals {
  document: { querySelector(selector: string): { getAttribute(name: string): string | null; textContent: string | null } | null };
}

/** The JSON body of an answer that must have this status. */
async function answer(call: Promise<Response>, status: number): Promise<any> {
  const response = await call;
  const body = await json(response);
  assert.equal(response.status, status, JSON.stringify(body));
  return body;
}

/** The dashboard's key, as the page keeps it for this tab. */
async function dataKeyOf(page: Dashboard['page']): Promise<string> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('lamis.dashboard-key') ?? '{}').secret as string);
}
