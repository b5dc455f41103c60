// Public API of the identity check: reading an uploaded government ID's ICAO 9303 MRZ and deciding
// verified / rejected / manual_review. Storage, encryption, endpoints and the job runner use these.
export { detectDocumentType, documentHash, imageSize, inspectUpload, MAX_DOCUMENT_BYTES, MAX_IMAGE_PIXELS } from './document.ts';
export type { DocumentType, ImageSize, UploadCheck, UploadProblem } from './document.ts';
export { DEFAULT_OCR_TIMEOUT_MS, MRZ_ALPHABET, OcrClosedError, OcrEngine, OcrTimeoutError } from './ocr.ts';
export type { OcrEngineOptions, OcrRegion } from './ocr.ts';
export { MAX_PDF_PAGES, readMrz } from './read.ts';
export type { MrzReading, MrzSource, ReadFailure } from './read.ts';
export { checkIdentity, expiryDate, outcomeOf } from './check.ts';
export type { CheckIdentityInput, DocumentSummary, IdentityCheck, IdentityOutcome, Reason, ReasonCode } from './check.ts';
export { compareNames } from './name-match.ts';
export type { NameMatch, NameMatchLevel } from './name-match.ts';
export type { MrzFormat, OcrCorrection } from './mrz-text.ts';
export { verifyDocument } from './verify.ts';
export type { DocumentVerification, VerifyOptions } from './verify.ts';
