// The fleet pages in a real browser against a real server: the empty fleet, adding a vehicle with
// the API's validation messages under their fields, a duplicate registration, a vessel, editing,
// cursor pagination, removing, and a viewer who can look but not change.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mailsTo } from '../accounts/support.ts';
import { json } from '../support/http.ts';
import { linksIn } from '../support/smtp.ts';
import { signUpUser, skipBrowser, startDashboard, type Dashboard, type TestUser } from './support.ts';

describe('dashboard fleet', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;
  let owner: TestUser;

  before(async () => {
    dashboard = await startDashboard();
  });
  after(() => dashboard?.close());

  const fieldError = (name: string) => dashboard.page.locator(`.field:has([name="${name}"]) .field-error`);
  /** The text input whose label starts with `label` (optional ones end in "(optional)"). */
  const input = (label: string) => dashboard.page.getByRole('textbox', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) });

  async function fleetOf(user: TestUser): Promise<any[]> {
    const response = await user.api.call('GET', `/v3/organisations/${user.orgId}/fleet/vehicles?limit=100`);
    assert.equal(response.status, 200);
    return (await json(response)).data;
  }

  test('add a vehicle: the API\'s messages under each field, then saved', { timeout: 90_000 }, async () => {
    const { page } = dashboard;
    owner = await dashboard.signIn({ vehicle: 'aircraft', plan: 'pro' });
    await page.goto(dashboard.url('/fleet'));
    await page.getByText('Your fleet is empty').waitFor();
    await dashboard.screenshot('fleet-empty');

    await page.getByRole('link', { name: 'Add vehicle' }).first().click();
    await page.getByRole('heading', { name: 'Add vehicle' }).waitFor();
    assert.equal(await page.getByLabel(/^Aircraft/).isChecked(), true);
    await input('Registration').fill('G_EUPT');
    await input('Crosswind limit (kt)').fill('75');
    await input('Operational regions').fill('EGTT, E1');
    await page.getByRole('button', { name: 'Add vehicle' }).click();

    // Each message is the API's, under the input it names, and the input says it is invalid.
    await page.getByText('Please check the profile').waitFor();
    assert.match(await fieldError('registration').innerText(), /^Registration: must be 2 to 16 letters, digits and inner hyphens/);
    assert.match(await fieldError('icao_type').innerText(), /is required for an aircraft/);
    assert.match(await fieldError('crosswind_limit_kt').innerText(), /from 1 to 60/);
    assert.match(await fieldError('operational_regions').innerText(), /^E1: must be a FIR/);
    assert.equal(await input('Registration').getAttribute('aria-invalid'), 'true');
    assert.equal(await input('Home base').getAttribute('aria-invalid'), null);
    // The first field with a message has the focus.
    assert.equal(await page.locator(':focus').getAttribute('name'), 'registration');
    await dashboard.screenshot('fleet-add-errors', { phone: true });
    assert.deepEqual(await fleetOf(owner), []);

    await input('Registration').fill('G-EUPT');
    await input('ICAO type designator').fill('a320');
    await input('Home base').fill('egll');
    await input('Crosswind limit (kt)').fill('25');
    await input('Operational regions').fill('egtt, egpx');
    await page.getByRole('button', { name: 'Add vehicle' }).click();

    await page.getByText('G-EUPT was added to the fleet.').waitFor();
    assert.match(new URL(page.url()).pathname, /^\/fleet$/);
    const row = page.getByRole('row', { name: /G-EUPT/ });
    assert.match(await row.innerText(), /A320 · home base EGLL · crosswind limit 25 kt · regions EGTT, EGPX/);
    const [saved] = await fleetOf(owner);
    assert.deepEqual(
      { type: saved.vehicle_type, reg: saved.registration, icao: saved.icao_type, base: saved.home_base_icao, xw: saved.crosswind_limit_kt, regions: saved.operational_regions },
      { type: 'aircraft', reg: 'G-EUPT', icao: 'A320', base: 'EGLL', xw: 25, regions: ['EGTT', 'EGPX'] },
    );
    await dashboard.screenshot('fleet-list', { phone: true });
    dashboard.assertClean();
  });

  test('a duplicate registration and a vessel', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url('/fleet/new'));
    await input('Registration').fill('g eupt');
    await input('ICAO type designator').fill('B738');
    await page.getByRole('button', { name: 'Add vehicle' }).click();
    await fieldError('registration').getByText('Another vehicle of your fleet has this registration.').waitFor();

    // A vessel takes other fields: the form changes with the type.
    await page.getByLabel(/^Vessel/).check();
    assert.equal(await page.getByLabel('ICAO type designator').count(), 0);
    await input('MMSI').fill('235 012 345');
    await input('IMO number').fill('IMO 9074729');
    await page.getByRole('button', { name: 'Add vehicle' }).click();
    await page.getByText('MMSI 235012345 was added to the fleet.').waitFor();
    const vessel = (await fleetOf(owner)).find((v) => v.vehicle_type === 'vessel');
    assert.equal(vessel.mmsi, 235012345);
    assert.equal(vessel.imo, 9074729);
    assert.equal(vessel.registration, null);
    dashboard.assertClean();
  });

  test('edit a vehicle: only what changed is sent', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url('/fleet'));
    await page.getByRole('link', { name: 'Edit G-EUPT' }).click();
    await page.getByRole('heading', { name: 'Aircraft G-EUPT' }).waitFor();
    assert.equal(await input('Crosswind limit (kt)').inputValue(), '25');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Nothing has changed.').waitFor();

    const patches: unknown[] = [];
    const recordPatch = (request: { method(): string; postDataJSON(): unknown }) => {
      if (request.method() === 'PATCH') patches.push(request.postDataJSON());
    };
    page.on('request', recordPatch);
    await input('Crosswind limit (kt)').fill('27');
    await input('Home base').fill('');
    await input('Shortest usable runway (m)').fill('0');
    await page.getByRole('button', { name: 'Save changes' }).click();
    assert.match(await fieldError('min_runway_m').innerText(), /whole number of metres from 1 to 6000/);
    await input('Shortest usable runway (m)').fill('1800');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('G-EUPT was saved.').waitFor();
    page.off('request', recordPatch);
    assert.deepEqual(patches.at(-1), { home_base_icao: null, crosswind_limit_kt: 27, min_runway_m: 1800 });
    const saved = (await fleetOf(owner)).find((v) => v.registration === 'G-EUPT');
    assert.equal(saved.crosswind_limit_kt, 27);
    assert.equal(saved.home_base_icao, null);
    assert.equal(saved.min_runway_m, 1800);
    dashboard.assertClean();
  });

  test('pages of the fleet, by cursor, and removing a vehicle', { timeout: 90_000 }, async () => {
    const { page } = dashboard;
    for (let i = 1; i <= 28; i++) {
      const response = await owner.api.call('POST', `/v3/organisations/${owner.orgId}/fleet/vehicles`, {
        vehicle_type: 'helicopter', registration: `SE-H${String(i).padStart(2, '0')}`, icao_type: 'EC35',
      });
      assert.equal(response.status, 201, await response.text());
    }
    await page.goto(dashboard.url('/fleet'));
    await page.getByRole('row', { name: /G-EUPT/ }).waitFor();
    const rows = page.locator('tbody tr');
    assert.equal(await rows.count(), 25);
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.getByRole('row', { name: /SE-H28/ }).waitFor();
    assert.equal(await rows.count(), 30);
    assert.equal(await page.getByRole('button', { name: 'Show more' }).count(), 0);

    // The type tabs narrow the list through the API's vehicle_type.
    await page.getByRole('link', { name: 'Vessels' }).click();
    // The vessel's row is in the whole list too: wait for the helicopters to leave it first.
    await page.getByRole('row', { name: /SE-H01/ }).waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /MMSI 235012345/ }).waitFor();
    assert.equal(await rows.count(), 1);

    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByText('MMSI 235012345 was removed from the fleet.').waitFor();
    await page.getByText('No vessels in the fleet').waitFor();
    assert.equal((await fleetOf(owner)).some((v) => v.vehicle_type === 'vessel'), false);
    await dashboard.screenshot('fleet-vessels-empty');

    // Removing from the vehicle's own page.
    await page.goto(dashboard.url('/fleet?type=helicopter'));
    await page.getByRole('link', { name: 'Edit SE-H01' }).click();
    await page.getByRole('heading', { name: 'Helicopter SE-H01' }).waitFor();
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByText('SE-H01 was removed from the fleet.').waitFor();
    assert.equal((await fleetOf(owner)).some((v) => v.registration === 'SE-H01'), false);
    dashboard.assertClean();
  });

  test('a viewer sees the fleet but cannot change it', { timeout: 120_000 }, async () => {
    const { page, context } = dashboard;
    const viewer = await signUpUser(dashboard.server, dashboard.smtp, { vehicle: 'aircraft' });
    const invited = await owner.api.call('POST', `/v3/organisations/${owner.orgId}/invitations`, { email: viewer.email, role: 'viewer' });
    assert.ok(invited.ok, await invited.text());
    const mails = await mailsTo(dashboard.smtp, viewer.email, 2);
    const link = mails.flatMap((mail) => linksIn(mail.text ?? '')).find((l) => l.includes('/invitations/preview?token='));
    assert.ok(link, 'no invitation link was mailed');
    const accepted = await viewer.api.call('POST', '/v3/accounts/invitations/accept', { token: new URL(link).searchParams.get('token') });
    assert.ok(accepted.ok, await accepted.text());

    const cookie = /lamis_session=([^;]*)/.exec(viewer.api.cookie ?? '')?.[1];
    assert.ok(cookie);
    await context.clearCookies();
    await context.addCookies([{ name: 'lamis_session', value: cookie, url: dashboard.url('/'), httpOnly: true, sameSite: 'Lax' }]);
    await page.goto(dashboard.url('/fleet'));
    // The dashboard starts in the viewer's own organisation; the header switches to the owner's.
    await page.getByText('Your fleet is empty').waitFor();
    await page.getByLabel('Organisation').selectOption(owner.orgId);
    await page.getByRole('row', { name: /G-EUPT/ }).waitFor();
    await page.getByText(/As a viewer of .* you can see the fleet but not change it/).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Add vehicle' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Remove' }).count(), 0);

    await page.getByRole('link', { name: 'View G-EUPT' }).click();
    await page.getByRole('heading', { name: 'Aircraft G-EUPT' }).waitFor();
    assert.equal(await input('Crosswind limit (kt)').isEditable(), false);
    assert.equal(await page.getByRole('button', { name: 'Save changes' }).count(), 0);
    await dashboard.screenshot('fleet-viewer');

    // The API is the judge: a change the page does not offer is refused for the viewer's role.
    const refused = await viewer.api.call('DELETE', `/v3/organisations/${owner.orgId}/fleet/vehicles/${(await fleetOf(owner))[0].id}`);
    assert.equal(refused.status, 403);
    assert.equal((await json(refused)).code, 'role_not_allowed');
    dashboard.assertClean();
  });

  test('Home for a vessel operator: the fleet feed, then the map and ports first', { timeout: 60_000 }, async () => {
    const { page, context } = dashboard;
    await context.clearCookies();
    const skipper = await dashboard.signIn({ vehicle: 'vessel', country: 'NO' });
    const added = await skipper.api.call('POST', `/v3/organisations/${skipper.orgId}/fleet/vehicles`, { vehicle_type: 'vessel', mmsi: 257012340 });
    assert.equal(added.status, 201, await added.text());
    await page.goto(dashboard.url('/'));
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    assert.equal(await page.locator('[data-focus]').getAttribute('data-focus'), 'maritime');
    const shortcuts = page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link');
    assert.deepEqual(await shortcuts.evaluateAll((links) => links.map((link) => link.getAttribute('href'))), ['/map', '/ports', '/landing']);
    assert.equal(await page.getByRole('heading', { name: 'Weather at your bases' }).count(), 0);
    assert.equal(await page.getByRole('combobox', { name: 'Destination airport' }).count(), 0);
    await page.getByText('Your fleet: 1 vessel.').waitFor();
    // The fleet feed: one card per vehicle, this one not heard from yet, in the feed's own words.
    const card = page.getByTestId('fleet-feed').locator('article.feed-card');
    await card.first().waitFor();
    assert.equal(await card.count(), 1);
    assert.match(await card.locator('.feed-notes').innerText(), /MMSI 257012340/);
    assert.equal(await page.getByRole('link', { name: /^On the map\W+MMSI 257012340$/ }).getAttribute('href'), '/map?vessel=257012340');
    await dashboard.screenshot('home-maritime', { phone: true });
    // Nothing on this Home needs an API key: the vessel operator's first visit makes none.
    assert.equal(dashboard.requests.some((url) => url.endsWith('/v3/accounts/keys')), false);
    // The port search leads to the ports page with the words typed.
    await page.getByRole('textbox', { name: 'Port' }).fill('Rotterdam');
    await page.getByRole('button', { name: 'Find the port' }).click();
    await page.waitForURL((url) => url.pathname === '/ports' && url.searchParams.get('q') === 'Rotterdam');
    dashboard.assertClean();
  });
});
