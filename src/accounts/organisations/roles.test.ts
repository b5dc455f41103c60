import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { allowed, aRole, mayGrant, mayManage, PERMISSIONS, ROLES, type Permission } from './roles.ts';

test('the README role matrix is the table the endpoints enforce', () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('### Organisations, members and roles'), readme.indexOf('### API keys, usage and audit log'));
  const header = section.split('\n').find((line) => line.startsWith('| permission |'));
  assert.deepEqual(header?.split('|').slice(3, -1).map((cell) => cell.trim()), [...ROLES]);
  const rows = section.split('\n').filter((line) => /^\| `[a-z_]+` \|/.test(line));
  const documented = Object.fromEntries(rows.map((line) => {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    return [cells[0]!.slice(1, -1), ROLES.filter((_, i) => cells[2 + i] === '✓')];
  }));
  assert.deepEqual(documented, PERMISSIONS);
});

test('every role sees the organisation; only owners change the plan', () => {
  for (const role of ROLES) assert.equal(allowed(role, 'view_organisation'), true);
  assert.deepEqual(ROLES.filter((role) => allowed(role, 'change_plan')), ['owner']);
  const viewerMay = (Object.keys(PERMISSIONS) as Permission[]).filter((p) => allowed('viewer', p));
  assert.deepEqual(viewerMay, ['view_organisation', 'view_fleet']);
});

test('every role sees the fleet; viewers cannot change it', () => {
  assert.deepEqual(ROLES.filter((role) => allowed(role, 'view_fleet')), [...ROLES]);
  assert.deepEqual(ROLES.filter((role) => allowed(role, 'manage_fleet')), ['owner', 'admin', 'member']);
});

test('only owners make owners or touch an owner', () => {
  assert.deepEqual(ROLES.filter((role) => mayGrant('owner', role)), [...ROLES]);
  assert.deepEqual(ROLES.filter((role) => mayGrant('admin', role)), ['admin', 'member', 'viewer']);
  assert.deepEqual(ROLES.filter((role) => mayManage('admin', role)), ['admin', 'member', 'viewer']);
  for (const actor of ['member', 'viewer'] as const) {
    assert.deepEqual(ROLES.filter((role) => mayGrant(actor, role) || mayManage(actor, role)), []);
  }
});

test('roles read well in messages', () => {
  assert.deepEqual(ROLES.map(aRole), ['an owner', 'an admin', 'a member', 'a viewer']);
});
