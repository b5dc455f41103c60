// The address links in mails point at: LAMIS_PUBLIC_URL, or without it the address the server
// listens on (known once it listens, hence a function).
import type { PlatformSettings } from '../settings.ts';
import type { App } from './app.ts';

function listeningUrl(app: App, config: PlatformSettings): string {
  const address = app.server.address();
  const port = address !== null && typeof address === 'object' ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}

export function publicUrlOf(app: App, config: PlatformSettings): () => string {
  return () => config.publicUrl ?? listeningUrl(app, config);
}
