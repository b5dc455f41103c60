// Reading the MRZ off an uploaded document: a PDF's text layer through unpdf, an image through the
// shared OCR engine. Never throws: every failure is a reason for a human to look.

import { getDocumentProxy } from 'unpdf';
import { imageSize } from './document.ts';
import type { DocumentType } from './document.ts';
import { locateMrz } from './mrz-text.ts';
import type { MrzFormat, OcrCorrection } from './mrz-text.ts';
import { OcrTimeoutError } from './ocr.ts';
import type { OcrEngine } from './ocr.ts';

/** Pages of a PDF searched for the MRZ: an ID upload is one or two pages; the rest is ignored. */
export const MAX_PDF_PAGES = 5;

export type MrzSource = 'text_layer' | 'ocr';

export type ReadFailure = 'no_text_layer' | 'mrz_not_found' | 'unreadable_document' | 'ocr_failed' | 'ocr_timeout';

export type MrzReading =
  | {
      ok: true;
      source: MrzSource;
      format: MrzFormat;
      /** The MRZ lines, joined by `\n`, with `corrections` applied. */
      mrzText: string;
      corrections: OcrCorrection[];
    }
  | { ok: false; source: MrzSource; reason: ReadFailure; message: string };

function found(text: string, source: MrzSource): MrzReading | null {
  // Text layers of scanned PDFs are OCR output too, so both sources get the same corrections.
  const mrz = locateMrz(text, { correct: true });
  if (mrz === null) return null;
  return { ok: true, source, format: mrz.block.format, mrzText: mrz.block.lines.join('\n'), corrections: mrz.corrections };
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  // pdf.js may take over the buffer it is given, and the caller still needs its bytes (hash).
  // verbosity 0: pdf.js would print its repair warnings for malformed files to the console.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    const pages: string[] = [];
    for (let number = 1; number <= Math.min(pdf.numPages, MAX_PDF_PAGES); number++) {
      const content = await (await pdf.getPage(number)).getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(text);
    }
    return pages.join('\n');
  } finally {
    await pdf.loadingTask.destroy();
  }
}

async function readPdf(bytes: Uint8Array): Promise<MrzReading> {
  let text: string;
  try {
    text = await pdfText(bytes);
  } catch (error) {
    return { ok: false, source: 'text_layer', reason: 'unreadable_document', message: `the PDF cannot be read: ${String(error)}` };
  }
  if (text.trim() === '') {
    return {
      ok: false,
      source: 'text_layer',
      reason: 'no_text_layer',
      message: 'the PDF has no text layer (a scan without OCR); its MRZ has to be read by a person',
    };
  }
  return (
    found(text, 'text_layer') ?? {
      ok: false,
      source: 'text_layer',
      reason: 'mrz_not_found',
      message: 'the PDF text has no machine-readable zone',
    }
  );
}

async function readImage(bytes: Uint8Array, type: 'png' | 'jpeg', ocr: OcrEngine): Promise<MrzReading> {
  const size = imageSize(bytes, type);
  if (size === null) {
    return { ok: false, source: 'ocr', reason: 'unreadable_document', message: `the ${type.toUpperCase()} header cannot be read` };
  }
  try {
    // The zone sits at the bottom of a passport page or card: reading the lower half first skips
    // the photo and printed fields; the whole image is read only when that finds nothing.
    const top = Math.floor(size.height / 2);
    const bottom = found(await ocr.recognize(bytes, { left: 0, top, width: size.width, height: size.height - top }), 'ocr');
    if (bottom !== null) return bottom;
    const whole = found(await ocr.recognize(bytes), 'ocr');
    if (whole !== null) return whole;
  } catch (error) {
    if (error instanceof OcrTimeoutError) return { ok: false, source: 'ocr', reason: 'ocr_timeout', message: error.message };
    return { ok: false, source: 'ocr', reason: 'ocr_failed', message: `OCR failed: ${String(error)}` };
  }
  return { ok: false, source: 'ocr', reason: 'mrz_not_found', message: 'OCR found no machine-readable zone in the image' };
}

/**
 * The MRZ of a document whose type was detected from its bytes (see `inspectUpload`). PDFs are
 * read from their text layer only (no OCR of scanned pages); images are OCRed.
 */
export function readMrz(bytes: Uint8Array, type: DocumentType, options: { ocr: OcrEngine }): Promise<MrzReading> {
  return type === 'pdf' ? readPdf(bytes) : readImage(bytes, type, options.ocr);
}
