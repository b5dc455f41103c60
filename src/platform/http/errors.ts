// Turns every failure (ours, fastify's, unknown routes, wrong methods) into a problem document.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, Problems, problemDocument, type FieldError } from './problems.ts';
import type { RouteInventory } from './routes.ts';

export function sendProblem(reply: FastifyReply, request: FastifyRequest, error: ProblemError): FastifyReply {
  const path = request.url.split('?')[0] ?? request.url;
  return reply
    .status(error.type.status)
    .headers(error.headers)
    .type('application/problem+json')
    .send(problemDocument(error, request.id, path));
}

/** Maps what fastify and its plugins throw onto the catalogue. */
function toProblem(error: FastifyError, request: FastifyRequest): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error.validation) {
    const errors: FieldError[] = error.validation.map((issue) => {
      const missing = (issue.params as { missingProperty?: string } | undefined)?.missingProperty;
      const location = `/${error.validationContext ?? 'body'}`;
      const field = `${issue.instancePath ?? ''}${missing ? `/${missing}` : ''}`;
      const message = missing ? 'is required' : (issue.message ?? 'is invalid');
      return { path: `${location}${field}`, message };
    });
    const detail = errors.map((e) => `${e.path} ${e.message}`).join('; ');
    return new ProblemError(Problems.validation, detail, { errors });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ProblemError(Problems.malformedJson, `The body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ProblemError(Problems.malformedJson, 'The body is empty but Content-Type says application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError(Problems.payloadTooLarge, 'The request body is over the limit of 1 MiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const type = request.headers['content-type'] ?? '(none)';
      const accepted = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes ?? ['application/json'];
      return new ProblemError(Problems.unsupportedMediaType, `Content-Type "${type}" is not accepted here; send ${accepted.join(' or ')}.`);
    }
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new ProblemError(Problems.malformedJson, `The body is not valid JSON: ${error.message}`);
  }
  const status = error.statusCode ?? 500;
  if (status === 503) return new ProblemError(Problems.unavailable, error.message);
  if (status >= 400 && status < 500) return new ProblemError(Problems.badRequest, error.message);
  return new ProblemError(Problems.internal, `An internal error occurred; quote request id ${request.id} when reporting it.`);
}

export function installErrorHandling(app: FastifyInstance, routes: RouteInventory): void {
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = routes.allowedMethods(path);
    // CORS answers OPTIONS on every path, so only the other methods say the path exists.
    if (allowed.some((method) => method !== 'OPTIONS')) {
      return sendProblem(reply, request, new ProblemError(Problems.methodNotAllowed,
        `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}.`, { headers: { Allow: allowed.join(', ') } }));
    }
    return sendProblem(reply, request, new ProblemError(Problems.notFound, `No route for ${request.method} ${path}.`));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblem(error, request);
    if (problem.type.status >= 500 && problem.type !== Problems.unavailable) {
      request.log.error({ err: error }, 'request failed');
    }
    return sendProblem(reply, request, problem);
  });
}
