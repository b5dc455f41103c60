// One port: what the port data says about it and the water LAMIS counts as the port, berths and
// occupancy now, congestion, vessels expected, recent port calls, tides and tidal windows, and
// weather holds. Each part loads on its own, so a slow or
// failing one leaves the others readable.
import type { OperationResponse } from '@lamis/sdk';
import { useAsync } from '../../app/hooks.ts';
import type { PageProps } from '../../app/router.tsx';
import { usePageTitle } from '../../app/router.tsx';
import { formatNumber, formatUtc } from '../../app/format.ts';
import { EmptyState, ErrorMessage, Loading, PageHeader, Section, StatusBadge } from '../../app/ui/basics.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { data } from '../../api/data-key.ts';
import { errorCode } from '../../api/errors.ts';
import { categoryStyle } from '../map/categories.ts';
import { formatPosition } from '../map/format.ts';
import { FACTOR_LABELS, formatFactor, harbourSizeText, words } from './format.ts';
import { portTime, PortTime } from './PortTime.tsx';
import { CongestionSection } from './CongestionSection.tsx';
import { TideSection } from './TideSection.tsx';
import { PortAreaMap } from './PortAreaMap.tsx';
import './ports.css';

type Port = OperationResponse<'GET /v3/maritime/ports/{id}'>;
type Availability = OperationResponse<'GET /v3/maritime/ports/{id}/availability'>;
type Arrivals = OperationResponse<'GET /v3/maritime/ports/{id}/arrivals'>;
type Calls = OperationResponse<'GET /v3/maritime/ports/{id}/calls'>;
type Holds = OperationResponse<'GET /v3/maritime/ports/{id}/weather-holds'>;

function metres(value: number | null): string {
  return value === null ? '–' : `${value} m`;
}

/** A link to the live map centred on a vessel's port, showing that vessel. */
function vesselLink(mmsi: number, name: string | null, port: Port) {
  return <a href={`/map?lat=${port.lat}&lon=${port.lon}&zoom=10&vessel=${mmsi}`}>{name ?? `MMSI ${mmsi}`}</a>;
}

export default function PortPage({ params }: PageProps) {
  const id = params.id!.toUpperCase();
  const port = useAsync((signal) => data('GET /v3/maritime/ports/{id}', { path: { id } }, { signal }), [id]);
  usePageTitle(port.data ? port.data.name : 'Port');

  if (port.loading && !port.data) return <Loading label="Loading the port…" />;
  if (port.error) {
    return (
      <>
        <PageHeader title="Port not found" />
        {errorCode(port.error) === 'port_not_found'
          ? <EmptyState title={`LAMIS knows no port ${id}`} action={<a href="/ports">Search the ports</a>}>
              <p>Ports are found by UN/LOCODE (NLRTM) or World Port Index number (WPI-31140).</p>
            </EmptyState>
          : <ErrorMessage error={port.error} title="The port could not be loaded" />}
      </>
    );
  }
  const found = port.data!;
  return (
    <div class="port-page" data-port={found.id}>
      <PageHeader title={found.name} actions={<a href={`/map?lat=${found.lat}&lon=${found.lon}&zoom=10`}>Show on the live map</a>}>
        <p>{[found.unlocode, found.wpi_number ? `WPI ${found.wpi_number}` : null, found.country].filter(Boolean).join(' · ')} · {formatPosition(found.lat, found.lon)}</p>
      </PageHeader>
      <PortFacts port={found} />
      <Occupancy port={found} />
      <CongestionSection port={found} />
      <ArrivalsSection port={found} />
      <CallsSection port={found} />
      <TideSection port={found} />
      <HoldsSection port={found} />
    </div>
  );
}

const AREA_METHODS: Record<Port['area']['derivation']['method'], string> = {
  base: 'Circle by harbour size and type',
  seeded: 'River port: its circle and the smaller ports along it',
  evidence: 'Fitted to where ships stop (AIS)',
};

function PortFacts({ port }: { port: Port }) {
  const restrictions = port.entrance_restrictions
    ? Object.entries(port.entrance_restrictions).filter(([, value]) => value).map(([name]) => name).join(', ') || 'none'
    : '–';
  const rows: [string, string][] = [
    ['Harbour size', harbourSizeText(port.harbour_size)],
    ['Harbour type', words(port.harbour_type)],
    ['Time zone', port.timezone ?? '–'],
    ['Channel depth', metres(port.channel_depth_m)],
    ['Anchorage depth', metres(port.anchorage_depth_m)],
    ['Cargo pier depth', metres(port.cargo_pier_depth_m)],
    ['Tidal range', metres(port.tidal_range_m)],
    ['Largest vessel (L × B × draught)', port.max_vessel_length_m === null && port.max_vessel_beam_m === null && port.max_vessel_draught_m === null
      ? '–'
      : `${metres(port.max_vessel_length_m)} × ${metres(port.max_vessel_beam_m)} × ${metres(port.max_vessel_draught_m)}`],
    ['Entrance restrictions', restrictions],
    ['Port area', AREA_METHODS[port.area.derivation.method]],
    ['Anchorages · berth clusters seen', `${port.area.anchorages.length} · ${port.area.berth_clusters.length}`],
  ];
  const sources = [...new Set(Object.values(port.sources))].join(', ');
  return (
    <Section title="The port" id="facts">
      <dl class="facts port-facts">
        {rows.map(([label, value]) => [<dt key={`${label}-t`}>{label}</dt>, <dd key={`${label}-d`}>{value}</dd>])}
      </dl>
      <p class="hint">From {sources || 'the port data'}. World Port Index depths are mostly the lower edge of a 5-foot band: read them as "at least".</p>
      <p class="hint" data-area-method={port.area.derivation.method}>Port area: {port.area.derivation.reasoning}</p>
      <PortAreaMap port={port} />
    </Section>
  );
}

function Occupancy({ port }: { port: Port }) {
  const availability = useAsync((signal) => data('GET /v3/maritime/ports/{id}/availability', { path: { id: port.id } }, { signal }), [port.id]);
  return (
    <Section title="Berths and occupancy" id="berths">
      {availability.loading && !availability.data && <Loading label="Counting the vessels in port…" />}
      <ErrorMessage error={availability.error} title="Occupancy could not be loaded" />
      {availability.data && <OccupancyView availability={availability.data} port={port} />}
    </Section>
  );
}

function OccupancyView({ availability, port }: { availability: Availability; port: Port }) {
  const { capacity } = availability;
  const used = Math.min(availability.at_berth, capacity.berths);
  const share = capacity.berths ? used / capacity.berths : 0;
  return (
    <>
      <div class="port-occupancy" data-capacity={capacity.berths} data-at-berth={availability.at_berth}>
        <div class="port-occupancy-numbers">
          <div><span class="port-big-number">{availability.at_berth}</span> at berth</div>
          <div><span class="port-big-number">{availability.waiting}</span> waiting at anchor</div>
          <div><span class="port-big-number">{availability.available}</span> of {capacity.berths} berths free</div>
        </div>
        <div class="port-occupancy-bar" role="meter" aria-valuemin={0} aria-valuemax={capacity.berths} aria-valuenow={used}
          aria-label={`${used} of ${capacity.berths} berths taken`}>
          <div class={`port-occupancy-fill${share >= 0.9 ? ' is-full' : ''}`} style={{ width: `${Math.round(share * 100)}%` }} />
        </div>
        <p class="hint">
          {capacity.basis === 'estimate'
            ? `Capacity is an estimate: LAMIS holds no berth records for this port, so it counts ${capacity.berths} berths ` +
              `(${capacity.by_harbour_size !== null ? `${capacity.by_harbour_size} for its harbour size` : 'by harbour size'}` +
              `${capacity.observed_peak !== null ? `, at least the ${capacity.observed_peak} seen at berth at once in the last 30 days` : ''}).`
            : `Capacity: the ${capacity.berths} berth records of this port.`}
          {availability.typical_stay_hours !== null && ` A call here lasts ${availability.typical_stay_hours.toFixed(0)} hours in the middle.`}
        </p>
      </div>
      {availability.berths.length > 0 && (
        <>
          <h3 class="port-table-title">Berths</h3>
          <DataTable caption="Berths" captionHidden rowKey={(berth) => berth.id} rows={availability.berths} columns={[
            { header: 'Berth', cell: (berth) => berth.name },
            { header: 'Vessel alongside', cell: (berth) => (berth.occupied_by ? vesselLink(berth.occupied_by.mmsi, berth.occupied_by.name, port) : 'Free') },
          ]} />
        </>
      )}
      <h3 class="port-table-title">Vessels in port</h3>
      <DataTable caption="Vessels in port" captionHidden rowKey={(vessel) => vessel.call_id} rows={availability.vessels}
        empty={<p class="hint">No vessel is in port now by its AIS reports.</p>} columns={[
          { header: 'Vessel', cell: (vessel) => vesselLink(vessel.mmsi, vessel.name, port) },
          { header: 'State', cell: (vessel) => <div>{vessel.state === 'at_berth' ? <StatusBadge tone="ok">At berth</StatusBadge> : <StatusBadge tone="warn">At anchor</StatusBadge>}</div> },
          { header: 'Arrived', cell: (vessel) => <PortTime at={vessel.arrived_at} zone={port.timezone} /> },
          { header: 'Expected to leave', cell: (vessel) => (
            <PortTime at={vessel.expected_departure_at} zone={port.timezone}>
              {vessel.expected_departure_basis === 'overdue' && <StatusBadge tone="warn">Overdue</StatusBadge>}
            </PortTime>
          ) },
        ]} />
    </>
  );
}

function ArrivalsSection({ port }: { port: Port }) {
  const arrivals = useAsync((signal) => data('GET /v3/maritime/ports/{id}/arrivals', { path: { id: port.id } }, { signal }), [port.id]);
  return (
    <Section title="Expected arrivals" id="arrivals">
      {arrivals.loading && !arrivals.data && <Loading label="Finding vessels bound here…" />}
      <ErrorMessage error={arrivals.error} title="Expected arrivals could not be loaded" />
      {arrivals.data && <ArrivalsTable arrivals={arrivals.data} port={port} />}
    </Section>
  );
}

function fitBadge(fit: Arrivals['data'][number]['fit']) {
  if (fit.verdict === 'fits') return <StatusBadge tone="ok">Fits</StatusBadge>;
  if (fit.verdict === 'exceeds') {
    const over = fit.checks.filter((check) => !check.fits).map((check) => words(check.limit)).join(', ');
    return <StatusBadge tone="bad" title={`Over: ${over}`}>Exceeds {over.toLowerCase()}</StatusBadge>;
  }
  return <StatusBadge tone="neutral" title="The port data has no limit to check against">Unknown</StatusBadge>;
}

function ArrivalsTable({ arrivals, port }: { arrivals: Arrivals; port: Port }) {
  return (
    <DataTable caption="Vessels expected, soonest first" captionHidden rowKey={(vessel) => String(vessel.mmsi)} rows={arrivals.data}
      empty={<p class="hint">No vessel reports this port as its destination or is heading for it now.</p>} columns={[
        { header: 'Vessel', cell: (vessel) => (
          <div>
            <span class="port-swatch" style={{ background: categoryStyle(vessel.category).colour }} aria-hidden="true" /> {vesselLink(vessel.mmsi, vessel.name, port)}
            <div class="muted">{categoryStyle(vessel.category).label}{vessel.flag ? ` · ${vessel.flag}` : ''}</div>
          </div>
        ) },
        { header: 'Why', cell: (vessel) => (vessel.match === 'destination' ? `Destination "${vessel.destination}"` : 'Heading this way') },
        { header: 'Distance', cell: (vessel) => (vessel.distance_nm === null ? '–' : `${formatNumber(vessel.distance_nm)} nm`), align: 'end' },
        { header: 'Predicted ETA', cell: (vessel) => <PortTime at={vessel.predicted_eta ?? vessel.course_eta} zone={port.timezone} /> },
        { header: 'Reported ETA', cell: (vessel) => <PortTime at={vessel.reported_eta} zone={port.timezone} /> },
        { header: 'Draught', cell: (vessel) => metres(vessel.draught_m), align: 'end' },
        { header: 'Fits the port', cell: (vessel) => <div>{fitBadge(vessel.fit)}</div> },
      ]} />
  );
}

function CallsSection({ port }: { port: Port }) {
  const calls = useAsync((signal) => data('GET /v3/maritime/ports/{id}/calls', { path: { id: port.id }, query: { limit: 20 } }, { signal }), [port.id]);
  return (
    <Section title="Recent port calls" id="calls">
      {calls.loading && !calls.data && <Loading label="Loading the port calls…" />}
      <ErrorMessage error={calls.error} title="Port calls could not be loaded" />
      {calls.data && <CallsTable calls={calls.data} port={port} />}
    </Section>
  );
}

function CallsTable({ calls, port }: { calls: Calls; port: Port }) {
  return (
    <DataTable caption="The last 20 calls, newest arrival first" captionHidden rowKey={(call) => call.id} rows={calls.data}
      empty={<p class="hint">No port call has been detected here yet. Calls are found from AIS: a vessel that stops in the port area has arrived.</p>}
      columns={[
        { header: 'Vessel', cell: (call) => vesselLink(call.mmsi, call.vessel_name, port) },
        { header: 'Arrived', cell: (call) => (
          <PortTime at={call.arrived_at} zone={port.timezone}>
            {!call.arrival_observed && <div class="muted">already in port when first heard</div>}
          </PortTime>
        ) },
        { header: 'Berthed', cell: (call) => <PortTime at={call.berthed_at} zone={port.timezone} /> },
        { header: 'Departed', cell: (call) => call.state === 'in_port' ? <div><StatusBadge tone="info">In port</StatusBadge></div> : <PortTime at={call.departed_at} zone={port.timezone} /> },
        { header: 'Hours', cell: (call) => (call.duration_hours === null ? '–' : call.duration_hours.toFixed(1)), align: 'end' },
        { header: 'Draught in / out', cell: (call) => `${metres(call.draught_arrival_m)} / ${metres(call.draught_departure_m)}`, align: 'end' },
      ]} />
  );
}

function HoldsSection({ port }: { port: Port }) {
  const holds = useAsync((signal) => data('GET /v3/maritime/ports/{id}/weather-holds', { path: { id: port.id } }, { signal }), [port.id]);
  return (
    <Section title="Weather holds" id="holds">
      {holds.loading && !holds.data && <Loading label="Checking the forecast…" />}
      <ErrorMessage error={holds.error} title="Weather holds could not be loaded" />
      {holds.data && <HoldsView holds={holds.data} port={port} />}
    </Section>
  );
}

const LIMITS: [keyof Holds['thresholds'], string, string][] = [
  ['wind_kn', 'Mean wind above', 'kn'],
  ['gust_kn', 'Gusts above', 'kn'],
  ['wave_height_m', 'Significant waves above', 'm'],
  ['visibility_m', 'Visibility below', 'm'],
];

/** How the waves were brought into the harbour, in a sentence. */
function seaStateText(sea: Holds['sea_state']): string {
  const inside = sea.fetch_km === null
    ? 'open-water values'
    : `the wind's sea over ${formatNumber(sea.fetch_km)} km of harbour water${sea.transmission > 0 ? ` and ${Math.round(sea.transmission * 100)} % of the outside sea` : ''}`;
  const from = sea.marine_point.basis === 'nearest_open_water' ? `, outside sea taken ${formatNumber(sea.marine_point.distance_nm)} nm away in open water` : '';
  return `${inside} (${sea.basis})${from}`;
}

function HoldsView({ holds, port }: { holds: Holds; port: Port }) {
  return (
    <div data-holds={holds.holds.length}>
      <p>
        {holds.source.kind === 'simulated' && <><StatusBadge tone="warn">Simulated weather</StatusBadge>{' '}</>}
        From {formatUtc(holds.from)} to {formatUtc(holds.to)}:{' '}
        {holds.holds.length === 0 ? 'no hold; the weather stays within the port\'s limits.' : `${holds.held_hours.toFixed(1)} hours held in ${holds.holds.length} ${holds.holds.length === 1 ? 'hold' : 'holds'}.`}
      </p>
      <ul class="port-limits">
        {LIMITS.map(([key, label, unit]) => (
          <li key={key}>{label} <strong>{formatNumber(holds.thresholds[key])} {unit}</strong> <span class="muted">({holds.threshold_sources[key] === 'default' ? 'LAMIS default' : holds.threshold_sources[key] === 'instance' ? 'set for this service' : 'set by your organisation'})</span></li>
        ))}
      </ul>
      {holds.holds.length > 0 && (
        <ol class="port-holds">
          {holds.holds.map((hold) => (
            <li key={hold.start} class="port-hold">
              <p class="port-hold-time">
                <strong>{formatUtc(hold.start, { year: false })}</strong> to <strong>{formatUtc(hold.end, { year: false })}</strong> ({hold.duration_hours.toFixed(1)} h)
                {portTime(hold.start, port.timezone) && <span class="muted"> · port time {portTime(hold.start, port.timezone)} to {portTime(hold.end, port.timezone)}</span>}
              </p>
              <ul class="port-hold-factors">
                {hold.limiting.map((factor) => (
                  <li key={factor.factor}>
                    {FACTOR_LABELS[factor.factor] ?? factor.factor}: worst {formatFactor(factor.factor, factor.worst, factor.unit)} at {formatUtc(factor.worst_at, { show: 'time' })}
                    {' '}(limit {formatFactor(factor.factor, factor.threshold, factor.unit)}, over for {factor.hours.toFixed(1)} h)
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      <p class="port-attribution">Waves at the port: {seaStateText(holds.sea_state)}. {holds.source.attribution}</p>
    </div>
  );
}
