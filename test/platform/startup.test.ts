// Start-up: the service listens before its reference data has loaded (see
// src/platform/reference-data.ts), so the first requests after the start must still get the right
// answers: they wait for the airport index rather than answering "not found".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startServe } from '../support/serve.ts';

test('on a new data folder (the airport index compiled on this start), the first airport and port requests get their answers, not a 404', { timeout: 180_000 }, async () => {
  // No LAMIS_REFERENCE_CACHE_DIR: the cache goes into the new data folder, as on an operator's first start.
  const serve = startServe({ env: { LAMIS_REFERENCE_CACHE_DIR: undefined } });
  try {
    const port = await serve.listening;
    const url = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${readFileSync(path.join(serve.dataDir, 'api-key'), 'utf8').trim()}` };
    // Each waits for the airport index; on a machine too slow to load it within the wait, the answer
    // is a 503 reference_data_loading with Retry-After, and the retry then answers. Never a 404.
    const answer = async (route: string) => {
      for (;;) {
        const response = await fetch(`${url}${route}`, { headers });
        const body = (await response.json()) as Record<string, unknown>;
        if (response.status !== 503) return { status: response.status, body };
        assert.equal(body.code, 'reference_data_loading', JSON.stringify(body));
        await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
      }
    };
    const readyz = await fetch(`${url}/readyz`);
    const [heathrow, byIata, rotterdam] = await Promise.all([answer('/v3/aviation/airports/EGLL'), answer('/v3/aviation/airports/LHR'), answer('/v3/maritime/ports/NLRTM')]);
    assert.equal(heathrow.status, 200, JSON.stringify(heathrow.body));
    assert.equal(heathrow.body.name, 'London Heathrow Airport');
    assert.equal(byIata.status, 200);
    assert.equal(byIata.body.icao, 'EGLL');
    assert.equal(rotterdam.status, 200, JSON.stringify(rotterdam.body));
    // Ready while the reference data loads: requests wait for it.
    assert.equal(readyz.status, 200);
    const loading = ((await readyz.json()) as { checks: Record<string, { state: string }> }).checks.reference_data!;
    assert.ok(['degraded', 'up'].includes(loading.state), JSON.stringify(loading));

    const loaded = ((await (await fetch(`${url}/readyz`)).json()) as {
      checks: { reference_data: { state: string; detail: { airports: { state: string } } }; aviation: { detail: { airports: number } } };
    }).checks;
    assert.equal(loaded.reference_data.state, 'up');
    assert.equal(loaded.reference_data.detail.airports.state, 'loaded');
    assert.ok(loaded.aviation.detail.airports > 40_000);
    assert.match(serve.output(), /"cache":"compiled"/);
    serve.child.kill('SIGTERM');
    assert.equal((await serve.exited).code, 0, serve.output());
  } finally {
    await serve.cleanup();
  }
});
