// Builds the dashboard (web/) into web/dist, which the server serves at `/` (src/platform/http/web.ts).
// `npm run build:web` runs it; `npm run dev:web` serves it with hot reload, passing the API through
// to a LAMIS on http://127.0.0.1:8080 (or LAMIS_URL).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const api = process.env.LAMIS_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: here('.'),
  base: '/',
  // Nothing is copied verbatim: every file the page uses is imported, so it gets a hashed name.
  publicDir: false,
  resolve: {
    alias: { '@lamis/sdk': here('../sdk/src/index.ts') },
  },
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact' },
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    // The basemap and other data files are always separate files, never inlined into scripts.
    assetsInlineLimit: 0,
    sourcemap: true,
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/v3': { target: api, ws: true },
      '/docs': api,
      '/problems': api,
    },
  },
});
