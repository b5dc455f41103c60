// Congestion at a port: the vessels waiting for a berth now and for how long, the median wait of
// the last week, berth occupancy, and a chart of waiting and berthed vessels hour by hour.
import type { OperationResponse } from '@lamis/sdk';
import { formatNumber } from '../../app/format.ts';
import { useAsync, useMeasuredWidth } from '../../app/hooks.ts';
import { ErrorMessage, Loading, Section, StatusBadge } from '../../app/ui/basics.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { data } from '../../api/data-key.ts';
import { congestionChart } from './congestion-chart.ts';
import { formatDuration } from './format.ts';
import { PortTime } from './PortTime.tsx';

type Port = OperationResponse<'GET /v3/maritime/ports/{id}'>;
type Congestion = OperationResponse<'GET /v3/maritime/ports/{id}/congestion'>;

const DAYS = 7;

export function CongestionSection({ port }: { port: Port }) {
  const congestion = useAsync((signal) => data('GET /v3/maritime/ports/{id}/congestion', { path: { id: port.id }, query: { days: DAYS } }, { signal }), [port.id]);
  return (
    <Section title="Congestion" id="congestion">
      {congestion.loading && !congestion.data && <Loading label="Counting the vessels waiting…" />}
      <ErrorMessage error={congestion.error} title="Congestion could not be loaded" />
      {congestion.data && <CongestionView congestion={congestion.data} port={port} />}
    </Section>
  );
}

function CongestionView({ congestion, port }: { congestion: Congestion; port: Port }) {
  const occupancy = Math.round(congestion.berth_occupancy * 100);
  return (
    <div class="port-congestion" data-waiting={congestion.waiting} data-median-wait={congestion.median_wait_hours ?? ''}>
      <div class="port-occupancy-numbers">
        <div><span class="port-big-number">{congestion.waiting}</span> waiting for a berth</div>
        <div>
          <span class="port-big-number">{congestion.median_wait_hours === null ? '–' : formatDuration(congestion.median_wait_hours * 60)}</span>
          median wait, last {congestion.days} days
        </div>
        <div><span class="port-big-number">{occupancy}%</span> of berths taken ({congestion.at_berth} of {congestion.capacity.berths})</div>
      </div>
      <p class="hint">
        {congestion.median_wait_hours === null
          ? `No call anchored before berthing in the last ${congestion.days} days.`
          : `${congestion.calls_waited} of the ${congestion.calls_berthed} calls that berthed in the last ${congestion.days} days anchored first; the median is theirs.`}
        {congestion.capacity.basis === 'estimate' && ' Capacity is an estimate (see Berths and occupancy).'}
      </p>
      <CongestionChart history={congestion.history} days={congestion.days} />
      {congestion.waiting > 0 && (
        <DataTable caption="Vessels waiting for a berth, longest first" captionHidden rowKey={(vessel) => vessel.call_id} rows={congestion.waiting_vessels} columns={[
          { header: 'Vessel', cell: (vessel) => <a href={`/map?lat=${vessel.lat ?? port.lat}&lon=${vessel.lon ?? port.lon}&zoom=11&vessel=${vessel.mmsi}`}>{vessel.name ?? `MMSI ${vessel.mmsi}`}</a> },
          { header: 'Where', cell: (vessel) => <div>{vessel.where === 'anchorage' ? <StatusBadge tone="warn">Anchorage</StatusBadge> : <StatusBadge tone="info">Approach</StatusBadge>}</div> },
          { header: 'Waiting since', cell: (vessel) => <PortTime at={vessel.waiting_since} zone={port.timezone} /> },
          { header: 'Waited', cell: (vessel) => formatDuration(vessel.waiting_hours * 60), align: 'end' },
        ]} />
      )}
    </div>
  );
}

function CongestionChart({ history, days }: { history: Congestion['history']; days: number }) {
  const [wrapper, width] = useMeasuredWidth();
  const height = 180;
  const chart = congestionChart(history, width, height);
  const { plot } = chart;
  const now = history.at(-1);
  const summary = `Vessels waiting and at berth, hourly over the last ${days} days: at most ${formatNumber(chart.peakWaiting)} waiting and ` +
    `${formatNumber(chart.peakAtBerth)} at berth at once` + (now ? `; at the last hour ${now.waiting} waiting and ${now.at_berth} at berth.` : '.');
  return (
    <figure class="port-congestion-chart" ref={wrapper}>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} data-congestion-chart data-hours={history.length}>
        {chart.yTicks.map((tick) => (
          <g key={tick.label}>
            <line class="port-tide-grid" x1={plot.left} x2={plot.right} y1={tick.position} y2={tick.position} />
            <text class="port-tide-axis" x={plot.left - 6} y={tick.position + 4} text-anchor="end">{tick.label}</text>
          </g>
        ))}
        {chart.xTicks.map((tick) => (
          <g key={tick.position}>
            <line class="port-tide-day" x1={tick.position} x2={tick.position} y1={plot.top} y2={plot.bottom + 6} />
            <text class="port-tide-axis" x={tick.position + 3} y={plot.bottom + 18}>{tick.label}</text>
          </g>
        ))}
        <text class="port-tide-axis" x={plot.right} y={height - 2} text-anchor="end">UTC</text>
        <path class="port-congestion-berth" d={chart.atBerth} />
        <path class="port-congestion-waiting" d={chart.waiting} />
        <rect class="port-tide-frame" x={plot.left} y={plot.top} width={plot.right - plot.left} height={plot.bottom - plot.top} />
      </svg>
      <figcaption class="port-congestion-legend">
        <span><span class="port-swatch port-congestion-waiting-swatch" aria-hidden="true" /> Waiting for a berth</span>
        <span><span class="port-swatch port-congestion-berth-swatch" aria-hidden="true" /> At berth</span>
      </figcaption>
    </figure>
  );
}
