// The address guard's rules, address by address and URL by URL: what webhooks may not reach, and
// that public addresses and names pass (names are checked when connecting; the routes' tests
// connect to one that resolves to loopback).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressRefusal, urlRefusal } from './address-guard.ts';

test('loopback, private, link-local, CGNAT, unique-local, multicast and reserved addresses are refused', () => {
  const refused: [string, RegExp][] = [
    ['127.0.0.1', /loopback/], ['127.255.0.9', /loopback/], ['::1', /loopback/], ['::ffff:127.0.0.1', /loopback/],
    ['10.1.2.3', /private/], ['172.16.0.1', /private/], ['172.31.255.255', /private/], ['192.168.1.10', /private/],
    ['169.254.169.254', /link-local/], ['fe80::1', /link-local/], ['100.64.0.1', /carrier-grade NAT/],
    ['fd00:ec2::254', /unique-local/], ['fc00::1', /unique-local/], ['224.0.0.1', /multicast/], ['ff02::1', /multicast/],
    ['0.0.0.0', /reserved/], ['::', /reserved/], ['240.0.0.1', /reserved/], ['255.255.255.255', /reserved/],
  ];
  for (const [address, reason] of refused) assert.match(addressRefusal(address) ?? 'allowed', reason, address);
  for (const address of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    assert.equal(addressRefusal(address), null, address);
  }
});

test('URLs: https only, no credentials, no refused address literal; a setting lifts the rules', () => {
  assert.equal(urlRefusal(new URL('https://hooks.example.com/lamis'), false), null);
  assert.equal(urlRefusal(new URL('https://8.8.8.8/'), false), null);
  assert.equal(urlRefusal(new URL('https://localhost/'), false), null, 'a name is checked when connecting');
  assert.match(urlRefusal(new URL('http://hooks.example.com/'), false)!, /https/);
  assert.match(urlRefusal(new URL('https://a:b@hooks.example.com/'), false)!, /credentials/);
  assert.match(urlRefusal(new URL('https://[::1]/'), false)!, /names ::1, a loopback address/);
  assert.match(urlRefusal(new URL('https://169.254.169.254/latest'), false)!, /link-local/);
  assert.equal(urlRefusal(new URL('http://127.0.0.1:8080/'), true), null);
  assert.match(urlRefusal(new URL('ftp://127.0.0.1/'), true)!, /http or https/);
});
