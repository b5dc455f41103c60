import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeActor, describeEntry, type AuditNames } from './audit-events.ts';

const names: AuditNames = {
  users: new Map([['usr_anna', 'Anna Eriksson'], ['usr_karl', 'Karl Lindqvist']]),
  keys: new Map([['key_old', 'dispatch'], ['key_new', 'dispatch']]),
};

test('actors: members by name, keys by name, operator and system; unknown ids stay ids', () => {
  assert.equal(describeActor('user:usr_anna', names), 'Anna Eriksson');
  assert.equal(describeActor('user:usr_gone', names), 'a former member (usr_gone)');
  assert.equal(describeActor('key:key_old', names), 'API key "dispatch" (key_old)');
  assert.equal(describeActor('key:key_other', names), 'API key key_other');
  assert.equal(describeActor('operator', names), 'An operator of LAMIS');
  assert.equal(describeActor('system', names), 'LAMIS (automatic)');
});

test('keys: created (by rotation), rotated with and without an overlap, revoked', () => {
  const created = describeEntry({ actor: 'user:usr_anna', action: 'key.created', target: 'key_new', detail: { name: 'dispatch', environment: 'production', expires_at: '2027-01-31T23:59:59.000Z', rotated_from: 'key_old' } }, names);
  assert.deepEqual(created, {
    who: 'Anna Eriksson',
    what: 'API key created',
    on: { name: 'key "dispatch"', id: 'key_new' },
    detail: ['A production key.', 'Expires 31 Jan 2027 23:59 UTC.', 'Made by rotating "dispatch" (key_old).'],
  });
  const rotated = describeEntry({ actor: 'user:usr_anna', action: 'key.rotated', target: 'key_old', detail: { new_key_id: 'key_new', overlap_until: '2026-11-22T10:00:00Z' } }, names);
  assert.deepEqual(rotated.detail, ['Replaced by "dispatch" (key_new).', 'The old key works until 22 Nov 2026 10:00 UTC.']);
  assert.deepEqual(describeEntry({ actor: 'user:usr_anna', action: 'key.rotated', target: 'key_old', detail: { new_key_id: 'key_new', overlap_until: null } }, names).detail.at(-1), 'The old key stopped at once.');
  const revoked = describeEntry({ actor: 'key:key_x', action: 'key.revoked', target: 'key_x', detail: {} }, names);
  assert.deepEqual([revoked.what, revoked.on, revoked.detail], ['API key revoked', { name: 'a key', id: 'key_x' }, []]);
});

test('members, invitations, plan, identity and password in words', () => {
  const detail = (action: string, target: string, d: Record<string, unknown>) => describeEntry({ actor: 'user:usr_anna', action, target, detail: d }, names);
  assert.deepEqual(detail('member.invited', 'inv_1', { email: 'k@example.com', role: 'viewer', replaces: 'inv_0' }).detail, ['As viewer.', 'Replaces an earlier invitation to the same address.']);
  assert.deepEqual(detail('member.invited', 'inv_1', { email: 'k@example.com', role: 'admin', replaces: null }).on, { name: 'invitation to k@example.com', id: null });
  assert.deepEqual(detail('member.invitation_revoked', 'inv_1', { email: 'k@example.com', role: 'admin' }).detail, ['It offered the role admin.']);
  assert.deepEqual(detail('member.added', 'usr_karl', { role: 'member', invitation_id: 'inv_1', invited_by: 'usr_anna' }).detail, ['As member, invited by Anna Eriksson.']);
  assert.deepEqual(detail('member.role_changed', 'usr_karl', { from: 'member', to: 'viewer' }).detail, ['From member to viewer.']);
  assert.deepEqual(detail('member.removed', 'usr_karl', { role: 'viewer', left: true }).detail, ['Left as viewer.']);
  assert.deepEqual(detail('member.removed', 'usr_karl', { role: 'viewer', left: false }).detail, ['Was removed as viewer.']);
  assert.deepEqual(detail('member.removed', 'usr_gone', { reason: 'email_never_verified' }).detail, ['Removed because the e-mail address was never verified.']);
  assert.deepEqual(detail('member.removed', 'usr_gone', {}).on, { name: 'a former member', id: 'usr_gone' });
  assert.deepEqual(detail('plan.changed', 'org_1', { from: 'starter', to: 'enterprise' }).detail, ['From Starter to Enterprise.']);
  assert.deepEqual(detail('identity.result', 'usr_karl', { check_id: 'idc_1', outcome: 'rejected', decided_by: 'automatic', reasons: ['mrz_check_digit', 'expired_document'] }).detail,
    ['The check was rejected automatically.', 'Reasons: mrz check digit, expired document.']);
  assert.deepEqual(detail('identity.result', 'usr_karl', { outcome: 'verified', decided_by: 'operator', reasons: [] }).detail, ['The check was verified by an operator.']);
  assert.deepEqual(detail('password.reset', 'usr_karl', { ended_sessions: 2 }).detail, ['2 sessions ended.']);
  assert.deepEqual(detail('password.reset', 'usr_karl', { ended_sessions: 0 }).detail, ['No other session was open.']);
});

test('an action the page does not know keeps its name and shows its detail as it came', () => {
  const entry = describeEntry({ actor: 'system', action: 'fleet.purged', target: 'org_1', detail: { vehicle_count: 3, why: 'closed' } }, names);
  assert.deepEqual(entry, { who: 'LAMIS (automatic)', what: 'fleet.purged', on: { name: 'org_1', id: null }, detail: ['vehicle count: 3; why: closed'] });
});
