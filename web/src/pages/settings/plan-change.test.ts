import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDowngrade, planChanges } from './plan-change.ts';

test('Starter to Pro: the rate limits, streaming and the team change', () => {
  assert.deepEqual(planChanges('starter', 'pro'), [
    { what: 'Production keys (together)', before: '100 a minute', after: '1,000 a minute' },
    { what: 'Each development key', before: '10 a minute', after: '60 a minute' },
    { what: 'Live AIS streams', before: 'none', after: '5 at once' },
    { what: 'Team', before: 'just you (members stay; no new invitations)', after: 'members with roles' },
  ]);
  assert.equal(isDowngrade('starter', 'pro'), false);
});

test('Enterprise to Pro: only what differs is listed', () => {
  assert.deepEqual(planChanges('enterprise', 'pro'), [
    { what: 'Production keys (together)', before: 'no cap', after: '1,000 a minute' },
    { what: 'Live AIS streams', before: 'no cap', after: '5 at once' },
  ]);
  assert.equal(isDowngrade('enterprise', 'pro'), true);
});
