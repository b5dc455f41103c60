// Home: what the account operates decides what comes first (GET /v3/accounts/me's
// `vehicle_category`). Aircraft and helicopters: a landing briefing shortcut with an airport
// search and the weather at the fleet's home bases. Vessels: a port search and the live map. Then
// the shortcuts in that order, and the fleet at a glance.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { data } from '../../api/data-key.ts';
import { useMembership, useSession } from '../../api/session.ts';
import { useAsync } from '../../app/hooks.ts';
import { navigate, usePageTitle } from '../../app/router.tsx';
import { Button, ButtonLink, EmptyState, ErrorMessage, Loading, Section, StatusBadge } from '../../app/ui/basics.tsx';
import { TextField } from '../../app/ui/forms.tsx';
import { AnchorIcon, FleetIcon, MapIcon, PlaneIcon } from '../../app/ui/icons.tsx';
import { VEHICLE_TYPE_NAMES, vehicleName, vehicleSummary, type Vehicle } from '../fleet/vehicle-form.ts';
import { AirportSearch, type ChosenAirport } from '../landing/AirportSearch.tsx';
import { age } from '../landing/format.ts';
import { FLIGHT_CATEGORIES } from '../landing/metar.ts';
import type { MetarReport } from '../landing/types.ts';
import { countWords, fleetGlance, focusOf, shortcutsFor, type Shortcut } from './home-model.ts';
import './home.css';

/** Home bases whose weather is shown: each is one request of the dashboard key's small budget. */
const MAX_BASES = 3;
const GLANCE_PAGE = 100;

const ICONS = { plane: PlaneIcon, map: MapIcon, anchor: AnchorIcon, fleet: FleetIcon };

function ShortcutCard({ shortcut, primary }: { shortcut: Shortcut; primary: boolean }) {
  const Icon = ICONS[shortcut.icon];
  return (
    <a href={shortcut.href} class={`shortcut${primary ? ' is-primary' : ''}`}>
      <Icon size={primary ? 28 : 22} />
      <span class="shortcut-text">
        <span class="shortcut-title">{shortcut.title}</span>
        <span class="shortcut-description">{shortcut.text}</span>
      </span>
    </a>
  );
}

function QuickBriefing() {
  const [airport, setAirport] = useState<ChosenAirport | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <form class="quick-briefing" aria-label="Quick landing briefing" onSubmit={(event) => {
      event.preventDefault();
      if (!airport) {
        setError('Choose the destination from the list, or type its ICAO code.');
        return;
      }
      navigate(`/landing?icao=${encodeURIComponent(airport.icao)}`);
    }}>
      <AirportSearch value={airport} onChoose={(chosen) => {
        setAirport(chosen);
        setError(null);
      }} error={error} />
      <Button type="submit" variant="primary">Brief this arrival</Button>
    </form>
  );
}

function PortSearch() {
  const [text, setText] = useState('');
  return (
    <form class="quick-briefing" aria-label="Find a port" onSubmit={(event) => {
      event.preventDefault();
      navigate(text.trim() ? `/ports?q=${encodeURIComponent(text.trim())}` : '/ports');
    }}>
      <TextField label="Port" hint="A name, a UN/LOCODE (NLRTM) or a World Port Index number." value={text} onValue={setText} placeholder="Rotterdam" autoComplete="off" />
      <div class="row">
        <Button type="submit" variant="primary">Find the port</Button>
        <ButtonLink href="/map">Open the live map</ButtonLink>
      </div>
    </form>
  );
}

function BaseWeather({ bases }: { bases: string[] }) {
  const shown = bases.slice(0, MAX_BASES);
  const reports = useAsync(
    (signal) => Promise.allSettled(shown.map((icao) => data('GET /v3/aviation/airports/{icao}/metar', { path: { icao } }, { signal }))),
    [shown.join(',')],
  );
  if (shown.length === 0) {
    return (
      <EmptyState title="No home bases yet" action={<ButtonLink href="/fleet">Open the fleet</ButtonLink>}>
        Give your aircraft a home base in the fleet, and the weather there shows here.
      </EmptyState>
    );
  }
  if (reports.loading && !reports.data) return <Loading label="Loading the weather at your bases…" />;
  if (reports.error) return <ErrorMessage error={reports.error} />;
  return (
    <ul class="base-weather" data-testid="base-weather">
      {shown.map((icao, index) => {
        const answer = reports.data?.[index];
        const report: MetarReport | null = answer?.status === 'fulfilled' ? answer.value : null;
        const category = report?.derived?.flight_category ?? null;
        return (
          <li key={icao}>
            <div class="base-head">
              <strong class="mono">{icao}</strong>
              {category && <span class="flight-chip" style={{ background: FLIGHT_CATEGORIES[category].colour }} title={FLIGHT_CATEGORIES[category].meaning}>{category}</span>}
              {report?.source === 'simulated' && <StatusBadge tone="warn">simulated</StatusBadge>}
              {report && <span class="muted small">observed {age(report.observation_age_s)} ago</span>}
              <a class="base-link" href={`/landing?icao=${encodeURIComponent(icao)}`}>Brief<span class="visually-hidden"> a landing at {icao}</span></a>
            </div>
            {report ? <p class="mono small base-metar">{report.raw}</p>
              : answer?.status === 'rejected' ? <ErrorMessage error={answer.reason} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

function FleetAtAGlance({ vehicles, more, canManage }: { vehicles: Vehicle[]; more: boolean; canManage: boolean }) {
  const glance = fleetGlance(vehicles, more);
  return (
    <Section title="Fleet at a glance" id="glance" actions={<ButtonLink href="/fleet" size="small">Open the fleet</ButtonLink>}>
      {glance.total === 0 ? (
        <EmptyState title="Your fleet is empty" action={canManage ? <ButtonLink href="/fleet/new" variant="primary">Add vehicle</ButtonLink> : undefined}>
          {canManage ? 'Add your aircraft and vessels: briefings then use their own limits.' : 'Owners, admins and members can add vehicles.'}
        </EmptyState>
      ) : (
        <>
          <p data-testid="fleet-counts">Your fleet: {countWords(glance)}.</p>
          <ul class="glance-list">
            {vehicles.slice(0, 6).map((v) => (
              <li key={v.id}>
                <a href={`/fleet/${v.id}`} class="mono">{vehicleName(v)}</a>
                <StatusBadge tone={v.vehicle_type === 'vessel' ? 'info' : 'neutral'}>{VEHICLE_TYPE_NAMES[v.vehicle_type]}</StatusBadge>
                <span class="muted small">{vehicleSummary(v)}</span>
                {v.vehicle_type === 'vessel' && v.mmsi !== null
                  ? <a class="glance-action" href={`/map?vessel=${v.mmsi}`}>On the map<span class="visually-hidden">: {vehicleName(v)}</span></a>
                  : <a class="glance-action" href={`/landing?vehicle=${v.id}${v.home_base_icao ? `&icao=${v.home_base_icao}` : ''}`}>Brief<span class="visually-hidden"> {vehicleName(v)}</span></a>}
              </li>
            ))}
          </ul>
          {glance.total > 6 && <p class="small muted">And {glance.total - 6}{more ? ' more, and others' : ' more'}.</p>}
        </>
      )}
    </Section>
  );
}

export default function Home() {
  usePageTitle('Home');
  const { account } = useSession();
  const membership = useMembership();
  const orgId = membership?.org_id ?? null;
  const focus = focusOf(account?.user.vehicle_category ?? null);
  const shortcuts = shortcutsFor(focus);
  const fleet = useAsync(
    (signal) => (orgId ? api('GET /v3/organisations/{orgId}/fleet/vehicles', { path: { orgId }, query: { limit: GLANCE_PAGE } }, { signal }) : Promise.resolve(null)),
    [orgId],
  );
  const vehicles = fleet.data?.data ?? [];
  const glance = fleetGlance(vehicles, Boolean(fleet.data?.next_cursor));
  const firstName = account?.user.full_name.split(/\s+/)[0] ?? '';

  return (
    <div class={`home home-${focus}`} data-focus={focus}>
      <header class="page-header">
        <div>
          <h1 tabIndex={-1} data-page-heading>{firstName ? `Welcome, ${firstName}` : 'Welcome'}</h1>
          <p class="page-intro">
            {focus === 'aviation' && 'Your landing briefings first: pick a destination, or look at the weather where your aircraft are based.'}
            {focus === 'maritime' && 'Your vessels first: the live map and the ports they call at.'}
            {focus === 'both' && 'Landing briefings for aircraft, the live map and ports for vessels.'}
          </p>
        </div>
      </header>

      {focus === 'aviation' && (
        <div class="home-grid">
          <Section title="Landing briefing" id="quick-briefing">
            <QuickBriefing />
          </Section>
          <Section title="Weather at your bases" id="bases">
            {fleet.loading && !fleet.data ? <Loading /> : <BaseWeather bases={glance.bases} />}
          </Section>
        </div>
      )}
      {focus === 'maritime' && (
        <Section title="Ports and vessels" id="quick-ports">
          <PortSearch />
        </Section>
      )}
      {focus === 'both' && (
        <div class="home-grid">
          <Section title="Landing briefing" id="quick-briefing">
            <QuickBriefing />
          </Section>
          <Section title="Ports and vessels" id="quick-ports">
            <PortSearch />
          </Section>
        </div>
      )}

      <nav class="shortcuts" aria-label="Shortcuts">
        {shortcuts.map((shortcut, index) => <ShortcutCard key={shortcut.href} shortcut={shortcut} primary={focus === 'maritime' ? index < 2 : index === 0} />)}
      </nav>

      {fleet.error ? <ErrorMessage error={fleet.error} title="Your fleet could not be loaded" /> : null}
      {fleet.loading && !fleet.data ? <Loading label="Loading your fleet…" />
        : <FleetAtAGlance vehicles={vehicles} more={Boolean(fleet.data?.next_cursor)} canManage={membership !== null && membership.role !== 'viewer'} />}
    </div>
  );
}
