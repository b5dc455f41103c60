// The frame around every page: a skip link, the header with the navigation (a menu button at phone
// width), the alerts bell with its live count, the organisation switcher and sign-out, a banner
// while sign-up is unfinished, the page, and the reliance notice.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { chooseOrganisation, currentMembership, signOut, useSession } from '../api/session.ts';
import { AlertsBadge } from '../pages/alerts/AlertsBadge.tsx';
import { navigate, useLocation } from './router.tsx';
import { Button } from './ui/basics.tsx';
import { AnchorIcon, CloseIcon, FleetIcon, HomeIcon, MapIcon, MenuIcon, PlaneIcon, SettingsIcon, ZoneIcon } from './ui/icons.tsx';
import logo from './favicon.svg';

export const NAVIGATION = [
  { href: '/', label: 'Home', icon: HomeIcon },
  { href: '/fleet', label: 'Fleet', icon: FleetIcon },
  { href: '/landing', label: 'Landing', icon: PlaneIcon },
  { href: '/map', label: 'Map', icon: MapIcon },
  { href: '/ports', label: 'Ports', icon: AnchorIcon },
  { href: '/zones', label: 'Zones', icon: ZoneIcon },
  { href: '/settings', label: 'Settings', icon: SettingsIcon },
];

function isCurrent(href: string, pathname: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

const STEP_NAMES = { details: 'your details', vehicle: 'what you operate', email: 'verifying your e-mail address', identity: 'the identity check' };

export function Footer() {
  return (
    <footer class="app-footer">
      <p>
        <strong>Not for sole reliance.</strong> LAMIS intelligence supports operational decisions; check official sources (AIP, NOTAM office,
        ATC, port authority) before acting. <a href="/docs/">API reference</a>
      </p>
    </footer>
  );
}

export function Layout({ children }: { children: ComponentChildren }) {
  const { account } = useSession();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  const membership = currentMembership(account);
  const next = account?.onboarding.next_step;

  return (
    <>
      <a class="skip-link" href="#main" onClick={(event) => {
        event.preventDefault();
        document.getElementById('main')?.focus();
      }}>Skip to content</a>
      <header class="app-header">
        <div class="app-header-inner">
          <a class="brand" href="/"><img class="brand-mark" src={logo} alt="" />LAMIS</a>
          {account && <AlertsBadge current={pathname === '/alerts' || pathname.startsWith('/events/')} />}
          <Button class="nav-toggle" size="small" aria-expanded={menuOpen} aria-controls="app-nav" onClick={() => setMenuOpen(!menuOpen)}>
            {menuOpen ? <CloseIcon size={18} /> : <MenuIcon size={18} />}
            Menu
          </Button>
          <nav id="app-nav" class={`app-nav${menuOpen ? ' is-open' : ''}`} aria-label="Main">
            <ul class="nav-list">
              {NAVIGATION.map(({ href, label, icon: Icon }) => (
                <li key={href}>
                  <a href={href} aria-current={isCurrent(href, pathname) ? 'page' : undefined}><Icon size={18} />{label}</a>
                </li>
              ))}
            </ul>
            {account && (
              <div class="nav-account">
                {account.organisations.length > 1 && membership ? (
                  <label>
                    <span class="visually-hidden">Organisation</span>
                    <select value={membership.org_id} onChange={(event) => chooseOrganisation(event.currentTarget.value)}>
                      {account.organisations.map((org) => <option key={org.org_id} value={org.org_id}>{org.name} ({org.role})</option>)}
                    </select>
                  </label>
                ) : null}
                <span class="nav-user" title={account.user.email}>{account.user.full_name}</span>
                <Button size="small" busy={signingOut} onClick={async () => {
                  setSigningOut(true);
                  try {
                    await signOut();
                  } finally {
                    setSigningOut(false);
                    navigate('/sign-in');
                  }
                }}>Sign out</Button>
              </div>
            )}
          </nav>
        </div>
      </header>
      {next && next !== 'details' && pathname !== '/onboarding' && (
        <div class="onboarding-banner" role="status">
          <div class="onboarding-banner-inner">
            {next === 'identity'
              ? <>Your identity is not checked yet: production API keys need it. <a href="/onboarding">Check it now</a></>
              : <>Your sign-up is not finished: next comes {STEP_NAMES[next]}. <a href="/onboarding">Continue signing up</a></>}
          </div>
        </div>
      )}
      <main id="main" class="app-main" tabIndex={-1}>{children}</main>
      <Footer />
    </>
  );
}

/** Sign-in, sign-up and the pages reached from mails: the brand, one column, the notice. */
export function BareLayout({ children, wide = false }: { children: ComponentChildren; wide?: boolean }) {
  return (
    <div class="bare">
      <a class="brand bare-brand" href="/"><img class="brand-mark" src={logo} alt="" />LAMIS</a>
      <main id="main" class={`bare-main${wide ? ' is-wide' : ''}`} tabIndex={-1}>{children}</main>
      <Footer />
    </div>
  );
}
