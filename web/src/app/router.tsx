// A small client-side router: the History API, path patterns with `:params`, and one click
// listener that turns same-origin links into navigations, so pages use plain `<a href>`.
// Each page folder declares its routes in `pages/<area>/routes.ts` (found at build time).
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export interface PageProps {
  /** The `:name` parts of the path, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface PageRoute {
  /** `/ports/:id`; matched segment by segment, a trailing slash ignored. */
  path: string;
  /** The document title (`<title> · LAMIS`); a page may set a better one with usePageTitle. */
  title: string;
  /** The page, or a loader for a page kept in a chunk of its own (`() => import('./Map.tsx')`). */
  page?: ComponentType<PageProps>;
  load?: () => Promise<{ default: ComponentType<PageProps> }>;
  /** `public` pages work signed out; the others send a signed-out visitor to the sign-in page. */
  access?: 'public' | 'signed-in';
  /** Drawn on a plain background without the navigation (sign-in, sign-up); `wide` for wider forms. */
  bare?: boolean | 'wide';
}

export interface RouteMatch {
  route: PageRoute;
  params: Record<string, string>;
}

/** Paths the server answers itself: links to them are ordinary page loads. */
const SERVER_PATHS = /^\/(v3|docs|problems|healthz|readyz|metrics|assets)(\/|$)/;

const modules = import.meta.glob<{ routes: PageRoute[] }>('../pages/*/routes.ts', { eager: true });

function staticSegments(path: string): number {
  return path.split('/').filter((segment) => segment && !segment.startsWith(':')).length;
}

/** Every page's route, the most specific first (`/ports/search` before `/ports/:id`). */
export const ROUTES: PageRoute[] = Object.values(modules)
  .flatMap((module) => module.routes)
  .sort((a, b) => staticSegments(b.path) - staticSegments(a.path));

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const want = segments(pattern);
  const have = segments(pathname);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    let value: string;
    try {
      value = decodeURIComponent(have[i]!);
    } catch {
      return null;
    }
    if (part.startsWith(':')) params[part.slice(1)] = value;
    else if (part !== value) return null;
  }
  return params;
}

export function matchRoute(pathname: string): RouteMatch | null {
  for (const route of ROUTES) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

const NAVIGATED = 'lamis:navigate';

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.href);
  if (url.origin !== window.location.origin || SERVER_PATHS.test(url.pathname)) {
    window.location.assign(url);
    return;
  }
  const target = url.pathname + url.search + url.hash;
  if (target === window.location.pathname + window.location.search + window.location.hash) return;
  if (options.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  window.dispatchEvent(new Event(NAVIGATED));
}

export interface Location {
  pathname: string;
  search: string;
  query: URLSearchParams;
}

function readLocation(): Location {
  return { pathname: window.location.pathname, search: window.location.search, query: new URLSearchParams(window.location.search) };
}

/** The current address, drawn again on every navigation. */
export function useLocation(): Location {
  const [location, setLocation] = useState(readLocation);
  useEffect(() => {
    const update = () => setLocation(readLocation());
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return location;
}

/** Same-origin `<a href>` clicks navigate without a page load (new-tab clicks are left alone). */
export function interceptLinks(): void {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor || anchor.target || anchor.hasAttribute('download') || !anchor.href) return;
    const url = new URL(anchor.href);
    if (url.origin !== window.location.origin || SERVER_PATHS.test(url.pathname)) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
}

/** `/sign-in?next=…` for the current address, to come back after signing in. */
export function signInPath(next = window.location.pathname + window.location.search): string {
  return next && next !== '/' ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in';
}

/** A `next` parameter that stays on this site (never `//evil.example`). */
export function safeNext(value: string | null, fallback = '/'): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : fallback;
}

export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · LAMIS`;
  }, [title]);
}
