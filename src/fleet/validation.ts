// What the fleet store refuses, field by field, so the API can name each field in a 400 and other
// callers get the same rules.

export interface FieldIssue {
  /** JSON pointer into the input, without the leading slash: `registration`, `thresholds/crosswind_kt_above`. */
  field: string;
  message: string;
}

export class FleetValidationError extends Error {
  readonly issues: readonly FieldIssue[];

  constructor(issues: readonly FieldIssue[]) {
    super(issues.map((issue) => `${issue.field} ${issue.message}`).join('; '));
    this.name = 'FleetValidationError';
    this.issues = issues;
  }
}

/** Collects issues; `check` throws them all at once. */
export class Issues {
  readonly #issues: FieldIssue[] = [];

  add(field: string, message: string): void {
    this.#issues.push({ field, message });
  }

  check(): void {
    if (this.#issues.length > 0) throw new FleetValidationError(this.#issues);
  }
}
