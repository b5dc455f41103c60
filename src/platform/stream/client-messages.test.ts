import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { ClientMessages } from './client-messages.ts';
import { AuthMessageSchema } from './schemas.ts';

const ping = Type.Object({
  type: Type.Literal('ping'),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 2 }), { minItems: 1 })),
  'a/b': Type.Optional(Type.Object({ n: Type.Integer() })),
}, { additionalProperties: false });

const messages = new ClientMessages({ auth: AuthMessageSchema, ping });

test('a valid message has no issue; an invalid one names its field and what is wrong', () => {
  assert.equal(messages.issue('ping', { type: 'ping', tags: ['ab'] }), null);
  assert.deepEqual(messages.issue('ping', { type: 'pong' }), { field: '/type', message: 'must be "ping"' });
  assert.deepEqual(messages.issue('ping', {}), { field: '/type', message: 'is required' });
  assert.deepEqual(messages.issue('ping', { type: 'ping', tags: [] }), { field: '/tags', message: 'must have at least 1 item' });
  assert.deepEqual(messages.issue('ping', { type: 'ping', tags: ['ab', 'c'] }), { field: '/tags/1', message: 'must have at least 2 characters' });
  assert.deepEqual(messages.issue('ping', { type: 'ping', 'a/b': { n: 1.5 } }), { field: '/a~1b/n', message: 'must be an integer' });
  assert.deepEqual(messages.issue('ping', { type: 'ping', extra: true }), { field: '/extra', message: 'is not a known field' });
  assert.deepEqual(messages.issue('ping', 'ping'), { field: '', message: 'must be an object' });
});

test('an issue never repeats what was sent: a key stays out of it', () => {
  const issue = messages.issue('auth', { type: 'auth', api_key: `lamis_live_secret${'x'.repeat(600)}` });
  assert.deepEqual(issue, { field: '/api_key', message: 'must have at most 512 characters' });
});

test('the schemas are kept as JSON, what a stream process is sent, and a type without one is a mistake', () => {
  assert.deepEqual(messages.schemas, JSON.parse(JSON.stringify({ auth: AuthMessageSchema, ping })));
  assert.deepEqual(structuredClone(messages.schemas), messages.schemas);
  assert.equal(new ClientMessages(messages.schemas).issue('ping', { type: 'ping' }), null);
  assert.throws(() => messages.issue('pong', {}), /no schema for the client message pong/);
});
