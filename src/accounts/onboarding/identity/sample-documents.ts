// Test-only: synthetic identity documents with an ICAO 9303 MRZ: passport data pages (TD3) as
// PNG, ID-1 card backs (TD1) as JPEG, and PDFs with and without a text layer. Uses the dev
// dependencies @napi-rs/canvas and pdf-lib; nothing at run time imports this file.

import { createCanvas } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** ICAO 9303 check digit: weights 7, 3, 1 over 0-9, A-Z = 10-35, `<` = 0; sum mod 10. */
export function checkDigit(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const value = char === '<' ? 0 : /\d/.test(char) ? Number(char) : char.charCodeAt(0) - 55;
    sum += value * [7, 3, 1][i % 3]!;
  }
  return String(sum % 10);
}

function fit(text: string, length: number): string {
  return text.slice(0, length).padEnd(length, '<');
}

export interface Holder {
  surnames: string[];
  givenNames: string[];
  documentNumber: string;
  issuingState: string;
  nationality: string;
  /** YYMMDD */
  birthDate: string;
  sex: 'M' | 'F' | '<' | 'X';
  /** YYMMDD */
  expiryDate: string;
  /** TD3 personal number, TD1 optional data of line 1. */
  optional?: string;
}

export const ANNA: Holder = {
  surnames: ['ERIKSSON'],
  givenNames: ['ANNA', 'MARIA'],
  documentNumber: 'L898902C3',
  issuingState: 'SWE',
  nationality: 'SWE',
  birthDate: '740812',
  sex: 'F',
  expiryDate: '320415',
};

export function nameField(holder: Holder, length: number): string {
  return fit(`${holder.surnames.join('<')}<<${holder.givenNames.join('<')}`, length);
}

/** Passport MRZ: 2 lines of 44. */
export function td3Lines(holder: Holder): [string, string] {
  const number = fit(holder.documentNumber, 9) + checkDigit(fit(holder.documentNumber, 9));
  const birth = holder.birthDate + checkDigit(holder.birthDate);
  const expiry = holder.expiryDate + checkDigit(holder.expiryDate);
  const personal = fit(holder.optional ?? '', 14);
  const personalDigit = holder.optional ? checkDigit(personal) : '<';
  const composite = checkDigit(number + birth + expiry + personal + personalDigit);
  return [
    `P<${fit(holder.issuingState, 3)}${nameField(holder, 39)}`,
    `${number}${fit(holder.nationality, 3)}${birth}${holder.sex}${expiry}${personal}${personalDigit}${composite}`,
  ];
}

/** ID-1 card MRZ: 3 lines of 30. */
export function td1Lines(holder: Holder): [string, string, string] {
  const number = fit(holder.documentNumber, 9) + checkDigit(fit(holder.documentNumber, 9));
  const optional1 = fit(holder.optional ?? '', 15);
  const birth = holder.birthDate + checkDigit(holder.birthDate);
  const expiry = holder.expiryDate + checkDigit(holder.expiryDate);
  const optional2 = fit('', 11);
  const composite = checkDigit(number + optional1 + birth + expiry + optional2);
  return [
    `I<${fit(holder.issuingState, 3)}${number}${optional1}`,
    `${birth}${holder.sex}${expiry}${fit(holder.nationality, 3)}${optional2}${composite}`,
    nameField(holder, 30),
  ];
}

/** The lines with the character at (line, column), 0-based, replaced. */
export function withCharacter(lines: readonly string[], line: number, column: number, char: string): string[] {
  return lines.map((text, i) => (i === line ? text.slice(0, column) + char + text.slice(column + 1) : text));
}

const MRZ_FONT = '"DejaVu Sans Mono", "Liberation Mono", monospace';
const TEXT_FONT = '"DejaVu Sans", "Liberation Sans", sans-serif';

/**
 * The MRZ as printed: near-black on the light page in a monospace font, lines 1.5 font sizes
 * apart. Size and letter spacing are the ones that read best with the English model among those
 * tried (22-44 px, spacing -2 to 5 px, bold, white background): wider spacing keeps OCR from
 * merging a character into a run of `<`.
 */
function drawMrz(g: SKRSContext2D, lines: readonly string[], left: number, bottom: number, fontPx: number): void {
  g.fillStyle = '#111111';
  g.font = `${fontPx}px ${MRZ_FONT}`;
  g.letterSpacing = '2px';
  const lineHeight = Math.round(fontPx * 1.5);
  lines.forEach((line, i) => g.fillText(line, left, bottom - (lines.length - 1 - i) * lineHeight));
  g.letterSpacing = '0px';
}

function drawPortrait(g: SKRSContext2D, x: number, y: number, width: number, height: number): void {
  g.fillStyle = '#c9ccd3';
  g.fillRect(x, y, width, height);
  g.fillStyle = '#8d939e';
  g.beginPath();
  g.arc(x + width / 2, y + height * 0.38, width * 0.22, 0, Math.PI * 2);
  g.fill();
  g.fillRect(x + width * 0.2, y + height * 0.66, width * 0.6, height * 0.34);
}

function display(holder: Holder): { surname: string; given: string } {
  const title = (parts: string[]) =>
    parts.map((part) => part.charAt(0) + part.slice(1).toLowerCase()).join(' ');
  return { surname: title(holder.surnames), given: title(holder.givenNames) };
}

/** A passport data page, 880 × 600, with the given MRZ lines (normally `td3Lines`). */
export async function passportPng(holder: Holder, mrz: readonly string[]): Promise<Uint8Array> {
  const canvas = createCanvas(880, 600);
  const g = canvas.getContext('2d');
  g.fillStyle = '#f3eedf';
  g.fillRect(0, 0, 880, 600);
  g.fillStyle = '#1f3563';
  g.font = `bold 24px ${TEXT_FONT}`;
  g.fillText('PASSPORT  PASS  PASSEPORT', 30, 44);
  drawPortrait(g, 30, 70, 190, 240);
  const { surname, given } = display(holder);
  const rows: [string, string][] = [
    ['Surname / Nom', surname],
    ['Given names / Prénoms', given],
    ['Nationality', holder.nationality],
    ['Date of birth', holder.birthDate],
    ['Date of expiry', holder.expiryDate],
  ];
  rows.forEach(([label, value], i) => {
    g.fillStyle = '#55607a';
    g.font = `13px ${TEXT_FONT}`;
    g.fillText(label, 250, 86 + i * 48);
    g.fillStyle = '#1b1b1b';
    g.font = `19px ${TEXT_FONT}`;
    g.fillText(value, 250, 108 + i * 48);
  });
  drawMrz(g, mrz, 28, 560, 24);
  return new Uint8Array(await canvas.encode('png'));
}

/** The back of an ID-1 card, 856 × 540 (85.6 × 54 mm), with the given MRZ lines (normally `td1Lines`). */
export async function idCardJpeg(holder: Holder, mrz: readonly string[]): Promise<Uint8Array> {
  const canvas = createCanvas(856, 540);
  const g = canvas.getContext('2d');
  g.fillStyle = '#e9f0ee';
  g.fillRect(0, 0, 856, 540);
  g.fillStyle = '#27504a';
  g.font = `bold 22px ${TEXT_FONT}`;
  g.fillText('IDENTITY CARD', 36, 48);
  g.fillStyle = '#333333';
  g.font = `17px ${TEXT_FONT}`;
  g.fillText(`Holder: ${display(holder).given} ${display(holder).surname}`, 36, 90);
  g.fillText('Address: 12 Harbour Street, Port Town', 36, 120);
  drawMrz(g, mrz, 36, 500, 27);
  return new Uint8Array(await canvas.encode('jpeg', 88));
}

/** A PDF whose last page's text layer holds a heading and the MRZ lines, in Courier. */
export async function pdfWithMrzText(mrz: readonly string[], pagesBefore = 0): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pagesBefore; i++) pdf.addPage([595, 842]);
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Courier);
  page.drawText('Scanned identity document', { x: 40, y: 790, size: 14, font });
  mrz.forEach((line, i) => page.drawText(line, { x: 30, y: 120 - i * 18, size: 11, font }));
  return pdf.save();
}

/** A one-page PDF with only a drawing on it: what an image-only scan looks like. */
export async function pdfWithoutText(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  page.drawRectangle({ x: 40, y: 500, width: 300, height: 200 });
  return pdf.save();
}

/** A landscape photo-like image with printed text but no MRZ. */
export async function imageWithoutMrz(): Promise<Uint8Array> {
  const canvas = createCanvas(640, 400);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, 640, 400);
  drawPortrait(g, 30, 40, 160, 200);
  g.fillStyle = '#222222';
  g.font = `22px ${TEXT_FONT}`;
  g.fillText('MEMBERSHIP CARD 2025', 220, 80);
  g.fillText('Harbour Sailing Club', 220, 130);
  g.fillText('No. 004512', 220, 300);
  return new Uint8Array(await canvas.encode('png'));
}
