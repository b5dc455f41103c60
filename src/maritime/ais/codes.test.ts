import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aidTypeText, epfdText, navStatusText, shipTypeText } from './codes.ts';

test('navigational status text', () => {
  assert.equal(navStatusText(0), 'Under way using engine');
  assert.equal(navStatusText(7), 'Engaged in fishing');
  assert.equal(navStatusText(15), 'Not defined');
  assert.equal(navStatusText(16), 'Invalid navigational status');
});

test('ship type text covers every decade and the codes above 99', () => {
  assert.equal(shipTypeText(0), 'Not available');
  assert.equal(shipTypeText(19), 'Reserved for future use');
  assert.equal(shipTypeText(20), 'Wing in ground (WIG) - all ships of this type');
  assert.equal(shipTypeText(29), 'Wing in ground (WIG) - Reserved for future use');
  assert.equal(shipTypeText(30), 'Fishing');
  assert.equal(shipTypeText(37), 'Pleasure Craft');
  assert.equal(shipTypeText(49), 'High speed craft (HSC) - No additional information');
  assert.equal(shipTypeText(52), 'Tug');
  assert.equal(shipTypeText(59), 'Ship according to RR Resolution No. 18');
  assert.equal(shipTypeText(61), 'Passenger - Hazardous category A');
  assert.equal(shipTypeText(74), 'Cargo - Hazardous category D');
  assert.equal(shipTypeText(85), 'Tanker - Reserved for future use');
  assert.equal(shipTypeText(99), 'Other Type - no additional information');
  assert.equal(shipTypeText(150), 'Reserved for regional use');
  assert.equal(shipTypeText(255), 'Reserved for future use');
});

test('EPFD and aid-to-navigation text', () => {
  assert.equal(epfdText(1), 'GPS');
  assert.equal(epfdText(15), 'Internal GNSS');
  assert.equal(epfdText(16), 'Invalid EPFD');
  assert.equal(aidTypeText(0), 'Unspecified');
  assert.equal(aidTypeText(31), 'Light Vessel / LANBY / Rigs');
  assert.equal(aidTypeText(32), 'Invalid aid type');
});
