// The load shedder as operators see it: its state in /readyz (the `load` check, degraded while
// overloaded: an overloaded instance still serves, so it stays ready) and in /metrics what it shed.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Readiness } from '../health.ts';
import type { LoadShedder } from './shedder.ts';

export function reportLoad(shedder: LoadShedder, readiness: Readiness, registry: Registry): void {
  readiness.register('load', async () => {
    const state = shedder.state();
    return { state: state.overloaded ? 'degraded' : 'up', detail: { ...state } };
  });
  const registers = [registry];
  new Counter({
    name: 'lamis_shed_total', registers, labelNames: ['what', 'reason'],
    help: 'Development-key requests (503 overloaded) and streams (503 at the upgrade, 1013 after the auth message) refused under overload, by why',
    collect() {
      this.reset();
      for (const { what, reason, count } of shedder.shedCounts()) this.inc({ what, reason }, count);
    },
  });
  new Gauge({
    name: 'lamis_overloaded', registers, labelNames: ['reason'],
    help: 'Whether this instance is overloaded now (1) and sheds development keys, by reason',
    collect() {
      const { reasons, signals } = shedder.state();
      for (const reason of ['in_flight', 'event_loop', ...Object.keys(signals)]) this.set({ reason }, reasons.includes(reason) ? 1 : 0);
    },
  });
}
