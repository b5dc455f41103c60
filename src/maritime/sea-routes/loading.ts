// The sea-lane graph as the service loads it after the start (reference-data.ts), and as the AIS
// simulator gets it on the ingest thread: reading marnet and building the graph takes a third of a
// second of one core, and the 1:10m land index its routes test connectors against as much again,
// so a worker thread builds both and hands their arrays over; what the build used goes with that
// thread (built in place, about 30 MiB of it stayed resident on the ingest thread). A route asked
// for before then waits for them; anything that routes meanwhile without waiting (an ETA, a port's
// open water) builds what it needs where it runs, as it would without this.
import { runWorkerTask } from '../../platform/worker-task.ts';
import { keepSeaGraph, loadSeaGraph, seaGraphLoaded, type SeaGraphResult } from './graph.ts';
import { keepLand, landLoaded, type LandResult } from './land.ts';

/** What the loading thread hands over. */
export interface SeaLanesAside {
  graph: SeaGraphResult;
  land: LandResult;
}

/** `signal` stops the loading (the service closing). A thread that has both already keeps them. */
export function loadSeaGraphAside(signal?: AbortSignal): Promise<SeaGraphResult> {
  if (seaGraphLoaded() && landLoaded()) return Promise.resolve(loadSeaGraph());
  return runWorkerTask(new URL('./graph-worker.ts', import.meta.url), { task: 'sea route loading', signal }, (message) => {
    const { graph, land } = message as SeaLanesAside;
    keepLand(land);
    return keepSeaGraph(graph);
  });
}
