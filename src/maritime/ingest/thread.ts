// The ingest thread can start before the service's own modules load: its modules (decoders, vessel
// state, the track recorder, the feeds) then load on the other core beside the serving thread's,
// instead of after them, which took about half a second off `lamis serve`'s start on two cores. It
// waits for its settings (IngestLink sends them) before it opens storage. This module loads
// nothing else, so `lamis serve` can call it first.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** AIS_INGEST_THREAD: `auto` gives ingest a thread when there is a second core. */
export function runsIngestThread(setting: 'on' | 'off' | 'auto'): boolean {
  return setting === 'on' || (setting === 'auto' && availableParallelism() > 1);
}

const newThread = () => new Worker(new URL('./worker.ts', import.meta.url), { name: 'lamis-ais-ingest' });

/** The thread started early and not yet taken; `failed` once it failed or exited before it was. */
type EarlyThread = { thread: Worker; failed: boolean; forget: () => void };
let early: EarlyThread | null = null;

/** Starts the ingest thread now, for `ingestThread` to hand out; it keeps no process alive until then. */
export function startIngestThreadEarly(): void {
  if (early !== null) return;
  const thread = newThread();
  const started: EarlyThread = { thread, failed: false, forget: () => undefined };
  // Until it is taken a failure is only noted: the one taking it starts another, which fails where it is watched.
  const fail = () => void (started.failed = true);
  thread.on('error', fail).on('exit', fail).unref();
  started.forget = () => void thread.off('error', fail).off('exit', fail).ref();
  early = started;
}

/** The thread started early if it is still sound, otherwise a new one. */
export function ingestThread(): Worker {
  const started = early;
  early = null;
  if (started === null) return newThread();
  started.forget();
  if (!started.failed) return started.thread;
  void started.thread.terminate();
  return newThread();
}
