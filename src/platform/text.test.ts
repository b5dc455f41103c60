import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fold, words } from './text.ts';

test('folding drops case and accents', () => {
  assert.equal(fold('Sète'), 'sete');
  assert.equal(fold('ROTTERDAM'), 'rotterdam');
  assert.equal(fold('Zürich'), 'zurich');
});

test('words keep letters and digits, anything else between them one space', () => {
  assert.equal(words("st. john's"), 'st john s');
  assert.equal(words(' -- pier 39 -- '), 'pier 39');
  assert.equal(words('fuaʻamotu'), 'fuaʻamotu', 'a modifier letter is a letter');
});
