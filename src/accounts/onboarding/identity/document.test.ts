import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createCanvas } from '@napi-rs/canvas';
import { detectDocumentType, documentHash, imageSize, inspectUpload, MAX_DOCUMENT_BYTES, MAX_IMAGE_PIXELS } from './document.ts';
import { pdfWithoutText } from './sample-documents.ts';

async function image(type: 'png' | 'jpeg', width: number, height: number): Promise<Uint8Array> {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#336699';
  g.fillRect(0, 0, width, height);
  return new Uint8Array(type === 'png' ? await canvas.encode('png') : await canvas.encode('jpeg', 80));
}

/** A PNG signature and IHDR chunk declaring the given size, without image data. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

describe('detectDocumentType', () => {
  test('PNG, JPEG and PDF by their magic bytes', async () => {
    assert.equal(detectDocumentType(await image('png', 4, 3)), 'png');
    assert.equal(detectDocumentType(await image('jpeg', 4, 3)), 'jpeg');
    assert.equal(detectDocumentType(await pdfWithoutText()), 'pdf');
  });

  test('anything else is refused, whatever its name or declared type would say', () => {
    const refused = [
      new Uint8Array(),
      new TextEncoder().encode('GIF89a....'),
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      new TextEncoder().encode(' %PDF-1.7'),
      new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
      new Uint8Array([0xff, 0xd8]),
      new Uint8Array([0x50, 0x4b, 0x03, 0x04]),
    ];
    for (const bytes of refused) assert.equal(detectDocumentType(bytes), null, new TextDecoder().decode(bytes));
  });
});

describe('imageSize', () => {
  test('reads the size from PNG and JPEG headers', async () => {
    assert.deepEqual(imageSize(await image('png', 321, 123), 'png'), { width: 321, height: 123 });
    assert.deepEqual(imageSize(await image('jpeg', 300, 201), 'jpeg'), { width: 300, height: 201 });
  });

  test('null when the header is cut short or malformed', async () => {
    const jpeg = await image('jpeg', 40, 30);
    assert.equal(imageSize(jpeg.subarray(0, 20), 'jpeg'), null);
    assert.equal(imageSize(pngHeader(0, 10), 'png'), null);
    assert.equal(imageSize(pngHeader(10, 10).subarray(0, 20), 'png'), null);
  });
});

describe('inspectUpload', () => {
  test('accepts PNG, JPEG and PDF within the limits', async () => {
    assert.deepEqual(inspectUpload(await image('png', 20, 10)), { ok: true, type: 'png', size: { width: 20, height: 10 } });
    assert.deepEqual(inspectUpload(await image('jpeg', 20, 10)), { ok: true, type: 'jpeg', size: { width: 20, height: 10 } });
    assert.deepEqual(inspectUpload(await pdfWithoutText()), { ok: true, type: 'pdf', size: null });
  });

  test('refuses empty, oversized, unknown and oversized-image uploads with a code', () => {
    const tooLarge = new Uint8Array(MAX_DOCUMENT_BYTES + 1);
    tooLarge.set(pngHeader(100, 100));
    const codes = [
      inspectUpload(new Uint8Array()),
      inspectUpload(tooLarge),
      inspectUpload(new TextEncoder().encode('not a document')),
      inspectUpload(pngHeader(6000, Math.ceil(MAX_IMAGE_PIXELS / 6000) + 1)),
      inspectUpload(new Uint8Array([0xff, 0xd8, 0xff, 0xd9, 0, 0])),
    ].map((check) => (check.ok ? 'ok' : check.code));
    assert.deepEqual(codes, ['empty', 'too_large', 'unsupported_type', 'image_too_large', 'image_unreadable']);
    assert.equal(inspectUpload(pngHeader(6000, 4000)).ok, true);
  });
});

describe('documentHash', () => {
  test('SHA-256 of the bytes in hex', () => {
    assert.equal(documentHash(new TextEncoder().encode('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
