// The port data as the service loads it after the start (reference-data.ts): reading and merging
// the sources (ports.ts) takes a few hundred milliseconds, so a worker thread does that and hands
// the ports over a batch at a time; the port index and the destination matcher take each batch on a
// turn of the event loop of its own, and the service answers other requests meanwhile.
import { backgroundTurn } from '../../platform/background-turns.ts';
import type { Loading } from '../../platform/reference-data.ts';
import { runWorkerTask } from '../../platform/worker-task.ts';
import { destinationMatcherBuilder } from './destination.ts';
import type { Port, PortDataMeta } from './model.ts';
import { portIndexBuilder } from './port-index.ts';
import type { LoadedPorts } from './ports.ts';
import type { PortData } from './service.ts';

/** Ports handed over at once: indexing and naming them is a few milliseconds. */
const BATCH_PORTS = 250;

/** `signal` stops the loading (the service closing). */
export function loadPortData(options: { readonly dataDir: string }, signal?: AbortSignal): Promise<PortData & { index: LoadedPorts }> {
  let started: { index: ReturnType<typeof portIndexBuilder>; destinations: ReturnType<typeof destinationMatcherBuilder>; problems: readonly string[] } | null = null;
  const workerData = { dataDir: options.dataDir, batch: BATCH_PORTS };
  return runWorkerTask(new URL('./ports-worker.ts', import.meta.url), { task: 'port loading', workerData, signal }, async (message) => {
    if (started === null) {
      const { meta, problems } = message as { meta: PortDataMeta; problems: readonly string[] };
      started = { index: portIndexBuilder(meta), destinations: destinationMatcherBuilder(), problems };
    } else if (message === null) {
      const index = { ...started.index.finish(), problems: started.problems };
      return { index, destinations: started.destinations.finish(index) };
    } else {
      started.index.add(message as Port[]);
      started.destinations.add(message as Port[]);
      await backgroundTurn();
    }
    return undefined;
  });
}

/**
 * The port data as routes and watchers hold it from the start: every call answers from the loaded
 * data, and is a 503 (reference_data_loading) while it loads, never a "not found".
 */
export function portsOnceLoaded(loading: Loading<PortData>): PortData {
  return {
    index: {
      get meta() {
        return loading.value.index.meta;
      },
      get ports() {
        return loading.value.index.ports;
      },
      get: (id) => loading.value.index.get(id),
      byWpiNumber: (wpiNumber) => loading.value.index.byWpiNumber(wpiNumber),
      search: (query) => loading.value.index.search(query),
    },
    destinations: { match: (destination, near) => loading.value.destinations.match(destination, near) },
  };
}
