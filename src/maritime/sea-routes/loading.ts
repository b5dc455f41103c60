// The sea-lane graph as the service loads it after the start (reference-data.ts): reading marnet
// and building the graph takes a third of a second of one core, so a worker thread does it and
// hands the graph's arrays over. A route asked for before then waits for it; anything that routes
// meanwhile without waiting (an ETA) builds the graph where it runs, as it would without this.
import { on } from 'node:events';
import { Worker } from 'node:worker_threads';
import { keepSeaGraph, type SeaGraphResult } from './graph.ts';

/** `signal` stops the loading (the service closing). */
export async function loadSeaGraphAside(signal?: AbortSignal): Promise<SeaGraphResult> {
  signal?.throwIfAborted();
  const worker = new Worker(new URL('./graph-worker.ts', import.meta.url));
  const stop = () => void worker.terminate();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    // Ends when the thread exits, and throws what the thread threw.
    for await (const [result] of on(worker, 'message', { close: ['exit'] })) return keepSeaGraph(result as SeaGraphResult);
    signal?.throwIfAborted();
    throw new Error('the sea route loading thread stopped before it was done');
  } finally {
    signal?.removeEventListener('abort', stop);
    await worker.terminate();
  }
}
