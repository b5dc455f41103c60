// The thread that reads and merges the port data for `loadPortData` and hands it over: the meta and
// the problems first, then the ports a batch at a time in id order, null at the end.
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../platform/worker-task.ts';
import { loadPorts } from './ports.ts';

lowerThreadPriority();

const { dataDir, batch } = workerData as { dataDir: string; batch: number };
const port = parentPort!;
const { meta, problems, ports } = await loadPorts({ dataDir });
port.postMessage({ meta, problems });
for (let sent = 0; sent < ports.length; sent += batch) port.postMessage(ports.slice(sent, sent + batch));
port.postMessage(null);
