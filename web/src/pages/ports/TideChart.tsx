// The tide chart as SVG: the water level curve, high and low waters marked with their heights, the
// tidal windows of a draught shaded, the height of tide that draught needs as a dashed line, and
// "now". It is drawn for the width it has, so labels keep their size on a phone; tide-chart.ts
// places the labels clear of each other.
import { useMemo } from 'preact/hooks';
import { formatUtc } from '../../app/format.ts';
import { useMeasuredWidth } from '../../app/hooks.ts';
import { tideChart, type LabelKind, type TideExtreme, type TideLevel, type TideWindow } from './tide-chart.ts';

const LABEL_CLASSES: Record<LabelKind, string> = {
  axis: 'port-tide-axis',
  date: 'port-tide-axis port-tide-date',
  now: 'port-tide-axis',
  needed: 'port-tide-needed-label',
  high: 'port-tide-extreme-label',
  low: 'port-tide-extreme-label',
};

const BOLD_LABELS: ReadonlySet<LabelKind> = new Set(['date', 'needed', 'high', 'low']);

/** Label widths as the browser draws them (the page's font at the labels' 11 px and weight), so placing them never guesses. */
function labelWidths(): ((text: string, kind: LabelKind) => number) | undefined {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return undefined;
  const family = getComputedStyle(document.body).fontFamily;
  return (text, kind) => {
    context.font = `${BOLD_LABELS.has(kind) ? 600 : 400} 11px ${family}`;
    return context.measureText(text).width;
  };
}

export function TideChart({ levels, extremes, windows, neededHeight, datum }: {
  levels: readonly TideLevel[];
  extremes: readonly TideExtreme[];
  windows?: readonly TideWindow[];
  neededHeight?: number | null;
  datum: string;
}) {
  const [wrapper, width] = useMeasuredWidth();
  const textWidth = useMemo(labelWidths, []);
  const height = width < 500 ? 230 : 280;
  const chart = tideChart({ levels, extremes, windows, neededHeight, now: Date.now(), width, height, textWidth });
  const { plot } = chart;
  const summary = `Water level over ${datum} from ${levels[0] ? formatUtc(levels[0].time) : ''} to ${levels.at(-1) ? formatUtc(levels.at(-1)!.time) : ''}: ` +
    extremes.map((extreme) => `${extreme.type} water ${extreme.height_m.toFixed(2)} m at ${formatUtc(extreme.time, { show: 'time' })}`).join(', ') +
    (windows ? `; ${windows.length} tidal ${windows.length === 1 ? 'window' : 'windows'} shaded` : '');

  return (
    <div class="port-tide-chart" ref={wrapper}>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}
        data-tide-chart data-windows={chart.windows.length} data-extremes={chart.extremes.length}>
        {chart.windows.map((window) => (
          <rect key={window.start} class="port-tide-window" x={window.x} y={plot.top} width={window.width} height={plot.bottom - plot.top} />
        ))}
        {chart.yTicks.map((tick) => (
          <g key={tick.label}>
            <line class="port-tide-grid" x1={plot.left} x2={plot.right} y1={tick.position} y2={tick.position} />
          </g>
        ))}
        {chart.xTicks.map((tick) => (
          <g key={tick.position}>
            <line class="port-tide-grid" x1={tick.position} x2={tick.position} y1={plot.top} y2={plot.bottom} />
          </g>
        ))}
        {chart.days.map((day) => (
          <g key={day.label}>
            <line class="port-tide-day" x1={day.position} x2={day.position} y1={plot.top} y2={plot.bottom + 22} />
          </g>
        ))}
        <path class="port-tide-area" d={chart.area} />
        <path class="port-tide-curve" d={chart.curve} />
        {chart.needed && <line class="port-tide-needed" x1={plot.left} x2={plot.right} y1={chart.needed.y} y2={chart.needed.y} />}
        {chart.now !== null && <line class="port-tide-now" x1={chart.now} x2={chart.now} y1={plot.top} y2={plot.bottom} />}
        {chart.extremes.map((extreme) => (
          <circle key={extreme.time} class={`port-tide-extreme port-tide-${extreme.type}`} cx={extreme.x} cy={extreme.y} r={4} />
        ))}
        <rect class="port-tide-frame" x={plot.left} y={plot.top} width={plot.right - plot.left} height={plot.bottom - plot.top} />
        {chart.labels.map((label) => (
          <text key={`${label.kind} ${label.text} ${label.x}`} class={LABEL_CLASSES[label.kind]} x={label.x} y={label.y} text-anchor={label.anchor}
            data-label={label.kind}>{label.text}</text>
        ))}
      </svg>
    </div>
  );
}
