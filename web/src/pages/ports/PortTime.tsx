// A time on the ports pages: UTC first, as every time on the dashboard, and under it the port's own
// time named by its zone (left out where the port keeps UTC or its zone is unknown).
import { formatUtc } from '../../app/format.ts';

export function PortTime({ at, zone, children }: { at: string | null | undefined; zone: string | null | undefined; children?: preact.ComponentChildren }) {
  const utc = formatUtc(at, { year: false });
  const local = at && zone ? formatUtc(at, { year: false, zone }) : utc;
  return (
    <div>
      {utc}
      {local !== utc && <div class="muted">{local}</div>}
      {children}
    </div>
  );
}
