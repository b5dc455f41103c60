// Real OCR on generated documents: one tesseract worker for the whole file.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { documentHash } from './document.ts';
import { OcrClosedError, OcrEngine, OcrTimeoutError } from './ocr.ts';
import { MAX_PDF_PAGES, readMrz } from './read.ts';
import {
  ANNA,
  idCardJpeg,
  imageWithoutMrz,
  passportPng,
  pdfWithMrzText,
  pdfWithoutText,
  td1Lines,
  td3Lines,
  withCharacter,
} from './sample-documents.ts';
import type { Holder } from './sample-documents.ts';
import { verifyDocument } from './verify.ts';
import type { DocumentVerification } from './verify.ts';

const NOW = new Date('2025-06-15T10:00:00Z');
const ocr = new OcrEngine();
after(() => ocr.close());

const ZOE: Holder = {
  surnames: ['MUELLER'],
  givenNames: ['ZOE'],
  documentNumber: 'T22000129',
  issuingState: 'D',
  nationality: 'D',
  birthDate: '830812',
  sex: 'F',
  expiryDate: '310630',
};

function verify(bytes: Uint8Array, accountName: string): Promise<DocumentVerification> {
  return verifyDocument(bytes, { accountName, now: NOW, ocr });
}

const codes = (result: DocumentVerification) =>
  result.reasons.map((reason) => (reason.field ? `${reason.code}:${reason.field}` : reason.code));

describe('images, read by OCR', () => {
  test('a passport data page (PNG, TD3) is read exactly and verified', async () => {
    const mrz = td3Lines({ ...ANNA, optional: 'ZE184226B' });
    const png = await passportPng(ANNA, mrz);
    const reading = await readMrz(png, 'png', { ocr });
    assert.deepEqual(reading, { ok: true, source: 'ocr', format: 'TD3', mrzText: mrz.join('\n'), corrections: [] });
    const result = await verify(png, 'Anna Maria Eriksson');
    assert.deepEqual([result.outcome, result.reasons, result.mrz_source, result.document_type], ['verified', [], 'ocr', 'png']);
    assert.equal(result.document_sha256, documentHash(png));
  });

  test('an ID card back (JPEG, TD1) is verified against a name with umlauts and diacritics', async () => {
    const mrz = td1Lines(ZOE);
    const jpeg = await idCardJpeg(ZOE, mrz);
    const reading = await readMrz(jpeg, 'jpeg', { ocr });
    assert.equal(reading.ok && reading.mrzText, mrz.join('\n'));
    const result = await verify(jpeg, 'Zoë Müller');
    assert.deepEqual([result.outcome, result.document?.issuing_state, result.document?.number_last4], ['verified', 'D', '0129']);
  });

  test('a wrong check digit read by OCR goes to manual review, naming it (OCR may have misread it)', async () => {
    const mrz = withCharacter(td3Lines(ANNA), 1, 19, '5');
    const result = await verify(await passportPng(ANNA, mrz), 'Anna Maria Eriksson');
    assert.equal(result.outcome, 'manual_review');
    assert.deepEqual(codes(result), ['check_digit_invalid:birth_date', 'check_digit_invalid:composite']);
  });

  test('an expired card is rejected', async () => {
    const expired = { ...ZOE, expiryDate: '250101' };
    const result = await verify(await idCardJpeg(expired, td1Lines(expired)), 'Zoe Mueller');
    assert.deepEqual([result.outcome, codes(result)], ['rejected', ['expired']]);
  });

  test("another person's passport is rejected", async () => {
    const result = await verify(await passportPng(ZOE, td3Lines(ZOE)), 'Anna Maria Eriksson');
    assert.deepEqual([result.outcome, codes(result), result.name_match], ['rejected', ['name_mismatch'], 'different']);
  });

  test('an image without an MRZ goes to manual review', async () => {
    const result = await verify(await imageWithoutMrz(), 'Anna Maria Eriksson');
    assert.deepEqual([result.outcome, codes(result), result.document], ['manual_review', ['mrz_not_found'], null]);
  });

  test('an image OCR cannot decode goes to manual review, and the engine keeps working', async () => {
    const png = await passportPng(ANNA, td3Lines(ANNA));
    const broken = png.slice(0, 200);
    const result = await verify(broken, 'Anna Maria Eriksson');
    assert.deepEqual([result.outcome, codes(result)], ['manual_review', ['ocr_failed']]);
    assert.equal((await verify(png, 'Anna Maria Eriksson')).outcome, 'verified');
  });
});

describe('PDFs, read from the text layer', () => {
  test('a wrong check digit in a text layer is rejected', async () => {
    const result = await verify(await pdfWithMrzText(withCharacter(td3Lines(ANNA), 1, 19, '5')), 'Anna Maria Eriksson');
    assert.equal(result.outcome, 'rejected');
    assert.deepEqual(codes(result), ['check_digit_invalid:birth_date', 'check_digit_invalid:composite']);
  });

  test('the MRZ in the text layer is verified without OCR', async () => {
    const pdf = await pdfWithMrzText(td3Lines(ANNA));
    const copy = pdf.slice();
    const result = await verify(pdf, 'Anna Maria Eriksson');
    assert.deepEqual([result.outcome, result.mrz_source, result.document_type], ['verified', 'text_layer', 'pdf']);
    assert.deepEqual(pdf, copy, 'the caller keeps its bytes');
  });

  test(`only the first ${MAX_PDF_PAGES} pages are searched`, async () => {
    const within = await verify(await pdfWithMrzText(td3Lines(ANNA), MAX_PDF_PAGES - 1), 'Anna Maria Eriksson');
    assert.equal(within.outcome, 'verified');
    const beyond = await verify(await pdfWithMrzText(td3Lines(ANNA), MAX_PDF_PAGES), 'Anna Maria Eriksson');
    assert.deepEqual(codes(beyond), ['no_text_layer']);
  });

  test('a PDF without text goes to manual review', async () => {
    const result = await verify(await pdfWithoutText(), 'Anna Maria Eriksson');
    assert.deepEqual([result.outcome, codes(result)], ['manual_review', ['no_text_layer']]);
  });

  test('a PDF with text but no MRZ, and a broken PDF, go to manual review', async () => {
    const noMrz = await verify(await pdfWithMrzText(['Just a letter, no zone']), 'Anna Maria Eriksson');
    assert.deepEqual(codes(noMrz), ['mrz_not_found']);
    const broken = await verify(new TextEncoder().encode('%PDF-1.7\nthis is not a PDF body'), 'Anna Maria Eriksson');
    assert.deepEqual([broken.outcome, codes(broken)], ['manual_review', ['unreadable_document']]);
  });
});

describe('uploads that are not documents', () => {
  test('garbage bytes are rejected before any reading, and still hashed', async () => {
    const garbage = new TextEncoder().encode('MZ\x90\x00 definitely not an identity document');
    const result = await verify(garbage, 'Anna Maria Eriksson');
    assert.deepEqual([result.outcome, codes(result), result.mrz_source], ['rejected', ['unsupported_document'], null]);
    assert.equal(result.document_sha256, documentHash(garbage));
  });
});

describe('OcrEngine', () => {
  test('a recognition that outlives its timeout fails with OcrTimeoutError; a closed engine refuses work', async () => {
    const hasty = new OcrEngine({ timeoutMs: 1 });
    const png = await passportPng(ANNA, td3Lines(ANNA));
    await assert.rejects(hasty.recognize(png), OcrTimeoutError);
    const reading = await readMrz(png, 'png', { ocr: hasty });
    assert.deepEqual(reading.ok ? 'read' : reading.reason, 'ocr_timeout');
    await hasty.close();
    await assert.rejects(hasty.recognize(png), OcrClosedError);
  });
});
