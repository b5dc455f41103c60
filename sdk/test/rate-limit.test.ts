// Reading rate limits from headers as LAMIS and other servers send them: the IETF draft's
// structured fields, the X-RateLimit headers, and Retry-After as seconds or a date.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRateLimit, parseRetryAfter } from '../src/index.ts';

test('the IETF headers: policy, quota, window, remaining and reset', () => {
  const info = parseRateLimit(new Headers({ 'RateLimit-Policy': '"organisation";q=100;w=60', RateLimit: '"organisation";r=57;t=23' }));
  assert.deepEqual(info, { policy: 'organisation', unlimited: false, limit: 100, windowSec: 60, remaining: 57, resetSec: 23, retryAfterSec: null });
});

test('of several policies, the one RateLimit names', () => {
  const info = parseRateLimit(new Headers({
    'RateLimit-Policy': '"burst";q=10;w=1, "day";q=5000;w=86400;qu="requests"',
    RateLimit: '"day";r=4999;t=80000',
  }));
  assert.equal(info?.policy, 'day');
  assert.equal(info?.limit, 5000);
  assert.equal(info?.windowSec, 86400);
  assert.equal(info?.remaining, 4999);
});

test('tokens as policy names and escaped strings', () => {
  assert.equal(parseRateLimit(new Headers({ 'RateLimit-Policy': 'default;q=5;w=1', RateLimit: 'default;r=4;t=1' }))?.limit, 5);
  assert.equal(parseRateLimit(new Headers({ RateLimit: '"a \\"quoted\\" name";r=1;t=2' }))?.policy, 'a "quoted" name');
});

test('the X-RateLimit headers alone, and unlimited keys', () => {
  assert.deepEqual(parseRateLimit(new Headers({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '12', 'Retry-After': '12' })), {
    policy: null, unlimited: false, limit: 60, windowSec: null, remaining: 0, resetSec: 12, retryAfterSec: 12,
  });
  assert.deepEqual(parseRateLimit(new Headers({ 'X-RateLimit-Limit': 'unlimited', 'X-RateLimit-Remaining': 'unlimited' })), {
    policy: null, unlimited: true, limit: null, windowSec: null, remaining: null, resetSec: null, retryAfterSec: null,
  });
});

test('no rate-limit header at all is null', () => {
  assert.equal(parseRateLimit(new Headers({ 'content-type': 'application/json' })), null);
});

test('a malformed header yields what can be read and no more', () => {
  const info = parseRateLimit(new Headers({ 'RateLimit-Policy': '"org";q=abc;w=60', RateLimit: 'garbage(' }));
  assert.equal(info?.limit, null);
  assert.equal(info?.windowSec, 60);
  assert.equal(info?.remaining, null);
  assert.equal(info?.resetSec, null);
});

test('Retry-After as delta-seconds or an HTTP date', () => {
  const now = Date.parse('2026-11-21T20:00:00Z');
  assert.equal(parseRetryAfter('120', now), 120);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 20:00:30 GMT', now), 30);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 19:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('soon', now), null);
  assert.equal(parseRetryAfter(null, now), null);
});
