// Tides at a port: the predicted water level with high and low waters from the nearest tide
// station, and the tidal windows for a draught (when the water is deep enough), shaded on the chart.
// The draught and depths go in the address, so a link shows the same windows.
import type { OperationResponse } from '@lamis/sdk';
import { useMemo, useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { errorCode, errorMessage } from '../../api/errors.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { Alert, Button, EmptyState, ErrorMessage, Loading, Section, StatusBadge } from '../../app/ui/basics.tsx';
import { SelectField, TextField } from '../../app/ui/forms.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { formatDuration, neededTideHeight } from './format.ts';
import { PortTime } from './PortTime.tsx';
import { TideChart } from './TideChart.tsx';

type Port = OperationResponse<'GET /v3/maritime/ports/{id}'>;
type Tides = OperationResponse<'GET /v3/maritime/ports/{id}/tides'>;
type Windows = OperationResponse<'GET /v3/maritime/ports/{id}/tidal-windows'>;

interface WindowQuery {
  draught: number;
  ukc?: number;
  charted_depth?: number;
}

const PERIODS = [
  { value: '24', label: 'Next 24 hours' },
  { value: '48', label: 'Next 2 days' },
  { value: '72', label: 'Next 3 days' },
  { value: '168', label: 'Next 7 days' },
];

/** A positive or negative number in metres, or an error; empty is undefined. */
function readMetres(text: string, { min, max, label }: { min: number; max: number; label: string }): number | undefined | string {
  const trimmed = text.trim().replace(',', '.');
  if (!trimmed) return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return `${label} must be a number of metres, e.g. 9.5.`;
  if (value < min || value > max) return `${label} must lie between ${min} and ${max} m.`;
  return value;
}

function queryFromAddress(): WindowQuery | null {
  const params = new URLSearchParams(window.location.search);
  const draught = Number(params.get('draught'));
  if (!params.get('draught') || !(draught > 0)) return null;
  const query: WindowQuery = { draught };
  if (params.get('ukc')) query.ukc = Number(params.get('ukc'));
  if (params.get('charted_depth')) query.charted_depth = Number(params.get('charted_depth'));
  return query;
}

function rememberQuery(query: WindowQuery): void {
  const url = new URL(window.location.href);
  for (const name of ['draught', 'ukc', 'charted_depth'] as const) {
    const value = query[name];
    if (value === undefined) url.searchParams.delete(name);
    else url.searchParams.set(name, String(value));
  }
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

export function TideSection({ port }: { port: Port }) {
  const [hours, setHours] = useState('24');
  // The period starts at the last whole 10 minutes, so both answers share their times.
  const period = useMemo(() => {
    const from = Math.floor(Date.now() / 600_000) * 600_000;
    return { from: new Date(from).toISOString(), to: new Date(from + Number(hours) * 3_600_000).toISOString() };
  }, [hours]);
  const tides = useAsync((signal) => data('GET /v3/maritime/ports/{id}/tides', { path: { id: port.id }, query: period }, { signal }), [port.id, period]);

  const initial = useMemo(queryFromAddress, []);
  const [asked, setAsked] = useState<WindowQuery | null>(initial);
  const [draught, setDraught] = useState(initial ? String(initial.draught) : '');
  const [ukc, setUkc] = useState(initial?.ukc !== undefined ? String(initial.ukc) : '');
  const [charted, setCharted] = useState(initial?.charted_depth !== undefined ? String(initial.charted_depth) : '');
  const [formErrors, setFormErrors] = useState<Record<string, string>>({});
  const windows = useAsync<Windows | null>(
    (signal) => asked ? data('GET /v3/maritime/ports/{id}/tidal-windows', { path: { id: port.id }, query: { ...asked, ...period } }, { signal }) : Promise.resolve(null),
    [port.id, period, asked],
  );

  function submit(event: Event) {
    event.preventDefault();
    const errors: Record<string, string> = {};
    const draughtValue = readMetres(draught, { min: 0.1, max: 30, label: 'The draught' });
    const ukcValue = readMetres(ukc, { min: 0, max: 30, label: 'The under-keel clearance' });
    const chartedValue = readMetres(charted, { min: -30, max: 100, label: 'The charted depth' });
    if (draughtValue === undefined) errors.draught = 'Enter the vessel\'s draught in metres.';
    else if (typeof draughtValue === 'string') errors.draught = draughtValue;
    if (typeof ukcValue === 'string') errors.ukc = ukcValue;
    if (typeof chartedValue === 'string') errors.charted_depth = chartedValue;
    setFormErrors(errors);
    if (Object.keys(errors).length) return;
    const query: WindowQuery = { draught: draughtValue as number };
    if (ukcValue !== undefined) query.ukc = ukcValue as number;
    if (chartedValue !== undefined) query.charted_depth = chartedValue as number;
    rememberQuery(query);
    setAsked(query);
  }

  const found = windows.data ?? null;
  const needed = found ? neededTideHeight(found.required_depth_m, found.charted_depth_m) : null;
  return (
    <Section title="Tides and tidal windows" id="tides" actions={
      <div class="port-period"><SelectField label="Period" value={hours} onValue={setHours} options={PERIODS} /></div>
    }>
      {tides.loading && !tides.data && <Loading label="Predicting the tide…" />}
      {tides.error && errorCode(tides.error) === 'no_tide_station'
        ? <EmptyState title="No tide station near this port">
            <p>{errorMessage(tides.error)} Tidal windows need a station's predictions, so they are not available here either.</p>
          </EmptyState>
        : <ErrorMessage error={tides.error} title="The tide could not be predicted" />}
      {tides.data && (
        <>
          <TideChart levels={tides.data.levels} extremes={tides.data.extremes} datum={tides.data.datum}
            windows={found?.windows} neededHeight={needed} />
          <StationNote tides={tides.data} />
          <form class="port-windows-form" onSubmit={submit} noValidate>
            <TextField label="Draught (m)" value={draught} onValue={setDraught} inputMode="decimal" placeholder="e.g. 9.5"
              error={formErrors.draught} name="draught" />
            <TextField label="Under-keel clearance (m)" optional value={ukc} onValue={setUkc} inputMode="decimal"
              hint="Default: 10 % of the draught, at least 0.5 m." error={formErrors.ukc} name="ukc" />
            <TextField label={`Charted depth (m below ${tides.data.datum})`} optional value={charted} onValue={setCharted} inputMode="decimal"
              hint={port.channel_depth_m !== null ? `Default: the channel depth on file, ${port.channel_depth_m} m.` : 'This port has no channel depth on file: enter the charted depth of your berth or approach.'}
              error={formErrors.charted_depth} name="charted_depth" />
            <div class="port-windows-submit"><Button type="submit" variant="primary" busy={windows.loading && asked !== null}>Show tidal windows</Button></div>
          </form>
          {windows.error && errorCode(windows.error) === 'charted_depth_unknown'
            ? <Alert tone="warning" title="The charted depth is needed"><p>{errorMessage(windows.error)} Enter it above.</p></Alert>
            : <ErrorMessage error={windows.error} title="The tidal windows could not be worked out" />}
          {found && <WindowList windows={found} timezone={port.timezone} />}
          <ExtremesTable tides={tides.data} timezone={port.timezone} />
        </>
      )}
    </Section>
  );
}

function StationNote({ tides }: { tides: Tides }) {
  const station = tides.station;
  return (
    <div class="port-station">
      <p>
        Station <strong>{station.name}</strong> ({station.distance_nm.toFixed(1)} nm from the port), heights in metres above <strong>{tides.datum}</strong>
        {tides.datum === station.chart_datum ? ' (chart datum)' : ''}. Source: <a href={station.source.url} rel="noreferrer">{station.source.name}</a>;
        licence: <a href={station.licence.url} rel="noreferrer">{station.licence.type}</a>
        {!station.commercial_use_allowed && <> <StatusBadge tone="warn" title={station.licence.notes ?? undefined}>Non-commercial use only</StatusBadge></>}
      </p>
      <p class="port-attribution">{station.attribution}</p>
    </div>
  );
}

function WindowList({ windows, timezone }: { windows: Windows; timezone: string | null }) {
  const clearance = windows.ukc_default ? `${windows.ukc_m.toFixed(2)} m under-keel clearance (the default: 10 % of the draught, at least 0.5 m)` : `${windows.ukc_m.toFixed(2)} m under-keel clearance`;
  const depthSource = windows.charted_depth_source === 'given' ? 'as given' : "the port's channel depth on file";
  const needed = neededTideHeight(windows.required_depth_m, windows.charted_depth_m);
  return (
    <div class="port-windows" data-navigable={windows.navigable} data-window-count={windows.windows.length}>
      <p>
        A draught of <strong>{windows.draught_m.toFixed(2)} m</strong> with {clearance} needs <strong>{windows.required_depth_m.toFixed(2)} m</strong> of water.
        The charted depth is {windows.charted_depth_m.toFixed(2)} m ({depthSource}), so the tide must stand at least {needed.toFixed(2)} m above {windows.datum}.
      </p>
      {windows.navigable === 'always' && <Alert tone="success"><p>Enough water throughout the period.</p></Alert>}
      {windows.navigable === 'never' && (
        <Alert tone="warning" title="No tidal window in this period">
          <p>The most water comes at {formatUtc(windows.best_margin_at, { year: false })}, still {Math.abs(windows.best_margin_m).toFixed(2)} m short.</p>
        </Alert>
      )}
      {windows.windows.length > 0 && (
        <>
          <h3 class="port-table-title">Tidal windows (shaded on the chart)</h3>
          <DataTable caption="Tidal windows (shaded on the chart)" captionHidden rowKey={(window) => window.start} rows={windows.windows} columns={[
            { header: 'Opens', cell: (window) => <PortTime at={window.start} zone={timezone} /> },
            { header: 'Closes', cell: (window) => <PortTime at={window.end} zone={timezone} /> },
            { header: 'Length', cell: (window) => formatDuration(window.duration_minutes), align: 'end' },
            { header: 'Most water to spare', cell: (window) => `${window.max_margin_m.toFixed(2)} m`, align: 'end' },
          ]} />
        </>
      )}
    </div>
  );
}

function ExtremesTable({ tides, timezone }: { tides: Tides; timezone: string | null }) {
  return (
    <>
      <h3 class="port-table-title">High and low waters</h3>
      <DataTable caption="High and low waters" captionHidden rowKey={(extreme) => extreme.time} rows={tides.extremes}
        empty={<p class="hint">No high or low water falls in this period.</p>} columns={[
          { header: 'Tide', cell: (extreme) => (extreme.type === 'high' ? 'High water' : 'Low water') },
          { header: 'Time', cell: (extreme) => <PortTime at={extreme.time} zone={timezone} /> },
          { header: `Height (m, ${tides.datum})`, cell: (extreme) => extreme.height_m.toFixed(2), align: 'end' },
        ]} />
    </>
  );
}
