// The application: finds out who is signed in, matches the address to a page, keeps signed-out
// visitors to the public pages, and draws the page in its frame.
import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadSession, useSession } from '../api/session.ts';
import { BareLayout, Layout } from './Layout.tsx';
import { matchRoute, navigate, signInPath, useLocation, type PageProps, type PageRoute } from './router.tsx';
import { Alert, ButtonLink, ErrorMessage, Loading, PageHeader } from './ui/basics.tsx';

const loaded = new Map<PageRoute, ComponentType<PageProps>>();

/** The page of a route, loading its chunk first when it has one of its own. */
function usePage(route: PageRoute | undefined): { Page: ComponentType<PageProps> | null; error: unknown } {
  const initial = route ? route.page ?? loaded.get(route) ?? null : null;
  const [state, setState] = useState<{ route?: PageRoute; Page: ComponentType<PageProps> | null; error: unknown }>({ route, Page: initial, error: null });
  useEffect(() => {
    if (!route) return;
    const ready = route.page ?? loaded.get(route);
    if (ready) {
      setState({ route, Page: ready, error: null });
      return;
    }
    let current = true;
    setState({ route, Page: null, error: null });
    route.load?.().then(
      (module) => {
        loaded.set(route, module.default);
        if (current) setState({ route, Page: module.default, error: null });
      },
      (error: unknown) => current && setState({ route, Page: null, error }),
    );
    return () => {
      current = false;
    };
  }, [route]);
  // Until the effect has run for a new route, the old route's page must not be drawn.
  if (state.route !== route) return { Page: initial, error: null };
  return { Page: state.Page, error: state.error };
}

function NotFound() {
  return (
    <>
      <PageHeader title="Page not found">There is no dashboard page at this address.</PageHeader>
      <p><ButtonLink href="/" variant="primary">Go to the home page</ButtonLink></p>
    </>
  );
}

export function App() {
  const session = useSession();
  const location = useLocation();
  const [startError, setStartError] = useState<unknown>(null);
  const match = matchRoute(location.pathname);
  const route = match?.route;
  const { Page, error: pageError } = usePage(route);
  const mainReady = useRef(false);

  useEffect(() => {
    loadSession().catch(setStartError);
  }, []);

  const needsSignIn = session.status === 'signed-out' && route !== undefined && route.access !== 'public';
  useEffect(() => {
    if (needsSignIn) navigate(signInPath(location.pathname + location.search), { replace: true });
  }, [needsSignIn, location.pathname, location.search]);

  // After a navigation: the title, the top of the page, and focus on the new page's heading.
  useEffect(() => {
    document.title = route ? `${route.title} · LAMIS` : 'Page not found · LAMIS';
    if (!mainReady.current) {
      mainReady.current = true;
      return;
    }
    window.scrollTo(0, 0);
    const focusHeading = () => {
      const heading = document.querySelector<HTMLElement>('[data-page-heading]') ?? document.getElementById('main');
      heading?.focus({ preventScroll: true });
    };
    requestAnimationFrame(focusHeading);
  }, [location.pathname]);

  if (startError) {
    return (
      <BareLayout>
        <ErrorMessage title="The dashboard could not start" error={startError} />
        <p><button type="button" class="button" onClick={() => window.location.reload()}>Try again</button></p>
      </BareLayout>
    );
  }
  if (session.status === 'loading' || needsSignIn) return <BareLayout><Loading label="Loading LAMIS…" /></BareLayout>;

  let content;
  if (!match) content = <NotFound />;
  else if (pageError) content = <Alert tone="error" title="This page could not be loaded">Reload the page to try again; the dashboard may have been updated.</Alert>;
  else if (!Page) content = <Loading />;
  else content = <Page params={match.params} query={location.query} />;
  if (route?.bare) return <BareLayout wide={route.bare === 'wide'}>{content}</BareLayout>;
  return <Layout>{content}</Layout>;
}
