// What an identity-document upload is, judged from its bytes: the client's content type and file
// name are never trusted. Also the SHA-256 that is the only trace of the document kept once its
// check is settled.

import { createHash } from 'node:crypto';

export type DocumentType = 'png' | 'jpeg' | 'pdf';

/**
 * Largest upload accepted: 10 MiB. A phone photo of a passport page or a scanned PDF is well
 * below it; anything bigger is refused before it is stored, encrypted or read.
 */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/**
 * Largest image accepted, in pixels (25 MP, e.g. 6000 × 4000). A small compressed file can
 * declare a huge canvas; the OCR engine would decode all of it, so the header is checked first.
 */
export const MAX_IMAGE_PIXELS = 25_000_000;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);
}

/** PNG, JPEG or PDF by magic bytes at offset 0; null for anything else. */
export function detectDocumentType(bytes: Uint8Array): DocumentType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'jpeg';
  if (startsWith(bytes, PDF_SIGNATURE)) return 'pdf';
  return null;
}

export interface ImageSize {
  width: number;
  height: number;
}

function uint16(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function uint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
}

/** Width and height from the PNG IHDR chunk, which must come first. */
function pngSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 24) return null;
  const ihdr = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  return ihdr === 'IHDR' ? { width: uint32(bytes, 16), height: uint32(bytes, 20) } : null;
}

/**
 * Width and height from the first JPEG start-of-frame segment (SOF0-SOF15 except DHT C4, JPG C8
 * and DAC CC). Segments before it are skipped by their length; reaching the scan data first means
 * the file is not a usable JPEG.
 */
function jpegSize(bytes: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = uint16(bytes, at + 2);
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > bytes.length) return null;
      return { width: uint16(bytes, at + 7), height: uint16(bytes, at + 5) };
    }
    at += 2 + length;
  }
  return null;
}

/** The pixel size an image declares in its header; null when the header cannot be read. */
export function imageSize(bytes: Uint8Array, type: 'png' | 'jpeg'): ImageSize | null {
  const size = type === 'png' ? pngSize(bytes) : jpegSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

export type UploadProblem = 'empty' | 'too_large' | 'unsupported_type' | 'image_unreadable' | 'image_too_large';

export type UploadCheck =
  | { ok: true; type: DocumentType; size: ImageSize | null }
  | { ok: false; code: UploadProblem; message: string };

/**
 * Whether an upload may be stored and checked: not empty, at most MAX_DOCUMENT_BYTES, a PNG,
 * JPEG or PDF by its bytes, and for images a readable header within MAX_IMAGE_PIXELS. `size` is
 * the image's pixel size (null for PDFs).
 */
export function inspectUpload(bytes: Uint8Array): UploadCheck {
  if (bytes.length === 0) return { ok: false, code: 'empty', message: 'the document is empty' };
  if (bytes.length > MAX_DOCUMENT_BYTES) {
    return {
      ok: false,
      code: 'too_large',
      message: `the document is ${bytes.length} bytes; at most ${MAX_DOCUMENT_BYTES} (10 MiB) are accepted`,
    };
  }
  const type = detectDocumentType(bytes);
  if (type === null) {
    return { ok: false, code: 'unsupported_type', message: 'the document is not a PNG, JPEG or PDF file' };
  }
  if (type === 'pdf') return { ok: true, type, size: null };
  const size = imageSize(bytes, type);
  if (size === null) {
    return { ok: false, code: 'image_unreadable', message: `the ${type.toUpperCase()} header cannot be read` };
  }
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    return {
      ok: false,
      code: 'image_too_large',
      message: `the image is ${size.width} × ${size.height} pixels; at most ${MAX_IMAGE_PIXELS} pixels are accepted`,
    };
  }
  return { ok: true, type, size };
}

/** SHA-256 of the document as uploaded, lower-case hex: what is kept once the check is settled. */
export function documentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
