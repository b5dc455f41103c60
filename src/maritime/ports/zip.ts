// Just enough of the ZIP format to read the UN/LOCODE release archive: the central directory, and
// entries stored or deflated, checked against their CRC-32. No ZIP64, no encryption: the archive
// UNECE publishes (a few MB, a handful of CSV files) needs neither.
import { crc32, inflateRawSync } from 'node:zlib';

export type ZipEntry = { readonly name: string; readonly data: Buffer };

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/** Whether the bytes start like a ZIP archive. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32LE(0) === LOCAL_HEADER;
}

/** Every file in the archive; an error message instead when it cannot be read. */
export function readZip(bytes: Uint8Array): { ok: true; entries: ZipEntry[] } | { ok: false; error: string } {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record sits in the last 22 bytes plus a comment of up to 64 KiB.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return { ok: false, error: 'not a ZIP archive (no end of central directory)' };
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  try {
    for (let i = 0; i < count; i++) {
      if (zip.readUInt32LE(at) !== DIRECTORY_ENTRY) return { ok: false, error: 'damaged ZIP central directory' };
      const flags = zip.readUInt16LE(at + 8);
      const method = zip.readUInt16LE(at + 10);
      const crc = zip.readUInt32LE(at + 16);
      const compressedSize = zip.readUInt32LE(at + 20);
      const nameLength = zip.readUInt16LE(at + 28);
      const extraLength = zip.readUInt16LE(at + 30);
      const commentLength = zip.readUInt16LE(at + 32);
      const localHeader = zip.readUInt32LE(at + 42);
      const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
      at += 46 + nameLength + extraLength + commentLength;
      if (name.endsWith('/')) continue;
      if (flags & 1) return { ok: false, error: `${name} is encrypted` };
      if (zip.readUInt32LE(localHeader) !== LOCAL_HEADER) return { ok: false, error: `damaged ZIP entry ${name}` };
      const start = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const stored = zip.subarray(start, start + compressedSize);
      if (stored.length !== compressedSize) return { ok: false, error: `ZIP entry ${name} is cut short` };
      let data: Buffer;
      if (method === STORED) data = stored;
      else if (method === DEFLATED) data = inflateRawSync(stored);
      else return { ok: false, error: `${name} uses compression method ${method}, which LAMIS cannot read` };
      if (crc32(data) !== crc) return { ok: false, error: `ZIP entry ${name} fails its CRC check` };
      entries.push({ name, data });
    }
  } catch (error) {
    // A truncated archive reads past the end, or its deflate stream is broken.
    return { ok: false, error: `damaged ZIP archive: ${(error as Error).message}` };
  }
  return { ok: true, entries };
}
