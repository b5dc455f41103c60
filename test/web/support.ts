// Browser tests of the dashboard: a real LAMIS server (with a loopback SMTP server for its mail)
// serving the built dashboard, driven by Debian's Chromium through playwright-core, headless.
// Every request the browser makes is recorded, and a test fails if any goes to another host;
// screenshots go to test-artifacts/screenshots/. The dashboard is built first when web/dist is
// missing or older than its sources. Without Chromium the tests are skipped with a message.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser as Chromium, type BrowserContext, type Page } from 'playwright-core';
import { ANNA, pdfWithMrzText, td3Lines } from '../../src/accounts/onboarding/identity/sample-documents.ts';
import type { Config } from '../../src/config.ts';
import { SESSION_COOKIE } from '../../src/platform/http/auth.ts';
import { Browser as ApiClient } from '../accounts/support.ts';
import { json } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { linksIn, startTestSmtpServer, type TestSmtpServer } from '../support/smtp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM = process.env.LAMIS_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.join(ROOT, 'test-artifacts', 'screenshots');

/** `describe(..., { skip: skipBrowser })`: the reason to skip, or false. */
export const skipBrowser: string | false = existsSync(CHROMIUM)
  ? false
  : `no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set LAMIS_CHROMIUM to run the dashboard's browser tests`;

/** The phone width every page is also shot at. */
export const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };

// ---------- The build ----------

/** What the build reads: the dashboard, the SDK, common/, and server modules it shares (src/, all of it, to be safe: a build takes a second). */
const SOURCES = ['web/src', 'web/index.html', 'web/vite.config.ts', 'sdk/src', 'common', 'src'];

function newestChange(entry: string): number {
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

function builtAt(): number {
  return statSync(path.join(ROOT, 'web/dist/index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

const stale = () => builtAt() < Math.max(...SOURCES.map((source) => newestChange(path.join(ROOT, source))));

/**
 * Builds the dashboard when web/dist is missing or older than a source. Test files run in
 * parallel, so one builds while the others wait on a lock (a directory: made atomically).
 */
export async function ensureDashboardBuilt(): Promise<void> {
  if (!stale()) return;
  const lock = path.join(tmpdir(), `lamis-web-build-${Buffer.from(ROOT).toString('base64url').slice(-24)}`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than a build can take is left from a killed run.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited too long for another test to build the dashboard (lock ${lock})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (!stale()) return;
    const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
    await promisify(execFile)(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: ROOT, timeout: 170_000 });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

// ---------- The dashboard under test ----------

export interface Dashboard {
  server: TestServer;
  smtp: TestSmtpServer;
  browser: Chromium;
  context: BrowserContext;
  page: Page;
  /** Every URL the browser asked for (pages, assets, fetches, WebSockets). */
  requests: string[];
  /** Uncaught exceptions in the page and Content-Security-Policy refusals. */
  pageErrors: string[];
  /** An address on the test server: `url('/settings/keys')`. */
  url(pathname: string): string;
  /** Saves test-artifacts/screenshots/<name>.png (and <name>-390.png at phone width with `phone`). */
  screenshot(name: string, options?: { phone?: boolean; fullPage?: boolean }): Promise<void>;
  /** Fails when the browser asked any other host for anything, or the page threw or broke the CSP. */
  assertClean(): void;
  /** An account made through the API, its session cookie put into the browser (see signUpUser). */
  signIn(options?: UserOptions): Promise<TestUser>;
  close(): Promise<void>;
}

export interface UserOptions {
  /** Default `captain<n>@example.com`. */
  email?: string;
  /** Default the name in the sample passport, so the identity check can pass. */
  fullName?: string;
  vehicle?: 'aircraft' | 'helicopter' | 'vessel';
  country?: string;
  /** Also pass the identity check (a PDF with the holder's MRZ as text): production keys. */
  identity?: boolean;
  /** The organisation's plan (owners may change it; billing is not part of LAMIS). */
  plan?: 'starter' | 'pro' | 'enterprise';
}

export interface TestUser {
  email: string;
  password: string;
  fullName: string;
  userId: string;
  orgId: string;
  /** Calls the API as this user, with their session and CSRF token. */
  api: ApiClient;
}

export const PASSWORD = 'a long enough password';
let users = 0;

/**
 * An account through the public API: sign-up, vehicle, e-mail verified by the mailed link, and
 * with `identity` a verified identity check.
 */
export async function signUpUser(server: TestServer, smtp: TestSmtpServer, options: UserOptions = {}): Promise<TestUser> {
  const email = options.email ?? `captain${++users}-${process.pid}@example.com`;
  const fullName = options.fullName ?? 'Anna Maria Eriksson';
  const api = new ApiClient(server.url);
  const account = await api.signUp(email, PASSWORD, fullName);
  const vehicle = await api.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: options.vehicle ?? 'aircraft', country: options.country ?? 'SE' });
  assert.equal(vehicle.status, 200, await vehicle.text());
  assert.equal((await api.call('POST', '/v3/accounts/onboarding/email-verification')).status, 202);
  // Other mails may have come to the address first (an invitation): the link is the verification's.
  const verification = (text: string | undefined) => linksIn(text ?? '').find((link) => link.includes('/v3/accounts/verify-email?'));
  const deadline = Date.now() + 10_000;
  let link: string | undefined;
  while (!link && Date.now() < deadline) {
    link = smtp.received.filter((mail) => mail.envelopeTo.includes(email)).map((mail) => verification(mail.text)).find(Boolean);
    if (!link) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(link, `no verification mail to ${email}`);
  assert.equal((await fetch(link)).status, 200);
  const orgId: string = account.account.organisations[0].org_id;
  if (options.identity) {
    const document = Buffer.from(await pdfWithMrzText(td3Lines(ANNA)));
    assert.equal((await api.call('POST', '/v3/accounts/identity', document, { 'content-type': 'application/pdf' })).status, 202);
    const deadline = Date.now() + 60_000;
    let status = 'pending';
    while (status === 'pending' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await json(await api.call('GET', '/v3/accounts/identity'))).status;
    }
    assert.equal(status, 'verified', `the identity check of ${email} ended ${status}`);
  }
  if (options.plan && options.plan !== 'starter') {
    const changed = await api.call('PUT', `/v3/organisations/${orgId}/plan`, { plan: options.plan });
    assert.equal(changed.status, 200, await changed.text());
  }
  return { email, password: PASSWORD, fullName, userId: account.account.user.id, orgId, api };
}

/**
 * Waits until the MapLibre map in `selector` has loaded what it needs (Natural Earth at 1:10m is
 * a few megabytes) and drawn it: no request for half a second, then the map settled.
 */
export async function mapSettled(page: Page, selector: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator(`${selector}[data-map-settled]`).waitFor({ timeout: 30_000 });
}

export async function startDashboard(options: { config?: Partial<Config> } = {}): Promise<Dashboard> {
  await ensureDashboardBuilt();
  const smtp = await startTestSmtpServer();
  // Each API client of a test calls from an address of its own (X-Forwarded-For), so the
  // per-address throttles of one test do not reach the next.
  const server = await startTestServer({ config: { smtpUrl: smtp.url(), trustProxy: true, ...options.config } });
  const origin = new URL(server.url).origin;
  // WebGL (the MapLibre maps) in software: SwiftShader through ANGLE, which headless Chromium may otherwise refuse.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--disable-dev-shm-usage', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-GB', timezoneId: 'UTC', acceptDownloads: false });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  context.setDefaultTimeout(15_000);

  const requests: string[] = [];
  const pageErrors: string[] = [];
  // Record everything; let only the server through, so nothing leaves the machine either.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    return new URL(url).origin === origin ? route.continue() : route.abort('blockedbyclient');
  });
  const watch = (page: Page) => {
    page.on('websocket', (socket) => requests.push(socket.url()));
    page.on('pageerror', (error) => pageErrors.push(`uncaught: ${error.message}`));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) pageErrors.push(`CSP: ${message.text()}`);
    });
  };
  context.on('page', watch);
  const page = await context.newPage();

  const dashboard: Dashboard = {
    server,
    smtp,
    browser,
    context,
    page,
    requests,
    pageErrors,
    url: (pathname) => new URL(pathname, origin).href,
    async screenshot(name, shotOptions = {}) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const fullPage = shotOptions.fullPage ?? true;
      // From the top: a full-page shot of a scrolled page paints the sticky header mid-page.
      if (fullPage) await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage, animations: 'disabled' });
      if (shotOptions.phone) {
        const before = page.viewportSize() ?? DESKTOP;
        await page.setViewportSize(PHONE);
        try {
          await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-390.png`), fullPage, animations: 'disabled' });
        } finally {
          await page.setViewportSize(before);
        }
      }
    },
    assertClean() {
      const elsewhere = requests.filter((url) => {
        const parsed = new URL(url);
        if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return false;
        return parsed.host !== new URL(origin).host;
      });
      assert.deepEqual(elsewhere, [], 'the dashboard asked another host');
      assert.deepEqual(pageErrors, [], 'the page threw or broke its Content-Security-Policy');
    },
    async signIn(userOptions = {}) {
      const user = await signUpUser(server, smtp, userOptions);
      const cookie = /lamis_session=([^;]*)/.exec(user.api.cookie ?? '')?.[1];
      assert.ok(cookie, 'the sign-up set no session cookie');
      await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: origin, httpOnly: true, sameSite: 'Lax' }]);
      return user;
    },
    async close() {
      await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await server.close();
      await smtp.close();
    },
  };
  return dashboard;
}
