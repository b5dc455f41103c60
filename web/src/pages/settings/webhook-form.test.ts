import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_KINDS } from '../alerts/alerts-model.ts';
import { deliveriesUnderway, KIND_GROUPS, kindsSummary, newWebhookBody, webhookChanges, type Delivery, type Webhook } from './webhook-form.ts';

const webhook: Webhook = {
  id: 'whk_0123456789abcdef', url: 'https://hooks.example.com/lamis', kinds: ['vessel.zone_entered'], description: 'Ops room',
  enabled: true, disabled_reason: null, previous_secret_expires_at: null, created_at: '2026-11-26T10:00:00Z', updated_at: '2026-11-26T10:00:00Z',
};

test('a new webhook: trimmed, kinds in the API\'s order, no blank description', () => {
  assert.deepEqual(newWebhookBody({ url: ' https://a.example/x ', description: '  ', kinds: ['vessel.zone_exited', 'vessel.zone_entered'] }),
    { url: 'https://a.example/x', kinds: ['vessel.zone_entered', 'vessel.zone_exited'] });
  assert.deepEqual(newWebhookBody({ url: 'https://a.example/x', description: ' Ops ', kinds: [] }), { url: 'https://a.example/x', kinds: [], description: 'Ops' });
});

test('a change sends only what differs; a blank description clears it', () => {
  const same = { url: webhook.url, description: 'Ops room', kinds: ['vessel.zone_entered' as const] };
  assert.deepEqual(webhookChanges(same, webhook), {});
  assert.deepEqual(webhookChanges({ ...same, description: '' }, webhook), { description: null });
  assert.deepEqual(webhookChanges({ ...same, kinds: [] }, webhook), { kinds: [] });
  assert.deepEqual(webhookChanges({ ...same, url: 'https://b.example/' }, webhook), { url: 'https://b.example/' });
});

test('every kind is in one group, and the summary names one kind or counts them', () => {
  assert.deepEqual(KIND_GROUPS.flatMap((group) => group.kinds).sort(), [...EVENT_KINDS].sort());
  assert.ok(KIND_GROUPS.every((group) => group.title !== 'Other'), 'a kind with no group of its own');
  assert.equal(kindsSummary([]), 'All events');
  assert.equal(kindsSummary(['vessel.zone_entered']), 'Vessel entered a zone');
  assert.equal(kindsSummary(['vessel.zone_entered', 'feed.stale']), '2 kinds of event');
});

test('the log is underway while an attempt is due', () => {
  const delivery = (status: Delivery['status']) => ({ status }) as Delivery;
  assert.equal(deliveriesUnderway([delivery('delivered'), delivery('failed')]), false);
  assert.equal(deliveriesUnderway([delivery('delivered'), delivery('retrying')]), true);
});
