// The OpenAPI 3.1 document is generated from the route schemas and served at /v3/openapi.json;
// /docs serves Swagger UI from local assets, so it works with no internet, dressed as LAMIS.
import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from './auth.ts';
import { ProblemSchema } from './problems.ts';
import { addSharedSchemas } from './schema.ts';
import { DISCLAIMER } from '../disclaimer.ts';

// The top bar as the dashboard's header (its navy), with the product's name beside its logo.
const DOCS_CSS = `
.swagger-ui .topbar { background: #0f2a44; }
.swagger-ui .topbar .topbar-wrapper > a.link { display: flex; align-items: center; gap: 10px; text-decoration: none; }
.swagger-ui .topbar .topbar-wrapper > a.link::after { content: 'LAMIS API'; color: #fff; font: 700 20px/1 sans-serif; }
`;

const problemContent = { 'application/problem+json': { schema: { $ref: 'Problem#' } } };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Problem documents the route answers with, by status, and what each means: the document lists them. */
    problemResponses?: Record<number, string>;
  }
}

const problemResponse = (description: string) => ({ description, content: problemContent });

/**
 * `GET /v3/aviation/airports/:icao/metar` → `getAviationAirportsByIcaoMetar`: stable as long as
 * the route is, and unique because method and path are. A route may name its own instead.
 */
export function operationId(method: string | string[], url: string): string {
  const words = [[method].flat().join('_').toLowerCase()];
  for (const segment of url.split('/').filter((s) => s && s !== 'v3')) {
    const param = segment.startsWith(':');
    words.push(...(param ? ['by', segment.slice(1)] : [segment]));
  }
  return words.flatMap((word) => word.split(/[^A-Za-z0-9]+/)).filter(Boolean)
    .map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('');
}

export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  app.addSchema(ProblemSchema);
  // The shapes the features name: their routes refer to them, and the document lists each once.
  addSharedSchemas(app);
  // Every operation has an operationId (client generators name their methods from it) and
  // documents the problem documents it can answer with.
  app.addHook('onRoute', (route) => {
    if (route.schema?.hide) return;
    const response = (route.schema?.response ?? {}) as Record<string, unknown>;
    route.schema = {
      ...route.schema,
      operationId: route.schema?.operationId ?? operationId(route.method, route.url),
      response: {
        ...response,
        ...Object.fromEntries(Object.entries(route.config?.problemResponses ?? {}).map(([status, description]) => [status, problemResponse(description)])),
        '4XX': problemResponse('The request was refused: a problem document (RFC 9457)'),
        '5XX': problemResponse('LAMIS failed or is unavailable: a problem document (RFC 9457)'),
      },
    };
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'LAMIS API',
        version,
        description:
          'Landing and Maritime Intelligence Service. Data routes live under `/v3` and take ' +
          '`Authorization: Bearer <key>`. Errors are RFC 9457 problem documents with a stable `code`.\n\n' +
          DISCLAIMER,
        license: { name: 'Proprietary', identifier: 'LicenseRef-LAMIS-Proprietary' },
      },
      // Relative: the server that serves this document.
      servers: [{ url: '/', description: 'This LAMIS instance' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer <key>`' },
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'A dashboard session from `POST /v3/accounts/sessions`; changes also need its `X-CSRF-Token`' },
        },
      },
      tags: [{ name: 'Operations', description: 'Health, readiness, metrics and documentation' }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `schema${i}`) },
  });

  app.get('/v3/openapi.json', {
    config: { public: true },
    schema: { summary: 'This OpenAPI 3.1 document', tags: ['Operations'], response: { 200: { type: 'object', additionalProperties: true } } },
  }, async () => app.swagger());

  const logo = readFileSync(new URL('../../../web/src/app/favicon.svg', import.meta.url));
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Everything from this server; Swagger UI injects <style> elements as it draws, hence inline
    // styles (never scripts). No upgrade-insecure-requests: LAMIS is often reached over plain HTTP.
    staticCSP: {
      'default-src': "'self'",
      'base-uri': "'self'",
      'connect-src': "'self'",
      'font-src': ["'self'", 'data:'],
      'form-action': "'self'",
      'frame-ancestors': "'self'",
      'img-src': ["'self'", 'data:'],
      'object-src': "'none'",
      'script-src': "'self'",
      'script-src-attr': "'none'",
      'style-src': ["'self'", "'unsafe-inline'"],
    },
    uiConfig: { url: '/v3/openapi.json', deepLinking: true },
    theme: {
      title: 'LAMIS API reference',
      favicon: [{ filename: 'lamis.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: logo }],
      css: [{ filename: 'lamis.css', content: DOCS_CSS }],
    },
    logo: { type: 'image/svg+xml', content: logo, href: '/', target: '_self' },
  });
}
