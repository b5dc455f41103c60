// The thread that builds the sea-lane graph for `loadSeaGraphAside` and hands it over, its arrays
// moved rather than copied.
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from '../../platform/worker-task.ts';
import { loadSeaGraph } from './graph.ts';

lowerThreadPriority();

const result = loadSeaGraph();
const buffers = result.ok ? Object.values(result.graph).flatMap((value) => (ArrayBuffer.isView(value) ? [value.buffer as ArrayBuffer] : [])) : [];
parentPort!.postMessage(result, buffers);
