// The tide chart as SVG: the water level curve, high and low waters marked with their heights, the
// tidal windows of a draught shaded, the height of tide that draught needs as a dashed line, and
// "now". It is drawn for the width it has, so labels keep their size on a phone.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { formatUtc } from '../../app/format.ts';
import { formatUtcTime } from './format.ts';
import { tideChart, type TideExtreme, type TideLevel, type TideWindow } from './tide-chart.ts';

export function TideChart({ levels, extremes, windows, neededHeight, datum }: {
  levels: readonly TideLevel[];
  extremes: readonly TideExtreme[];
  windows?: readonly TideWindow[];
  neededHeight?: number | null;
  datum: string;
}) {
  const wrapper = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useLayoutEffect(() => {
    const element = wrapper.current!;
    const measure = () => setWidth(Math.max(280, Math.round(element.getBoundingClientRect().width)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const height = width < 500 ? 230 : 280;
  const chart = tideChart({ levels, extremes, windows, neededHeight, now: Date.now(), width, height });
  const { plot } = chart;
  const summary = `Water level over ${datum} from ${levels[0] ? formatUtc(levels[0].time) : ''} to ${levels.at(-1) ? formatUtc(levels.at(-1)!.time) : ''}: ` +
    extremes.map((extreme) => `${extreme.type} water ${extreme.height_m.toFixed(2)} m at ${formatUtcTime(extreme.time)}`).join(', ') +
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
            <text class="port-tide-axis" x={plot.left - 6} y={tick.position + 4} text-anchor="end">{tick.label}</text>
          </g>
        ))}
        {chart.xTicks.map((tick) => (
          <g key={tick.position}>
            <line class="port-tide-grid" x1={tick.position} x2={tick.position} y1={plot.top} y2={plot.bottom} />
            <text class="port-tide-axis" x={tick.position} y={plot.bottom + 16} text-anchor="middle">{tick.label}</text>
          </g>
        ))}
        {chart.days.map((day) => (
          <g key={day.label}>
            <line class="port-tide-day" x1={day.position} x2={day.position} y1={plot.top} y2={plot.bottom + 22} />
            <text class="port-tide-axis port-tide-date" x={day.position + 4} y={plot.bottom + 32}>{day.label}</text>
          </g>
        ))}
        <text class="port-tide-axis" x={plot.right} y={height - 4} text-anchor="end">UTC</text>
        <path class="port-tide-area" d={chart.area} />
        <path class="port-tide-curve" d={chart.curve} />
        {chart.needed && (
          <g>
            <line class="port-tide-needed" x1={plot.left} x2={plot.right} y1={chart.needed.y} y2={chart.needed.y} />
            <text class="port-tide-needed-label" x={plot.right - 4} y={chart.needed.y - 4} text-anchor="end">needed {chart.needed.height.toFixed(2)} m</text>
          </g>
        )}
        {chart.now !== null && (
          <g>
            <line class="port-tide-now" x1={chart.now} x2={chart.now} y1={plot.top} y2={plot.bottom} />
            <text class="port-tide-axis" x={chart.now} y={plot.top - 6} text-anchor="middle">now</text>
          </g>
        )}
        {chart.extremes.map((extreme) => (
          <g key={extreme.time} class={`port-tide-extreme port-tide-${extreme.type}`}>
            <circle cx={extreme.x} cy={extreme.y} r={4} />
            <text x={extreme.x} y={extreme.type === 'high' || extreme.y + 17 > plot.bottom - 2 ? extreme.y - 9 : extreme.y + 17} text-anchor="middle">
              {extreme.type === 'high' ? 'HW' : 'LW'} {extreme.height_m.toFixed(1)}
            </text>
          </g>
        ))}
        <rect class="port-tide-frame" x={plot.left} y={plot.top} width={plot.right - plot.left} height={plot.bottom - plot.top} />
      </svg>
    </div>
  );
}
