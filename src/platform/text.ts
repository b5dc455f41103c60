// Text folding for comparing and searching names typed by people against names from data sets.

/** Lower case without accents: "Zürich" → "zurich". */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower;
}

/** Letters and digits only, runs of anything else as one space: "st. john's" → "st john s". */
export function words(folded: string): string {
  return folded.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
