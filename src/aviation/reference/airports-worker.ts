// The thread that reads (or compiles) the airport records for `loadAirports` and hands them over
// in batches (`airportBatch`): `ahead` at once, then one more each time the index has taken one,
// null at the end.
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../platform/worker-task.ts';
import { airportBatch } from './airports-index.ts';
import { loadAirportRecords, type LoadAirportsOptions } from './airports.ts';

lowerThreadPriority();

const { options, batch, ahead } = workerData as { options: LoadAirportsOptions; batch: number; ahead: number };
const port = parentPort!;
const { records, meta, cache } = await loadAirportRecords(options);
let sent = 0;
let ended = false;
const send = () => {
  if (ended) return;
  ended = sent >= records.length;
  if (ended) {
    port.postMessage(null);
    return;
  }
  const next = airportBatch(records.slice(sent, (sent += batch)));
  port.postMessage(next, [next.text.buffer]);
};
port.postMessage({ meta, cache });
for (let i = 0; i < ahead; i++) send();
port.on('message', send);
