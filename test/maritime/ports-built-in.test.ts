// A fresh server with nothing imported serves the World Port Index built into LAMIS merged with
// sea-ports: depths for Rotterdam and Singapore, and tidal windows over them that say which depth
// they used and never start before the request.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { json } from '../support/http.ts';
import { AUTH, startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

async function ok(url: string): Promise<any> {
  const response = await fetch(server.url + url, { headers: AUTH });
  assert.equal(response.status, 200, await response.clone().text());
  return json(response);
}

test('more than 2,800 ports, Rotterdam and Singapore with their World Port Index depths', async () => {
  let count = 0;
  let after: string | null = null;
  do {
    const page: { data: unknown[]; next_cursor: string | null } = await ok(`/v3/maritime/ports?limit=100${after === null ? '' : `&cursor=${after}`}`);
    count += page.data.length;
    after = page.next_cursor;
  } while (after !== null);
  assert.ok(count > 2800, `${count} ports`);

  const rotterdam = await ok('/v3/maritime/ports/NLRTM');
  assert.deepEqual([rotterdam.wpi_number, rotterdam.harbour_size, rotterdam.channel_depth_m, rotterdam.sources.channel_depth_m], [31140, 'large', 11, 'wpi']);
  const singapore = await ok('/v3/maritime/ports/SGSIN');
  assert.deepEqual([singapore.name, singapore.wpi_number, singapore.channel_depth_m, singapore.cargo_pier_depth_m], ['Singapore', 50000, 12.5, 14]);
  assert.equal((await ok('/v3/maritime/ports?q=keppel')).data[0].id, 'SGSIN');
});

test('tidal windows over the built-in channel depth, from the request on', async () => {
  // As the dashboard asks: from the last whole ten minutes, so up to ten minutes before the request.
  const asked = Date.now();
  const from = new Date(Math.floor(asked / 600_000) * 600_000 - 600_000).toISOString();
  const result = await ok(`/v3/maritime/ports/NLRTM/tidal-windows?draught=11&from=${from}`);
  assert.equal(result.charted_depth_source, 'port_channel_depth');
  assert.equal(result.charted_depth_m, 11);
  assert.match(result.charted_depth_note, /^The channel depth of Rotterdam \(WPI 31140, "Channel Depth \(m\)"\) in the World Port Index built into LAMIS/);
  assert.match(result.charted_depth_note, /below the station's chart datum/);
  assert.ok(Date.parse(result.from) >= asked - 1000, 'the period is answered from the request on');
  assert.equal(result.navigable, 'partly');
  for (const window of result.windows) assert.ok(Date.parse(window.start) >= asked - 1000, `${window.start} before the request`);
  // Rotterdam's tide gives an 11 m draught (12.1 m needed) enough water for some hours each tide: open_now if one is open now.
  const first = result.windows[0];
  assert.equal(first.open_now, Math.abs(Date.parse(first.start) - Date.parse(result.from)) < 1000);
  assert.ok(result.windows.slice(1).every((window: { open_now: boolean }) => !window.open_now));
});

test('another depth of the port, or a 422 naming those it has', async () => {
  const pier = await ok('/v3/maritime/ports/NLRTM/tidal-windows?draught=5&depth=cargo_pier');
  assert.equal(pier.charted_depth_source, 'port_cargo_pier_depth');
  assert.match(pier.charted_depth_note, /cargo pier depth of Rotterdam \(WPI 31140, "Cargo Pier Depth \(m\)"\)/);
  // The WPI gives Tanger Med its cargo pier depth only.
  const response = await fetch(`${server.url}/v3/maritime/ports/MAPTM/tidal-windows?draught=14`, { headers: AUTH });
  assert.equal(response.status, 422);
  const problem = await json(response);
  assert.equal(problem.code, 'charted_depth_unknown');
  assert.equal(problem.detail, 'The World Port Index gives no channel depth for Tanger Med (MAPTM); it gives the cargo pier depth 17.1 m (depth=cargo_pier). Pass charted_depth or depth.');
});
