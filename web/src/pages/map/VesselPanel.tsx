// The details of the vessel clicked on the map: what LAMIS knows about it and its track over the
// last 24 hours (drawn on the map by the page).
import type { Track, Vessel } from '@lamis/sdk';
import { Fragment } from 'preact';
import { useEffect } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { formatRelative, formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { ErrorMessage, Loading, StatusBadge } from '../../app/ui/basics.tsx';
import { CloseIcon } from '../../app/ui/icons.tsx';
import { categoryStyle } from './categories.ts';
import { formatDegrees, formatKnots, formatMetres, formatPosition, navStatusText } from './format.ts';

export function VesselPanel({ mmsi, onClose, onTrack, onVessel }: {
  mmsi: number;
  onClose: () => void;
  onTrack: (points: Track['points'] | null) => void;
  /** Told of the vessel once its details are in. */
  onVessel?: (vessel: Vessel) => void;
}) {
  const vessel = useAsync((signal) => data('GET /v3/maritime/vessels/{mmsi}', { path: { mmsi: String(mmsi) } }, { signal }), [mmsi]);
  useEffect(() => {
    if (vessel.data) onVessel?.(vessel.data);
  }, [vessel.data]);
  const track = useAsync(
    (signal) => data('GET /v3/maritime/vessels/{mmsi}/track', { path: { mmsi: String(mmsi) }, query: { format: 'json' } }, { signal }) as Promise<Track>,
    [mmsi],
  );
  useEffect(() => {
    onTrack(track.data?.points ?? null);
  }, [track.data]);
  useEffect(() => () => onTrack(null), []);

  return (
    <aside class="map-vessel-panel" aria-labelledby="vessel-panel-title" data-vessel-panel={mmsi}>
      <div class="map-vessel-panel-header">
        <h2 id="vessel-panel-title">{vessel.data?.name ?? `MMSI ${mmsi}`}</h2>
        <button type="button" class="map-icon-button" onClick={onClose} aria-label="Close the vessel details">
          <CloseIcon size={18} />
        </button>
      </div>
      {vessel.loading && !vessel.data && <Loading label="Loading the vessel…" />}
      <ErrorMessage error={vessel.error} title="The vessel could not be loaded" />
      {vessel.data && <VesselFacts vessel={vessel.data} />}
      <p class="map-track-note">
        {track.loading && !track.data ? 'Loading its track…'
          : track.error ? 'Its track could not be loaded.'
          : track.data ? `${track.data.points.length} track ${track.data.points.length === 1 ? 'point' : 'points'} since ${formatUtc(track.data.from)}${track.data.truncated ? ' (the first 10,000)' : ''}, drawn on the map.`
          : null}
      </p>
    </aside>
  );
}

function VesselFacts({ vessel }: { vessel: Vessel }) {
  const style = categoryStyle(vessel.category);
  const position = vessel.position;
  const rows: [string, string][] = [
    ['MMSI', String(vessel.mmsi)],
    ['IMO', vessel.imo ? String(vessel.imo) : '–'],
    ['Call sign', vessel.callsign ?? '–'],
    ['Flag', vessel.flag ? `${vessel.flag.country} (${vessel.flag.alpha2})` : '–'],
    ['Length × beam', vessel.dimensions?.length ? `${vessel.dimensions.length} × ${vessel.dimensions.beam ?? '–'} m` : '–'],
    ['Draught', formatMetres(vessel.draught)],
    ['Destination', vessel.destination ?? '–'],
    ['Reported ETA', vessel.eta ? formatUtc(vessel.eta) : '–'],
  ];
  if (position) {
    rows.push(
      ['Position', formatPosition(position.lat, position.lon)],
      ['Status', navStatusText(position.nav_status)],
      ['Speed', formatKnots(position.sog)],
      ['Course', formatDegrees(position.cog)],
      ['Heading', formatDegrees(position.heading)],
      ['Last report', `${formatUtc(position.timestamp)} (${formatRelative(position.timestamp)})`],
    );
  }
  return (
    <>
      <p class="map-vessel-kind">
        <span class="map-swatch" style={{ background: style.colour }} aria-hidden="true" />
        {style.label}
        {vessel.source === 'simulated' && <StatusBadge tone="warn" title="This vessel comes from the AIS simulator, not a real receiver">Simulated</StatusBadge>}
        {vessel.source === 'replay' && <StatusBadge tone="info">Replay</StatusBadge>}
      </p>
      <dl class="facts">
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
      {!position && <p class="hint">LAMIS has no position for this vessel yet.</p>}
    </>
  );
}
