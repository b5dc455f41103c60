// The thread that builds the sea-lane graph and the land index its routes test connectors against,
// for `loadSeaGraphAside`, and hands them over, their arrays moved rather than copied.
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from '../../platform/worker-task.ts';
import { loadSeaGraph } from './graph.ts';
import { loadLand } from './land.ts';
import type { SeaLanesAside } from './loading.ts';

lowerThreadPriority();

const arraysOf = (built: object) => Object.values(built).flatMap((value) => (ArrayBuffer.isView(value) ? [value.buffer as ArrayBuffer] : []));
const graph = loadSeaGraph();
const land = loadLand();
const message: SeaLanesAside = { graph, land };
parentPort!.postMessage(message, [...(graph.ok ? arraysOf(graph.graph) : []), ...(land.ok ? arraysOf(land.land) : [])]);
