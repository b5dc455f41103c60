// The METAR/TAF routes in process (aviation alone, no socket, no simulator): an operator's report
// is served with what it means; a report for another station is refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { featureApp, type InProcess } from '../../../test/support/in-process.ts';

let service: InProcess;
before(async () => {
  service = await featureApp(['aviation']);
});
after(() => service.close());

/** A METAR issued a few minutes ago, so it is neither stale nor in the future. */
function metar(station: string, body: string): string {
  const at = new Date(Date.now() - 5 * 60_000);
  const time = `${String(at.getUTCDate()).padStart(2, '0')}${String(at.getUTCHours()).padStart(2, '0')}${String(at.getUTCMinutes()).padStart(2, '0')}Z`;
  return `METAR ${station} ${time} ${body}`;
}

test('no report yet, then the one an operator pushed, decoded', async () => {
  assert.deepEqual([(await service.call('GET', '/v3/aviation/airports/EGLL/metar')).body.code], ['no_report']);
  const text = metar('EGLL', '24012KT 9999 SCT030 12/08 Q1012');
  const pushed = await service.call('POST', '/v3/aviation/airports/EGLL/metar', text, { 'content-type': 'text/plain' });
  assert.equal(pushed.status, 201, JSON.stringify(pushed.body));
  const { status, body } = await service.call('GET', '/v3/aviation/airports/EGLL/metar');
  assert.deepEqual([status, body.raw, body.source], [200, text, 'operator']);
  assert.equal(body.derived.flight_category, 'VFR');
});

test('a report for another station is refused and not stored', async () => {
  const wrong = await service.call('POST', '/v3/aviation/airports/EGKK/metar', metar('EGLL', '24012KT 9999 SCT030 12/08 Q1012'), { 'content-type': 'text/plain' });
  assert.deepEqual([wrong.status, wrong.body.code, wrong.body.reason], [422, 'invalid_report', 'station_mismatch']);
  assert.equal((await service.call('GET', '/v3/aviation/airports/EGKK/metar')).status, 404);
});
