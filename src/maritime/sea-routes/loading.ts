// The sea-lane graph as the service loads it after the start (reference-data.ts): reading marnet
// and building the graph takes a third of a second of one core, and the 1:10m land index its
// routes test connectors against as much again, so a worker thread builds both and hands their
// arrays over. A route asked for before then waits for them; anything that routes meanwhile
// without waiting (an ETA, a port's open water) builds what it needs where it runs, as it would
// without this.
import { runWorkerTask } from '../../platform/worker-task.ts';
import { keepSeaGraph, type SeaGraphResult } from './graph.ts';
import { keepLand, type LandResult } from './land.ts';

/** What the loading thread hands over. */
export interface SeaLanesAside {
  graph: SeaGraphResult;
  land: LandResult;
}

/** `signal` stops the loading (the service closing). */
export function loadSeaGraphAside(signal?: AbortSignal): Promise<SeaGraphResult> {
  return runWorkerTask(new URL('./graph-worker.ts', import.meta.url), { task: 'sea route loading', signal }, (message) => {
    const { graph, land } = message as SeaLanesAside;
    keepLand(land);
    return keepSeaGraph(graph);
  });
}
