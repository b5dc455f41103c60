// The thread that reads the built-in port index for `findSimulatorPortsAside` and hands over the
// simulator's curated ports as found there.
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from '../../../platform/worker-task.ts';
import { curatedPorts } from './ports.ts';

lowerThreadPriority();
parentPort!.postMessage(curatedPorts());
