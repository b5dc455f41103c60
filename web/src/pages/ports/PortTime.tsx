// A time on the ports pages: UTC first, as every time on the dashboard, and under it the port's own
// time named by its zone (left out where the port keeps UTC or its zone is unknown).
import type { ComponentChildren } from 'preact';
import { formatUtc } from '../../app/format.ts';

/** The port's own time (`26 Nov 15:20 CET`), or null when it reads the same as UTC. */
export function portTime(at: string | null | undefined, zone: string | null | undefined): string | null {
  if (!at || !zone) return null;
  const local = formatUtc(at, { year: false, zone });
  return local === formatUtc(at, { year: false }) ? null : local;
}

export function PortTime({ at, zone, children }: { at: string | null | undefined; zone: string | null | undefined; children?: ComponentChildren }) {
  const local = portTime(at, zone);
  return (
    <div>
      {formatUtc(at, { year: false })}
      {local && <div class="muted">{local}</div>}
      {children}
    </div>
  );
}
