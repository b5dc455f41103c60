// Dashboard-wide behaviour in a real browser: tide chart labels that never overlap, times read one
// way (UTC, 24 h, labelled), form errors named by the form's labels, a confirmation before a plan
// change, and the API reference at /docs served as LAMIS's own, under its CSP, from local assets.
// Screenshots at 1440 and 390 px go to test-artifacts/screenshots/ui-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { PHONE, SCREENSHOTS, skipBrowser, startDashboard, type Dashboard } from './support.ts';

const WIDE = { width: 1440, height: 900 };
const UTC_TIME = /^\d{1,2} [A-Z][a-z]{2}( \d{4})? \d{2}:\d{2} UTC$/;

/** Shots at 1440 and at 390 px, of the whole page unless `fullPage` is false. */
async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  for (const [size, suffix] of [[WIDE, ''], [PHONE, '-390']] as const) {
    await page.setViewportSize(size);
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOTS, `ui-${name}${suffix}.png`), fullPage, animations: 'disabled' });
  }
  await page.setViewportSize(WIDE);
}

/** Pairs of text labels in the tide chart whose drawn boxes intersect. */
async function overlappingLabels(page: Page): Promise<string[]> {
  return page.locator('svg[data-tide-chart]').evaluate((svg) => {
    const boxes = [...svg.querySelectorAll('text')].map((text) => ({ text: text.textContent ?? '', box: text.getBoundingClientRect() }));
    const clashes: string[] = [];
    for (const [index, one] of boxes.entries()) {
      for (const other of boxes.slice(index + 1)) {
        const a = one.box;
        const b = other.box;
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) clashes.push(`"${one.text}" / "${other.text}"`);
      }
    }
    return clashes;
  });
}

describe('dashboard-wide', { skip: skipBrowser }, () => {
  let dashboard: Dashboard;

  before(async () => {
    dashboard = await startDashboard({ config: { aisSimulator: 'on', aisSimulatorVessels: 50 } });
    await dashboard.page.setViewportSize(WIDE);
  });
  after(() => dashboard?.close());

  test('the tide chart: no label overlaps another at 1440 or 390 px; times in UTC with the port time beside', { timeout: 120_000 }, async () => {
    const { page } = dashboard;
    await dashboard.signIn({ vehicle: 'vessel' });
    // 8 m over 8 m charted: tidal windows shaded and the needed height drawn, with its label.
    await page.goto(dashboard.url('/ports/NLRTM?draught=8&charted_depth=8'));
    const chart = page.locator('svg[data-tide-chart]');
    await page.getByRole('table', { name: 'Tidal windows (shaded on the chart)' }).waitFor();
    for (const size of [WIDE, PHONE]) {
      await page.setViewportSize(size);
      // Drawn again for the width it now has.
      for (let tries = 0; Number(await chart.getAttribute('width')) > size.width && tries < 50; tries++) await page.waitForTimeout(100);
      const labels = await chart.locator('text').allTextContents();
      assert.ok(labels.includes('UTC'), `${size.width} px: the time axis says UTC`);
      assert.ok(labels.some((label) => /^HW \d/.test(label)) && labels.some((label) => /^LW -?\d/.test(label)), `${size.width} px: high and low waters are labelled`);
      assert.ok(labels.some((label) => label.startsWith('needed ')), `${size.width} px: the needed height is labelled`);
      assert.deepEqual(await overlappingLabels(page), [], `${size.width} px: labels overlap`);
      await chart.screenshot({ path: path.join(SCREENSHOTS, `ui-tide-chart-${size.width}.png`), animations: 'disabled' });
    }
    await page.setViewportSize(WIDE);
    await chart.scrollIntoViewIfNeeded();
    await shoot(page, 'port-tides');
    const tides = page.locator('#tides-title').locator('xpath=../..');
    for (const [size, suffix] of [[WIDE, ''], [PHONE, '-390']] as const) {
      await page.setViewportSize(size);
      await tides.screenshot({ path: path.join(SCREENSHOTS, `ui-port-tides-section${suffix}.png`), animations: 'disabled' });
    }
    await page.setViewportSize(WIDE);

    // High and low waters: UTC first, Rotterdam's own time under it, named by its zone.
    const time = page.getByRole('table', { name: 'High and low waters' }).locator('tbody tr').first().locator('td').nth(1);
    const [utc, local] = (await time.innerText()).split('\n');
    assert.match(utc ?? '', UTC_TIME);
    assert.match(local ?? '', /^\d{1,2} [A-Z][a-z]{2} \d{2}:\d{2} CES?T$/);
    dashboard.assertClean();
  });

  test('times read in UTC, 24 h, labelled, on the settings pages too', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await page.goto(dashboard.url('/settings/sessions'));
    const signedIn = page.getByRole('row').nth(1).locator('td').first();
    await signedIn.waitFor();
    const row = await page.getByRole('row').nth(1).innerText();
    const times = row.match(/\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} UTC/g) ?? [];
    assert.ok(times.length >= 2, `signed in and ends, in UTC: ${row}`);
    assert.doesNotMatch(row, /\b(AM|PM|am|pm)\b/);
    dashboard.assertClean();
  });

  test('a form error names the field by its label, next to that field', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    await dashboard.signIn({ plan: 'pro' });
    await page.goto(dashboard.url('/settings/team'));
    const email = page.getByLabel('E-mail address');
    await email.fill('not an address');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const error = page.locator('.field-error');
    await error.waitFor();
    assert.match(await error.innerText(), /^E-mail address: [a-z]/, 'the message starts with the label, not the API field name');
    assert.doesNotMatch(await error.innerText(), /\bemail\b/);
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.match(await email.getAttribute('aria-describedby') ?? '', new RegExp(await error.getAttribute('id') ?? 'none'), 'the input points at its message');
    await shoot(page, 'form-error');
    dashboard.assertClean();
  });

  test('a plan change asks first, saying what changes, and only then calls the API', { timeout: 60_000 }, async () => {
    const { page, requests } = dashboard;
    await dashboard.signIn();
    await page.goto(dashboard.url('/settings/plan'));
    await page.getByRole('row', { name: /Starter.*current/ }).waitFor();
    const planCalls = () => requests.filter((url) => new URL(url).pathname.endsWith('/plan')).length;
    const before = planCalls();

    await page.getByRole('button', { name: 'Switch to Pro' }).click();
    const dialog = page.getByRole('dialog', { name: /^Switch .+ to Pro\?$/ });
    await dialog.waitFor();
    const text = await dialog.innerText();
    assert.match(text, /Production keys \(together\)\s+100 a minute\s+1,000 a minute/);
    assert.match(text, /Each development key\s+10 a minute\s+60 a minute/);
    assert.match(text, /Live AIS streams\s+none\s+5 at once/);
    await shoot(page, 'plan-confirm');

    // Cancel: nothing asked of the API, still Starter.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(planCalls(), before, 'no plan change before the confirmation');
    await page.getByRole('row', { name: /Starter.*current/ }).waitFor();

    await page.getByRole('button', { name: 'Switch to Pro' }).click();
    await dialog.getByRole('button', { name: 'Switch to Pro' }).click();
    await page.getByRole('row', { name: /Pro.*current/ }).waitFor();
    assert.equal(planCalls(), before + 1);
    await dialog.waitFor({ state: 'hidden' });
    dashboard.assertClean();
  });

  test('/docs: the API reference as LAMIS, under its CSP, from this server only', { timeout: 60_000 }, async () => {
    const { page } = dashboard;
    const console: string[] = [];
    const failed: string[] = [];
    const onConsole = (message: { type(): string; text(): string }) => {
      if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) console.push(message.text());
    };
    const onFailed = (request: { url(): string }) => failed.push(request.url());
    page.on('console', onConsole);
    page.on('requestfailed', onFailed);
    try {
      await page.goto(dashboard.url('/docs'));
      await page.locator('.swagger-ui .info .title').getByText('LAMIS API').waitFor();
      const logo = page.locator('.swagger-ui .topbar a.link img');
      await logo.waitFor();
      assert.match(await logo.getAttribute('src') ?? '', /^data:image\/svg\+xml;base64,/, 'the LAMIS logo, not the framework\'s');
      assert.equal(await page.title(), 'LAMIS API reference');
      const icons = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((link) => (link as unknown as { href: string }).href));
      assert.deepEqual(icons.map((href) => new URL(href).pathname), ['/docs/static/theme/lamis.svg']);
      const icon = await page.request.get(icons[0]!);
      assert.equal(icon.headers()['content-type'], 'image/svg+xml');
      assert.match(await icon.text(), /<svg/);
      await page.getByRole('button', { name: /GET \/healthz/ }).first().waitFor();
      await shoot(page, 'docs', false);
      assert.deepEqual(console, [], 'no console error, no Content Security Policy report');
      assert.deepEqual(failed, [], 'no failed request');
      dashboard.assertClean();
    } finally {
      page.off('console', onConsole);
      page.off('requestfailed', onFailed);
    }
  });
});
