// Refused input, with the field to blame, so the API can name it in a 400 problem document.

export class TideInputError extends Error {
  /** The request field at fault, as the caller spells it: `draught_m`, `to`, `lat`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field} ${message}`);
    this.name = 'TideInputError';
    this.field = field;
  }
}
