// The whole automated check of one uploaded document, as the background job runs it: what the
// upload is, its MRZ, the decision, and the hash that is kept once the check is settled.

import { checkIdentity, isRejecting, outcomeOf } from './check.ts';
import type { IdentityCheck, Reason } from './check.ts';
import { documentHash, inspectUpload } from './document.ts';
import type { DocumentType } from './document.ts';
import type { OcrCorrection } from './mrz-text.ts';
import type { OcrEngine } from './ocr.ts';
import { readMrz } from './read.ts';
import type { MrzSource } from './read.ts';

export interface DocumentVerification extends IdentityCheck {
  /** SHA-256 of the uploaded bytes, hex. */
  document_sha256: string;
  document_type: DocumentType | null;
  /** Where the MRZ text came from; null when the upload was refused before reading. */
  mrz_source: MrzSource | null;
  /** Characters changed in the MRZ as OCR confusions (see RULES.md). */
  ocr_corrections: OcrCorrection[];
}

export interface VerifyOptions {
  accountName: string;
  now: Date;
  ocr: OcrEngine;
}

/**
 * Checks one uploaded document against the account's name. Never throws. An upload that should
 * have been refused at the endpoint (empty, too large, not a PNG/JPEG/PDF) is rejected here too.
 */
export async function verifyDocument(bytes: Uint8Array, options: VerifyOptions): Promise<DocumentVerification> {
  const document_sha256 = documentHash(bytes);
  const upload = inspectUpload(bytes);
  if (!upload.ok) {
    const reasons: Reason[] = [{ code: 'unsupported_document', message: upload.message }];
    return {
      outcome: outcomeOf(reasons),
      reasons,
      document: null,
      name_match: null,
      document_sha256,
      document_type: null,
      mrz_source: null,
      ocr_corrections: [],
    };
  }
  const reading = await readMrz(bytes, upload.type, { ocr: options.ocr });
  const base = { document_sha256, document_type: upload.type, mrz_source: reading.source };
  if (!reading.ok) {
    const reasons: Reason[] = [{ code: reading.reason, message: reading.message }];
    return { outcome: outcomeOf(reasons), reasons, document: null, name_match: null, ...base, ocr_corrections: [] };
  }
  const check = checkIdentity({ mrzText: reading.mrzText, accountName: options.accountName, now: options.now });
  // OCR can misread a character into a failing check digit; only a text layer proves a bad one.
  const misreadPossible = reading.source === 'ocr' && check.reasons.filter(isRejecting).every((r) => r.code === 'check_digit_invalid');
  const outcome = check.outcome === 'rejected' && misreadPossible ? 'manual_review' : check.outcome;
  return { ...check, outcome, ...base, ocr_corrections: reading.corrections };
}
