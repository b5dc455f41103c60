// The dashboard: the Vite build in web/dist, served at `/` by the same server. Its hashed assets
// under /assets/ are cached for a year (a new build makes new names); every other GET that names
// no API path gets index.html, so a reloaded or shared dashboard address (/ports/GBSOU) draws the
// page it names. Before the dashboard is built, those paths answer a page that says how to build it.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './errors.ts';
import { ProblemError, Problems } from './problems.ts';

/** Where `npm run build:web` writes the dashboard. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** Paths the dashboard never takes over: a miss under them stays a problem document. */
const SERVICE_PREFIXES = ['/v3', '/docs', '/problems', '/healthz', '/readyz', '/metrics', '/assets'];

/**
 * Links in mails point at API routes (the README documents them). A browser that opens one is
 * sent to the dashboard page for it, which calls the same route; API clients still get JSON.
 */
export const MAILED_LINK_PAGES: Readonly<Record<string, string>> = {
  '/v3/accounts/verify-email': '/verify-email',
  '/v3/accounts/invitations/preview': '/invitation',
};

/** A path the dashboard's router draws: outside the service's own prefixes, not a file name. */
export function isDashboardPath(pathname: string): boolean {
  if (SERVICE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !last.includes('.');
}

/** A navigation, not a script: browsers ask for HTML when they open a link. */
function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/.test(request.headers.accept ?? '');
}

const NOT_BUILT = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>LAMIS: the dashboard is not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1b2733}code{background:#eef2f6;padding:.1rem .3rem;border-radius:3px}</style></head>
<body>
<h1>The dashboard is not built yet</h1>
<p>LAMIS is running: the API answers under <a href="/v3/openapi.json"><code>/v3</code></a> and its reference is at <a href="/docs/">/docs</a>.</p>
<p>The web dashboard is built from <code>web/</code> into <code>web/dist/</code>. <code>npm install</code> builds it;
to build it by hand, run <code>npm run build:web</code> in the project folder, then reload this page (no restart needed).</p>
</body>
</html>
`;

export interface DashboardOptions {
  /** The built dashboard; default web/dist. */
  dir?: string;
}

export async function installDashboard(app: FastifyInstance, options: DashboardOptions = {}): Promise<void> {
  const dir = options.dir ?? DASHBOARD_DIR;
  // Read on every page load (a small file), so a build made while the server runs is picked up.
  const sendIndex = async (reply: FastifyReply) => {
    const html = await readFile(path.join(dir, 'index.html'), 'utf8').catch(() => null);
    // The page names the assets of one build, so it is checked again on every visit.
    reply.header('cache-control', 'no-cache');
    if (html === null) return reply.status(503).type('text/html; charset=utf-8').send(NOT_BUILT);
    return reply.status(200).type('text/html; charset=utf-8').send(html);
  };

  await app.register(async (scope) => {
    // A missing asset is a plain 404 (the service's handler would see the wildcard route and say 405).
    scope.setNotFoundHandler((request, reply) =>
      sendProblem(reply, request, new ProblemError(Problems.notFound, `The dashboard has no asset ${request.url.split('?')[0]}; reload the page for the current build.`)));
    await scope.register(fastifyStatic, {
      root: path.join(dir, 'assets'),
      prefix: '/',
      decorateReply: false,
      // The folder appears with the first build; until then every asset is a plain 404.
      suppressWarning: true,
      index: false,
      cacheControl: true,
      maxAge: '365d',
      immutable: true,
    });
  }, { prefix: '/assets' });

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const [pathname = '/', query] = request.url.split('?', 2);
    const page = MAILED_LINK_PAGES[pathname];
    // The address carries the link's single-use token: no cache may keep it.
    if (page && wantsHtml(request)) return reply.header('cache-control', 'no-store').redirect(query === undefined ? page : `${page}?${query}`, 303);
    // Only paths no route took: fastify marks those before any hook runs.
    if (request.is404 && isDashboardPath(pathname)) return sendIndex(reply);
  });
}
