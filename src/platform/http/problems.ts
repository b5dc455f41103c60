// RFC 9457 problem documents. Every error the API answers has a stable `code` from this catalogue;
// `type` points at `/problems/{code}`, which describes it. Features declare their own codes with
// `problemType` next to the code that raises them.
import { Type, type Static } from 'typebox';

export interface ProblemType {
  code: string;
  status: number;
  title: string;
  description: string;
}

const catalogue = new Map<string, ProblemType>();

export function problemType(type: ProblemType): ProblemType {
  const existing = catalogue.get(type.code);
  if (existing && existing !== type) throw new Error(`problem code "${type.code}" declared twice`);
  catalogue.set(type.code, type);
  return type;
}

export function problemCatalogue(): ProblemType[] {
  return [...catalogue.values()].sort((a, b) => a.code.localeCompare(b.code));
}

export function findProblemType(code: string): ProblemType | undefined {
  return catalogue.get(code);
}

export const Problems = {
  validation: problemType({ code: 'validation_failed', status: 400, title: 'The request is not valid',
    description: 'A parameter, header or body field is missing or malformed; `errors[]` names each one with its path.' }),
  malformedJson: problemType({ code: 'malformed_json', status: 400, title: 'The body is not valid JSON',
    description: 'The request body could not be parsed as JSON.' }),
  badRequest: problemType({ code: 'bad_request', status: 400, title: 'The request cannot be read',
    description: 'The request is malformed at the HTTP level (for example an invalid Content-Length or URL).' }),
  notFound: problemType({ code: 'not_found', status: 404, title: 'No such resource',
    description: 'No route matches this path.' }),
  methodNotAllowed: problemType({ code: 'method_not_allowed', status: 405, title: 'Method not allowed',
    description: 'The path exists but not with this method; the `Allow` header lists the methods it takes.' }),
  payloadTooLarge: problemType({ code: 'payload_too_large', status: 413, title: 'The body is too large',
    description: 'Request bodies are limited to 1 MiB unless an endpoint documents otherwise.' }),
  unsupportedMediaType: problemType({ code: 'unsupported_media_type', status: 415, title: 'Unsupported content type',
    description: 'The API takes `application/json` bodies (endpoints that take other formats say so).' }),
  unavailable: problemType({ code: 'service_unavailable', status: 503, title: 'Service unavailable',
    description: 'The service is shutting down or a dependency it needs is down; retry after `Retry-After` seconds.' }),
  internal: problemType({ code: 'internal_error', status: 500, title: 'Internal error',
    description: 'Something failed inside LAMIS. The response carries a `request_id` to quote when reporting it.' }),
};

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'URI reference describing the problem type: `/problems/{code}`' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String({ description: 'The path of the request that failed' }),
    code: Type.String({ description: 'Stable machine-readable code; see `/problems/{code}`' }),
    request_id: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), {
        description: 'Each invalid field, for validation failures',
      }),
    ),
  },
  { $id: 'Problem', title: 'Problem', additionalProperties: true },
);
export type Problem = Static<typeof ProblemSchema>;
export interface FieldError {
  path: string;
  message: string;
}

/** Thrown (or returned) by handlers to answer with a problem document. */
export class ProblemError extends Error {
  readonly type: ProblemType;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  /** Extra members for the document, e.g. `retry_after`. */
  readonly extra: Record<string, unknown>;

  constructor(
    type: ProblemType,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(detail);
    this.type = type;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

export function problemDocument(error: ProblemError, requestId: string, instance: string): Problem {
  return {
    type: `/problems/${error.type.code}`,
    title: error.type.title,
    status: error.type.status,
    detail: error.detail,
    instance,
    code: error.type.code,
    request_id: requestId,
    ...(error.errors ? { errors: error.errors } : {}),
    ...error.extra,
  };
}
