// Home and the landing briefing in a real browser against a real server with the aviation
// simulators on: Home follows the account's category, an airport found by typing, a briefing for
// a fleet aircraft on the embedded defaults, and its drawings and words checked against the API's
// own numbers (the very answer the page received).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Locator, Response } from 'playwright-core';
import { json } from '../support/http.ts';
import { AUTH } from '../support/server.ts';
import { SCREENSHOTS, skipBrowser, startDashboard, type Dashboard, type TestUser } from './support.ts';

/** The compass bearing of an SVG line, from its first point to its second (y grows down). */
async function bearingOf(line: Locator, reverse = false): Promise<number> {
  const [x1, y1, x2, y2] = await Promise.all(['x1', 'y1', 'x2', 'y2'].map(async (name) => Number(await line.getAttribute(name))));
  const [dx, dy] = reverse ? [x1! - x2!, y1! - y2!] : [x2! - x1!, y2! - y1!];
  return ((Math.atan2(dx, -dy) * 180) / Math.PI + 360) % 360;
}

async function lengthOf(line: Locator): Promise<number> {
  const [x1, y1, x2, y2] = await Promise.all(['x1', 'y1', 'x2', 'y2'].map(async (name) => Number(await line.getAttribute(name))));
  return Math.hypot(x2! - x1!, y2! - y1!);
}

function near(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

/** Bearings compare round the circle: 359.9° is 0.2° from 0.1°. */
function nearBearing(actual: number, expected: number, tolerance: number, what: string): void {
  const gap = Math.abs(((((actual - expected) % 360) + 540) % 360) - 180);
  assert.ok(gap <= tolerance, `${what}: ${actual}° is not within ${tolerance}° of ${expected}°`);
}

const COLOURS: Record<string, string> = { VFR: 'rgb(26, 127, 55)', MVFR: 'rgb(31, 95, 191)', IFR: 'rgb(198, 40, 40)', LIFR: 'rgb(160, 22, 155)' };

describe('dashboard home and landing briefing', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;
  let pilot: TestUser;

  before(async () => {
    dashboard = await startDashboard({ config: { aviationSimulators: 'on' } });
  });
  after(() => dashboard?.close());

  test('Home puts landing first for an aircraft operator, with the weather at the fleet\'s base', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    pilot = await dashboard.signIn({ vehicle: 'aircraft', identity: true });
    const added = await pilot.api.call('POST', `/v3/organisations/${pilot.orgId}/fleet/vehicles`, {
      vehicle_type: 'aircraft', registration: 'G-EUPT', icao_type: 'A320', home_base_icao: 'EGLL', crosswind_limit_kt: 33,
    });
    assert.equal(added.status, 201, await added.text());

    await page.goto(dashboard.url('/'));
    await page.getByRole('heading', { name: 'Welcome, Anna' }).waitFor();
    assert.equal(await page.locator('[data-focus]').getAttribute('data-focus'), 'aviation');
    // The landing shortcut leads the list; the weather at EGLL, the fleet's base, is there.
    assert.equal(await page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link').first().getAttribute('href'), '/landing');
    const base = page.getByTestId('base-weather').locator('li', { hasText: 'EGLL' });
    await base.locator('.base-metar').waitFor();
    assert.match(await base.innerText(), /METAR EGLL \d{6}Z/);
    assert.match(await base.innerText(), /simulated/);
    assert.match(await page.getByTestId('fleet-counts').innerText(), /Your fleet: 1 aircraft\./);
    await dashboard.screenshot('home-aviation', { phone: true });
    dashboard.assertClean();
  });

  test('a landing briefing drawn and told with the API\'s numbers', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    // Search as you type: a name finds the airport, which is picked from the list.
    const search = page.getByRole('combobox', { name: 'Destination airport' });
    await search.fill('zzqxv');
    await page.getByText('No airport matches “zzqxv”').waitFor();
    await search.fill('heathrow');
    const option = page.getByRole('option', { name: /^EGLL/ });
    await option.waitFor();
    await option.click();
    assert.equal(await search.inputValue(), 'EGLL · London Heathrow Airport');
    await page.getByRole('button', { name: 'Brief this arrival' }).click();
    await page.getByRole('heading', { name: 'Landing briefing' }).waitFor();
    assert.match(page.url(), /\/landing\?icao=EGLL$/);

    // The fleet's aircraft is chosen; the ETA is an hour ahead.
    const aircraft = page.getByLabel('Aircraft', { exact: true });
    await page.getByRole('option', { name: /G-EUPT · A320/ }).waitFor({ state: 'attached' });
    assert.match(await aircraft.locator('option:checked').innerText(), /G-EUPT/);
    const answered: Promise<Response> = page.waitForResponse((r) => r.url().endsWith('/v3/intelligence/landing') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Get briefing' }).click();
    const response = await answered;
    assert.equal(response.status(), 200);
    const bundle = await response.json();
    const request = response.request().postDataJSON();
    assert.deepEqual({ icao: request.destination_icao, reg: request.registration, type: request.vehicle_type },
      { icao: 'EGLL', reg: 'G-EUPT', type: 'aircraft' });
    const eta = Date.parse(request.eta_utc);
    assert.ok(eta > Date.now() + 55 * 60_000 && eta < Date.now() + 66 * 60_000, `ETA ${request.eta_utc} is about an hour ahead`);
    // The address names the fleet vehicle by id, never by its registration.
    assert.doesNotMatch(page.url(), /G-EUPT/);
    assert.match(page.url(), /vehicle=veh_/);

    const briefing = page.getByTestId('briefing');
    await briefing.waitFor();
    assert.equal(bundle.aircraft.profile_source, 'fleet');
    assert.match(await briefing.locator('.briefing-title').innerText(), /G-EUPT \(A320\), with your fleet's profile/);
    await page.getByText('Simulated data').waitFor();

    // Headline tiles.
    assert.equal(await page.getByTestId('safety-score').locator('.score').innerText(), String(bundle.safety_score));
    assert.match(await page.getByTestId('approach').innerText(), new RegExp(bundle.recommended_approach));
    assert.match(await page.getByTestId('status').innerText(), new RegExp(bundle.destination.status, 'i'));
    assert.match(await page.getByTestId('wind-shear').innerText(), new RegExp(bundle.weather.wind_shear_risk));
    const category = page.getByTestId('flight-category').locator('.flight-category');
    assert.equal(await category.innerText(), bundle.weather.flight_category);
    // Evaluated in the page (the tests' own typecheck has no DOM library).
    const background = await category.evaluate((el: any) => el.ownerDocument.defaultView.getComputedStyle(el).backgroundColor);
    assert.equal(background, COLOURS[bundle.weather.flight_category]);

    // What the weather at the ETA rests on, plainly: an hour ahead, the simulator's TAF unless the METAR still holds.
    assert.ok(['observation', 'forecast'].includes(bundle.weather.basis), bundle.weather.basis);
    assert.equal(await page.getByTestId('weather-basis').locator('.basis-summary').innerText(), bundle.weather.basis_summary);
    assert.equal(await page.getByTestId('basis-summary').innerText(), bundle.weather.basis_summary);
    assert.match(bundle.weather.basis_summary, bundle.weather.basis === 'forecast' ? /^Forecast: TAF / : /^Observed \d{2}:\d{2}Z$/);
    assert.equal(await page.getByTestId('basis-periods').locator('li').count(), bundle.weather.periods.length);

    // The raw METAR and what it means.
    assert.equal(await page.getByTestId('raw-metar').textContent(), `Raw METAR: ${bundle.weather.metar}`);
    const decoded = page.getByTestId('metar-decoded');
    const report = await json(await fetch(`${dashboard.server.url}/v3/aviation/airports/EGLL/metar`, { headers: AUTH }));
    const metarWind = report.decoded.wind;
    const windText = await decoded.locator('dt:text-is("Wind") + dd').innerText();
    if (metarWind.calm) assert.equal(windText, 'Calm');
    else if (metarWind.direction_deg === null) assert.match(windText, new RegExp(`^Variable in direction at ${metarWind.speed_kt} kt`));
    else assert.match(windText, new RegExp(`^From ${String(metarWind.direction_deg).padStart(3, '0')}° true at ${metarWind.speed_kt} kt`));
    // The runway drawing is of the wind at the ETA.
    const wind = bundle.weather.wind;

    // The runway diagram: the API's runway at its true heading, the wind from where it blows.
    const airport = await json(await fetch(`${dashboard.server.url}/v3/aviation/airports/EGLL`, { headers: AUTH }));
    const plan = page.getByTestId('airport-plan');
    assert.equal(await plan.getAttribute('data-basis'), 'runways');
    assert.equal(await plan.locator('line.runway-surface').count(), airport.runways.filter((r: any) => r.ends.length > 0).length);
    for (const runway of airport.runways) {
      const line = plan.locator(`line[data-runway="${runway.designator}"]`);
      nearBearing(await bearingOf(line), runway.ends[0].true_heading_deg, 0.1, `runway ${runway.designator}`);
    }
    const chosen = bundle.runway;
    if (chosen === null) {
      // The simulated weather of the hour can rule out every runway (a gale, a storm's gusts):
      // then the page must say so with the API's reason and draw no landing direction.
      await page.getByText('No runway can be recommended').waitFor();
      await page.getByText(bundle.runway_choice.reason).first().waitFor();
      assert.equal(await plan.locator('line[data-landing]').count(), 0);
      assert.equal(await page.getByTestId('runway-facts').count(), 0);
    } else {
      const chosenRunway = airport.runways.find((r: any) => r.ends.some((e: any) => e.ident === chosen.designator));
      assert.equal(await plan.locator('line[data-chosen="true"]').getAttribute('data-runway'), chosenRunway.designator);
      const landing = plan.locator('line[data-landing]');
      assert.equal(await landing.getAttribute('data-landing'), chosen.designator);
      nearBearing(await bearingOf(landing), chosen.true_heading_deg, 0.1, 'landing direction');
      if (wind.direction_deg !== null && !wind.calm) {
        // The arrow points downwind: from its head back to its tail is where the wind comes from.
        nearBearing(await bearingOf(plan.getByTestId('wind-arrow'), true), wind.direction_deg, 0.1, 'wind arrow');
    }

    // The components: the API's headwind and crosswind, drawn to one scale and written out.
    const facts = page.getByTestId('runway-facts');
    assert.equal(await facts.locator('[data-field="designator"]').innerText(), chosen.designator);
    assert.equal(await facts.locator('[data-field="true_heading_deg"]').innerText(), `${chosen.true_heading_deg}°`);
    assert.equal(await facts.locator('[data-field="headwind_kt"]').getAttribute('data-value'), String(chosen.headwind_kt ?? ''));
    assert.equal(await facts.locator('[data-field="crosswind_kt"]').getAttribute('data-value'), String(chosen.crosswind_kt ?? ''));
    // No navigation data was imported: the ILS is unknown, never "no ILS".
    assert.equal(chosen.ils, 'unknown');
    assert.equal(await facts.locator('[data-field="ils"]').innerText(), 'ILS unknown (no navigation data)');
    assert.doesNotMatch(await briefing.innerText(), /no (usable )?ILS/i);
    const triangle = page.getByTestId('wind-components');
    const scale = Number(await triangle.getAttribute('data-scale'));
    if (chosen.headwind_kt) {
      const headwind = triangle.locator('line[data-component="headwind"]');
      near(await lengthOf(headwind) / scale, Math.abs(chosen.headwind_kt), 0.1, 'headwind length');
      // Down the runway from ahead for a headwind, up from behind for a tailwind.
      nearBearing(await bearingOf(headwind), chosen.headwind_kt > 0 ? 180 : 0, 0.1, 'headwind direction');
      assert.match(await facts.locator('[data-field="headwind_kt"]').innerText(), new RegExp(`^${Math.abs(chosen.headwind_kt)} kt$`));
    }
    if (chosen.crosswind_kt) {
      const crosswind = triangle.locator('line[data-component="crosswind"]');
      near(await lengthOf(crosswind) / scale, Math.abs(chosen.crosswind_kt), 0.1, 'crosswind length');
      nearBearing(await bearingOf(crosswind), chosen.crosswind_kt > 0 ? 270 : 90, 0.1, 'crosswind direction');
      assert.equal(await facts.locator('[data-field="crosswind_kt"]').innerText(),
        `${Math.abs(chosen.crosswind_kt)} kt from the ${chosen.crosswind_kt > 0 ? 'right' : 'left'}`);
    }
    }
    await page.locator('.runway-figures').screenshot({ path: path.join(SCREENSHOTS, 'landing-runway.png') });

    // Score factors, NOTAMs (in force now first), sources and the disclaimer.
    assert.equal(await page.getByTestId('safety-factors').locator('li').count(), bundle.safety_factors.length);
    const notams = page.getByTestId('notams').locator('li[data-notam]');
    if (bundle.notams.length === 0) await page.getByText('No NOTAM is in force at this airport at the ETA.').waitFor();
    else {
      assert.equal(await notams.count(), bundle.notams.length);
      const states = await notams.evaluateAll((items) => items.map((item) => item.getAttribute('data-state')));
      assert.deepEqual(states, [...states].sort(), 'active NOTAMs come before upcoming ones');
    }
    // The alternates, in the API's order, each with its distance and approach.
    const alternates = page.getByTestId('alternates').locator('li[data-icao]');
    assert.ok(bundle.alternates.airports.length > 0, 'an A320 to Heathrow has alternates');
    assert.deepEqual(await alternates.evaluateAll((items) => items.map((item) => item.getAttribute('data-icao'))),
      bundle.alternates.airports.map((alternate: { icao: string }) => alternate.icao));
    const first = bundle.alternates.airports[0];
    assert.match(await alternates.first().innerText(), new RegExp(`${first.icao}[\\s\\S]*${first.name}[\\s\\S]*${first.distance_nm} nm`));
    // Heathrow's radio, arrival frequencies first: ATIS, then the director (its approach), then tower.
    const radio = await page.getByTestId('frequencies').innerText();
    assert.match(radio, /ATIS \d{3}\.\d{3} MHz[\s\S]*DIR[\s\S]*TWR/);
    const metarRow = page.getByTestId('freshness').locator('li[data-input="METAR"]');
    assert.equal(await metarRow.getAttribute('data-origin'), bundle.sources.metar.source);
    assert.equal(await metarRow.getAttribute('data-currency'), bundle.sources.metar.freshness);
    await page.getByText(bundle.disclaimer).waitFor();
    // The briefing took the focus, scrolling to it; the whole page is shot from the top.
    assert.equal(await page.locator(':focus').getAttribute('id'), 'briefing-title');
    await page.evaluate('window.scrollTo(0, 0)');
    await dashboard.screenshot('landing-briefing', { phone: true });
    dashboard.assertClean();
  });

  test('an ETA ten days ahead says plainly that no forecast reaches it', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    const eta = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 16);
    await page.getByLabel('ETA (UTC)').fill(eta);
    const answered: Promise<Response> = page.waitForResponse((r) => r.url().endsWith('/v3/intelligence/landing') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Get briefing' }).click();
    const bundle = await (await answered).json();
    assert.equal(bundle.weather.basis, 'none');
    // The earlier briefing stays on the page until the new one replaces it.
    await page.getByTestId('weather-basis').locator('.basis-summary', { hasText: 'No forecast reaches the ETA' }).waitFor({ timeout: 10_000 });
    assert.match(await page.getByTestId('basis').innerText(), /Wind, visibility and ceiling at the ETA are unknown/);
    assert.equal(await page.getByTestId('weather-at-eta').count(), 0);
    if (bundle.runway) assert.match(await page.getByTestId('runway-facts').innerText(), /unknown at the ETA/);
    await page.locator('#weather-title').scrollIntoViewIfNeeded();
    await page.locator('.basis').screenshot({ path: path.join(SCREENSHOTS, 'landing-no-forecast.png') });
    dashboard.assertClean();
  });

  test('an ETA out of range is refused under the ETA field', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await page.getByLabel('ETA (UTC)').fill('2031-01-01T10:00');
    await page.getByRole('button', { name: 'Get briefing' }).click();
    await page.getByText('The ETA may be at most 15 minutes past and at most 366 days ahead.').waitFor();
    await page.getByText('No briefing').waitFor();
    assert.equal(await page.getByLabel('ETA (UTC)').getAttribute('aria-invalid'), 'true');
    dashboard.assertClean();
  });
});
