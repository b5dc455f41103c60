// A worker thread that does one task and hands its result over in messages (reference data loaded
// aside: airports, ports, the sea-lane graph), stopped however the task ends.
import { on } from 'node:events';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

/** The nice value a task thread takes: on cores they share, the serving thread's turns go first. */
export const TASK_THREAD_NICE = 10;

/**
 * Lowers the calling thread's priority to TASK_THREAD_NICE (one started lower stays so), for a task
 * thread to call as its body starts (its modules have loaded by then, at the process's priority).
 * On Linux a nice value belongs to a thread, named by its id in /proc/thread-self, and threads it
 * starts inherit it; elsewhere, or where it may not be changed, the thread runs as it is.
 */
export function lowerThreadPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(threadId, Math.max(getPriority(threadId), TASK_THREAD_NICE));
  } catch {
    // Its work is the same at any priority.
  }
}

export interface WorkerTaskOptions {
  /** Names the task in the error thrown when the thread stops before it is done. */
  task: string;
  workerData?: unknown;
  /** Stops the thread and the task (the service closing). */
  signal?: AbortSignal;
}

/**
 * Runs the thread at `url` and gives each of its messages, in order, to `onMessage` (the next
 * waits while it is busy), which answers the result once it has it, else undefined. Throws what
 * the thread threw, the signal's reason, or, when the thread exited first, that it stopped before
 * it was done.
 */
export async function runWorkerTask<T>(
  url: URL,
  options: WorkerTaskOptions,
  onMessage: (message: unknown, worker: Worker) => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const { signal } = options;
  signal?.throwIfAborted();
  const worker = new Worker(url, { workerData: options.workerData });
  const stop = () => void worker.terminate();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    // Buffered while a message is handled; ends when the thread exits, and throws what it threw.
    for await (const [message] of on(worker, 'message', { close: ['exit'] })) {
      const result = await onMessage(message, worker);
      if (result !== undefined) return result;
    }
    signal?.throwIfAborted();
    throw new Error(`the ${options.task} thread stopped before it was done`);
  } finally {
    signal?.removeEventListener('abort', stop);
    await worker.terminate();
  }
}
