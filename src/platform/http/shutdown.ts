// Graceful shutdown: stop accepting, let in-flight requests finish, then close storage and bus
// (the server's onClose hooks). Connections still open after the timeout are cut.
import type { FastifyInstance } from 'fastify';

export async function closeGracefully(app: FastifyInstance, timeoutMs: number): Promise<'clean' | 'forced'> {
  let forced = false;
  const timer = setTimeout(() => {
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

/** On SIGTERM or SIGINT, shut down once and exit 0 when everything closed cleanly. */
export function closeOnSignals(app: FastifyInstance, timeoutMs: number): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    closeGracefully(app, timeoutMs).then(
      (outcome) => process.exit(outcome === 'clean' ? 0 : 1),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
