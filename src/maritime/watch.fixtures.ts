// A MaritimeWatch over a vessel store and a port index alone, for tests and benchmarks of rules that
// ask about vessels and port areas only (the base areas, without evidence): asking it for a
// prediction, tides, weather or feeds fails.
import { PortAreas } from './ports/areas.ts';
import { createDestinationMatcher } from './ports/destination.ts';
import type { PortIndex } from './ports/ports.ts';
import type { VesselStore } from './vessels/store.ts';
import { MaritimeWatch } from './watch.ts';

export function vesselsAndPortsWatch(vessels: VesselStore, ports: PortIndex): MaritimeWatch {
  const absent = (): never => {
    throw new Error('this watch knows vessels and ports only');
  };
  const watch = new MaritimeWatch();
  watch.attach({
    vessels, ports, areas: new PortAreas(ports), destinations: createDestinationMatcher(ports),
    predict: absent, stations: absent, feeds: absent,
    weather: { get horizonHours(): number { return absent(); } } as never,
    thresholds: {} as never,
  });
  return watch;
}
