// The runway and wind drawings of the briefing: the airport plan (north up, runways at their true
// headings) and the component triangle for the recommended runway. The geometry is
// runway-diagram.ts's; this file only draws it.
import type { ComponentChildren } from 'preact';
import {
  airportPlan, type AirportPlan, type ChosenRunway, type ComponentArrow, type ComponentTriangle, type DiagramRunway, type DiagramWind, type Point,
} from './runway-diagram.ts';

const f = (n: number) => Math.round(n * 100) / 100;

/** An arrowhead of a fixed size, whatever the stroke of the line it ends. */
function ArrowHeadMarker({ id, colour, size = 9 }: { id: string; colour: string; size?: number }) {
  return (
    <marker id={id} viewBox="0 0 10 10" refX="8" refY="5" markerUnits="userSpaceOnUse" markerWidth={size} markerHeight={size} orient="auto-start-reverse">
      <path d="M 0 0 L 10 5 L 0 10 z" fill={colour} />
    </marker>
  );
}

function Line({ from, to, ...rest }: { from: Point; to: Point } & Record<string, unknown>) {
  return <line x1={from.x} y1={from.y} x2={to.x} y2={to.y} {...rest} />;
}

function Compass({ plan }: { plan: AirportPlan }) {
  const { centre: c, ring_radius: r } = plan;
  const ticks: ComponentChildren[] = [];
  for (let deg = 0; deg < 360; deg += 30) {
    const rad = (deg * Math.PI) / 180;
    const inner = deg % 90 === 0 ? r - 10 : r - 5;
    ticks.push(<line key={deg} x1={f(c.x + Math.sin(rad) * inner)} y1={f(c.y - Math.cos(rad) * inner)} x2={f(c.x + Math.sin(rad) * r)} y2={f(c.y - Math.cos(rad) * r)} class="compass-tick" />);
  }
  return (
    <g aria-hidden="true">
      <circle cx={c.x} cy={c.y} r={r} class="compass-ring" />
      {ticks}
      <text x={c.x} y={c.y - r + 22} class="compass-north" text-anchor="middle">N</text>
    </g>
  );
}

/** The airport plan: every runway, the recommended end's landing direction, the wind. */
export function AirportPlanSvg({ runways, chosen, wind, label }: { runways: DiagramRunway[]; chosen: ChosenRunway | null; wind: DiagramWind | null; label: string }) {
  const plan = airportPlan(runways, chosen, wind);
  return (
    <svg class="runway-plan" viewBox={`0 0 ${plan.size} ${plan.size}`} role="img" aria-label={label} data-testid="airport-plan" data-basis={plan.basis}>
      <defs>
        <ArrowHeadMarker id="plan-wind-head" colour="var(--wind-colour)" size={12} />
        <ArrowHeadMarker id="plan-landing-head" colour="var(--landing-colour)" size={7} />
      </defs>
      <Compass plan={plan} />
      {plan.variable_arc && <path d={plan.variable_arc.path} class="wind-range" data-testid="wind-range" />}
      {plan.runways.map((runway) => (
        <g key={runway.key} class={`runway${runway.chosen ? ' is-chosen' : ''}${runway.closed ? ' is-closed' : ''}`}>
          <Line from={runway.from} to={runway.to} stroke-width={runway.width} class="runway-surface"
            data-runway={runway.key} data-heading={runway.heading_deg} data-chosen={runway.chosen ? 'true' : undefined} />
          {runway.labels.map((l) => (
            <text key={l.ident} x={l.at.x} y={l.at.y} class={`runway-label${l.chosen ? ' is-chosen' : ''}`} text-anchor="middle" dominant-baseline="central">{l.ident}</text>
          ))}
        </g>
      ))}
      {plan.landing && (
        <Line from={plan.landing.from} to={plan.landing.to} class="landing-arrow" marker-end="url(#plan-landing-head)"
          data-landing={plan.landing.ident} data-heading={plan.landing.heading_deg} />
      )}
      {plan.wind && (
        <g class="wind" data-wind-from={plan.wind.from_deg}>
          <Line from={plan.wind.tail} to={plan.wind.head} class="wind-arrow" marker-end="url(#plan-wind-head)" data-testid="wind-arrow" />
          <text x={plan.wind.label_at.x} y={plan.wind.label_at.y} class="wind-label" text-anchor="middle" dominant-baseline="central">{plan.wind.label}</text>
        </g>
      )}
      {plan.wind_note && <text x={plan.centre.x} y={plan.size - 6} class="wind-label" text-anchor="middle">{plan.wind_note}</text>}
    </svg>
  );
}

/** A label of one or more lines (`\n`), the first line at `at`. */
function Label({ at, text, anchor, class: className }: { at: Point; text: string; anchor: 'start' | 'middle' | 'end'; class: string }) {
  const lines = text.split('\n');
  return (
    <text x={at.x} y={at.y} class={className} text-anchor={anchor} dominant-baseline="central">
      {lines.map((line, index) => <tspan key={line} x={at.x} dy={index === 0 ? 0 : '1.15em'}>{line}</tspan>)}
    </text>
  );
}

function Component({ arrow, kind, marker, anchor }: { arrow: ComponentArrow; kind: string; marker: string; anchor: 'start' | 'middle' | 'end' }) {
  return (
    <g class={`component component-${kind}`}>
      <Line from={arrow.from} to={arrow.to} class="component-arrow" marker-end={`url(#${marker})`} data-component={kind} data-kt={arrow.kt} />
      <Label at={arrow.label_at} text={arrow.label} anchor={anchor} class="component-label" />
    </g>
  );
}

/** The recommended runway pointing up, the wind and its headwind and crosswind components. */
export function ComponentTriangleSvg({ triangle, label }: { triangle: ComponentTriangle; label: string }) {
  const t = triangle;
  const half = t.runway.width / 2;
  const fromRight = (t.crosswind?.kt ?? 0) >= 0;
  return (
    <svg class="runway-components" viewBox={`0 0 ${t.width} ${t.height}`} role="img" aria-label={label} data-testid="wind-components" data-scale={t.scale}>
      <defs>
        <ArrowHeadMarker id="tri-wind-head" colour="var(--wind-colour)" />
        <ArrowHeadMarker id="tri-component-head" colour="var(--component-colour)" />
      </defs>
      <rect x={t.runway.to.x - half} y={t.runway.to.y} width={t.runway.width} height={t.runway.from.y - t.runway.to.y} class="runway-strip" />
      <Line from={{ x: t.centre.x, y: t.runway.to.y + 6 }} to={{ x: t.centre.x, y: t.runway.from.y - 6 }} class="runway-strip-centreline" />
      <text x={t.centre.x} y={t.runway.from.y + 14} class="runway-label is-chosen" text-anchor="middle">{t.runway.ident}</text>
      <text x={t.centre.x} y={t.runway.to.y - 6} class="component-caption" text-anchor="middle">landing direction ↑</text>
      {t.limit && (
        <g class="crosswind-limit" data-limit-kt={t.limit.kt}>
          <line x1={t.limit.left_x} y1={t.runway.to.y} x2={t.limit.left_x} y2={t.runway.from.y} />
          <line x1={t.limit.right_x} y1={t.runway.to.y} x2={t.limit.right_x} y2={t.runway.from.y} />
          <text x={t.limit.right_x - 3} y={t.runway.from.y - 4} class="component-caption" text-anchor="end">limit {t.limit.kt} kt</text>
        </g>
      )}
      {t.crosswind && <Component arrow={t.crosswind} kind="crosswind" marker="tri-component-head" anchor={fromRight ? 'start' : 'end'} />}
      {t.headwind && <Component arrow={t.headwind} kind="headwind" marker="tri-component-head" anchor={fromRight ? 'end' : 'start'} />}
      {/* The wind last: its head, at the centre like the headwind's, stays visible. */}
      {t.wind && (
        <g class="wind">
          <Line from={t.wind.from} to={t.wind.to} class="wind-arrow" marker-end="url(#tri-wind-head)" data-testid="triangle-wind" />
          <Label at={t.wind.label_at} text={t.wind.label} anchor={fromRight ? 'start' : 'end'} class="wind-label" />
        </g>
      )}
      {!t.wind && <text x={t.centre.x} y={t.centre.y - 40} class="wind-label" text-anchor="middle">{t.notes[0]}</text>}
    </svg>
  );
}

