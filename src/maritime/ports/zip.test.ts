import assert from 'node:assert/strict';
import { test } from 'node:test';
import { zipOf } from './fixtures.ts';
import { isZip, readZip } from './zip.ts';

const files = [
  { name: '2099-1 UNLOCODE CodeListPart1.csv', data: Buffer.from('a,b,c\n'.repeat(200)) },
  { name: 'notes/Read me.txt', data: Buffer.from('Ünïcode text') },
];

test('reads deflated and stored entries', () => {
  for (const method of ['deflate', 'store'] as const) {
    const zip = zipOf(files, method);
    assert.ok(isZip(zip));
    const result = readZip(zip);
    assert.ok(result.ok, method);
    assert.deepEqual(result.entries.map((entry) => [entry.name, entry.data.toString()]), files.map((file) => [file.name, file.data.toString()]));
  }
});

test('refuses what is not a readable archive', () => {
  assert.equal(isZip(Buffer.from('a,b,c\n')), false);
  assert.deepEqual(readZip(Buffer.from('not a zip at all, just text')), { ok: false, error: 'not a ZIP archive (no end of central directory)' });
  const damaged = zipOf(files, 'store');
  damaged[70] = damaged[70]! ^ 0xff; // past the 30-byte header and the name: the first entry's data
  assert.deepEqual(readZip(damaged), { ok: false, error: 'ZIP entry 2099-1 UNLOCODE CodeListPart1.csv fails its CRC check' });
  // The end record kept, the entries it points at gone.
  const cut = zipOf(files);
  const result = readZip(Buffer.concat([cut.subarray(0, 20), cut.subarray(cut.length - 22)]));
  assert.match(result.ok ? '' : result.error, /^damaged ZIP archive: /);
});
