// Retention: what a feature keeps only for a while is deleted on timers that keep no process alive,
// first a minute after the start (when the service has settled), then hourly. One run at a time;
// a failure is logged and the next run tries again. Every instance runs it: deleting rows another
// instance deleted already deletes nothing.

const FIRST_RUN_MS = 60_000;
const EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface RetentionLog {
  info(detail: object, message: string): void;
  warn(detail: object, message: string): void;
}

/**
 * Runs `prune` with the cutoff `days` before now; it answers how many rows of each kind it deleted,
 * logged as `what` when there were any. `stop()` ends the timers and waits for a run in progress.
 */
export function keepFor(days: number, what: string, prune: (before: Date) => Promise<Record<string, number>>, log: RetentionLog): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= prune(new Date(Date.now() - days * DAY_MS))
      .then((deleted) => { if (Object.values(deleted).some((count) => count > 0)) log.info({ deleted, retention_days: days }, `${what} past their retention deleted`); })
      .catch((error: unknown) => log.warn({ err: error }, `${what} past their retention not deleted; tried again within the hour`))
      .finally(() => { running = null; });
  };
  const first = setTimeout(run, FIRST_RUN_MS).unref();
  const hourly = setInterval(run, EVERY_MS).unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(hourly);
      await running;
    },
  };
}
