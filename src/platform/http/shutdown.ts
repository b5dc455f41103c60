// Graceful shutdown: stop accepting, let in-flight requests finish, then close storage and bus
// (the server's onClose hooks). Connections still open after the timeout are cut: that, and only
// that, makes the close `forced` (hooks that are slow to close on a busy machine cut nothing).
import type { FastifyInstance } from 'fastify';

export async function closeGracefully(app: FastifyInstance, timeoutMs: number): Promise<'clean' | 'forced'> {
  let forced = false;
  let serverClosed = false;
  app.server.once('close', () => (serverClosed = true));
  const timer = setTimeout(() => {
    if (serverClosed) {
      app.log.warn({ timeout_ms: timeoutMs }, 'shutdown timeout: storage and bus still closing');
      return;
    }
    forced = true;
    app.log.warn({ timeout_ms: timeoutMs }, 'shutdown timeout: cutting open connections');
    app.server.closeAllConnections();
  }, timeoutMs);
  // fastify closes the connections idle at the start; a keep-alive connection whose request ends
  // later would hold the server open, so keep closing the ones that fall idle.
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
    clearInterval(sweeper);
  }
  return forced ? 'forced' : 'clean';
}

/**
 * On SIGTERM or SIGINT, shut down once and exit 0 when everything closed cleanly and the log is
 * written out. Whatever happens (a hook that hangs, a log reader that reads no more) the process
 * exits 1 at the deadline. A repeated signal changes nothing: a terminal's Ctrl-C reaches both
 * the `lamis` command and the service it handed over to, which passes it on.
 */
export function closeOnSignals(app: FastifyInstance, timeoutMs: number, log: { drained(): Promise<void> }): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(1), timeoutMs).unref();
    app.log.info({ signal }, 'shutting down');
    closeGracefully(app, timeoutMs)
      .then(
        (outcome) => (outcome === 'clean' ? 0 : 1),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          return 1;
        },
      )
      .then(async (code) => {
        await log.drained();
        process.exit(code);
      });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
