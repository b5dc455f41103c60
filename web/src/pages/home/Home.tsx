// Home: the fleet's live feed first (GET …/fleet/feed, then `feed` frames of the event stream),
// one card per vehicle with what matters now. Then what the account operates decides the order
// (GET /v3/accounts/me's `vehicle_category`). Aircraft and helicopters: a landing briefing with an
// airport search and the weather at the fleet's home bases. Vessels: a port search and the live
// map. Then the shortcuts in that order; with no fleet yet, how to start one.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { data } from '../../api/data-key.ts';
import { useMembership, useSession } from '../../api/session.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync, useInterval } from '../../app/hooks.ts';
import { navigate, usePageTitle } from '../../app/router.tsx';
import { Button, ButtonLink, EmptyState, ErrorMessage, Loading, Section, StatusBadge } from '../../app/ui/basics.tsx';
import { TextField } from '../../app/ui/forms.tsx';
import { AnchorIcon, FleetIcon, HelicopterIcon, MapIcon, PlaneIcon, ShipIcon } from '../../app/ui/icons.tsx';
import { useFeed, useLiveEvents } from '../alerts/live-events.ts';
import { VEHICLE_TYPE_NAMES } from '../fleet/vehicle-form.ts';
import { AirportSearch, type ChosenAirport } from '../landing/AirportSearch.tsx';
import { age } from '../landing/format.ts';
import { FLIGHT_CATEGORIES } from '../landing/metar.ts';
import type { MetarReport } from '../landing/types.ts';
import { countWords, feedCard, fleetGlance, focusOf, mergeFeed, shortcutsFor, type FeedCard, type FeedEntry, type Shortcut } from './home-model.ts';
import './home.css';

/** Home bases whose weather is shown: each is one request of the dashboard key's small budget. */
const MAX_BASES = 3;
const GLANCE_PAGE = 100;
const FEED_PAGE = 50;

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

function FleetEmpty({ canManage }: { canManage: boolean }) {
  return (
    <Section title="Your fleet" id="glance">
      <EmptyState title="Your fleet is empty" action={canManage ? <ButtonLink href="/fleet/new" variant="primary">Add vehicle</ButtonLink> : undefined}>
        {canManage
          ? 'Add your aircraft and vessels: briefings then use their own limits, and Home becomes their live feed. Plan an aircraft\'s arrivals on its page and LAMIS watches them.'
          : 'Owners, admins and members can add vehicles; once they do, each shows here with what matters now.'}
      </EmptyState>
    </Section>
  );
}

const TONE_BADGES = { ok: 'ok', warn: 'warn', bad: 'bad', neutral: 'neutral' } as const;
const SEVERITY_BADGES = { critical: 'bad', warning: 'warn', info: 'info' } as const;
const worstSeverity = (events: FeedCard['events']) =>
  events.some((event) => event.severity === 'critical') ? 'critical' : events.some((event) => event.severity === 'warning') ? 'warning' : 'info';
const TYPE_ICONS = { aircraft: PlaneIcon, helicopter: HelicopterIcon, vessel: ShipIcon };

function FeedCardView({ card }: { card: FeedCard }) {
  const Icon = TYPE_ICONS[card.type];
  return (
    <article class="feed-card card" aria-labelledby={`feed-${card.id}`} data-vehicle={card.id}>
      <div class="feed-card-head">
        <Icon size={22} />
        <h3 id={`feed-${card.id}`} class="mono">{card.title}</h3>
        <span class="muted small">{VEHICLE_TYPE_NAMES[card.type]}</span>
        {card.events.length > 0 && (
          <StatusBadge tone={SEVERITY_BADGES[worstSeverity(card.events)]}>{card.events.length} open alert{card.events.length === 1 ? '' : 's'}</StatusBadge>
        )}
      </div>
      {card.facts.length > 0 && (
        <dl class="feed-facts">
          {card.facts.map((fact) => (
            <div key={fact.label} class={`feed-fact tone-${TONE_BADGES[fact.tone]}`}>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {card.notes.length > 0 && <ul class="feed-notes small muted">{card.notes.map((note) => <li key={note}>{note}</li>)}</ul>}
      {card.events.length > 0 && (
        <ul class="feed-events">
          {card.events.slice(0, 3).map((event) => (
            <li key={event.id}><StatusBadge tone={SEVERITY_BADGES[event.severity]}>{event.severity}</StatusBadge> <a href={`/events/${event.id}`}>{event.summary}</a></li>
          ))}
        </ul>
      )}
      <div class="feed-links">
        {card.links.map((link) => <a key={link.href} href={link.href}>{link.label}<span class="visually-hidden">: {card.title}</span></a>)}
        <span class="muted small feed-updated">Updated {formatUtc(card.updatedAt)}</span>
      </div>
    </article>
  );
}

/** The fleet's live feed: one card per vehicle, kept current by `feed` frames (read again every minute without the stream). */
function FleetFeed({ orgId, counts }: { orgId: string; counts: string }) {
  const live = useLiveEvents();
  const feed = useAsync((signal) => api('GET /v3/organisations/{orgId}/fleet/feed', { path: { orgId }, query: { limit: FEED_PAGE } }, { signal }), [orgId]);
  useFeed((entry) => {
    if (feed.data) feed.setData({ ...feed.data, data: mergeFeed(feed.data.data, entry as FeedEntry) });
  }, feed.reload);
  useInterval(feed.reload, 60_000, live.phase !== 'live');
  return (
    <Section title="Your fleet now" id="fleet-feed" actions={<ButtonLink href="/fleet" size="small">Open the fleet</ButtonLink>}>
      <p data-testid="fleet-counts">
        Your fleet: {counts}. {live.phase === 'live' ? <StatusBadge tone="ok">live</StatusBadge> : <span class="muted small">Read every minute.</span>}
      </p>
      {feed.error ? <ErrorMessage error={feed.error} title="The fleet feed could not be loaded" /> : null}
      {feed.loading && !feed.data ? <Loading label="Loading the fleet feed…" /> : (
        <div class="feed-grid" data-testid="fleet-feed">
          {(feed.data?.data ?? []).map((entry) => <FeedCardView key={entry.vehicle.id} card={feedCard(entry)} />)}
        </div>
      )}
      {feed.data?.next_cursor && <p class="small muted">The first {FEED_PAGE} vehicles are shown; the fleet page lists them all.</p>}
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

      {orgId && glance.total > 0 && <FleetFeed orgId={orgId} counts={countWords(glance)} />}

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
        : glance.total === 0 ? <FleetEmpty canManage={membership !== null && membership.role !== 'viewer'} /> : null}
    </div>
  );
}
