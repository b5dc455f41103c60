// The sea-lane graph as the service loads it after the start (reference-data.ts): reading marnet
// and building the graph takes a third of a second of one core, so a worker thread does it and
// hands the graph's arrays over. A route asked for before then waits for it; anything that routes
// meanwhile without waiting (an ETA) builds the graph where it runs, as it would without this.
import { runWorkerTask } from '../../platform/worker-task.ts';
import { keepSeaGraph, type SeaGraphResult } from './graph.ts';

/** `signal` stops the loading (the service closing). */
export function loadSeaGraphAside(signal?: AbortSignal): Promise<SeaGraphResult> {
  return runWorkerTask(new URL('./graph-worker.ts', import.meta.url), { task: 'sea route loading', signal }, (result) => keepSeaGraph(result as SeaGraphResult));
}
